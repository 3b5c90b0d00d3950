"use strict";
// The table page: renders what the server sends for this seat, and turns clicks and keys into actions.
const TABLE = decodeURIComponent(location.pathname.split("/").pop());
const TOKEN = new URLSearchParams(location.hash.slice(1)).get("seat");
let socket = null, setup = null, view = null, version = 0, you = null, chosenPile = null, swapFirst = null;
let shownResults = 0, retry = 500, presence = null, awaySeconds = 60, logEntries = [], loggedNames = "";

const $ = (id) => document.getElementById(id);

function send(frame) {
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(frame));
}

function act(action) {
  send({ type: "act", version, action });
}

function connect() {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  socket = new WebSocket(scheme + "//" + location.host + "/ws/" + encodeURIComponent(TABLE));
  socket.addEventListener("open", () => {
    retry = 500;
    $("status").textContent = "";
    // A page that has shown the table asks only for what it missed while the connection was down; a page just
    // opened (or reloaded) asks for the whole game, its log included.
    send({ type: "hello", token: TOKEN, version: view ? version : 0 });
  });
  socket.addEventListener("message", (event) => receive(JSON.parse(event.data)));
  socket.addEventListener("close", (event) => {
    if (event.code === 4403 || event.code === 4404) return;
    $("status").textContent = t("reconnecting");
    setTimeout(connect, retry);
    retry = Math.min(retry * 2, 8000);
  });
}

function receive(frame) {
  if (frame.type === "welcome") {
    setup = frame.setup;
    you = frame.you;
    awaySeconds = frame.away_seconds;
    $("title").textContent = setup.title;
    renderRules();
    if (you !== null && !frame.joined) askName();
  } else if (frame.type === "state") {
    if (frame.since === 0) { logEntries = []; $("log").replaceChildren(); shownResults = 0; }
    const catchingUp = frame.since === 0 || frame.since !== version;
    logEntries.push(...frame.log);
    version = frame.version;
    view = frame.view;
    render();
    renderLog(frame.log);
    if (!catchingUp) animate(frame.log);
    if (frame.problem) $("status").textContent = frame.problem;
  } else if (frame.type === "error") {
    $("status").textContent = frame.message;
    if (frame.code === "stale") send({ type: "sync", version });
  } else if (frame.type === "hint") {
    $("status").textContent = t("hint") + " — " + frame.choices.map(describeHint).join(" · ");
  } else if (frame.type === "presence") {
    presence = frame;
    renderPeople();
  } else if (frame.type === "new-game") {
    $("round-dialog").close();
  }
}

function renderRules() {
  $("rules").replaceChildren(...rulesParagraphs(setup).map((text) => { const p = document.createElement("p"); p.textContent = text; return p; }));
}

// The log, worded in the page's language with the current names: appended as entries arrive, rebuilt when the
// language or a name changes (a person who joins names their seat after the deal was told).
function renderLog(fresh) {
  const list = $("log");
  const key = LANG + "|" + JSON.stringify(view.names);
  const entries = key === loggedNames ? fresh : logEntries;
  if (key !== loggedNames) list.replaceChildren();
  loggedNames = key;
  for (const entry of entries) {
    const item = document.createElement("li");
    item.textContent = describeEntry(entry, view.names, setup.family, setup.slots);
    if (entry.kind === "round-ended") item.className = "round-end";
    list.append(item);
  }
  list.scrollTop = list.scrollHeight;
}

// Moves that just happened move on the table: the card that went into a rack or row, the discard pile, the stock.
// Frames come one move at a time at the pace of the players, so each animation can be followed.
function animate(entries) {
  const pulse = (element) => {
    if (!element) return;
    element.classList.remove("moved");
    void element.offsetWidth; // restart the animation on an element that just moved
    element.classList.add("moved");
  };
  const place = (seat, index) => pulse(seat === you ? $("rack").children[index] : document.querySelector(`.other[data-seat="${seat}"] .rack`)?.children[index]);
  for (const entry of entries) {
    if (entry.kind === "exchanged") { place(entry.seat, entry.slot); pulse($("discard")); }
    else if (entry.kind === "placed") place(entry.seat, entry.position);
    else if (entry.kind === "swapped") { place(entry.seat, entry.first); place(entry.seat, entry.second); }
    else if (entry.kind === "drew") pulse($("stock"));
    else if (entry.kind === "took") pulse($("discard"));
    else if (entry.kind === "discarded" || entry.kind === "turned-up" || entry.kind === "swap-discarded") pulse($("discard"));
  }
}

