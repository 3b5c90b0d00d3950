"use strict";
// The page's words by language, then key: the rooms' words the server put into the page as data
// (racko.web.core.pages), read here once, before anything is said: English (every language's fallback) and the
// page's own language; another language's words are asked for when the person chooses it (loadWords).
const WORDS = { en: {}, nl: {}, fr: {} };
const WORDS_BLOCK = document.getElementById("racko-words");
const CARRIED = new Set();
for (const [language, words] of Object.entries(JSON.parse(WORDS_BLOCK.textContent))) {
  Object.assign(WORDS[language], words);
  CARRIED.add(language);
}

// A language's words for this page's rooms, from the server (same origin), once; whether they are here now.
async function loadWords(language) {
  if (CARRIED.has(language)) return true;
  if (!(language in WORDS)) return false;
  try {
    const answer = await fetch("/api/words/" + language + "?rooms=" + encodeURIComponent(WORDS_BLOCK.dataset.rooms));
    if (!answer.ok) return false;
    Object.assign(WORDS[language], await answer.json());
    CARRIED.add(language);
    return true;
  } catch (error) {
    return false;
  }
}

// The rules of the game being played, in short, in the page's language (the terminal's rules page says the same).
function rulesParagraphs(setup) {
  const bonuses = Object.entries(setup.run_bonus).map(([length, points]) => length + ": " + points).join(", ");
  const values = { title: variantTitle(setup.variant, setup.title), players: setup.players, target: setup.target, racko: setup.racko_score, per: setup.points_per_card, bonuses };
  const keys = ["rules:intro"];
  if (setup.family === "highlow") keys.push("rules:hl:play", "rules:hl:out", "rules:hl:score", ...(setup.bonus ? ["rules:hl:bonus"] : []));
  else {
    keys.push("rules:play");
    if (setup.two_player_rule) keys.push("rules:run");
    if (setup.teams) keys.push("rules:partners");
    keys.push("rules:score", ...(setup.bonus ? ["rules:bonus"] : []));
  }
  return keys.map((key) => t(key, values));
}

// One of the expert's choices in the page's language (the server sends its reason and what the reason names).
function describeHint(choice) {
  if (!WORDS.en["hint:" + choice.reason]) return choice.text;
  const values = { ...choice.values };
  for (const key of ["card", "held", "out", "upcoming"]) if (key in values) values[key] = cardWords(values[key]);
  if (values.outlook) {
    const turns = Number(values.turns || 0).toLocaleString(LANG, { minimumFractionDigits: 1, maximumFractionDigits: 1 });
    values.after = t("after:" + values.outlook, { turns });
  }
  return t("hint:" + choice.reason, values);
}

// A card as a sentence says it: its number, the Wild or a Swap card (High-Low), or "a card" where it is unseen.
function cardWords(card) {
  return card === null || card === undefined ? t("a_card") : card === "W" ? t("the_wild") : card === "S" ? t("a_swap") : String(card);
}

// A variant's title in the page's language (the server's English title for a variant this page does not know).
function variantTitle(name, fallback) {
  return WORDS.en["title:" + name] ? t("title:" + name) : fallback;
}

// Time left for a turn: a turn-based clock's in days and hours, or hours and minutes; a short one as m:ss.
function timeWords(seconds) {
  const whole = Math.max(0, Math.ceil(seconds));
  if (whole >= 86400) return t("time_dh", { d: Math.floor(whole / 86400), h: Math.floor((whole % 86400) / 3600) });
  if (whole >= 3600) return t("time_hm", { h: Math.floor(whole / 3600), m: Math.floor((whole % 3600) / 60) });
  return Math.floor(whole / 60) + ":" + String(whole % 60).padStart(2, "0");
}

// The keys this variant uses, in the page's language: only the verbs its players ever take (classic has no w or k).
function keysHelp(setup) {
  const order = ["draw", "take", "exchange", "replace", "swap", "discard", "racko", "wait", "keep"];
  const keys = order.filter((verb) => setup.verbs.includes(verb)).map((verb) => t("key:" + verb));
  return t("keys_intro", { keys: [...keys, t("key:hint")].join(", ") });
}

// What the server calls a forgotten player's seat (racko.web.players.FORGOTTEN): nobody may take that name, so the
// page can say it in its own language.
const FORGOTTEN_NAME = "a forgotten player";

// A seat's name as the page says it: a forgotten player's in the page's language, any other as it is.
function shownName(name) {
  return name === FORGOTTEN_NAME ? t("forgotten_player") : name;
}

// A name as the page shows it: isolated, so that a right-to-left name never reorders the text around it.
function bdi(text) {
  const element = document.createElement("bdi");
  element.textContent = shownName(text);
  return element;
}

// t() as nodes: a value that is a node (a name in its <bdi>) is put in as it is, everything else as text.
function tNodes(key, values) {
  const text = (WORDS[LANG] && WORDS[LANG][key]) || WORDS.en[key] || key;
  const nodes = [];
  let last = 0;
  for (const match of text.matchAll(/\{(\w+)\}/g)) {
    if (!values || !(match[1] in values)) continue;
    nodes.push(text.slice(last, match.index));
    const value = values[match[1]];
    nodes.push(value instanceof Node ? value : String(value));
    last = match.index + match[0].length;
  }
  nodes.push(text.slice(last));
  return nodes.filter((node) => node !== "");
}

