"use strict";
// The puzzles: one position at a time, drawn as the table draws it; a move by click or key is posted and judged
// by the server, which alone knows the answer.  The streak and where you are are this browser's (localStorage).
const $ = (id) => document.getElementById(id);
const SLOT_LABELS = [5, 10, 15, 20, 25, 30, 35, 40, 45, 50];
const KEPT = "racko-puzzles";
let OPTIONS = null;
let current = null; // {number, count, puzzle}
let verdict = null; // the last answer's judgement, while it is shown
let picked = null; // the move posted
let swapFirst = null; // High-Low: the first position chosen for a swap
let busy = false;
let variantShown = ""; // the variant of the puzzles shown ("" for every variant)

function kept() {
  try {
    const data = JSON.parse(localStorage.getItem(KEPT) || "{}");
    return data && typeof data === "object" ? data : {};
  } catch (error) {
    return {};
  }
}

function keep(changes) {
  localStorage.setItem(KEPT, JSON.stringify(Object.assign(kept(), changes)));
}

function numberOf(variant) {
  const numbers = kept().numbers || {};
  return Number.isInteger(numbers[variant || "all"]) ? numbers[variant || "all"] : 1;
}

function renderStreak() {
  const data = kept();
  const streak = Number.isInteger(data.streak) ? data.streak : 0;
  const best = Number.isInteger(data.best) ? data.best : 0;
  $("streak").textContent = t("puzzle:streak", { streak }) + " · " + t("puzzle:best-streak", { best });
}

// The highest card, for the cards' colours: High-Low's 50, or the classic deck of 10 cards a player and 20 more.
const highest = () => (current && current.puzzle.variant === "highlow" ? 50 : current ? 20 + 10 * current.puzzle.players : 40);
const row = () => current && current.puzzle.variant === "highlow";
const moves = () => (current ? current.puzzle.moves : []);
const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

// The move a control stands for, if it is one of the puzzle's moves.
function moveFor(verb, index) {
  const seat = current.puzzle.view.seat;
  let wanted = { seat, act: verb };
  if (verb === "exchange") wanted = { seat, act: "exchange", slot: SLOT_LABELS[index] };
  if (verb === "replace") wanted = { seat, act: "replace", position: index + 1 };
  return moves().find((move) => same(move, wanted)) || null;
}

function swapMove(first, second) {
  const positions = [Math.min(first, second) + 1, Math.max(first, second) + 1];
  return moves().find((move) => move.act === "swap" && same(move.positions, positions)) || null;
}

function slotWord(index) {
  return row() ? t("position", { label: index + 1 }) : t("slot", { label: SLOT_LABELS[index] });
}

function cardLabel(card) {
  return t("card", { card: cardWords(card) });
}

