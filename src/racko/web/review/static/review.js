"use strict";
// The review of a table's game: each player's accuracy and classes, a chart of each reviewed player's chance to win
// the game (2 players; the round's where a review measured that, or turns to go out) move by move, and every decision
// with the best move and why.  The server reviews in a worker process; this page asks again every POLL_MS and shows
// how far it is meanwhile.  The seat's token travels
// in the link's fragment (#seat=…), which browsers never send in a request line: the page sends it in the body.
const $ = (id) => document.getElementById(id);
const TABLE = decodeURIComponent(location.pathname.split("/")[2] || "");
const QUERY = new URLSearchParams(location.search);
const TOKEN = new URLSearchParams(location.hash.slice(1)).get("seat");
const GAME = wholeNumber(QUERY.get("game"));
const ROUND = wholeNumber(QUERY.get("round"));
const POLL_MS = 700;
const SVG = "http://www.w3.org/2000/svg";
const CLASSES = ["best", "good", "inaccuracy", "mistake", "blunder"];
const COSTLY = new Set(["inaccuracy", "mistake", "blunder"]);
const SYMBOLS = { best: "★", good: "✓", inaccuracy: "?!", mistake: "?", blunder: "??" };
const ERRORS = { 403: "review:err-forbidden", 404: "review:err-missing", 409: "review:err-not-ended", 503: "review:err-busy" };
let answer = null, progress = null, failure = null, shownRound = null;
let saidStep = null; // the last progress step told to a screen reader (renderProgress)

function wholeNumber(text) {
  const number = Number(text);
  return text && Number.isInteger(number) && number >= 1 ? number : null;
}

function svg(tag, attributes) {
  const made = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) made.setAttribute(name, String(value));
  return made;
}

// A sentence the server sends as a key and its values (racko/analysis/explain.py), in the page's language.
function said(sentence) {
  return explainHint({ why: [sentence] });
}

// A share in whole percent; a loss of a chance in percentage points (of the game's chance to a tenth: moves seldom
// differ by more than a few points of it). The page's words write them by its language's rules.
function percent(value) {
  return Math.round(100 * value);
}

function gamePoints(value) {
  return Math.round(1000 * value) / 10;
}

// The measure's figures as the page says them: "game" (2 players: the chance to win the game from the scores),
// "round" (the chance to win the round) or "turns" (the turns to go out).
function kindOf(review) {
  return review.measure === "game_chance" ? "game" : review.measure === "win_chance" ? "round" : "turns";
}

function turns(value) {
  return Math.round(10 * Number(value)) / 10;
}

// What a decision is graded by: the game's chance ("game"), the round's ("round": also, in a game's review, where the
// game's chance could not tell the moves apart) or the turns to go out.
function decisionKind(decision) {
  return decision.measure === "game_chance" ? "game" : decision.measure === "win_chance" ? "round" : "turns";
}

// A class as a badge: its colour, its symbol and its word (with a count, in the summary).
function badge(grade, count) {
  const made = element("span", "badge cls-" + grade);
  const word = t("review:" + grade);
  made.append(element("span", "symbol", SYMBOLS[grade]), " " + (count === undefined ? word : t("review:count", { class: word, count })));
  return made;
}

// --- asking the server --------------------------------------------------------------------------------------------

async function follow() {
  for (;;) {
    let status = 0, data = {};
    try {
      const response = await fetch("/api/tables/" + encodeURIComponent(TABLE) + "/review", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ game: GAME, round: ROUND, token: TOKEN }),
      });
      status = response.status;
      data = await response.json().catch(() => ({}));
    } catch (error) {
      data = { error: String(error.message || error) };
    }
    if (status !== 200) {
      failure = { status, message: data.error || String(status) };
      renderProgress();
      return;
    }
    if (data.state === "done") {
      answer = data;
      const rounds = data.review.rounds;
      shownRound = rounds.includes(ROUND) ? ROUND : rounds[0];
      render();
      return;
    }
    progress = data;
    renderProgress();
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

