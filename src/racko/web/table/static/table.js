"use strict";
// The table page: renders what the server sends for this seat, shows each move travelling across the table, and
// turns clicks and keys into actions.
const TABLE = decodeURIComponent(location.pathname.split("/").pop());
const TOKEN = new URLSearchParams(location.hash.slice(1)).get("seat");
const STILL = window.matchMedia("(prefers-reduced-motion: reduce)");
const WIDE = window.matchMedia("(min-width: 900px)");
const TOUCH = window.matchMedia("(pointer: coarse)"); // a finger, not a mouse: no keys to tell of, and one taps
const FLIGHT_MS = 320;
const DEAL_STAGGER_MS = 14;
const BUBBLE_MS = 4000;
const REACTIONS = ["gg", "wp", "oops", "your-turn", "thinking"];
let socket = null, setup = null, view = null, version = 0, you = null, game = 1, swapFirst = null;
let rated = false; // a rated game gives no hints: its button is hidden
let retry = 500, presence = null, awaySeconds = 60, logEntries = [], loggedNames = "";
let pending = false; // an action was sent and neither a state nor an error has answered it: a second click sends nothing
let statusAt = null; // the version a refusal was shown at: it goes once the table moves on
let hint = null, hintAt = null; // the last hint's choices, and the version it was asked at (it goes once the table moves on)
let stopped = false; // the link is no seat here, or the seat was opened in another window: nothing is sent any more
let node = ""; // the server process that plays this table, when another one said so (several processes, one database)
let turnKey = null, turnStart = 0; // whose turn (seat and round), and since when (performance.now())
let wasMyTurn = false, shownResults = null, drawnOnce = false, flightRun = 0;
const bubbles = new Map(); // seat -> [reaction, until]
// The table's real-time clock as the server's last frame said it (null: the table has none), and when that frame
// came (performance.now()): only the running seat's time counts down here, until the next frame sets it right.
let clock = null, clockAt = 0;
let hurried = null; // the turn (seat and round) a clock-warning was shown for
let acted = false; // this page sent an action since the last state frame
let myState = null; // this seat's state (racko.web.table.seats): every text and menu of the page follows it
let pauseEnds = null; // when the round's report's pause ends (performance.now()): nobody acts until then
// The states in which a seat's person plays its turns (a computer plays the others').
const PERSON_PLAYS = new Set(["invited", "present", "away", "timed-out", "back"]);
// The states of a seat whose person left the game: placed last at its end (racko.web.table.seats.LEFT_THE_GAME).
const LEFT_THE_GAME = new Set(["gone", "resigned", "left", "handed-over"]);
const WARN_SECONDS = 10; // the server warns this long before a turn runs out (racko.web.clock.WARN_SECONDS)

const $ = (id) => document.getElementById(id);

function send(frame) {
  if (!stopped && socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(frame));
}

// One action at a time: a double click (or a key held down) sends the first only, until the server answers.
function act(action) {
  if (pending) return;
  pending = true;
  acted = true;
  send({ type: "act", version, action });
}

function connect() {
  // The first connection is the one early.js opened (and said hello on) while the page loaded.
  const early = typeof EARLY !== "undefined" && EARLY && !EARLY.taken ? EARLY : null;
  window.rackoConnected = true;
  let here;
  if (early) {
    early.taken = true;
    here = early.socket;
    here.onmessage = here.onclose = null; // its onopen still says hello, if it has not opened yet
  } else {
    const where = node ? "?node=" + encodeURIComponent(node) : "";
    here = new WebSocket((location.protocol === "https:" ? "wss:" : "ws:") + "//" + location.host + "/ws/" + encodeURIComponent(TABLE) + where);
    // A page that has shown the table asks only for what it missed while the connection was down; a page just
    // opened (or reloaded) asks for the whole game, its log included.
    here.addEventListener("open", () => send({ type: "hello", token: TOKEN, version: view ? version : 0 }));
  }
  socket = here;
  here.addEventListener("open", () => { retry = 500; setStatus(""); });
  here.addEventListener("message", (event) => { if (socket === here) receive(JSON.parse(event.data)); });
  here.addEventListener("close", (event) => closed(here, event));
  if (early) {
    for (const data of early.frames.splice(0)) if (socket === here) receive(JSON.parse(data));
    if (early.closed) closed(here, early.closed);
  }
}

function closed(here, event) {
  if (socket !== here) return;
  pending = false;
  if (stopped || event.code === 4403 || event.code === 4404 || event.code === 4409 || event.code === 4410) return;
  // Another server process plays the table now (4012), or plays it and said which (4421): go there at once.
  if (event.code === 4012 || event.code === 4421) retry = 100;
  setStatus(t("reconnecting"), false);
  setTimeout(connect, retry);
  retry = Math.min(retry * 2, 8000);
}

function receive(frame) {
  if (frame.type === "welcome") {
    setup = frame.setup;
    you = frame.you;
    game = frame.game;
    awaySeconds = frame.away_seconds;
    shownResults = null;
    document.body.classList.toggle("spectating", you === null);
    renderStatic();
    if (you !== null && !frame.joined) askName();
    // One whose seat a computer took (they resigned, left, or were handed over while away) watches, and is told why.
    if (frame.former) setStatus(t("former:" + frame.former.state), false);
  } else if (frame.type === "state") {
    receiveState(frame);
  } else if (frame.type === "error") {
    pending = false;
    if (frame.code === "bad-token" || frame.code === "no-table" || frame.code === "damaged") stop(frame.code);
    else if (frame.code === "elsewhere") node = String(frame.node);
    else if (frame.code === "name-taken" || frame.code === "name-reserved" || frame.code === "name-unfit") {
      $("name-problem").textContent = t("err:" + frame.code);
      askName();
    } else if (frame.code === "out-of-time") {
      // Too late: the clock's computer player plays the turn (the state that follows says so).
      setStatus(t("err:out-of-time"), true);
      acted = false;
    } else setStatus(WORDS.en["err:" + frame.code] ? t("err:" + frame.code) : frame.message, true);
    if (frame.code === "stale") send({ type: "sync", version });
  } else if (frame.type === "hint") {
    hint = frame.choices;
    hintAt = version;
    $("hint-more").open = false; // each hint comes folded
    showHint();
  } else if (frame.type === "presence") {
    presence = frame;
    if (view && frame.to_act === view.to_act && typeof frame.turn_for === "number") turnStart = performance.now() - frame.turn_for * 1000;
    rated = frame.rated;
    $("btn-hint").hidden = rated;
    takeClock(frame.clock);
    renderGameMode();
    renderPeople();
    renderGone();
    renderWays();
    tick();
  } else if (frame.type === "clock-reminder") {
    if (frame.seat === you) remind(frame.left);
  } else if (frame.type === "way-out") {
    wayOut(frame);
  } else if (frame.type === "clock-warning") {
    if (frame.seat === you) hurry(frame.left);
  } else if (frame.type === "reaction") {
    bubbles.set(frame.seat, [frame.reaction, performance.now() + BUBBLE_MS]);
    renderBubbles();
    setTimeout(renderBubbles, BUBBLE_MS + 50);
  } else if (frame.type === "replaced") {
    stop("replaced");
  } else if (frame.type === "new-game") {
    game = frame.game;
    shownResults = null;
    $("round-dialog").close();
  }
}