function render() {
  if (!current) return;
  const puzzle = current.puzzle;
  const view = puzzle.view;
  const open = verdict === null;
  const steps = puzzle.first_steps ? " · " + t("puzzle:first-steps") : ""; // the answer goes out at once
  $("number").textContent = t("puzzle:number", { number: current.number, count: current.count }) + " · " + t("puzzle:kind-" + puzzle.kind) + steps;
  $("rule").hidden = !(puzzle.two_player_rule && puzzle.players === 2);
  $("rule").textContent = t("puzzle:two-player-rule");
  // What the seat has seen of the others.
  $("others").replaceChildren(...view.others.map((other) => {
    const box = element("div", "puzzle-other");
    const label = element("p", "", t(row() ? "puzzle:other-row" : "puzzle:other-rack", { seat: other.seat + 1 }));
    const cards = element("div", "rack small");
    other.rack.forEach((card, index) => cards.append(makeCard(card, highest(), slotWord(index) + ": " + (card === null ? t("hidden") : cardLabel(card)))));
    box.append(label, cards);
    return box;
  }));
  // The piles: the stock to draw from, the discard to take, the card in hand.
  const draw = moveFor("draw");
  const take = moveFor("take");
  const stock = $("stock");
  $("stock-box").hidden = row() || puzzle.kind === "place" || puzzle.kind === "place-taken";
  stock.querySelector(".count").textContent = view.stock;
  stock.querySelector(".what").textContent = t("stock_short");
  stock.setAttribute("aria-label", t("stock", { n: view.stock }) + (draw ? " (d)" : ""));
  stock.disabled = !(open && draw);
  const discard = $("discard");
  $("discard-box").hidden = row() && view.discard === null;
  discard.replaceChildren(view.discard === null ? document.createTextNode(t("empty")) : makeCard(view.discard, highest()));
  discard.setAttribute("aria-label", t("discard_pile") + ": " + (view.discard === null ? t("empty") : cardLabel(view.discard)) + (take ? " (t)" : ""));
  discard.disabled = !(open && take);
  $("held-box").hidden = view.card === null;
  $("held").replaceChildren(...(view.card === null ? [] : [makeCard(view.card, highest(), t("in_hand", { card: cardWords(view.card) }))]));
  // The rack (or row), every slot a control when it is a move.
  $("rack-label").textContent = t(row() ? "puzzle:your-row" : "puzzle:your-rack");
  $("rack").replaceChildren(...view.rack.map((card, index) => {
    const slot = element("button", "slot");
    slot.type = "button";
    const label = element("span", "label", row() ? String(index + 1) : String(SLOT_LABELS[index]));
    slot.append(label, makeCard(card, highest()));
    slot.setAttribute("aria-label", slotWord(index) + ": " + cardLabel(card));
    const move = slotMove(index);
    slot.disabled = !(open && (move !== null || puzzle.kind === "row-swap"));
    if (swapFirst === index) slot.classList.add("picked");
    mark(slot, move);
    markSwap(slot, index);
    slot.addEventListener("click", () => clickSlot(index));
    return slot;
  }));
  for (const button of document.querySelectorAll("#actions [data-verb]")) {
    const move = moveFor(button.dataset.verb);
    button.hidden = move === null;
    button.disabled = !open;
    mark(button, move);
  }
  mark(stock, draw);
  mark(discard, take);
  $("prompt").textContent = open ? (swapFirst !== null ? t("swap_second", { n: swapFirst + 1 }) : t("puzzle:ask-" + view.situation, { card: cardWords(view.card) })) : "";
  renderVerdict();
  renderStreak();
}

// A slot's move: the card in hand goes there (or, taking, the top discard does: the take is the move).
function slotMove(index) {
  const kind = current.puzzle.kind;
  if (kind === "row-place") return moveFor("replace", index);
  if (kind === "place" || kind === "place-taken") return moveFor("exchange", index);
  return null;
}

// After an answer: the move played and the best move are marked.
function mark(control, move) {
  control.classList.remove("best");
  if (swapFirst === null) control.classList.remove("picked");
  if (!verdict || move === null) return;
  if (same(move, verdict.answer)) control.classList.add("best");
  else if (same(move, picked)) control.classList.add("picked");
}

// High-Low's swaps: the two positions of the best swap, and of the swap played, are marked like a slot.
function markSwap(slot, index) {
  if (!verdict) return;
  const has = (move) => move && move.act === "swap" && move.positions.includes(index + 1);
  if (has(verdict.answer)) slot.classList.add("best");
  else if (has(picked)) slot.classList.add("picked");
}

function renderVerdict() {
  const box = $("verdict");
  box.hidden = verdict === null;
  if (!verdict) return;
  box.classList.toggle("right", verdict.right);
  $("verdict-title").textContent = t(verdict.right ? "puzzle:answer-title-right" : "puzzle:answer-title-wrong");
  $("reasons").replaceChildren(...verdict.why.map((sentence) => element("li", "", sentenceText(sentence))));
}

// A sentence of the server's in the page's language: its key and values (a list of cards said as "4, 14, 24").
function sentenceText(sentence) {
  if (!WORDS.en[sentence.key]) return sentence.text;
  const values = {};
  for (const [name, value] of Object.entries(sentence.values || {})) values[name] = Array.isArray(value) ? value.join(", ") : value;
  return t(sentence.key, values);
}

function clickSlot(index) {
  if (verdict !== null || busy) return;
  if (current.puzzle.kind === "row-swap") {
    if (swapFirst === null) { swapFirst = index; render(); return; }
    if (swapFirst === index) { swapFirst = null; render(); return; }
    const move = swapMove(swapFirst, index);
    swapFirst = null;
    if (move) play(move); else render();
    return;
  }
  const move = slotMove(index);
  if (move) play(move);
}

