"use strict";
// The tournaments: those running, starting soon and finished, looked at again every ten seconds (the times counted
// down each second), and the form that makes one (a person with a name).
const $ = (id) => document.getElementById(id);
let OPTIONS = null, listed = [], me = null;

function render() {
  const groups = { running: [], soon: [], finished: [] };
  for (const line of listed) groups[line.status === "started" ? "running" : line.status === "created" ? "soon" : "finished"].push(line);
  for (const [name, lines] of Object.entries(groups)) {
    $(name + "-list").replaceChildren(...(lines.length ? lines.map(tournamentLine) : [element("li", "empty", t("tn_none"))]));
  }
}

async function refresh() {
  const data = await api("/api/tournaments");
  noteServerNow(data.now);
  listed = data.tournaments;
  render();
}

function option(value, text) {
  const made = document.createElement("option");
  made.value = value;
  made.textContent = text;
  return made;
}

function chosenVariant() {
  return OPTIONS.variants.find((variant) => variant.name === $("make-variant").value);
}

function variantChanged() {
  const variant = chosenVariant();
  const kept = $("make-seats").value;
  $("make-seats").replaceChildren(...variant.players.map((n) => option(String(n), variant.name === "partners" ? t("tn_teams_of_two") : String(n))));
  if (variant.players.includes(Number(kept))) $("make-seats").value = kept;
  $("make-target").placeholder = String(variant.target); // empty: the variant's own
  seatsChanged();
  const levels = $("make-levels");
  const chosen = new Set([...levels.querySelectorAll("input:checked")].map((box) => box.value));
  const boxes = variant.bots.map((bot) => {
    const label = element("label", "check");
    const box = element("input");
    box.type = "checkbox";
    box.value = bot;
    box.checked = chosen.has(bot);
    label.append(box, " ", bot);
    return label;
  });
  levels.replaceChildren(levels.querySelector("legend"), ...boxes);
}

// The 2-player rule is asked for at tables of two (classic and Bonus Rack-O).
function seatsChanged() {
  $("make-run-row").hidden = $("make-seats").value !== "2" || !["classic", "bonus"].includes($("make-variant").value);
}

// An arena is played in real time; a Swiss may be played over days (days a move).
function kindChanged() {
  const arena = $("make-kind").value === "arena";
  $("make-rounds-row").hidden = arena;
  $("make-minutes-row").hidden = !arena;
  const kept = $("make-clock").value || "normal";
  const real = document.createElement("optgroup");
  real.label = t("speed_real_time");
  real.append(...OPTIONS.clocks.map((preset) => option(preset.name, t("clock:" + preset.name, { move: preset.move, bank: preset.bank }))));
  const groups = [real];
  if (!arena) {
    const days = document.createElement("optgroup");
    days.label = t("speed_turn_based");
    days.append(...OPTIONS.turn_clocks.map((preset) => option(preset.name, t("speed:" + preset.name))));
    groups.push(days);
  }
  $("make-clock").replaceChildren(...groups);
  $("make-clock").value = [...$("make-clock").options].some((o) => o.value === kept) ? kept : "normal";
}

function startsOptions() {
  const kept = $("make-starts").value || "600";
  const minutes = [2, 5, 10, 15, 30, 60, 120, 24 * 60];
  $("make-starts").replaceChildren(...minutes.map((n) => option(String(n * 60), n < 60 ? t("tn_in_minutes", { n }) : n < 24 * 60 ? t("tn_in_hours", { n: n / 60 }) : t("tn_in_a_day"))));
  $("make-starts").value = kept;
}

// A refusal said in the page's language when the page has words for its code, else as the server said it.
function refusal(error) {
  const key = "tn_refused_" + error.code;
  return WORDS.en[key] ? t(key) : t("err_generic", { message: error.message });
}

async function make(event) {
  event.preventDefault();
  $("make-problem").textContent = "";
  const arena = $("make-kind").value === "arena";
  const target = $("make-target").value;
  const form = {
    name: $("make-name").value,
    kind: $("make-kind").value,
    variant: $("make-variant").value,
    seats: Number($("make-seats").value),
    clock: $("make-clock").value,
    rated: $("make-rated").checked,
    entry: $("make-entry").value,
    finishers: $("make-finishers").checked,
    two_player_rule: $("make-run-rule").checked,
    levels: [...$("make-levels").querySelectorAll("input:checked")].map((box) => box.value),
    starts_in: Number($("make-starts").value),
    target: target ? Number(target) : null,
  };
  if (arena) form.minutes = Number($("make-minutes").value);
  else form.rounds = Number($("make-rounds").value);
  $("make-go").disabled = true;
  try {
    const made = await api("/api/tournaments", { method: "POST", body: JSON.stringify(form) });
    location.assign(made.url);
  } catch (error) {
    $("make-problem").textContent = refusal(error);
    $("make-go").disabled = false;
  }
}

async function main() {
  OPTIONS = await api("/api/options");
  $("make-variant").replaceChildren(...OPTIONS.variants.map((variant) => option(variant.name, variantTitle(variant.name, variant.title))));
  $("make-variant").addEventListener("change", variantChanged);
  $("make-kind").addEventListener("change", kindChanged);
  $("make-seats").addEventListener("change", seatsChanged);
  $("make-form").addEventListener("submit", make);
  watchLanguage(() => { variantChanged(); kindChanged(); startsOptions(); render(); });
  variantChanged();
  kindChanged();
  startsOptions();
  me = await whoAmI();
  $("make-need-name").hidden = !!me;
  $("make-form").hidden = !me;
  await refresh();
  setInterval(() => refresh().catch(() => {}), 10000);
  setInterval(tickWhens, 1000);
}

main();