function receiveState(frame) {
  const live = frame.since !== 0 && frame.since === version;
  if (frame.since === 0) { logEntries = []; $("log").replaceChildren(); loggedNames = ""; }
  const before = live && !STILL.matches ? whereThingsAre() : null;
  landAll();
  logEntries.push(...frame.log);
  version = frame.version;
  view = frame.view;
  view.names = view.names.map(shownName);
  pending = false;
  if (statusAt !== null && version > statusAt) setStatus("");
  if (hintAt !== null && version > hintAt) { hint = hintAt = null; showHint(); }
  if ("clock" in frame) takeClock(frame.clock);
  takePause(frame.starts_in);
  followState(you !== null && view.states ? view.states[you] : null);
  acted = false;
  startClock();
  render();
  renderLog(frame.log);
  renderWays();
  offerName();
  turnSignals(live);
  if (!drawnOnce) {
    drawnOnce = true;
    requestAnimationFrame(() => performance.mark("racko:first-state")); // the benchmark's figure (docs/BENCHMARKS.md)
  }
  if (before) travel(frame.log, before);
  else if (frame.since === 0 && view.turns === 0 && !view.over && !STILL.matches) {
    requestAnimationFrame(deal); // a table opened as its round begins: dealt once the table is drawn
  }
  roundEnd(live);
  if (frame.problem) setStatus(frame.problem, true);
}

// A message under the rack; one about a refused action goes once the table has moved on.
function setStatus(text, untilMoved) {
  $("status").textContent = text;
  delete $("status").dataset.state;
  statusAt = untilMoved ? version : null;
}

// A hint as racko hint says it, made to be read at a glance, on a phone too: the best move on a line of its own above
// the rack; why (its sentences end with its chance to win), and the next moves with their chance, folded under it.
// A choice without reasons (High-Low, a forced move) is said in the advisor's own words.
function showHint() {
  $("hint").hidden = !hint;
  if (!hint) return;
  const moveWords = (choice) => {
    if (!choice.move) return describeHint(choice);
    const move = explainHint({ why: [choice.move] });
    return move.charAt(0).toUpperCase() + move.slice(1) + ".";
  };
  const item = (text) => { const line = document.createElement("li"); line.textContent = text; return line; };
  const [best, ...others] = hint;
  const label = document.createElement("strong");
  label.className = "hint-label";
  label.textContent = t("hint_label");
  $("hint-best").replaceChildren(label, " " + moveWords(best));
  $("hint").setAttribute("aria-label", t("hint"));
  $("hint-more").querySelector("[role=region]").setAttribute("aria-label", t("hint_why"));
  const reasons = (Array.isArray(best.why) ? best.why : []).map((sentence) => item(explainHint({ why: [sentence] })));
  $("hint-reasons").replaceChildren(...reasons);
  // The next moves with their chance to win the game (2 players; the round's where an old kernel ranked by it).
  const chance = (choice) => (choice.move ? choiceChance(choice) : "");
  $("hint-others").replaceChildren(...others.map((choice) => item(moveWords(choice) + chance(choice))));
  $("hint-others-title").hidden = !others.length;
  $("hint-more").hidden = !reasons.length && !others.length;
}

// The page stops playing: the link is no seat at this table, there is no such table, or the seat was opened in
// another window.  It says so plainly, offers what can be done, and shows no control that would send anything.
function stop(why) {
  stopped = true;
  pending = false;
  document.body.classList.add("stopped");
  const closing = socket;
  socket = null;
  if (closing) closing.close();
  for (const dialog of document.querySelectorAll("dialog")) if (dialog.open) dialog.close();
  $("felt").hidden = true;
  $("notice").hidden = false;
  const title = { replaced: "replaced", "no-table": "no_table", damaged: "damaged" }[why] || "bad_link";
  $("notice-title").textContent = t(title);
  $("notice-text").textContent = t(title + "_text");
  $("notice-watch").hidden = why !== "bad-token";
  $("notice-watch").href = "/t/" + encodeURIComponent(TABLE);
  $("notice-back").hidden = why !== "replaced";
  document.body.classList.remove("my-turn");
  document.title = "Rack-O";
  setFavicon(false);
}

function resume() {
  stopped = false;
  document.body.classList.remove("stopped");
  $("notice").hidden = true;
  $("felt").hidden = false;
  connect();
}

// --- what does not change during a game --------------------------------------------------------------------------

function renderStatic() {
  $("title").textContent = variantTitle(setup.variant, setup.title);
  $("rules").replaceChildren(...rulesParagraphs(setup).map((text) => { const p = document.createElement("p"); p.textContent = text; return p; }));
  $("keys").textContent = keysHelp(setup);
  $("reactions").replaceChildren(...REACTIONS.map((reaction) => {
    const button = document.createElement("button");
    button.type = "button";
    button.dataset.reaction = reaction;
    button.textContent = t("reaction:" + reaction);
    button.addEventListener("click", () => { send({ type: "react", reaction }); openReactions(false); });
    return button;
  }));
  if (!view) document.title = variantTitle(setup.variant, setup.title);
}

function askName() {
  const dialog = $("name-dialog");
  $("name-form").onsubmit = () => {
    const name = $("name-input").value.trim();
    $("name-problem").textContent = "";
    if (name) send({ type: "name", name });
  };
  $("name-input").addEventListener("input", () => { $("name-input").dataset.typed = "yes"; }, { once: true });
  dialog.showModal();
  offerName();
}

// The name typed for this seat on the start page is offered to the person who opens its link (not "Player 2").
function offerName() {
  const input = $("name-input");
  if (!view || you === null || !$("name-dialog").open || input.dataset.typed || input.value) return;
  const name = view.names[you];
  if (name && name !== "Player " + (you + 1)) input.value = name;
}

// --- the table ---------------------------------------------------------------------------------------------------

// This seat's turn, and its person plays it (a gone seat's turn is its computer player's).
function myTurn() {
  return view && you !== null && view.to_act === you && !view.over && PERSON_PLAYS.has(myState);
}

// The seat's state changed: the texts that say it follow (its time ran out once; it is back; the game is over).
function followState(state) {
  const before = myState;
  myState = state;
  if (state === before) return;
  const said = $("status").dataset.state;
  if (state === "timed-out") {
    setStatus(t("played_for_you"), false);
    $("status").dataset.state = "timed-out";
    document.body.classList.remove("hurry");
  } else if (said === "timed-out") {
    setStatus("");
  }
}

function legal(act, extra) {
  if (!view) return false;
  return view.legal.some((a) => a.act === act && (!extra || Object.entries(extra).every(([k, v]) => JSON.stringify(a[k]) === JSON.stringify(v))));
}

function highest() {
  return setup.family === "highlow" ? 50 : setup.deck_size;
}