function askName() {
  const dialog = $("name-dialog");
  $("name-form").onsubmit = () => {
    const name = $("name-input").value.trim();
    if (name) send({ type: "name", name });
  };
  dialog.showModal();
}

function myTurn() {
  return view && you !== null && view.to_act === you && !view.over;
}

function legal(act, extra) {
  if (!view) return false;
  return view.legal.some((a) => a.act === act && (!extra || Object.entries(extra).every(([k, v]) => JSON.stringify(a[k]) === JSON.stringify(v))));
}

function render() {
  const highest = setup.family === "highlow" ? 50 : setup.deck_size;
  // The header: whose turn.
  const names = view.names;
  $("turn").textContent = view.over ? t("game_over", { name: view.winners }) : view.to_act === you ? t("your_turn") : view.to_act !== null ? t("to_play", { name: names[view.to_act] }) : "";
  // The other seats.
  const others = $("others");
  others.replaceChildren();
  for (let seat = 0; seat < names.length; seat++) {
    if (seat === you) continue;
    const box = document.createElement("div");
    box.className = "other" + (view.to_act === seat ? " acting" : "");
    box.dataset.seat = seat;
    const title = document.createElement("h2");
    const partner = setup.teams && you !== null && sideOf(seat) === sideOf(you);
    title.textContent = names[seat] + (view.bots[seat] && view.bots[seat] !== names[seat] ? " · " + view.bots[seat] : "") + (partner ? " · " + t("partner") : "");
    const row = document.createElement("div");
    row.className = "rack small";
    const cards = setup.family === "highlow" ? view.rows[seat] : view.known[seat];
    cards.forEach((card, index) => row.append(makeCard(card, highest, t(setup.family === "highlow" ? "position" : "slot", { label: setup.slots[index] }) + ": " + (card === null ? t("hidden") : t("card", { card })))));
    box.append(title, row);
    others.append(box);
  }
  // The piles.
  $("stock").querySelector(".count").textContent = view.stock;
  $("stock").querySelector(".what").textContent = t("stock_short");
  $("stock").setAttribute("aria-label", t("stock", { n: view.stock }));
  const top = view.discard.length ? view.discard[view.discard.length - 1] : null;
  const discard = $("discard");
  discard.replaceChildren(top === null ? document.createTextNode(t("empty")) : makeCard(top, highest));
  discard.setAttribute("aria-label", t("discard_pile") + ": " + (top === null ? t("empty") : t("card", { card: top })));
  const mine = myTurn();
  $("stock").disabled = !(mine && legal("draw"));
  discard.disabled = !(mine && legal("take"));
  $("stock").classList.toggle("chosen", chosenPile === "draw");
  discard.classList.toggle("chosen", chosenPile === "take");
  const held = view.held !== null ? view.held : view.passed !== undefined && view.to_act === you ? view.passed : null;
  $("held").replaceChildren();
  if (held !== null && held !== undefined && mine) $("held").append(makeCard(held, highest, t("card", { card: held })));
  // My rack.
  const rack = $("rack");
  rack.replaceChildren();
  const cards = view.rack;
  if (cards) {
    cards.forEach((card, index) => {
      const slot = document.createElement("button");
      slot.type = "button";
      slot.className = "slot" + (swapFirst === index ? " chosen" : "");
      slot.dataset.index = index;
      const label = document.createElement("span");
      label.className = "label";
      label.textContent = setup.slots[index];
      slot.append(label, makeCard(card, highest));
      const where = t(setup.family === "highlow" ? "position" : "slot", { label: setup.slots[index] });
      slot.setAttribute("aria-label", where + ": " + t("card", { card }));
      slot.disabled = !(mine && slotAction(index) !== null);
      slot.addEventListener("click", () => clickSlot(index));
      rack.append(slot);
    });
  }
  $("mine").hidden = you === null;
  for (const button of document.querySelectorAll("#actions [data-verb]")) {
    const verb = button.dataset.verb;
    button.hidden = !setup.verbs.includes(verb);
    button.disabled = !(mine && legal(verb));
  }
  $("btn-hint").disabled = !mine;
  // The prompt.
  const situation = view.situation;
  $("prompt").textContent = you === null ? t("watching") : mine && situation ? (swapFirst !== null ? t("swap_second", { n: swapFirst + 1 }) : t(situation.kind, { card: cardWords(situation.card) })) : "";
  // What the page shows, also as attributes: the version of the table it shows and what this seat is asked.
  document.body.dataset.version = version;
  $("prompt").dataset.situation = mine && situation ? situation.kind : view.over ? "over" : "waiting";
  // Scores.
  $("scores").replaceChildren(...view.sides.map((name, index) => { const p = document.createElement("p"); p.textContent = name + ": " + view.side_totals[index]; return p; }));
  $("sheet").replaceChildren(...(view.results.length ? [scoreSheet()] : []));
  // A round's end: every rack revealed and how each score was counted.
  if (view.results.length > shownResults) {
    const result = view.results[view.results.length - 1];
    shownResults = view.results.length;
    $("round-title").textContent = t("round_over", { n: result.number });
    $("round-report").replaceChildren(roundReport(result), ...(view.over ? [scoreSheet()] : []));
    $("game-over").hidden = !view.over;
    $("round-ok").textContent = t(view.over ? "close" : "continue");
    if (view.over) {
      $("winner").textContent = t("game_over", { name: view.winners });
      $("download").href = "/api/tables/" + encodeURIComponent(TABLE) + "/record";
      $("again").hidden = you === null;
    }
    if (!$("round-dialog").open) $("round-dialog").showModal();
  }
  renderPeople();
}

