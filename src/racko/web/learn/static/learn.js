"use strict";
// The first lesson.  The server replays the answers given so far on the lesson's prepared deal and says the step
// they lead to, and its verdict on a new answer (racko/analysis/lesson.py); this page keeps only the answers, in
// its address, so that a reload resumes where the learner was.
const $ = (id) => document.getElementById(id);
const KEYS = { d: "draw", t: "take", x: "discard", r: "racko", w: "wait" };
let answers = answersInAddress();
let view = null;
let feedback = null;
let busy = false;

function answersInAddress() {
  const given = new URLSearchParams(location.hash.slice(1)).get("a");
  return given ? given.split(",") : [];
}

function keepAnswers() {
  history.replaceState(null, "", answers.length ? "#a=" + answers.join(",") : location.pathname);
}

// A sentence of the lesson in the page's language; a list of cards is said as "27, 28, 29".
function say(key, values) {
  const said = {};
  for (const [name, value] of Object.entries(values || {})) said[name] = Array.isArray(value) ? value.join(", ") : value;
  return t(key, said);
}

async function ask(attempt) {
  if (busy) return;
  busy = true;
  const query = new URLSearchParams({ answers: answers.join(",") });
  if (attempt !== undefined) query.set("try", attempt);
  try {
    const data = await api("/api/learn?" + query);
    feedback = data.feedback || null;
    if (feedback && feedback.accepted) {
      answers.push(attempt);
      keepAnswers();
    }
    view = data.view;
    render();
  } catch (error) {
    if (attempt === undefined && answers.length) {
      // An address whose answers are not the lesson's (edited, or from an older lesson): start again.
      answers = [];
      keepAnswers();
      busy = false;
      return ask();
    }
    feedback = { accepted: false, why: [], error: t("lesson:error", { message: error.message }) };
    renderFeedback();
  } finally {
    busy = false;
  }
}

function answer(word) {
  if (view && !busy) ask(word);
}

function slotButton(card, index, out, active) {
  const slot = element("button", "slot");
  slot.type = "button";
  if (out) slot.classList.add("out");
  const label = element("span", "label", String(view.slots[index]));
  slot.append(label, makeCard(card, view.highest));
  const words = [t("slot", { label: view.slots[index] }) + ": " + t("card", { card: String(card) })];
  if (out) words.push(t("lesson:out-mark"));
  slot.setAttribute("aria-label", words.join(", "));
  slot.disabled = !active;
  if (active) slot.addEventListener("click", () => answer("slot:" + index));
  return slot;
}

function render() {
  const kind = view.kind;
  const values = view.values;
  document.title = t("lesson:title") + " · Rack-O";
  $("step-of").textContent = t("lesson:step-of", { n: view.step + 1, total: view.steps });
  $("progress").max = view.steps;
  $("progress").value = view.step + 1;
  $("lesson-title").textContent = say("lesson:" + view.name + ":title", values);
  $("lesson-text").textContent = say("lesson:" + view.name + ":text", values);
  $("happened").replaceChildren(...view.happened.map((sentence) => element("li", "", say(sentence.key, sentence.values))));
  // The piles (while the round is played) and the racks: yours, and at the end everyone's.
  const over = view.result !== null;
  $("stock").parentElement.hidden = over;
  $("stock").querySelector(".count").textContent = view.stock;
  $("stock").querySelector(".what").textContent = t("stock_short");
  $("stock").setAttribute("aria-label", t("stock", { n: view.stock }) + " (d)");
  $("stock").disabled = kind !== "pick";
  const discard = $("discard");
  discard.replaceChildren(view.discard === null ? document.createTextNode(t("empty")) : makeCard(view.discard, view.highest));
  discard.setAttribute("aria-label", t("discard_pile") + ": " + (view.discard === null ? t("empty") : t("card", { card: String(view.discard) })) + " (t)");
  discard.disabled = kind !== "pick";
  $("held").replaceChildren(...(view.held !== null ? [makeCard(view.held, view.highest, t("in_hand", { card: String(view.held) }))] : []));
  const mine = over ? view.result.racks[0] : view.rack;
  $("rack").classList.toggle("active", kind === "place");
  $("rack").replaceChildren(...mine.map((card, index) => slotButton(card, index, !over && view.out_of_order.includes(index), kind === "place")));
  $("their-title").hidden = $("their-rack").hidden = !over;
  if (over) {
    $("their-title").textContent = say("lesson:rack-of", values);
    $("their-rack").replaceChildren(...view.result.racks[1].map((card, index) => slotButton(card, index, false, false)));
  }
  // The round's scores, once the question about Robin's is answered.
  $("scores").hidden = !over || view.name === "score";
  if (over) $("scores").textContent = t("lesson:scores", { mine: view.result.scores[0], name: values.name, theirs: view.result.scores[1] });
  // The actions this step may take: the others are hidden, so that the step shows what it asks.
  for (const button of document.querySelectorAll("#actions [data-answer]")) {
    const word = button.dataset.answer;
    button.hidden = !(word === "next" ? kind === "read" : word === "discard" ? kind === "place" : kind === "declare");
  }
  $("choices").replaceChildren(...view.choices.map((choice, index) => {
    const button = element("button", "");
    button.type = "button";
    button.append(t("lesson:points", { points: choice }) + " ");
    button.append(element("kbd", "", String(index + 1)));
    button.addEventListener("click", () => answer("choice:" + choice));
    return button;
  }));
  $("end-links").hidden = kind !== "end";
  renderFeedback();
  if (!document.activeElement || document.activeElement === document.body || document.activeElement.disabled || document.activeElement.hidden) {
    $("lesson-title").focus({ preventScroll: true });
  }
}

function renderFeedback() {
  const box = $("feedback");
  box.className = "feedback" + (feedback ? (feedback.accepted ? " right" : " wrong") : "");
  if (!feedback) return box.replaceChildren();
  if (feedback.error) return box.replaceChildren(feedback.error);
  const said = feedback.why.map((sentence) => say(sentence.key, sentence.values)).join(" ");
  box.replaceChildren(...(feedback.accepted ? [said] : [element("strong", "", t("lesson:wrong") + " ·"), said]));
  // The verdict sits above the step: on a phone the person answered further down, so bring it into view.
  box.scrollIntoView({ block: "nearest" });
}

function main() {
  for (const button of document.querySelectorAll("[data-answer]")) button.addEventListener("click", () => answer(button.dataset.answer));
  $("restart").addEventListener("click", () => {
    answers = [];
    feedback = null;
    keepAnswers();
    ask();
  });
  document.addEventListener("keydown", (event) => {
    if (!view || event.ctrlKey || event.metaKey || event.altKey) return;
    if (event.target instanceof HTMLInputElement || event.target instanceof HTMLSelectElement) return;
    const key = event.key.toLowerCase();
    if (KEYS[key]) answer(KEYS[key]);
    else if (/^[0-9]$/.test(key) && view.kind === "choose") {
      const choice = view.choices[Number(key) - 1];
      if (choice === undefined) return;
      answer("choice:" + choice);
    } else if (/^[0-9]$/.test(key)) answer("slot:" + (key === "0" ? 9 : Number(key) - 1));
    else if (key === "enter" && view.kind === "read" && !(event.target instanceof HTMLButtonElement || event.target instanceof HTMLAnchorElement)) answer("next");
    else return;
    event.preventDefault();
  });
  // The address edited by hand, or back and forward: the lesson follows it.
  window.addEventListener("hashchange", () => {
    answers = answersInAddress();
    feedback = null;
    ask();
  });
  watchLanguage(() => {
    if (view) render();
  });
  whoAmI();
  ask();
}

main();
