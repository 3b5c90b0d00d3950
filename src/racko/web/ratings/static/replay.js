"use strict";
// A finished game again, move by move: every rack open, the discard pile, the stock, the totals and each move's
// line of the log; by buttons, the slider, or the arrow keys.
const $ = (id) => document.getElementById(id);
const GAME = decodeURIComponent(location.pathname.split("/").pop());
let game = null, step = 0, timer = null;

function render() {
  const current = game.steps[step];
  const highest = game.variant === "highlow" ? 50 : Math.max(40, ...current.racks.flat().filter((c) => typeof c === "number"));
  $("step").value = String(step);
  $("step-label").textContent = t("step_of", { n: step, total: game.steps.length - 1 });
  $("racks").replaceChildren(...current.racks.map((rack, seat) => {
    const box = element("section", "replay-seat" + (current.to_act === seat ? " acting" : ""));
    const title = element("h3");
    title.append(bdi(game.names[seat]), " · " + current.totals[seat] + (current.to_act === seat ? " · " + t("to_act_now") : ""));
    const row = element("div", "rack small");
    rack.forEach((card, index) => row.append(makeCard(card, highest, t(game.variant === "highlow" ? "position" : "slot", { label: game.slots[index] }) + ": " + t("card", { card }))));
    box.append(title, row);
    return box;
  }));
  $("piles").textContent = t("round") + " " + current.round + " · " + t("discard_pile") + ": " + (current.discard === null ? t("empty") : current.discard) + " · " + t("stock", { n: current.stock });
  const moves = $("moves");
  moves.replaceChildren(...game.steps.slice(Math.max(1, step - 5), step + 1).flatMap((s) => {
    const items = s.log.map((entry) => {
      const item = element("li", s.made_by ? "made-by-computer" : "");
      item.append(...describeEntry(entry, game.names, game.variant === "highlow" ? "highlow" : "classic"));
      return item;
    });
    // A move a computer player made for the seat's person (the clock, a gone seat, a person who left): said so.
    if (s.made_by) {
      const note = element("li", "made-by");
      note.append(...tNodes("made_by_" + s.made_by, { name: bdi(game.names[s.seat]) }));
      items.push(note);
    }
    return items;
  }));
}

function go(to) {
  step = Math.max(0, Math.min(game.steps.length - 1, to));
  render();
}

function playing(on) {
  clearInterval(timer);
  timer = on ? setInterval(() => { if (step >= game.steps.length - 1) playing(false); else go(step + 1); }, 700) : null;
  $("play").textContent = t(on ? "pause" : "play_replay");
}

async function main() {
  watchLanguage(() => { if (game) { $("replay-title").textContent = t("replay_title", { title: variantTitle(game.variant, game.title) }); render(); } });
  whoAmI();
  try {
    game = await api("/api/games/" + encodeURIComponent(GAME) + "/replay");
  } catch (error) {
    $("replay-title").textContent = t("not_found");
    return;
  }
  $("replay-title").textContent = t("replay_title", { title: variantTitle(game.variant, game.title) });
  $("review-link").href = reviewHref(GAME);
  $("step").max = String(game.steps.length - 1);
  $("step").addEventListener("input", () => go(Number($("step").value)));
  $("first").addEventListener("click", () => go(0));
  $("back").addEventListener("click", () => go(step - 1));
  $("forward").addEventListener("click", () => go(step + 1));
  $("last").addEventListener("click", () => go(game.steps.length - 1));
  $("play").addEventListener("click", () => playing(timer === null));
  document.addEventListener("keydown", (event) => {
    if (event.target instanceof HTMLInputElement) return;
    if (event.key === "ArrowRight") { go(step + 1); event.preventDefault(); }
    else if (event.key === "ArrowLeft") { go(step - 1); event.preventDefault(); }
  });
  render();
}

main();
