"use strict";
// A person challenges a bot account: the game's settings (the button waits, disabled, for the options and the
// person's name), then the bot's answer as it comes (the page asks every second); an accepted challenge takes the
// person to the table, where their seat is theirs without a link.
let OPTIONS = null, challenge = null, me = null;
const $ = (id) => document.getElementById(id);
const botName = decodeURIComponent(location.pathname.split("/").pop());

function chosenVariant() {
  return OPTIONS.variants.find((v) => v.name === $("variant").value);
}

function showSeats() {
  const variant = chosenVariant();
  const players = Number($("players").value);
  const box = $("seats");
  const kept = [...box.querySelectorAll("select")].map((s) => s.value);
  for (const row of [...box.querySelectorAll(".seat")]) row.remove();
  $("seat-you").replaceChildren(t("seat") + " 1: ", me ? bdi(me.name) : t("challenge_you"));
  $("seat-bot").replaceChildren(t("seat") + " 2: ", bdi(botName + " (bot)"));
  for (let seat = 2; seat < players; seat++) { // the seats beyond yours and the bot's: a friend, or racko's computer
    const label = element("label", "seat");
    const select = element("select");
    select.id = "seat-" + seat;
    select.append(new Option(t("person"), "person"));
    for (const bot of variant.bots) select.append(new Option(t("computer_named", { bot }), bot));
    const wanted = kept[seat - 2];
    select.value = wanted && [...select.options].some((o) => o.value === wanted) ? wanted : variant.default_bot;
    label.append(element("span", "", t("seat") + " " + (seat + 1)), " ", select);
    box.append(label);
  }
}

function variantChanged() {
  const variant = chosenVariant();
  const kept = $("players").value;
  $("players").replaceChildren(...variant.players.map((n) => new Option(String(n), String(n))));
  if (variant.players.includes(Number(kept))) $("players").value = kept;
  $("target").placeholder = variant.target;
  showSeats();
}

function clocks() {
  const select = $("clock");
  const kept = select.value;
  const rated = $("rated").checked;
  const choices = OPTIONS.clocks.map((preset) => new Option(t("clock:" + preset.name, { move: preset.move, bank: preset.bank }), preset.name));
  if (!rated) choices.unshift(new Option(t("clock:none"), "none"));
  select.replaceChildren(...choices);
  select.value = [...select.options].some((o) => o.value === kept) ? kept : rated ? OPTIONS.default_clock : "none";
}

// How the challenge stands, in the page's language; accepted: to the table.
function show() {
  if (!challenge) return;
  const state = challenge.state;
  $("withdraw").hidden = state !== "open";
  if (state === "open") $("answer").textContent = t("challenge_open", { bot: botName, seconds: Math.ceil(challenge.expires_in) });
  else if (state === "accepted" && challenge.guests && challenge.guests.length) guestLinks(); // first, the friends' links
  else if (state === "accepted") { $("answer").textContent = t("challenge_accepted", { bot: botName }); location.assign("/t/" + encodeURIComponent(challenge.table)); }
  else if (state === "declined") $("answer").textContent = t("challenge_declined", { bot: botName, reason: t("decline:" + challenge.reason) });
  else $("answer").textContent = t("challenge_" + state, { bot: botName });
}

// Accepted, with seats for friends: their links to send, then the person's own way to the table.
function guestLinks() {
  const table = "/t/" + encodeURIComponent(challenge.table);
  const list = element("ul", "lines");
  for (const guest of challenge.guests) {
    const item = element("li");
    const field = element("input", "link");
    field.readOnly = true;
    field.value = location.origin + table + "#seat=" + guest.token;
    field.setAttribute("aria-label", t("seat") + " " + (guest.seat + 1));
    item.append(t("seat") + " " + (guest.seat + 1) + ": ", field);
    list.append(item);
  }
  const go = element("a", "button primary", t("go"));
  go.href = table;
  go.id = "to-table";
  $("answer").replaceChildren(t("challenge_links", { bot: botName }), list, go);
}

async function follow() {
  while (challenge && challenge.state === "open") {
    await new Promise((done) => setTimeout(done, 1000));
    try { challenge = await api("/api/challenges/" + encodeURIComponent(challenge.id)); }
    catch (error) { challenge = { ...challenge, state: error.status === 404 ? "gone" : challenge.state }; }
    show();
  }
}

async function send(event) {
  event.preventDefault();
  $("problem").textContent = "";
  const players = Number($("players").value);
  const seats = [];
  for (let seat = 2; seat < players; seat++) seats.push($("seat-" + seat).value);
  const target = $("target").value;
  const body = {
    bot: botName, variant: $("variant").value, players, seats, rated: $("rated").checked, clock: $("clock").value,
    target: target ? Number(target) : null,
  };
  try {
    challenge = await api("/api/challenges", { method: "POST", body: JSON.stringify(body) });
    show();
    follow();
  } catch (error) {
    const key = "challenge_refused:" + error.code;
    $("problem").textContent = t(key) === key ? t("err_generic", { message: error.message }) : t(key, { bot: botName });
  }
}

async function withdraw() {
  try {
    challenge = await api("/api/challenges/" + encodeURIComponent(challenge.id) + "/withdraw", { method: "POST", body: "{}" });
    show();
  } catch (error) { $("problem").textContent = t("err_generic", { message: error.message }); }
}

async function main() {
  $("challenge-form").addEventListener("submit", send);
  $("withdraw").addEventListener("click", withdraw);
  OPTIONS = await api("/api/options");
  me = await whoAmI();
  const title = () => $("challenge-title").replaceChildren(...tNodes("challenge_title", { bot: bdi(botName + " (bot)") }));
  $("variant").replaceChildren(...OPTIONS.variants.map((v) => new Option(variantTitle(v.name, v.title), v.name)));
  $("variant").addEventListener("change", variantChanged);
  $("players").addEventListener("change", showSeats);
  $("rated").addEventListener("change", clocks);
  variantChanged();
  clocks();
  title();
  $("send").disabled = !me;
  if (!me) $("problem").textContent = t("challenge_need_name");
  watchLanguage(() => { title(); showSeats(); clocks(); show(); });
}

main();
