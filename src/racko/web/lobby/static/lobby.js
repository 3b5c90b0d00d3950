"use strict";
// The lobby: who you are, quick play, your tables, the tables waiting for people, the games to watch and who is
// online, kept live over one socket.
let OPTIONS = null, me = null, socket = null, retry = 500, lobby = null, queues = [], fillSeconds = 20;
const $ = (id) => document.getElementById(id);

let pending = [];
let quickAfterName = null; // Quick play pressed before a name was picked: asked for as soon as the name is kept

// The server forgets the wishes of a person whose lobby closed: a new socket asks for them again.
function wishOf(queue) {
  return { variant: queue.variant, players: queue.players || "any", rated: queue.rated, two_player_rule: queue.two_player_rule, clock: queue.clock, finishers: queue.finishers, bots_welcome: queue.bots_welcome };
}

function connect() {
  const opened = new WebSocket((location.protocol === "https:" ? "wss:" : "ws:") + "//" + location.host + "/ws/lobby");
  socket = opened;
  opened.addEventListener("open", () => {
    retry = 500;
    const frames = queues.map((queue) => ({ type: "quick", ...wishOf(queue) })).concat(pending);
    pending = [];
    for (const frame of frames) opened.send(JSON.stringify(frame));
  });
  opened.addEventListener("message", (event) => { if (opened === socket) receive(JSON.parse(event.data)); });
  opened.addEventListener("close", () => {
    if (opened !== socket) return; // replaced on purpose (a new name): the new one is there already
    setTimeout(connect, retry);
    retry = Math.min(retry * 2, 8000);
  });
}

// Once the person has a name, the lobby's socket must say who they are: a new one at once.
function reconnect() {
  const old = socket;
  connect();
  if (old) old.close();
}

function send(frame) {
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(frame));
  else pending.push(frame);
}

function receive(frame) {
  if (frame.type === "lobby") { lobby = frame; applyChange(null); renderLobby(); }
  else if (frame.type === "lobby-change" && lobby) { applyChange(frame); renderLobby(); }
  else if (frame.type === "queued") { queues = frame.queues; fillSeconds = frame.fill_seconds; renderQueues(); if (lobby) renderLobby(); }
  else if (frame.type === "seated") { $("problem").textContent = t("seated"); location.assign("/t/" + encodeURIComponent(frame.table)); }
  else if (frame.type === "invited") { $("problem").replaceChildren(...tNodes("invited", { name: bdi(frame.by) })); renderMine(); }
  else if (frame.type === "error") $("problem").textContent = refusal(frame);
}

// A refusal said in the page's language when the page has words for it (with the server's numbers), else as sent.
function refusal(frame) {
  const key = "refused:" + frame.code;
  const said = t(key, frame);
  return said === key ? frame.message : said;
}

// The server sends the whole lobby once, then what changed: per list the lines new or changed, and those gone.
const LINE_KEYS = { open: "table", playing: "table", online: "id" };
function applyChange(change) {
  for (const [name, key] of Object.entries(LINE_KEYS)) {
    if (change) {
      const gone = new Set(change[name].drop);
      const put = new Map(change[name].put.map((line) => [line[key], line]));
      const kept = lobby[name].filter((line) => !gone.has(line[key]) && !put.has(line[key]));
      lobby[name] = kept.concat([...put.values()]);
    }
    if (name === "online") lobby[name].sort((a, b) => String(a.name).localeCompare(String(b.name)));
    else lobby[name].sort((a, b) => b.since - a.since);
  }
  if (change) { lobby.online_count = change.online_count; lobby.queues = change.queues; }
}