// --- while it runs ------------------------------------------------------------------------------------------------

function renderProgress() {
  const box = $("review-progress");
  const bar = $("review-bar");
  $("review-error").hidden = failure === null;
  if (failure !== null) {
    box.hidden = true;
    const key = ERRORS[failure.status];
    $("review-error").textContent = key ? t(key) : t("review:err-failed", { message: failure.message });
    return;
  }
  box.hidden = answer !== null;
  if (answer !== null || progress === null) return;
  if (progress.over !== undefined) {
    const scope = ROUND ? t("review:scope-round", { n: ROUND }) : t("review:scope-game");
    $("review-scope").textContent = scope + " · " + t(progress.over ? "review:everyone" : "review:own");
  }
  let text, step;
  if (progress.state === "running" && progress.total > 0) {
    bar.max = progress.total;
    bar.value = progress.done;
    text = t("review:progress", { done: progress.done, total: progress.total });
    step = "q" + Math.floor((4 * progress.done) / progress.total);
  } else {
    bar.max = 1;
    bar.value = 0;
    text = progress.ahead ? t("review:waiting", { ahead: progress.ahead }) : t("review:starting");
    step = text;
  }
  $("review-progress-text").textContent = text;
  // A screen reader hears the progress at each quarter and when the state changes, not at every poll.
  if (step !== saidStep) {
    saidStep = step;
    $("review-progress-said").textContent = text;
  }
}

// --- the review ---------------------------------------------------------------------------------------------------

function render() {
  const review = answer.review;
  const title = t("review:heading", { title: variantTitle(review.variant, review.title) });
  $("review-title").textContent = title;
  document.title = title + " · Rack-O";
  const scope = review.rounds.length === 1 ? t("review:scope-round", { n: review.rounds[0] }) : t("review:scope-game");
  $("review-scope").textContent = scope + " · " + t(answer.over ? "review:everyone" : "review:own");
  const kind = kindOf(review);
  $("review-measure").textContent = t({ game: "review:measure-game", round: "review:measure-chance", turns: "review:measure-turns" }[kind], { playouts: review.playouts });
  // Accuracy halves at a loss of a tenth of the round's worth in the game, by the game's measure (docs/REVIEW.md).
  const help = document.querySelector(".review-help");
  help.dataset.t = kind === "game" ? "review:accuracy-help-game" : "review:accuracy-help";
  help.textContent = t(help.dataset.t);
  renderProgress();
  $("summary").replaceChildren(...review.seats.map((seat) => {
    const item = element("li", "review-seat");
    const name = element("strong", "", "");
    name.append(bdi(seat.name));
    item.append(name, " ", element("span", "accuracy", t("review:accuracy", { accuracy: accuracyText(seat.accuracy) })));
    const counts = element("span", "counts");
    for (const grade of CLASSES) counts.append(badge(grade, seat.counts[grade]), " ");
    item.append(" ", counts);
    // Decisions a computer player made for the person (the clock, a gone seat, after leaving): not theirs, not graded.
    for (const [why, count] of Object.entries(seat.left_out || {})) {
      item.append(element("p", "left-out", t("review:left-out:" + why, { count })));
    }
    return item;
  }));
  $("review-players").hidden = false;
  const choice = $("round-choice");
  choice.replaceChildren(...review.rounds.map((number) => {
    const option = element("option", "", t("review:round-n", { n: number }));
    option.value = String(number);
    return option;
  }));
  choice.value = String(shownRound);
  $("round-box").hidden = review.rounds.length < 2;
  $("review-rounds").hidden = false;
  renderRound();
}

function accuracyText(value) {
  return value === null || value === undefined ? "–" : String(Math.round(value));
}