async function play(move) {
  if (verdict !== null || busy) return;
  busy = true;
  picked = move;
  try {
    verdict = await judge(move);
    const data = kept();
    const streak = verdict.right ? (Number.isInteger(data.streak) ? data.streak : 0) + 1 : 0;
    // An answered puzzle is done: a reload poses the next one (the streak cannot grow on an answer already seen).
    const numbers = data.numbers || {};
    numbers[variantShown || "all"] = current.number + 1;
    keep({ streak, best: Math.max(streak, Number.isInteger(data.best) ? data.best : 0), numbers });
    $("said").textContent = t(verdict.right ? "puzzle:answer-title-right" : "puzzle:answer-title-wrong");
    render();
    $("next").focus();
  } catch (error) {
    $("status").textContent = t("puzzle:error", { message: error.message });
  } finally {
    busy = false;
  }
}

function judge(move) {
  return api("/api/puzzles/" + encodeURIComponent(current.puzzle.id) + "/answer", { method: "POST", body: JSON.stringify({ move, lang: LANG }) });
}

async function load(number, variant) {
  try {
    const query = new URLSearchParams({ number: String(number) });
    if (variant) query.set("variant", variant);
    current = await api("/api/puzzles?" + query.toString());
    variantShown = variant;
    verdict = null;
    picked = null;
    swapFirst = null;
    const numbers = kept().numbers || {};
    numbers[variant || "all"] = current.number;
    keep({ numbers, variant });
    $("status").textContent = "";
    fillVariants();
    render();
    return true;
  } catch (error) {
    $("status").textContent = t("puzzle:error", { message: error.message });
    return false;
  }
}

function next() {
  if (current) load(current.number + 1, variantShown);
}

function onKey(event) {
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  const target = event.target;
  if (target instanceof HTMLSelectElement || target instanceof HTMLInputElement) return;
  if (!current) return;
  const key = event.key.toLowerCase();
  if (verdict !== null) {
    if (key === "n") { event.preventDefault(); next(); }
    return;
  }
  const verbs = { d: "draw", t: "take", x: "discard", r: "racko", w: "wait", k: "keep" };
  if (verbs[key]) {
    const move = moveFor(verbs[key]);
    if (move) { event.preventDefault(); play(move); }
    return;
  }
  if (/^[0-9]$/.test(key)) {
    event.preventDefault();
    clickSlot(key === "0" ? 9 : Number(key) - 1);
  } else if (key === "escape" && swapFirst !== null) {
    swapFirst = null;
    render();
  }
}

// The variant chooser: every variant that has puzzles (the server says which), by its title in the page's language.
function fillVariants() {
  const select = $("variant");
  const names = current ? current.variants : [];
  const titles = new Map((OPTIONS ? OPTIONS.variants : []).map((v) => [v.name, v.title]));
  select.replaceChildren(new Option(t("puzzle:variant-all"), ""), ...names.map((name) => new Option(variantTitle(name, titles.get(name) || name), name)));
  select.value = variantShown;
}

async function main() {
  const select = $("variant");
  select.addEventListener("change", () => load(numberOf(select.value), select.value));
  watchLanguage(async () => {
    fillVariants();
    if (verdict !== null && picked !== null) {
      try { verdict = await judge(picked); } catch (error) { /* the words stay as they were */ }
    }
    render();
  });
  $("stock").addEventListener("click", () => { const move = moveFor("draw"); if (move) play(move); });
  $("discard").addEventListener("click", () => { const move = moveFor("take"); if (move) play(move); });
  for (const button of document.querySelectorAll("#actions [data-verb]")) {
    button.addEventListener("click", () => { const move = moveFor(button.dataset.verb); if (move) play(move); });
  }
  $("next").addEventListener("click", next);
  document.addEventListener("keydown", onKey);
  whoAmI();
  renderStreak();
  fillVariants();
  OPTIONS = await api("/api/options").catch(() => null);
  const variant = typeof kept().variant === "string" ? kept().variant : "";
  if (!(await load(numberOf(variant), variant)) && variant) await load(numberOf(""), "");
}

main();