// A returning player (one with a name) sees the way to play first, and who they are after it; a new player is asked
// for a name first (quick play asks for one too), so the panels swap places once the page knows who is here.
function renderWho() {
  const lobbyPanels = $("lobby");
  if (me && lobbyPanels.firstElementChild !== $("quick")) lobbyPanels.prepend($("quick"));
  if (!me && lobbyPanels.firstElementChild !== $("who")) lobbyPanels.prepend($("who"));
  $("name-form").hidden = !!me;
  $("who-title").textContent = me ? t("your_page") : t("pick_name");
  const you = $("you");
  you.hidden = !me;
  if (me) {
    you.replaceChildren(...tNodes("you_are", { name: bdi(me.name) }), " ");
    const page = element("a", "", t("your_page"));
    page.href = "/p/" + encodeURIComponent(me.id);
    const settings = element("a", "", t("settings"));
    settings.href = "/me";
    you.append(page, " · ", settings);
  }
}

function renderQueues() {
  const list = $("queues");
  list.replaceChildren();
  for (const queue of queues) {
    const item = element("li", "line");
    const speed = t("speed:" + queue.clock);
    item.append(element("span", "", t("waiting_for", { game: gameName(queue.variant, queue.players), speed, n: queue.waiting, s: Math.round(queue.waited) })));
    if (queue.bots_welcome) item.append(" ", element("span", "tag", t("bots_welcome_tag")));
    const cancel = element("button", "", t("cancel"));
    cancel.type = "button";
    const wish = wishOf(queue);
    cancel.addEventListener("click", () => send({ type: "cancel", ...wish }));
    item.append(" ", cancel);
    if (queue.can_fill) {
      const box = element("span", "fill");
      const label = element("label");
      const levels = element("select");
      levels.setAttribute("aria-label", t("fill_help"));
      const variant = OPTIONS.variants.find((v) => v.name === queue.variant);
      for (const bot of variant.bots) levels.append(new Option(t("computer_named", { bot }), bot));
      levels.value = variant.default_bot;
      label.append(element("span", "", t("fill_help")), " ", levels);
      const fill = element("button", "primary", t("fill"));
      fill.type = "button";
      fill.addEventListener("click", () => send({ type: "fill", ...wish, bot: levels.value }));
      box.append(label, " ", fill);
      item.append(box);
    }
    list.append(item);
  }
}

function seatNames(seats) {
  const names = element("span", "who");
  seats.forEach((seat, index) => {
    if (index) names.append(", ");
    names.append(seat.name ? bdi(seat.name) : t("seat_n", { n: index + 1 }));
    if (seat.bot) names.append(" (" + t("computer_level") + ")");
  });
  return names;
}