function whereWord(index) {
  return t(setup.family === "highlow" ? "position" : "slot", { label: setup.slots[index] });
}

function cardLabel(card) {
  return card === null || card === undefined ? t("hidden") : t("card", { card: cardWords(card) });
}

// The other seats around the table, in the order play goes from this seat: the next player on the left, then
// opposite, then the right.  A spectator sees the table from seat 0's side, with seat 0 among them.
function placesOfOthers() {
  const count = view.names.length;
  const first = you === null ? 0 : you + 1;
  const others = [];
  for (let k = 0; k < (you === null ? count : count - 1); k++) others.push((first + k) % count);
  const places = others.length === 1 ? ["top"] : others.map((_, k) => (k === 0 ? "left" : k === others.length - 1 ? "right" : "top"));
  return others.map((seat, k) => [seat, places[k]]);
}

function sideOf(seat) {
  if (!setup.teams) return seat;
  return setup.teams.findIndex((team) => team.includes(seat));
}

// A side's name as nodes: a player's name, or partners' names joined, each isolated.
function sideNodes(index) {
  if (!setup.teams) return [bdi(view.names[index])];
  return setup.teams[index].flatMap((seat, k) => (k ? [" & ", bdi(view.names[seat])] : [bdi(view.names[seat])]));
}

function render() {
  const mine = myTurn();
  document.body.dataset.version = version;
  document.body.classList.toggle("my-turn", Boolean(mine));
  document.body.classList.toggle("game-over", view.over);
  document.body.dataset.others = placesOfOthers().length; // a 2-player phone table draws the other rack larger
  const names = view.names;
  // The header: whose turn.
  const playedForMe = !view.over && you !== null && view.to_act === you && myState === "gone";
  $("turn").replaceChildren(...(view.ended ? [t("e:" + view.ended)] : view.over ? (view.winners ? tNodes("game_over", { name: bdi(view.winners) }) : [t("no_winner")])
    : mine ? [t("your_turn")] : playedForMe ? [t("gone_turn")]
    : view.to_act !== null ? tNodes("to_play", { name: bdi(names[view.to_act]) }) : []));
  $("turn").classList.toggle("mine", Boolean(mine));
  // The other seats, around the table.
  for (const place of ["left", "top", "right"]) $("seats-" + place).replaceChildren();
  for (const [seat, place] of placesOfOthers()) $("seats-" + place).append(seatBox(seat));
  // The piles.
  $("stock").querySelector(".count").textContent = view.stock;
  $("stock").querySelector(".what").textContent = t("stock_short");
  $("stock").setAttribute("aria-label", t("stock", { n: view.stock }));
  const top = view.discard.length ? view.discard[view.discard.length - 1] : null;
  const discard = $("discard");
  discard.replaceChildren(top === null ? document.createTextNode(t("empty")) : makeCard(top, highest()));
  discard.setAttribute("aria-label", t("discard_pile") + ": " + (top === null ? t("empty") : cardLabel(top)));
  $("stock").disabled = !(mine && legal("draw"));
  discard.disabled = !(mine && legal("take"));
  const held = heldBy(you);
  $("held").replaceChildren(...(held !== undefined && mine ? [makeCard(held, highest(), t("in_hand", { card: cardWords(held) }))] : []));
  // My seat and rack.
  $("my-name").replaceChildren(...(you !== null ? [bdi(names[you]), " · " + view.totals[you]] : []));
  const rack = $("rack");
  rack.replaceChildren();
  (view.rack || []).forEach((card, index) => {
    const slot = document.createElement("button");
    slot.type = "button";
    slot.className = "slot" + (swapFirst === index ? " chosen" : "");
    slot.dataset.index = index;
    const label = document.createElement("span");
    label.className = "label";
    label.textContent = setup.slots[index];
    slot.append(label, makeCard(card, highest()));
    slot.setAttribute("aria-label", whereWord(index) + ": " + cardLabel(card));
    // A slot that would do nothing now (not your turn, or a pile comes first) is not a control: Tab passes it by.
    slot.disabled = !(mine && slotAction(index) !== null);
    slot.addEventListener("click", () => clickSlot(index));
    rack.append(slot);
  });
  for (const button of document.querySelectorAll("#actions [data-verb]")) {
    const verb = button.dataset.verb;
    button.hidden = !setup.verbs.includes(verb);
    button.disabled = !(mine && legal(verb));
  }
  $("btn-hint").disabled = !mine || rated;
  $("show-result").hidden = !view.over || you === null;
  // The prompt.
  const situation = view.situation;
  // On a touch screen it names no keys, and one taps.
  const asked = situation && (TOUCH.matches && WORDS.en["touch:" + situation.kind] ? "touch:" : "") + situation.kind;
  $("prompt").textContent = you === null ? t("watching") : mine && situation ? (swapFirst !== null ? t("swap_second", { n: swapFirst + 1 }) : t(asked, { card: cardWords(situation.card) })) : "";
  $("prompt").dataset.situation = mine && situation ? situation.kind : view.over ? "over" : "waiting";
  // Scores and the score sheet.
  $("scores").replaceChildren(...view.sides.map((_, index) => {
    const p = document.createElement("p");
    p.append(...sideNodes(index), ": " + view.side_totals[index]);
    return p;
  }));
  $("sheet").replaceChildren(...(view.results.length ? [sheetBox()] : []));
  toLatestRound($("sheet"));
  renderPeople();
  renderGone();
  renderBubbles();
  tick();
}

// The card a seat holds between picking and placing, as far as this page may know it: undefined when it holds
// none, null when it holds one face down (another player's card drawn from the stock).
function heldBy(seat) {
  if (view.over || seat === null || view.to_act !== seat) return undefined;
  if (setup.family === "highlow") {
    if (view.phase !== "place") return undefined;
    if (view.passed !== null && view.passed !== undefined) return view.passed;
    return seat === you ? view.held : null;
  }
  if (view.phase !== "place") return undefined;
  if (seat === you) return view.held;
  return view.taken !== null && view.taken !== undefined ? view.taken : null;
}

function seatBox(seat) {
  const box = document.createElement("section");
  box.className = "other" + (view.to_act === seat && !view.over ? " acting" : "");
  box.dataset.seat = seat;
  box.setAttribute("aria-labelledby", "seat-title-" + seat);
  const line = document.createElement("div");
  line.className = "seat-line";
  const title = document.createElement("h2");
  title.id = "seat-title-" + seat;
  const partner = setup.teams && you !== null && sideOf(seat) === sideOf(you);
  // A computer seat's own label ("easy", "easy 2") names its level already; a person's seat handed to one does not.
  const level = view.bots[seat], name = view.names[seat];
  const labelled = level && (name === level || name.startsWith(level + " "));
  title.append(bdi(name), (level && !labelled ? " · " + level : "") + (partner ? " · " + t("partner") : ""));
  const score = document.createElement("span");
  score.className = "seat-score";
  score.textContent = view.totals[seat];
  const clock = document.createElement("span");
  clock.className = "clock";
  const bubble = document.createElement("span");
  bubble.className = "bubble";
  bubble.hidden = true;
  line.append(title, score, clock, timerElement(), bubble);
  const cards = document.createElement("div");
  cards.className = "rack small";
  cards.setAttribute("role", "group");
  cards.setAttribute("aria-label", t(setup.family === "highlow" ? "row_of" : "rack_of", { name: view.names[seat] }));
  const shown = setup.family === "highlow" ? view.rows[seat] : view.known[seat];
  shown.forEach((card, index) => cards.append(makeCard(card, highest(), whereWord(index) + ": " + cardLabel(card))));
  const hand = document.createElement("span");
  hand.className = "hand";
  const held = heldBy(seat);
  if (held !== undefined) hand.append(makeCard(held, highest(), t("in_hand", { card: held === null ? t("a_card") : cardWords(held) })));
  const row = document.createElement("div");
  row.className = "seat-cards";
  row.append(cards, hand);
  box.append(line, row);
  return box;
}