// The round's end: every rack revealed, a bar where its order broke, and how each score was counted.
function roundReport(result) {
  const highest = setup.family === "highlow" ? 50 : setup.deck_size;
  const list = document.createElement("div");
  list.className = "report";
  result.racks.forEach((rack, seat) => {
    const row = document.createElement("section");
    row.className = "report-seat" + (seat === result.winner ? " winner" : "");
    const title = document.createElement("h3");
    title.textContent = view.names[seat] + ": " + result.scores[seat] + " " + t("points");
    const cards = document.createElement("div");
    cards.className = "rack small";
    rack.forEach((card, index) => {
      const shown = makeCard(card, highest, t(setup.family === "highlow" ? "position" : "slot", { label: setup.slots[index] }) + ": " + t("card", { card }));
      if (index >= result.ordered[seat]) shown.classList.add("unordered");
      if (index === result.ordered[seat] && index > 0) cards.append(breakMark());
      cards.append(shown);
    });
    const how = document.createElement("p");
    how.textContent = explain(result, seat);
    row.append(title, cards, how);
    list.append(row);
  });
  return list;
}

function breakMark() {
  const mark = document.createElement("span");
  mark.className = "break";
  mark.textContent = "|";
  mark.setAttribute("aria-label", t("order_breaks"));
  return mark;
}

function explain(result, seat) {
  const points = result.scores[seat], count = result.ordered[seat];
  if (setup.family === "highlow") {
    const pairs = result.doubles[seat];
    const doubles = pairs ? t("exp:hl:doubles", { pairs }) : "";
    if (seat === result.winner) {
      const bonus = result.bonus ? t("exp:hl:bonus", { bonus: result.bonus, run: result.run }) : "";
      return t("exp:hl:won", { way: t(result.direction === 1 ? "low" : "high"), doubles, bonus, points });
    }
    return t("exp:hl:count", { count, doubles, points });
  }
  if (seat === result.winner) return result.bonus ? t("exp:bonus", { bonus: result.bonus, run: result.run, points }) : t("exp:won");
  if (count === setup.slots.length) return t("exp:all", { count, points });
  return t("exp:upto", { upto: setup.slots[count - 1], broken: setup.slots[count], count, points });
}

// The score sheet: a row per side (a partnership counts as one), a column per round, and the totals.
function scoreSheet() {
  const table = document.createElement("table");
  table.className = "sheet";
  const caption = document.createElement("caption");
  caption.textContent = t("sheet");
  const head = document.createElement("tr");
  for (const text of ["", ...view.results.map((r) => t("round") + " " + r.number), t("total")]) {
    const cell = document.createElement("th");
    cell.textContent = text;
    head.append(cell);
  }
  table.append(caption, head);
  view.sides.forEach((side, index) => {
    const row = document.createElement("tr");
    const name = document.createElement("th");
    name.scope = "row";
    name.textContent = side;
    row.append(name);
    for (const result of view.results) {
      const cell = document.createElement("td");
      cell.textContent = result.scores.reduce((sum, score, seat) => sum + (sideOf(seat) === index ? score : 0), 0);
      row.append(cell);
    }
    const total = document.createElement("td");
    total.textContent = view.side_totals[index];
    row.append(total);
    table.append(row);
  });
  return table;
}