function renderLobby() {
  const open = $("open-list"), playing = $("playing-list"), online = $("online-list");
  open.replaceChildren(...(lobby.open.length ? lobby.open.map((line) => {
    const item = element("li", "line");
    item.append(element("strong", "", gameName(line.variant, line.players)), " ", element("span", "tag", t(line.rated ? "rated" : "casual")), " ",
      seatNames(line.seats), " ", element("span", "tag", t("seats_free", { n: line.open_seats })), " ");
    const take = element("button", "primary", t("take_seat"));
    take.type = "button";
    take.addEventListener("click", () => takeSeat(line.table));
    item.append(take);
    return item;
  }) : [element("li", "empty", t("open_none"))]));
  playing.replaceChildren(...(lobby.playing.length ? lobby.playing.map((line) => {
    const item = element("li", "line");
    const watch = element("a", "button", t("watch"));
    watch.href = "/t/" + encodeURIComponent(line.table);
    item.append(element("strong", "", gameName(line.variant, line.players)), " ", element("span", "tag", t(line.rated ? "rated" : "casual")), " ",
      seatNames(line.seats), " ", watch);
    return item;
  }) : [element("li", "empty", t("playing_none"))]));
  const mine = new Set(queues.map((queue) => JSON.stringify(wishOf(queue))));
  const waitingNow = $("others-list");
  const wanted = (lobby.queues || []).filter((queue) => !mine.has(JSON.stringify(wishOf(queue))) || queue.waiting > 1);
  waitingNow.replaceChildren(...(wanted.length ? wanted.map((queue) => {
    const item = element("li", "line");
    item.append(element("strong", "", gameName(queue.variant, queue.players)), " ", element("span", "tag", t(queue.rated ? "rated" : "casual")),
      " ", element("span", "tag", t("speed:" + queue.clock)), queue.finishers ? " " : "", queue.finishers ? element("span", "tag", t("finishers_tag")) : "",
      queue.bots_welcome ? " " : "", queue.bots_welcome ? element("span", "tag", t("bots_welcome_tag")) : "",
      queue.players === 2 || (queue.players === null && queue.variant !== "partners") ? " " + (queue.two_player_rule ? t("run_rule_on") : t("run_rule_off")) : "",
      " ", element("span", "tag", t("n_waiting", { n: queue.waiting })), " ");
    if (!mine.has(JSON.stringify(wishOf(queue)))) {
      const join = element("button", "primary", t("join_them"));
      join.type = "button";
      join.addEventListener("click", () => {
        if (!me) { $("problem").textContent = t("need_name"); $("name").focus(); return; }
        send({ type: "quick", ...wishOf(queue) });
      });
      item.append(join);
    }
    return item;
  }) : [element("li", "empty", t("others_none"))]));
  const others = lobby.online.filter((person) => !me || person.id !== me.id);
  // The heading counts whom the list shows: everyone online but you, bots included.
  $("online-title").textContent = t("online", { n: lobby.online_count - (lobby.online.length - others.length) });
  // Two people of one name are told apart by the start of their ids (their pages say the rest).
  const named = new Map();
  for (const person of lobby.online) if (person.name) named.set(person.name.toLocaleLowerCase(), (named.get(person.name.toLocaleLowerCase()) || 0) + 1);
  online.replaceChildren(...(others.length ? others.map((person) => {
    const item = element("li");
    const link = element("a");
    link.href = "/p/" + encodeURIComponent(person.id);
    link.append(person.name ? bdi(person.name) : t("a_player"));
    if (person.name && named.get(person.name.toLocaleLowerCase()) > 1) link.append(" ", element("span", "id-tag", "#" + person.id.slice(0, 4)));
    if (person.bot) link.append(" (bot)");
    item.append(link);
    if (person.bot && person.name) { // a bot account listening: a person may challenge it (the bots room's page)
      const challenge = element("a", "button", t("challenge_link"));
      challenge.href = "/challenge/" + encodeURIComponent(person.name);
      item.append(" ", challenge);
    }
    return item;
  }) : [element("li", "empty", t("online_none"))]));
}

async function renderMine() {
  const list = $("mine-list");
  const data = me ? await api("/api/me/tables") : { seats: [] };
  list.replaceChildren(...(data.seats.length ? data.seats.slice(0, 10).map((seat) => {
    const item = element("li", "line");
    const go = element("a", "button", t("go"));
    go.href = "/t/" + encodeURIComponent(seat.table);
    const who = element("span", "who");
    seat.names.forEach((name, index) => {
      if (index === seat.seat) return;
      if (who.childNodes.length) who.append(", ");
      who.append(bdi(name));
    });
    item.append(element("strong", "", variantTitle(seat.variant, seat.variant)), " ", t("with_them"), " ", who, " ",
      element("span", "tag", t("seat_n", { n: seat.seat + 1 })), " ");
    // The server lists the tables where it is this person's move first, the most pressing first, with the time left.
    if (seat.your_move) item.append(element("span", "tag your-move", seat.left === null ? t("your_move") : t("your_move_left", { time: timeWords(seat.left) })), " ");
    item.append(go);
    return item;
  }) : [element("li", "empty", t("yours_none"))]));
}

async function takeSeat(table) {
  if (!me) { $("problem").textContent = t("need_name"); $("name").focus(); return; }
  try {
    await api("/api/tables/" + encodeURIComponent(table) + "/join", { method: "POST", body: "{}" });
    location.assign("/t/" + encodeURIComponent(table));
  } catch (error) { $("problem").textContent = t("err_generic", { message: error.message }); }
}