function seatElement(seat) {
  return document.querySelector(`.other[data-seat="${seat}"]`);
}

// How long the seat to act has had: the clock starts when the turn passes (the server's presence frame sets it
// right after a reload), and every page shows it by that seat.
function startClock() {
  const key = view.over ? null : view.to_act + "|" + view.results.length;
  if (key !== turnKey) { turnKey = key; turnStart = performance.now(); }
}

function clockText(seconds) {
  return seconds < 60 ? t("seconds", { s: seconds }) : Math.floor(seconds / 60) + ":" + String(seconds % 60).padStart(2, "0");
}

function tick() {
  if (!view) return;
  // A table with a real-time clock shows each seat's time left instead of how long the turn has lasted.
  const text = turnKey === null || clock ? "" : clockText(Math.max(0, Math.floor((performance.now() - turnStart) / 1000)));
  for (const shown of document.querySelectorAll(".other .clock")) {
    shown.textContent = Number(shown.closest(".other").dataset.seat) === view.to_act ? text : "";
  }
  $("my-clock").textContent = myTurn() ? text : "";
  for (const box of document.querySelectorAll(".other")) showTimer(box.querySelector(".timer"), Number(box.dataset.seat));
  showTimer($("my-timer"), you);
}

// --- the real-time clock -------------------------------------------------------------------------------------------

// The round's report's pause (any table): nobody acts and no clock runs until it ends; the report closes then.
function takePause(startsIn) {
  pauseEnds = typeof startsIn === "number" && startsIn > 0 ? performance.now() + startsIn * 1000 : null;
}

function takeClock(frameClock) {
  clock = frameClock || null;
  clockAt = performance.now();
  document.body.classList.toggle("clocked", Boolean(clock));
  if (!clock || clock.running !== you) document.body.classList.remove("hurry");
}

// The seconds a seat has for its turn now: the server's number, less the time since it said so if its clock runs.
// A round's first turn starts after a pause (the round's report is read on nobody's time): while the server still
// says the whole of it, the page does not count it down before the server does.
function timeLeft(seat) {
  const left = clock.left[seat];
  if (seat !== clock.running) return left;
  return Math.max(0, left - (performance.now() - clockAt) / 1000);
}

function clockDigits(seconds) {
  return timeWords(seconds); // m:ss, or days and hours on a turn-based table
}

function timerElement() {
  const timer = document.createElement("span");
  timer.className = "timer";
  timer.hidden = true;
  const said = document.createElement("span");
  said.className = "sr";
  const digits = document.createElement("span");
  digits.className = "digits";
  const bank = document.createElement("span");
  bank.className = "bank";
  timer.append(said, digits, bank);
  return timer;
}

// A seat's clock: its time left (counting down while it runs, highlighted, red when short), its bank, or that the
// seat is gone.  A computer player's seat has none, and neither has a table without a clock.
function showTimer(timer, seat) {
  if (!timer) return;
  const shown = Boolean(clock) && seat !== null && !view.bots[seat];
  timer.hidden = !shown;
  if (!shown) return;
  const gone = clock.gone[seat];
  const running = seat === clock.running && !view.over;
  const left = timeLeft(seat);
  const [said, digits, bank] = timer.children;
  const banked = clock.days ? "" : t("bank", { time: clockDigits(Math.min(clock.banks[seat], left)) }); // none: days
  const texts = gone ? ["", t("gone"), ""] : [t(running ? "time_left_running" : "time_left"), clockDigits(left), banked];
  if (said.textContent !== texts[0]) said.textContent = texts[0];
  if (digits.textContent !== texts[1]) digits.textContent = texts[1];
  if (bank.textContent !== texts[2]) bank.textContent = texts[2];
  timer.classList.toggle("gone", gone);
  timer.classList.toggle("running", running && !gone);
  timer.classList.toggle("low", running && !gone && left <= (clock.remind || WARN_SECONDS));
  timer.dataset.left = gone ? "" : String(Math.ceil(left));
}

// Whether the game counts for the ratings (and why not when it was meant to: two seats of one address), and its
// clock: the speed, or that the clocks wait for everybody to sit down.
function renderGameMode() {
  if (!presence) return;
  const mode = t(presence.casual_because === "shared-address" ? "casual_shared" : presence.rated ? "rated_game" : "casual_game");
  $("game-mode").textContent = mode;
  $("clock-mode").hidden = !clock;
  const line = clock && (clock.days ? t("clock_line_days", { speed: t("speed:" + clock.preset) }) : t("clock_line", { speed: t("speed:" + clock.preset), move: clock.move }));
  $("clock-mode").textContent = clock ? line + (clock.started ? "" : " " + t("clock_waits")) : "";
}

// A gone seat (its person ran out of time twice) is played by its computer player until its person is back: the
// person sees why, and a button to take the seat back.
function renderGone() {
  const gone = you !== null && view && !view.over && myState === "gone";
  const box = $("gone-box");
  if (box.hidden === !gone) return;
  const hadFocus = box.contains(document.activeElement);
  box.hidden = !gone;
  if (hadFocus && !gone) $("rack").querySelector("button:enabled")?.focus();
}

// A turn-based turn is running out (hours before its end): said under the rack (and read out), in the tab's title,
// and sounded like "your turn"; no pulse nor vibration, it is hours away.
function remind(left) {
  setStatus(t("clock_reminder", { time: timeWords(left) }), true);
  document.title = "⏰ " + t("reminder") + " · " + (setup ? variantTitle(setup.variant, setup.title) : "Rack-O");
  chime();
  document.body.dataset.reminders = Number(document.body.dataset.reminders || 0) + 1;
}

// Ten seconds before a turn runs out the server warns the seat: said under the rack (and read out), sounded like
// "your turn", and in the tab's title; the clock pulses, unless the person asked for reduced motion.
function hurry(left) {
  const key = you + "|" + (view ? view.results.length + "|" + view.turns : "");
  if (hurried === key) return;
  hurried = key;
  setStatus(t("clock_warning", { s: Math.max(1, Math.round(left)) }), true);
  document.body.classList.add("hurry");
  document.title = "⏰ " + t("hurry") + " · " + (setup ? variantTitle(setup.variant, setup.title) : "Rack-O");
  chime();
  if (navigator.vibrate && !STILL.matches) navigator.vibrate([120, 80, 120]);
  document.body.dataset.warnings = Number(document.body.dataset.warnings || 0) + 1;
}