function decisionsOf(number) {
  const review = answer.review;
  const found = [];
  for (const seat of review.seats) for (const decision of seat.decisions) if (decision.round === number) found.push([seat, decision]);
  return found.sort((a, b) => a[1].action - b[1].action);
}

function renderRound() {
  const review = answer.review;
  const decisions = decisionsOf(shownRound);
  $("round-accuracy").replaceChildren(...review.seats.map((seat) => {
    const line = seat.rounds.find((found) => found.round === shownRound);
    const item = element("li");
    item.append(...tNodes("review:round-accuracy", { name: bdi(seat.name), accuracy: accuracyText(line ? line.accuracy : null) }));
    return item;
  }));
  drawChart(decisions);
  $("moves-title").textContent = t("review:moves", { n: shownRound });
  const costlyOnly = $("costly-only").checked;
  const shown = decisions.filter(([, decision]) => !costlyOnly || COSTLY.has(decision.class));
  const several = review.seats.length > 1;
  $("moves").replaceChildren(...(shown.length ? shown.map(([seat, decision]) => decisionItem(seat, decision, several)) : [element("li", "empty", t("review:none-costly"))]));
}

function decisionItem(seat, decision, several) {
  const item = element("li", "decision cls-" + decision.class);
  const head = element("p", "decision-head");
  head.append(badge(decision.class), " ", element("strong", "", t("review:move-n", { n: decision.action })));
  if (several) head.append(" · ", bdi(seat.name));
  item.append(head);
  item.append(element("p", "", t("review:played-line", { move: said(decision.played_words) })));
  if (decision.class !== "best") item.append(element("p", "", t("review:best-line", { move: said(decision.best_words) })));
  const kind = decisionKind(decision);
  const figures = [];
  if (kind === "game") {
    if (decision.loss > 0) figures.push(t("review:loss-game", { points: gamePoints(decision.loss), share: percent(decision.loss / decision.stake) }));
    if (decision.class === "best") figures.push(t("review:chance-best-game", { after: gameChanceShown(decision.after) }));
    else figures.push(t("review:chance-line-game", { before: gameChanceShown(decision.before), after: gameChanceShown(decision.after) }));
  } else {
    const chances = kind === "round";
    if (chances && typeof decision.game_chance_before === "number") {
      // a game's review where the game's chance could not tell the moves apart: the round's chance graded it
      figures.push(t("review:by-round", { chance: gameChanceShown(decision.game_chance_before) }));
    }
    if (decision.loss > 0) figures.push(chances ? t("review:loss-points", { points: percent(decision.loss) }) : t("review:loss-turns", { turns: turns(decision.loss) }));
    if (decision.class === "best") figures.push(chances ? t("review:chance-best", { after: roundChanceShown(decision.after) }) : t("review:turns-best", { after: turns(decision.after) }));
    else figures.push(chances ? t("review:chance-line", { before: roundChanceShown(decision.before), after: roundChanceShown(decision.after) })
      : t("review:turns-line", { before: turns(decision.before), after: turns(decision.after) }));
  }
  item.append(element("p", "figures", figures.join(" · ")));
  if (decision.why && decision.why.length) item.append(element("p", "why", explainHint({ why: decision.why })));
  return item;
}