// Quick play always has a clock: the real-time speeds with their numbers and the turn-based ones (days per move, for
// strangers who play over days), each in a group; the server's default chosen at first.
function quickClocks() {
  const select = $("quick-clock");
  const kept = select.value || OPTIONS.default_clock;
  const real = document.createElement("optgroup");
  real.label = t("speed_real_time");
  real.append(...OPTIONS.clocks.map((preset) => new Option(t("clock:" + preset.name, { move: preset.move, bank: preset.bank }), preset.name)));
  const days = document.createElement("optgroup");
  days.label = t("speed_turn_based");
  days.append(...(OPTIONS.turn_clocks || []).map((preset) => new Option(t("speed:" + preset.name), preset.name)));
  select.replaceChildren(real, days);
  select.value = kept;
}

function quickPlayers() {
  const variant = OPTIONS.variants.find((v) => v.name === $("quick-variant").value);
  const select = $("quick-players");
  const kept = select.value;
  select.replaceChildren(new Option(t("players_any"), "any"), ...variant.players.map((n) => new Option(String(n), String(n))));
  select.value = [...select.options].some((o) => o.value === kept) ? kept : String(variant.players[0]);
  $("run-rule-row").hidden = !variant.players.includes(2);
}

async function main() {
  // Why a name was refused is said under the name's form (and read out), in the page's language.
  const nameProblem = element("p", "problem");
  nameProblem.id = "name-problem";
  nameProblem.setAttribute("role", "alert");
  $("name-form").after(nameProblem);
  $("name").setAttribute("aria-describedby", nameProblem.id);
  // The forms answer from the first moment: a person may type before the options have arrived.
  $("name-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const typed = $("name").value;
    try {
      me = await api("/api/me", { method: "POST", body: JSON.stringify({ name: typed }) });
      nameProblem.textContent = "";
      if (quickAfterName) $("problem").textContent = "";
      renderWho(); renderMine(); whoAmI();
      reconnect();
      if (quickAfterName) { send(quickAfterName); quickAfterName = null; } // sent as the new socket opens
    } catch (error) { nameProblem.replaceChildren(...nameRefusal(error, typed)); $("name").focus(); }
  });
  $("quick-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const players = $("quick-players").value;
    const wish = {
      type: "quick", variant: $("quick-variant").value, players: players === "any" ? "any" : Number(players),
      rated: $("quick-rated").checked, two_player_rule: $("quick-run-rule").checked, finishers: $("quick-finishers").checked,
      bots_welcome: $("quick-bots").checked,
      clock: $("quick-clock").value || undefined, // the server's default speed until the options have come
    };
    if (!me) { quickAfterName = wish; $("problem").textContent = t("need_name"); $("name").focus(); return; }
    $("problem").textContent = "";
    send(wish);
  });
  const knowing = whoAmI(); // asked at once, beside the options: who is here decides which panel comes first
  OPTIONS = await api("/api/options");
  $("quick-variant").replaceChildren(...OPTIONS.variants.map((v) => new Option(variantTitle(v.name, v.title), v.name)));
  $("quick-variant").addEventListener("change", quickPlayers);
  $("quick-players").addEventListener("change", () => { $("run-rule-row").hidden = !["2", "any"].includes($("quick-players").value) || !OPTIONS.variants.find((v) => v.name === $("quick-variant").value).players.includes(2); });
  quickPlayers();
  quickClocks();
  const known = await knowing;
  me = me || known; // a name picked meanwhile stays
  watchLanguage(() => {
    for (const option of $("quick-variant").options) option.textContent = variantTitle(option.value, option.textContent);
    quickPlayers(); quickClocks(); renderWho(); renderQueues(); if (lobby) renderLobby(); renderMine();
  });
  renderWho();
  renderMine();
  setInterval(() => { if (me && !document.hidden) renderMine().catch(() => {}); }, 60000); // whose move, time left
  connect();
}

main();
