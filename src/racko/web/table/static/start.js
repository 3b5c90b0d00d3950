"use strict";
// The start page: choose the game and who sits where, then hand out the links.
let OPTIONS = null;

function option(value, text) {
  const element = document.createElement("option");
  element.value = value;
  element.textContent = text;
  return element;
}

function chosenVariant() {
  return OPTIONS.variants.find((v) => v.name === document.getElementById("variant").value);
}

function showSeats() {
  const variant = chosenVariant();
  const players = Number(document.getElementById("players").value);
  const box = document.getElementById("seats");
  const kept = [...box.querySelectorAll("select")].map((s) => s.value);
  for (const row of [...box.querySelectorAll(".seat")]) row.remove();
  for (let seat = 0; seat < players; seat++) {
    const row = document.createElement("div");
    row.className = "seat";
    const label = document.createElement("label");
    const caption = document.createElement("span");
    caption.textContent = t("seat") + " " + (seat + 1);
    const select = document.createElement("select");
    select.id = "seat-" + seat;
    select.setAttribute("aria-label", t("seat") + " " + (seat + 1));
    if (seat === 0) select.append(option("me", t("me")));
    select.append(option("person", t("person")));
    for (const bot of variant.bots) select.append(option(bot, t("computer_named", { bot })));
    const wanted = kept[seat];
    select.value = wanted && [...select.options].some((o) => o.value === wanted) ? wanted : seat === 0 ? "me" : variant.default_bot;
    const name = document.createElement("input");
    name.id = "name-" + seat;
    name.maxLength = 24;
    name.placeholder = t("your_name");
    name.setAttribute("aria-label", t("your_name") + " (" + t("seat") + " " + (seat + 1) + ")");
    const update = () => { name.hidden = !(select.value === "me" || select.value === "person"); };
    select.addEventListener("change", update);
    update();
    label.append(caption, select);
    row.append(label, name);
    box.append(row);
  }
  document.getElementById("run-rule-row").hidden = players !== 2;
}

function variantChanged() {
  const variant = chosenVariant();
  document.getElementById("about").textContent = WORDS.en["variant:" + variant.name] ? t("variant:" + variant.name) : variant.description;
  const players = document.getElementById("players");
  players.replaceChildren(...variant.players.map((n) => option(String(n), String(n))));
  document.getElementById("target").placeholder = variant.target;
  document.getElementById("refill").value = variant.refill;
  showSeats();
}

// The speeds a table may have, with their numbers (the server's /api/options): no clock is for casual tables only,
// so a rated table offers the others and chooses the default speed if no clock was chosen.
// Real-time speeds and turn-based ones (days per move: for friends who play over days) in a group each.
function showClocks() {
  const select = document.getElementById("clock");
  const kept = select.value || "none";
  const real = document.createElement("optgroup");
  real.label = t("speed_real_time");
  real.append(...OPTIONS.clocks.map((preset) => option(preset.name, t("clock:" + preset.name, { move: preset.move, bank: preset.bank }))));
  const days = document.createElement("optgroup");
  days.label = t("speed_turn_based");
  days.append(...(OPTIONS.turn_clocks || []).map((preset) => option(preset.name, t("speed:" + preset.name))));
  select.replaceChildren(option("none", t("clock:none")), real, days);
  select.value = kept;
  ratedChanged();
}

function ratedChanged() {
  const select = document.getElementById("clock");
  const rated = document.getElementById("rated").checked;
  select.querySelector('option[value="none"]').disabled = rated;
  if (rated && select.value === "none") select.value = OPTIONS.default_clock;
}

async function create(event) {
  event.preventDefault();
  const players = Number(document.getElementById("players").value);
  const seats = [], names = [];
  for (let seat = 0; seat < players; seat++) {
    seats.push(document.getElementById("seat-" + seat).value);
    names.push(document.getElementById("name-" + seat).value);
  }
  const target = document.getElementById("target").value;
  const form = {
    variant: document.getElementById("variant").value, players, seats, names,
    refill: document.getElementById("refill").value,
    target: target ? Number(target) : null,
    two_player_rule: players === 2 ? document.getElementById("run-rule").value === "true" : null,
    public: document.getElementById("public").value === "true",
    rated: document.getElementById("rated").checked,
    clock: document.getElementById("clock").value,
  };
  const problem = document.getElementById("problem");
  problem.textContent = "";
  const answer = await fetch("/api/tables", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(form) });
  const data = await answer.json();
  if (!answer.ok) { problem.textContent = data.error; return; }
  showLinks(data);
}

function tableLink(table, token) {
  return location.origin + "/t/" + encodeURIComponent(table) + (token ? "#seat=" + token : "");
}

function showLinks(data) {
  const list = document.getElementById("link-list");
  list.replaceChildren();
  let mine = null;
  for (const seat of data.seats) {
    if (!seat.token) continue;
    const url = tableLink(data.table, seat.token);
    if (seat.who === "me") mine = url;
    list.append(linkItem(t("seat") + " " + (seat.seat + 1) + (seat.who === "me" ? " (" + t("your_link") + ")" : ""), url, seat.seat));
  }
  list.append(linkItem(t("spectate"), tableLink(data.table, null), "spectate"));
  const go = document.getElementById("go");
  go.href = mine || tableLink(data.table, null);
  document.getElementById("links").hidden = false;
  document.getElementById("new-table").hidden = true;
}

function linkItem(caption, url, key) {
  const item = document.createElement("li");
  const label = document.createElement("span");
  label.textContent = caption + ": ";
  const field = document.createElement("input");
  field.readOnly = true;
  field.value = url;
  field.className = "link";
  field.dataset.seat = key;
  field.setAttribute("aria-label", caption);
  const copy = document.createElement("button");
  copy.type = "button";
  copy.textContent = t("copy");
  copy.addEventListener("click", async () => {
    field.select();
    try { await navigator.clipboard.writeText(url); copy.textContent = t("copied"); } catch (e) { document.execCommand("copy"); }
  });
  item.append(label, field, copy);
  return item;
}

async function main() {
  whoAmI().catch(() => null);  // the header's link to the player's own page
  OPTIONS = await (await fetch("/api/options")).json();
  const variants = document.getElementById("variant");
  variants.replaceChildren(...OPTIONS.variants.map((v) => option(v.name, variantTitle(v.name, v.title))));
  variants.addEventListener("change", variantChanged);
  document.getElementById("players").addEventListener("change", showSeats);
  document.getElementById("new-table").addEventListener("submit", create);
  document.getElementById("rated").addEventListener("change", ratedChanged);
  showClocks();
  watchLanguage(() => {
    showClocks();
    for (const choice of variants.options) choice.textContent = variantTitle(choice.value, choice.textContent);
    showSeats();
    document.getElementById("about").textContent = t("variant:" + chosenVariant().name);
  });
  variantChanged();
}

main();