// Each reviewed player's worth after each of their moves in the round, as that player could judge it; the costly
// moves marked in their class's colour (the list below says each one in words too).
function drawChart(decisions) {
  const kind = kindOf(answer.review);
  const chances = kind !== "turns";
  // As wide as its box, so that its words keep their size on a phone.
  const width = Math.max(300, Math.min(760, $("chart-box").clientWidth || 600)), height = 220, left = 44, right = 12, top = 12, bottom = 28;
  const actions = [...new Set(decisions.map(([, decision]) => decision.action))];
  // the game's chance after each move (also where the round's graded it), the round's, or the turns
  const after = (decision) => (kind === "game" && typeof decision.game_chance_after === "number" ? decision.game_chance_after : decision.after);
  const value = (decision) => (chances ? 100 * after(decision) : after(decision));
  const highest = chances ? 100 : Math.max(1, Math.ceil(Math.max(...decisions.map(([, decision]) => Math.max(decision.after, decision.before)))));
  const x = (action) => left + (actions.length > 1 ? (actions.indexOf(action) * (width - left - right)) / (actions.length - 1) : (width - left - right) / 2);
  const y = (figure) => top + (height - top - bottom) * (1 - figure / highest);
  const caption = t({ game: "review:chart-game", round: "review:chart", turns: "review:chart-turns" }[kind]);
  const seats = answer.review.seats;
  const summary = seats.map((seat) => {
    const mine = decisions.filter(([owner]) => owner === seat).map(([, decision]) => decision);
    if (!mine.length) return null;
    const shown = (decision) => (kind === "game" ? percentText(gameChanceShown(after(decision))) : chances ? percentText(roundChanceShown(after(decision))) : numberText(turns(after(decision))));
    return t("review:chart-summary", { name: seat.name, first: shown(mine[0]), last: shown(mine[mine.length - 1]) });
  }).filter(Boolean);
  const drawing = svg("svg", { viewBox: `0 0 ${width} ${height}`, role: "img", "aria-label": [caption, ...summary].join(". ") });
  for (const mark of [0, highest / 2, highest]) {
    drawing.append(svg("line", { x1: left, x2: width - right, y1: y(mark), y2: y(mark), class: "grid" }));
    const label = svg("text", { x: left - 6, y: y(mark) + 4, class: "axis", "text-anchor": "end" });
    label.textContent = chances ? percentText(mark) : numberText(mark);
    drawing.append(label);
  }
  if (actions.length) {
    for (const [index, action] of [[0, actions[0]], [1, actions[actions.length - 1]]]) {
      const label = svg("text", { x: x(action), y: height - 8, class: "axis", "text-anchor": index ? "end" : "start" });
      label.textContent = t("review:move-n", { n: action });
      drawing.append(label);
    }
  }
  seats.forEach((seat, index) => {
    const mine = decisions.filter(([owner]) => owner === seat).map(([, decision]) => decision);
    if (!mine.length) return;
    drawing.append(svg("polyline", { points: mine.map((decision) => `${x(decision.action)},${y(value(decision))}`).join(" "), class: "seat-line seat-" + (index % 4) }));
    for (const decision of mine.filter((found) => COSTLY.has(found.class))) {
      const dot = svg("circle", { cx: x(decision.action), cy: y(value(decision)), r: 5, class: "mark cls-" + decision.class });
      const tip = svg("title", {});
      tip.textContent = t("review:decision-marked", { n: decision.action, name: seat.name, class: t("review:" + decision.class) });
      dot.append(tip);
      drawing.append(dot);
    }
  });
  $("chart-box").replaceChildren(drawing);
  $("chart-caption").textContent = caption;
  $("chart-legend").replaceChildren(...seats.map((seat, index) => {
    const item = element("li");
    const sample = svg("svg", { viewBox: "0 0 30 10", width: 30, height: 10, "aria-hidden": "true" });
    sample.append(svg("line", { x1: 0, x2: 30, y1: 5, y2: 5, class: "seat-line seat-" + (index % 4) }));
    item.append(sample, " ", bdi(seat.name));
    return item;
  }));
}

function main() {
  watchLanguage(() => { if (answer) render(); else renderProgress(); });
  whoAmI().catch(() => null);
  $("round-choice").addEventListener("change", () => { shownRound = Number($("round-choice").value); renderRound(); });
  $("costly-only").addEventListener("change", renderRound);
  let resized = null;
  window.addEventListener("resize", () => { clearTimeout(resized); resized = setTimeout(() => { if (answer) drawChart(decisionsOf(shownRound)); }, 150); });
  progress = { state: "waiting", ahead: 0 };
  renderProgress();
  follow();
}

main();