function sideOf(seat) {
  if (!setup.teams) return seat;
  return setup.teams.findIndex((team) => team.includes(seat));
}

function slotAction(index) {
  if (!view || !view.legal.length) return null;
  if (setup.family === "highlow") {
    if (legal("replace", { position: index + 1 })) return { act: "replace", position: index + 1 };
    if (legal("swap")) return { act: "swap" };
    return null;
  }
  if (legal("exchange")) return { act: "exchange", slot: Number(setup.slots[index]) };
  if (legal("draw") || legal("take")) return { act: "pick" };
  return null;
}

function clickSlot(index) {
  const action = slotAction(index);
  if (!action) return;
  if (action.act === "swap") {
    if (swapFirst === null || swapFirst === index) { swapFirst = index; render(); return; }
    const first = swapFirst;
    swapFirst = null;
    act({ act: "swap", positions: [Math.min(first, index) + 1, Math.max(first, index) + 1] });
    return;
  }
  if (action.act === "pick") return; // a pile comes first: draw (d) or take the discard (t)
  act(action);
}

function renderPeople() {
  if (!presence || !view) return;
  const list = $("people");
  list.replaceChildren();
  const banner = [];
  for (const seat of presence.seats) {
    const item = document.createElement("li");
    const name = view.names[seat.seat] + (seat.seat === you ? " (" + t("you") + ")" : "");
    const state = seat.bot ? t("bot", { bot: seat.bot }) : !seat.joined ? t("joined_not") : seat.connected ? t("connected") : t("away", { s: seat.away_for });
    item.textContent = name + ": " + state;
    list.append(item);
    // A person who is away holds up the table: the others see for how long, and when they may hand the seat over.
    if (seat.bot || seat.connected || seat.away_for === null || seat.seat === you || view.over) continue;
    const line = document.createElement("p");
    const left = Math.max(0, Math.ceil(awaySeconds - seat.away_for));
    const key = (seat.joined ? "away" : "not_come") + (left > 0 ? "_wait" : "_now");
    line.textContent = t(key, { name: view.names[seat.seat], s: seat.away_for, left });
    if (left === 0 && you !== null) {
      const button = document.createElement("button");
      button.type = "button";
      button.className = "hand-over";
      button.textContent = t("hand_over");
      button.addEventListener("click", () => send({ type: "hand-over", seat: seat.seat, bot: defaultBot() }));
      line.append(" ", button);
    }
    banner.push(line);
  }
  $("away").replaceChildren(...banner);
  $("away").hidden = banner.length === 0;
}

function defaultBot() {
  return setup.default_bot;
}

function verb(verbName) {
  if (!myTurn()) return;
  if (verbName === "draw" || verbName === "take" || verbName === "discard" || verbName === "racko" || verbName === "wait" || verbName === "keep") {
    if (legal(verbName)) act({ act: verbName });
  }
}

function main() {
  watchLanguage(() => { if (setup) renderRules(); if (view) { render(); renderLog([]); } });
  $("stock").addEventListener("click", () => verb("draw"));
  $("discard").addEventListener("click", () => verb("take"));
  for (const button of document.querySelectorAll("#actions [data-verb]")) button.addEventListener("click", () => verb(button.dataset.verb));
  $("btn-hint").addEventListener("click", () => send({ type: "hint" }));
  $("again").addEventListener("click", () => send({ type: "again" }));
  document.addEventListener("keydown", (event) => {
    if (event.target instanceof HTMLInputElement || event.ctrlKey || event.metaKey || event.altKey) return;
    if ($("round-dialog").open || $("name-dialog").open) return;
    const keys = { d: "draw", t: "take", x: "discard", r: "racko", w: "wait", k: "keep" };
    if (keys[event.key]) { verb(keys[event.key]); event.preventDefault(); }
    else if (event.key === "?") { send({ type: "hint" }); event.preventDefault(); }
    else if (/^[0-9]$/.test(event.key)) { clickSlot(event.key === "0" ? 9 : Number(event.key) - 1); event.preventDefault(); }
  });
  setInterval(() => send({ type: "presence" }), 2000);
  connect();
}

main();