// --- your turn ---------------------------------------------------------------------------------------------------

function turnSignals(live) {
  const mine = Boolean(myTurn());
  if (!mine) document.body.classList.remove("hurry");
  const title = setup ? variantTitle(setup.variant, setup.title) : "Rack-O";
  document.title = mine ? "● " + t("your_turn") + " · " + title : title;
  setFavicon(mine);
  if (mine && !wasMyTurn && live) {
    chime();
    if (navigator.vibrate) navigator.vibrate(120);
  }
  wasMyTurn = mine;
}

const icons = {};
// The tab's icon, drawn here (no file to fetch): a card, with a yellow dot on your turn.
function setFavicon(mine) {
  const key = mine ? "mine" : "plain";
  if (!icons[key]) {
    const canvas = document.createElement("canvas");
    canvas.width = canvas.height = 64;
    const pen = canvas.getContext("2d");
    if (!pen) return;
    pen.fillStyle = "#1d5a3a";
    pen.fillRect(0, 0, 64, 64);
    pen.fillStyle = "#fffdf6";
    pen.fillRect(14, 6, 36, 52);
    pen.fillStyle = "#8b1e2d";
    pen.fillRect(20, 14, 24, 8);
    if (mine) {
      pen.fillStyle = "#ffd54a";
      pen.beginPath();
      pen.arc(46, 46, 16, 0, 2 * Math.PI);
      pen.fill();
      pen.strokeStyle = "#1b1b1b";
      pen.lineWidth = 3;
      pen.stroke();
    }
    icons[key] = canvas.toDataURL("image/png");
  }
  $("favicon").href = icons[key];
  $("favicon").dataset.turn = mine ? "yes" : "no";
}

let audio = null;
function muted() {
  return localStorage.getItem("racko-muted") === "yes";
}

// Browsers let a page make sound only after a click or a key: the first one wakes the audio up.
function wakeAudio() {
  if (muted() || !window.AudioContext) return;
  if (!audio) audio = new AudioContext();
  if (audio.state === "suspended") audio.resume().catch(() => {});
}

// Two soft notes, synthesised here: no sound file.
function chime() {
  if (muted() || !window.AudioContext) return;
  if (!audio) audio = new AudioContext();
  const start = audio.currentTime + 0.01;
  [659.25, 987.77].forEach((pitch, k) => {
    const tone = audio.createOscillator(), volume = audio.createGain(), at = start + k * 0.12;
    tone.type = "sine";
    tone.frequency.value = pitch;
    volume.gain.setValueAtTime(0.0001, at);
    volume.gain.exponentialRampToValueAtTime(0.18, at + 0.02);
    volume.gain.exponentialRampToValueAtTime(0.0001, at + 0.28);
    tone.connect(volume).connect(audio.destination);
    tone.start(at);
    tone.stop(at + 0.3);
  });
  document.body.dataset.chimes = Number(document.body.dataset.chimes || 0) + 1;
}

function renderMute() {
  const off = muted();
  $("mute").setAttribute("aria-pressed", String(off));
}

// --- moves that travel -------------------------------------------------------------------------------------------

// The places a card can be: the piles, each seat's hand, each slot of each rack.
function spot(key) {
  if (key === "stock") return $("stock");
  if (key === "discard") return $("discard");
  const [kind, seatText, index] = key.split(":");
  const seat = Number(seatText);
  if (kind === "hand") return seat === you ? $("held") : seatElement(seat)?.querySelector(".hand");
  const rack = seat === you ? $("rack") : seatElement(seat)?.querySelector(".rack");
  return rack ? rack.children[Number(index)] : null;
}

// The card shown at a place (hidden while a card flies there).
function cardAt(key) {
  const place = spot(key);
  if (!place) return null;
  return place.classList.contains("card") ? place : place.querySelector(".card");
}

// The card drawn at a place now, as the server words cards (a number, "W" or "S"; null for a card's back).
function shownCard(key) {
  const shown = cardAt(key);
  if (!shown || shown.classList.contains("back")) return null;
  return /^\d+$/.test(shown.textContent) ? Number(shown.textContent) : shown.textContent;
}

function whereThingsAre() {
  const rects = new Map();
  const keep = (key) => { const place = spot(key); if (place) rects.set(key, place.getBoundingClientRect()); };
  keep("stock");
  keep("discard");
  for (let seat = 0; seat < (view ? view.names.length : 0); seat++) {
    keep("hand:" + seat);
    for (let index = 0; index < 10; index++) keep("slot:" + seat + ":" + index);
  }
  return rects;
}

// A card flies from one place to another (where it is already drawn, hidden until it lands).  Planning reads the
// layout and launching writes to it, so that many cards (a deal) are all measured before any is put in the air:
// one layout, not one per card.
function plan(card, from, to, delay = 0) {
  const start = typeof from === "string" ? spot(from)?.getBoundingClientRect() : from;
  const end = spot(to)?.getBoundingClientRect();
  if (!start || !end || !start.width || !end.width) return null;
  const landing = cardAt(to);
  const size = landing ? landing.getBoundingClientRect() : end;
  return { card, to, delay, start, end, landing, size };
}

function launch(flight) {
  if (!flight) return Promise.resolve();
  const { card, to, delay, start, end, landing, size } = flight;
  const piece = makeCard(card, highest());
  piece.classList.add("flying");
  piece.dataset.to = to;
  const left = end.left + (end.width - size.width) / 2, top = end.top + (end.height - size.height) / 2;
  Object.assign(piece.style, { left: left + "px", top: top + "px", width: size.width + "px", height: size.height + "px" });
  $("flight").append(piece);
  if (landing) landing.classList.add("landing");
  const dx = start.left + (start.width - size.width) / 2 - left, dy = start.top + (start.height - size.height) / 2 - top;
  const motion = piece.animate(
    [{ transform: `translate(${dx}px, ${dy}px) rotate(-6deg)` }, { transform: "none" }],
    { duration: FLIGHT_MS, delay, easing: "cubic-bezier(.25,.7,.3,1)", fill: "backwards" },
  );
  return motion.finished.catch(() => {}).then(() => { piece.remove(); if (landing) landing.classList.remove("landing"); });
}

function fly(card, from, to, delay = 0) {
  return launch(plan(card, from, to, delay));
}

// Every card still in the air lands at once (a new state is about to be drawn).
function landAll() {
  flightRun += 1;
  for (const piece of [...$("flight").children]) for (const flight of piece.getAnimations()) flight.finish();
}