// One log entry in the page's language, as nodes (names isolated); an entry of a kind this page does not know keeps
// the server's English.
function describeEntry(entry, names, family) {
  const highlow = family === "highlow";
  let key = "ev:" + entry.kind;
  if (highlow && WORDS.en["ev:hl:" + entry.kind]) key = "ev:hl:" + entry.kind;
  if (entry.kind === "drew" && !highlow && entry.card !== null) key = "ev:drew-seen";
  if (entry.kind === "refilled" && !highlow) key = "ev:refilled-" + entry.mode;
  if (entry.kind === "placed" && (entry.removed === null || entry.removed === undefined)) key = "ev:placed-at-deal";
  if (entry.kind === "round-ended") key = entry.winner !== null ? "ev:round-won" : entry.capped ? "ev:round-capped" : "ev:round-ended";
  if (!WORDS.en[key]) return [entry.text];
  const who = entry.kind === "dealt" ? entry.dealer : entry.kind === "round-ended" ? entry.winner : entry.seat;
  return tNodes(key, {
    name: who !== null && who !== undefined ? bdi(names[who]) : "",
    card: cardWords(entry.card), card_in: cardWords(entry.card_in), card_out: cardWords(entry.card_out),
    // Places come as actions name them (a slot's label, a position from 1): said as they come.
    removed: cardWords(entry.removed), slot: entry.slot ?? "", position: entry.position ?? "", first: entry.first ?? "",
    second: entry.second ?? "", turns: entry.turns,
  });
}

// The language the person wants: the one they chose on a page, else their browser's first that racko speaks.
function wantedLanguage() {
  const kept = localStorage.getItem("racko-lang");
  if (kept && kept in WORDS) return kept;
  for (const wanted of navigator.languages || [navigator.language || "en"]) {
    const code = String(wanted).slice(0, 2).toLowerCase();
    if (code in WORDS) return code;
  }
  return "en";
}

// The page speaks the wanted language at once when it carries its words (the server chose them by the same
// wishes), else English until they have come (languageChanged then says it again).
const WANTED = wantedLanguage();
let LANG = CARRIED.has(WANTED) ? WANTED : "en";
const languageWatchers = [];

// The page's language is now ``language``: kept for the next pages (here and, by a cookie, for the server).
function useLanguage(language) {
  LANG = language;
  localStorage.setItem("racko-lang", language);
  document.cookie = "racko-lang=" + language + "; path=/; max-age=31536000; SameSite=Lax";
  translatePage();
  for (const watcher of languageWatchers) watcher();
}

if (LANG !== WANTED) loadWords(WANTED).then((here) => { if (here) useLanguage(WANTED); });

function t(key, values) {
  const text = (WORDS[LANG] && WORDS[LANG][key]) || WORDS.en[key] || key;
  // One pass, so that a value (a player's name) that looks like "{card}" is never filled in itself.
  return text.replace(/\{(\w+)\}/g, (whole, name) => (values && name in values ? String(values[name]) : whole));
}

// Whether the page's language says ``count`` of something in the singular (1 in English and Dutch, 0 and 1 in
// French): a page picks the key of a count's words by it, "n_games_one" or "n_games".
function saysOne(count) {
  return new Intl.PluralRules(LANG).select(count) === "one";
}

function translatePage() {
  document.documentElement.lang = LANG;
  for (const element of document.querySelectorAll("[data-t]")) element.textContent = t(element.dataset.t);
  const select = document.getElementById("lang");
  if (select) select.value = LANG;
}

function watchLanguage(onChange) {
  const select = document.getElementById("lang");
  select.value = LANG;
  if (onChange) languageWatchers.push(onChange);
  select.addEventListener("change", async () => {
    const chosen = select.value;
    if (await loadWords(chosen)) useLanguage(chosen);
    else select.value = LANG; // its words did not come: the page stays in the language it speaks
  });
  translatePage();
}

// A card's tint along a colour scale by value (blue low, red high): order shows at a glance.  The number is
// always on the card too, so colour is never the only cue.
function cardHue(value, highest) {
  if (typeof value !== "number") return null;
  return Math.round(220 - 220 * (value - 1) / Math.max(highest - 1, 1));
}

function makeCard(value, highest, label) {
  const card = document.createElement("span");
  card.className = "card";
  if (value === null || value === undefined) {
    card.classList.add("back");
    card.textContent = "?";
  } else {
    card.textContent = value === "W" ? "W" : value === "S" ? "S" : String(value);
    const hue = cardHue(value, highest);
    if (hue !== null) card.style.setProperty("--hue", hue);
    else card.classList.add("special");
  }
  if (label) {
    // A picture with its words (slot and card), which screen readers read: a plain span's label they ignore.
    card.setAttribute("role", "img");
    card.setAttribute("aria-label", label);
  }
  return card;
}

// Why the advisor's choice is best, in the page's language: the sentences the server sends as keys and values
// (racko/analysis/explain.py); a list of cards is said as "4, 14, 24".
function explainHint(choice) {
  const sentences = Array.isArray(choice.why) ? choice.why : [];
  return sentences
    .map((sentence) => {
      if (!WORDS.en[sentence.key]) return sentence.text;
      const values = {};
      for (const [name, value] of Object.entries(sentence.values || {})) values[name] = Array.isArray(value) ? value.join(", ") : value;
      return t(sentence.key, values);
    })
    .join(" ");
}