// The moves of one state frame, one after the other: what each player did, shown travelling.
async function travel(entries, before) {
  const run = flightRun;
  let out = null; // where the card a High-Low placement took out was
  for (const entry of entries) {
    if (run !== flightRun) return;
    const from = (key) => before.get(key) || key;
    const k = entry.kind, seat = entry.seat;
    if (k === "dealt") await deal();
    else if (k === "turned-up") await fly(entry.card, "stock", "discard");
    else if (k === "drew") await fly(entry.card, "stock", "hand:" + seat);
    else if (k === "took") await fly(entry.card, "discard", "hand:" + seat);
    else if (k === "exchanged") {
      await Promise.all([
        fly(entry.card_in, from("hand:" + seat), "slot:" + seat + ":" + entry.slot),
        fly(entry.card_out, from("slot:" + seat + ":" + entry.slot), "discard"),
      ]);
    } else if (k === "discarded") await fly(entry.card, out || from("hand:" + seat), "discard");
    else if (k === "refilled") await fly(null, "discard", "stock");
    else if (k === "placed") {
      out = from("slot:" + seat + ":" + entry.position);
      await fly(entry.card, entry.removed === null ? "stock" : from("hand:" + seat), "slot:" + seat + ":" + entry.position);
    } else if (k === "passed") await fly(entry.card, out || "discard", "hand:" + seat);
    else if (k === "swap-discarded") await fly(entry.card, from("slot:" + seat + ":" + entry.position), "discard");
    else if (k === "swapped") {
      const first = "slot:" + seat + ":" + entry.first, second = "slot:" + seat + ":" + entry.second;
      await Promise.all([fly(shownCard(first), from(second), first), fly(shownCard(second), from(first), second)]);
    }
  }
}

// A round's start: the cards go out from the stock, one slot of every rack after the other.
function deal() {
  const seats = view.names.length;
  const plans = [];
  for (let index = 0; index < 10; index++) {
    for (let k = 1; k <= seats; k++) {
      const key = "slot:" + (view.dealer + k) % seats + ":" + index;
      plans.push(plan(shownCard(key), "stock", key, plans.length * DEAL_STAGGER_MS));
    }
  }
  return Promise.all(plans.map(launch));
}

// --- reactions ---------------------------------------------------------------------------------------------------

function openReactions(open) {
  $("reactions").hidden = !open;
  $("react-toggle").setAttribute("aria-expanded", String(open));
  if (open) $("reactions").querySelector("button")?.focus();
}

// A reaction shows as a bubble by its sender's seat for a few seconds.
function renderBubbles() {
  const now = performance.now();
  for (const [seat, [reaction, until]] of bubbles) if (until <= now) bubbles.delete(seat);
  const show = (element, seat) => {
    if (!element) return;
    const entry = bubbles.get(seat);
    element.hidden = !entry;
    element.textContent = entry ? t("reaction:" + entry[0]) : "";
    if (entry) element.dataset.reaction = entry[0];
  };
  if (you !== null) show($("my-bubble"), you);
  for (const box of document.querySelectorAll(".other")) show(box.querySelector(".bubble"), Number(box.dataset.seat));
}

// --- a round's end and the game's end ----------------------------------------------------------------------------

// A round's report shows once: when the round ends before this page's eyes, or after a reload that missed it.  A
// page opened afresh shows only the game's end; what each page showed is kept per table and game for this tab.
function roundEnd(live) {
  const key = "racko-shown:" + TABLE + ":" + game;
  const count = view.results.length;
  if (shownResults === null) {
    const kept = sessionStorage.getItem(key);
    shownResults = kept !== null ? Number(kept) : live ? count : view.over ? count - 1 : count;
  }
  if (count <= shownResults) return;
  shownResults = count;
  sessionStorage.setItem(key, String(count));
  showResult();
}

function showResult() {
  const result = view.results[view.results.length - 1];
  if (!result) return;
  const dialog = $("round-dialog");
  dialog.classList.toggle("game-end", view.over);
  $("game-over").hidden = !view.over;
  $("again").hidden = !view.over || you === null;
  $("download").hidden = !view.over;
  $("to-lobby").hidden = !view.over;
  $("round-ok").textContent = t(view.over ? "close" : "continue");
  reviewLink(result);
  if (view.over) {
    $("round-title").textContent = t("game_title", { title: variantTitle(setup.variant, setup.title) });
    $("winner").replaceChildren(...(view.ended ? [t("e:" + view.ended)] : view.winners ? ["★ ", ...tNodes("winner_is", { name: bdi(view.winners) })] : [t("no_winner")]));
    // Those who left the game are placed last whatever their computer player scored: the sheet's totals say otherwise,
    // so the report says why (docs/PLAYING.md, "A seat's life").
    const leavers = (view.states || []).map((state, seat) => (LEFT_THE_GAME.has(state) ? seat : null)).filter((seat) => seat !== null);
    $("leavers").replaceChildren(...leavers.map((seat) => {
      const line = document.createElement("li");
      line.append(...tNodes("left_last", { name: bdi(view.names[seat]) }));
      return line;
    }));
    $("download").href = "/api/tables/" + encodeURIComponent(TABLE) + "/record";
    const last = document.createElement("details");
    const summary = document.createElement("summary");
    summary.textContent = t("last_round", { n: result.number });
    last.append(summary, roundReport(result));
    $("round-report").replaceChildren(sheetBox(), last);
  } else {
    $("round-title").textContent = t("round_over", { n: result.number });
    $("round-report").replaceChildren(roundReport(result));
  }
  // The dialog starts on its main button (Play again at the game's end), not on the first thing that takes focus.
  for (const button of [$("again"), $("round-ok")]) button.autofocus = false;
  (view.over && you !== null ? $("again") : $("round-ok")).autofocus = true;
  if (!dialog.open) dialog.showModal();
  toLatestRound(dialog);
  pauseReport();
}

// At a table with a clock the next round's first turn starts after a pause the server says (clock.starts_in): the
// round's report counts it down and closes itself then, so that no clock runs while the report is open.
let pauseTimer = null;
function pauseReport() {
  clearInterval(pauseTimer);
  const line = $("round-pause");
  const ends = !view.over ? pauseEnds : null;
  line.hidden = ends === null;
  if (ends === null) return;
  const tick = () => {
    const left = Math.ceil((ends - performance.now()) / 1000);
    if (left <= 0 || !$("round-dialog").open) {
      clearInterval(pauseTimer);
      $("round-dialog").close();
      return;
    }
    line.textContent = t(clock ? "round_pause" : "round_pause_free", { s: left });
  };
  tick();
  pauseTimer = setInterval(tick, 250);
}

// The review opens in a tab of its own, so that the table and its connection stay as they are: a seat's moves of the
// round that ended (its link's token in the fragment, as here), or anyone's of the whole game once it is over.
function reviewLink(result) {
  const link = $("review-link");
  link.hidden = !view.over && you === null;
  const seat = !view.over && TOKEN ? "#seat=" + encodeURIComponent(TOKEN) : "";
  link.href = "/t/" + encodeURIComponent(TABLE) + "/review?game=" + game + (view.over ? "" : "&round=" + result.number) + seat;
  link.textContent = t(view.over ? "review:link-game" : "review:link-round");
}

// The round's end: every rack revealed, a bar where its order broke, and how each score was counted.
function roundReport(result) {
  const list = document.createElement("div");
  list.className = "report";
  result.racks.forEach((rack, seat) => {
    const row = document.createElement("section");
    row.className = "report-seat" + (seat === result.winner ? " winner" : "");
    const title = document.createElement("h3");
    title.append(bdi(view.names[seat]), ": " + result.scores[seat] + " " + t("points"));
    const cards = document.createElement("div");
    cards.className = "rack small";
    cards.setAttribute("role", "group");
    cards.setAttribute("aria-label", t(setup.family === "highlow" ? "row_of" : "rack_of", { name: view.names[seat] }));
    rack.forEach((card, index) => {
      const shown = makeCard(card, highest(), whereWord(index) + ": " + cardLabel(card));
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
  mark.setAttribute("role", "img");
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

// The sheet in a box of its own that scrolls sideways (reachable by keyboard, so that it scrolls by arrow keys).
function sheetBox() {
  const box = document.createElement("div");
  box.className = "sheet-box";
  box.tabIndex = 0;
  box.setAttribute("role", "region");
  box.setAttribute("aria-label", t("sheet"));
  box.append(scoreSheet());
  return box;
}

// A sheet wider than its box shows its latest rounds beside the totals (the round just played is the one looked
// for); a box not shown (the folded panel) has no width yet, and is scrolled when it opens.  No round is shown in
// part, half under the names: the names' column widens by what of it would show, so that the first round in view
// starts at the names' edge.
function toLatestRound(within) {
  const box = within.querySelector(".sheet-box");
  if (!box) return;
  const corner = box.querySelector("td.name");
  corner.style.minWidth = "";
  box.scrollLeft = box.scrollWidth;
  for (let tries = 0; tries < 3; tries++) { // a table rounds its columns' widths: a second look mends a pixel
    const edge = corner.getBoundingClientRect().right;
    const rounds = [...box.querySelectorAll("th[scope=col]:not(.total)")].map((round) => round.getBoundingClientRect());
    const straddling = rounds.find((round) => round.left < edge - 0.5 && round.right > edge + 0.5);
    if (!straddling) return;
    corner.style.minWidth = corner.getBoundingClientRect().width + (straddling.right - edge) + "px";
    box.scrollLeft = box.scrollWidth;
  }
}

// The score sheet: a row per side (a partnership counts as one), a column per round, and the totals.  It scrolls
// sideways in its own box, the names and the totals staying in view.
function scoreSheet() {
  const table = document.createElement("table");
  table.className = "sheet";
  const caption = document.createElement("caption");
  const title = document.createElement("span"); // it stays in view as the rounds scroll (a caption itself would not)
  title.textContent = t("sheet");
  caption.append(title);
  const head = document.createElement("tr");
  const cell = (tag, content, className) => {
    const element = document.createElement(tag);
    element.append(...content);
    if (className) element.className = className;
    return element;
  };
  // The rounds' numbers under one word in the corner, so that a narrow box shows several rounds (each number still
  // says "Round 9" to a screen reader).
  const corner = cell("td", [t("round")], "name");
  corner.setAttribute("aria-hidden", "true");
  const roundHead = (r) => {
    const said = document.createElement("span");
    said.className = "sr";
    said.textContent = t("round") + " ";
    return cell("th", [said, String(r.number)]);
  };
  head.append(corner, ...view.results.map(roundHead), cell("th", [t("total")], "total"));
  for (const th of head.querySelectorAll("th")) th.scope = "col";
  table.append(caption, head);
  view.sides.forEach((_, index) => {
    const row = document.createElement("tr");
    const name = cell("th", sideNodes(index), "name");
    name.scope = "row";
    row.append(name);
    for (const result of view.results) {
      row.append(cell("td", [String(result.scores.reduce((sum, score, seat) => sum + (sideOf(seat) === index ? score : 0), 0))]));
    }
    row.append(cell("td", [String(view.side_totals[index])], "total"));
    table.append(row);
  });
  return table;
}

// --- playing -----------------------------------------------------------------------------------------------------

function slotAction(index) {
  if (!view || !view.legal.length) return null;
  if (setup.family === "highlow") {
    if (legal("replace", { position: index + 1 })) return { act: "replace", position: index + 1 };
    if (legal("swap")) return { act: "swap" };
    return null;
  }
  if (legal("exchange")) return { act: "exchange", slot: Number(setup.slots[index]) };
  return null; // a pile comes first: draw (d) or take the discard (t)
}

function clickSlot(index) {
  const action = slotAction(index);
  if (!action || pending) return;
  if (action.act === "swap") {
    if (swapFirst === null || swapFirst === index) { swapFirst = index; render(); return; }
    const first = swapFirst;
    swapFirst = null;
    act({ act: "swap", positions: [Math.min(first, index) + 1, Math.max(first, index) + 1] });
    return;
  }
  act(action);
}

function verb(name) {
  if (myTurn() && legal(name)) act({ act: name });
}

function renderPeople() {
  if (!presence || !view) return;
  const list = $("people");
  list.replaceChildren();
  const away = new Set();
  for (const seat of presence.seats) {
    const item = document.createElement("li");
    let state = seat.bot ? t("bot", { bot: seat.bot }) : !seat.joined ? t("joined_not") : seat.connected ? t("connected") : t("away", { s: seat.away_for });
    if (seat.state === "gone") state += " · " + t("gone");
    else if (seat.state === "timed-out" || seat.state === "back") state += " · " + t("state:" + seat.state);
    if (seat.left) state += " · " + t("l:" + seat.left);
    item.append(bdi(view.names[seat.seat]), (seat.seat === you ? " (" + t("you") + ")" : "") + ": " + state);
    list.append(item);
    // A person who is away: the others see for how long, and what happens (a table with a clock plays for them; one
    // without waits, then they may hand the seat over, when the server says so).
    if (you === null || seat.bot || seat.connected || seat.away_for === null || seat.seat === you || view.over) continue; // a spectator hands over no seat
    away.add(String(seat.seat));
    const left = seat.hand_over_in === null ? null : seat.hand_over_in;
    const key = (seat.joined ? "away" : "not_come") + (presence.clocked ? "_clock" : left > 0 ? "_wait" : "_now");
    // Each line is updated in place, so that its button is never replaced under a finger or a pointer.
    let line = $("away").querySelector(`p[data-seat="${seat.seat}"]`);
    if (!line) {
      line = document.createElement("p");
      line.dataset.seat = seat.seat;
      line.append(document.createElement("span"));
      $("away").append(line);
    }
    line.firstChild.replaceChildren(...tNodes(key, { name: bdi(view.names[seat.seat]), s: seat.away_for, left }));
    if (left !== 0) line.querySelector("button")?.remove();
    else if (!line.querySelector("button")) {
      const button = document.createElement("button");
      button.type = "button";
      button.className = "hand-over";
      button.textContent = t("hand_over");
      button.addEventListener("click", () => send({ type: "hand-over", seat: seat.seat, bot: setup.default_bot }));
      line.append(" ", button);
    }
  }
  for (const line of [...$("away").children]) if (!away.has(line.dataset.seat)) line.remove();
  $("away").hidden = away.size === 0;
}

// A way out (docs/PLAYING.md): the menu, what cannot be undone asked again, a standing offer under the rack.
// The menu offers exactly the ways the server says this seat may take now (presence: seats[you].ways).
function renderWays() {
  const p = presence, ways = you !== null && view && !view.over && p && p.seats[you] ? p.seats[you].ways || [] : [];
  const on = ways.some((way) => ["resign", "leave", "abort", "offer-end"].includes(way));
  const offer = p && ways.length ? p.offer : null, box = $("offer-box"), wait = offer && !ways.includes("accept-end");
  $("menu-toggle").hidden = !on;
  if (!on) openMenu(false);
  for (const button of document.querySelectorAll("#way-menu [data-way]")) button.hidden = !ways.includes(button.dataset.way);
  if (!offer && box.contains(document.activeElement)) $("rack").querySelector("button:enabled")?.focus();
  box.hidden = !offer;
  if (!offer) return;
  $("offer-text").replaceChildren(...(wait ? [t("o:mine")] : tNodes("o:them", { name: bdi(view.names[offer.by]) })));
  $("offer-yes").hidden = !ways.includes("accept-end");
  $("offer-no").hidden = !ways.includes("decline-end");
  $("offer-no").textContent = t(offer.by === you ? "w:cancel" : "w:decline");
}

const alone = () => presence.seats.every((seat) => seat.seat === you || seat.bot);

function openMenu(open) {
  $("way-menu").hidden = !open;
  $("menu-toggle").setAttribute("aria-expanded", String(open));
  if (open) $("way-menu").querySelector("button:not([hidden])")?.focus();
}

function confirmWay(way) {
  openMenu(false);
  if (way === "offer-end" && !alone()) return send({ type: way }); // an offer can be withdrawn
  const dialog = $("confirm-dialog");
  const giveUp = presence && presence.rated ? "c:give-up-rated" : "c:give-up";
  $("confirm-text").textContent = t("w:" + way) + "? " + t(way === "resign" || way === "leave" ? giveUp : "c:sure");
  $("confirm-yes").textContent = t("w:" + way);
  dialog.returnValue = "";
  dialog.onclose = () => (dialog.returnValue === "yes" ? send({ type: way }) : $("menu-toggle").focus());
  dialog.showModal();
}

function wayOut(frame) {
  const item = document.createElement("li");
  const name = shownName(frame.name), what = frame.what;
  item.textContent = what === "resigned" || what === "left" ? name + " " + t("l:" + what) + "." : t({ offered: "o:them", agreed: "e:agreed", deserted: "e:deserted", limit: "e:limit" }[what] || "s:" + what, { name });
  $("log").append(item);
  setStatus(item.textContent, true);
  if (frame.seat !== you || !["resigned", "left"].includes(what)) return;
  you = null; // one who resigned watches; one who left goes to the lobby
  document.body.classList.add("spectating");
  if (what === "left") location.assign("/");
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
    item.append(...describeEntry(entry, view.names, setup.family));
    if (entry.kind === "round-ended") item.className = "round-end";
    list.append(item);
  }
  list.scrollTop = list.scrollHeight;
  // The latest lines again on the felt, where a phone held upright has room for them (its log is a drawer away).
  $("recent").replaceChildren(...[...list.children].slice(-3).map((item) => item.cloneNode(true)));
}

// The side panel (scores, log, rules, who is here) folds away; a wide screen keeps it open unless folded there.
function setPanel(open, remember) {
  document.body.classList.toggle("panel-open", open);
  $("panel-toggle").setAttribute("aria-expanded", String(open));
  if (open) toLatestRound($("sheet"));
  if (remember && WIDE.matches) localStorage.setItem("racko-panel", open ? "open" : "closed");
}

function main() {
  watchLanguage(() => { if (setup) renderStatic(); if (view) { render(); renderLog([]); turnSignals(false); } renderGameMode(); renderMute(); showHint(); });
  TOUCH.addEventListener("change", () => { if (view) render(); });
  setPanel(WIDE.matches && localStorage.getItem("racko-panel") !== "closed", false);
  WIDE.addEventListener("change", () => setPanel(WIDE.matches && localStorage.getItem("racko-panel") !== "closed", false));
  $("panel-toggle").addEventListener("click", () => setPanel(!document.body.classList.contains("panel-open"), true));
  renderMute();
  setFavicon(false);
  $("mute").addEventListener("click", () => {
    localStorage.setItem("racko-muted", muted() ? "no" : "yes");
    renderMute();
    wakeAudio();
  });
  for (const kind of ["pointerdown", "keydown"]) document.addEventListener(kind, wakeAudio, { once: true, capture: true });
  $("stock").addEventListener("click", () => verb("draw"));
  $("discard").addEventListener("click", () => verb("take"));
  for (const button of document.querySelectorAll("#actions [data-verb]")) button.addEventListener("click", () => verb(button.dataset.verb));
  $("btn-hint").addEventListener("click", () => { if (myTurn()) send({ type: "hint" }); });
  $("again").addEventListener("click", () => send({ type: "again" }));
  $("show-result").addEventListener("click", showResult);
  $("notice-back").addEventListener("click", resume);
  $("back").addEventListener("click", () => send({ type: "back" }));
  $("react-toggle").addEventListener("click", () => openReactions($("reactions").hidden));
  $("menu-toggle").addEventListener("click", () => openMenu($("way-menu").hidden));
  for (const button of document.querySelectorAll("#way-menu [data-way]")) button.addEventListener("click", () => confirmWay(button.dataset.way));
  document.addEventListener("click", (event) => { if (!$("way-menu").hidden && !event.target.closest(".way-box")) openMenu(false); });
  $("offer-yes").addEventListener("click", () => send({ type: "accept-end" }));
  $("offer-no").addEventListener("click", () => send({ type: "decline-end" }));
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && !$("reactions").hidden) { openReactions(false); $("react-toggle").focus(); return; }
    if (event.key === "Escape" && !$("way-menu").hidden) { openMenu(false); $("menu-toggle").focus(); return; }
    if (event.key === "Escape" && !WIDE.matches && document.body.classList.contains("panel-open")) { setPanel(false, false); return; }
    if (event.target instanceof HTMLInputElement || event.target instanceof HTMLSelectElement) return;
    if (event.ctrlKey || event.metaKey || event.altKey || stopped) return;
    if ($("round-dialog").open || $("name-dialog").open || $("confirm-dialog").open || !$("way-menu").hidden) return;
    const keys = { d: "draw", t: "take", x: "discard", r: "racko", w: "wait", k: "keep" };
    if (keys[event.key]) { verb(keys[event.key]); event.preventDefault(); }
    else if (event.key === "?") { if (rated) setStatus(t("err:hints-off"), true); else if (myTurn()) send({ type: "hint" }); event.preventDefault(); }
    else if (/^[0-9]$/.test(event.key)) { clickSlot(event.key === "0" ? 9 : Number(event.key) - 1); event.preventDefault(); }
  });
  setInterval(() => send({ type: "presence" }), 2000);
  setInterval(tick, 250);
  connect();
}

main();
