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
  return fillMessage(parseMessage(text), values || {}, null).filter((node) => node !== "");
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

// A template's words with its values, by the page language's rules (racko/analysis/words.py reads the same templates
// with CLDR through Babel): {name} a value, a number written as the language writes it; {name, percent} a number in
// percent (0 to 100) as the language writes a percentage, to a tenth at most; {name, plural, one {# card} other
// {# cards}} the branch of the number's plural category (=N for N itself; # is the number); {name, select, a {…}
// other {…}} the branch the value names. Filled in one pass, so that a value (a player's name) that looks like
// "{card}" is never filled in itself; a value not given leaves its placeholder as written.
function t(key, values) {
  const text = (WORDS[LANG] && WORDS[LANG][key]) || WORDS.en[key] || key;
  return fillMessage(parseMessage(text), values || {}, null).map(String).join("");
}

const PARSED = new Map();

// A template's parts: text, and placeholders { name, style, branches, raw }. A template that is not one (a stray
// brace) is its own text.
function parseMessage(text) {
  if (PARSED.has(text)) return PARSED.get(text);
  let parts;
  try {
    const [found, end] = parseParts(text, 0, true);
    parts = end === text.length ? found : [text];
  } catch (error) {
    parts = [text];
  }
  PARSED.set(text, parts);
  return parts;
}

function parseParts(text, start, top) {
  const parts = [];
  let plain = start, index = start;
  while (index < text.length) {
    const char = text[index];
    if (char === "}") {
      if (top) throw new Error("stray }");
      break;
    }
    if (char === "{") {
      if (index > plain) parts.push(text.slice(plain, index));
      const [placeholder, next] = parsePlaceholder(text, index);
      parts.push(placeholder);
      index = plain = next;
      continue;
    }
    index += 1;
  }
  if (!top && index >= text.length) throw new Error("unclosed branch");
  if (index > plain) parts.push(text.slice(plain, index));
  return [parts, index];
}

function parsePlaceholder(text, start) {
  const word = /\s*(\w+)\s*/y;
  word.lastIndex = start + 1;
  const name = word.exec(text);
  if (!name) throw new Error("no name");
  let index = word.lastIndex;
  if (text[index] === "}") return [{ name: name[1], style: "", branches: [], raw: text.slice(start, index + 1) }, index + 1];
  if (text[index] !== ",") throw new Error("unclosed");
  word.lastIndex = index + 1;
  const style = word.exec(text);
  if (!style || !["number", "percent", "plural", "select"].includes(style[1])) throw new Error("no style");
  index = word.lastIndex;
  if (style[1] === "number" || style[1] === "percent") {
    if (text[index] !== "}") throw new Error("unclosed");
    return [{ name: name[1], style: style[1], branches: [], raw: text.slice(start, index + 1) }, index + 1];
  }
  if (text[index] !== ",") throw new Error("no branches");
  index += 1;
  const branches = [];
  const selector = /\s*(=?\w+)\s*/y;
  for (;;) {
    while (/\s/.test(text[index] || "")) index += 1;
    if (text[index] === "}") break;
    selector.lastIndex = index;
    const chosen = selector.exec(text);
    if (!chosen || text[selector.lastIndex] !== "{") throw new Error("bad branch");
    const [branch, end] = parseParts(text, selector.lastIndex + 1, false);
    branches.push([chosen[1], branch]);
    index = end + 1;
  }
  if (!branches.some(([chosen]) => chosen === "other")) throw new Error("no other");
  return [{ name: name[1], style: style[1], branches, raw: text.slice(start, index + 1) }, index + 1];
}

function fillMessage(parts, values, count) {
  const said = [];
  for (const part of parts) {
    if (typeof part === "string") {
      said.push(count !== null && part.includes("#") ? part.split("#").join(numberText(count)) : part);
      continue;
    }
    if (!(part.name in values)) {
      said.push(part.raw);
      continue;
    }
    const value = values[part.name];
    if (part.style === "percent") said.push(percentText(value));
    else if (part.style === "plural" || part.style === "select") {
      const branches = new Map(part.branches);
      let chosen = branches.get("other");
      if (part.style === "plural" && typeof value === "number") {
        chosen = branches.get("=" + value) || branches.get(new Intl.PluralRules(LANG).select(value)) || chosen;
      } else if (branches.has(String(value))) chosen = branches.get(String(value));
      said.push(...fillMessage(chosen, values, part.style === "plural" ? value : count));
    } else said.push(value instanceof Node ? value : typeof value === "number" ? numberText(value) : String(value));
  }
  return said;
}

// A number as the page's language writes it (its decimal mark and grouping), as given (up to three decimals).
function numberText(value) {
  return typeof value === "number" ? new Intl.NumberFormat(LANG).format(value) : String(value);
}

// A number given in percent (0 to 100) as the page's language writes a percentage, to a tenth at most.
function percentText(value) {
  return typeof value === "number" ? new Intl.NumberFormat(LANG, { style: "percent", maximumFractionDigits: 1 }).format(value / 100) : String(value);
}

function translatePage() {
  document.documentElement.lang = LANG;
  for (const element of document.querySelectorAll("[data-t]")) element.textContent = t(element.dataset.t);
  const select = document.getElementById("lang");
  if (select) select.value = LANG;
}

// The language box takes a person's choice from the moment the page shows it, before the page's own script is ready
// (its watcher, added later, finds the page in the language then chosen): a choice made while the page was still
// asking the server for its lists was lost, and the page's words stayed English until they came.
const LANGUAGE_BOX = document.getElementById("lang");
if (LANGUAGE_BOX) {
  LANGUAGE_BOX.value = LANG;
  LANGUAGE_BOX.addEventListener("change", async () => {
    const chosen = LANGUAGE_BOX.value;
    if (await loadWords(chosen)) useLanguage(chosen);
    else LANGUAGE_BOX.value = LANG; // its words did not come: the page stays in the language it speaks
  });
}
translatePage(); // the page's own words in its language at once, not once its script has its lists

// The page's own script says its words again, by ``onChange``, whenever the language changes.
function watchLanguage(onChange) {
  if (onChange) languageWatchers.push(onChange);
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

// A chance to win the game as the hints say it: in percent to a tenth, never 0 or 100 before the game is over
// (racko/analysis/explain.py's game_percent); a chance to win the round in whole percent, never 0 or 100.
function gameChanceShown(chance) {
  return Math.min(99.9, Math.max(0.1, Math.round(1000 * chance) / 10));
}

function roundChanceShown(chance) {
  return Math.min(99, Math.max(1, Math.round(100 * chance)));
}

// Another of the advisor's choices' chances, in short, as `racko hint` says them: to win the game (2 players), with
// the round's beside it where the round told it from the best move (the game's chances all but equal), or the
// round's alone where an old kernel ranked by it.
function choiceChance(choice) {
  const byRound = (Array.isArray(choice.why) ? choice.why : []).some((sentence) => sentence.key === "why:behind-round" || sentence.key === "why:behind-points");
  if (typeof choice.game_chance === "number" && byRound && typeof choice.win_chance === "number") {
    return " " + t("why:chance-short-round", { chance: gameChanceShown(choice.game_chance), round: roundChanceShown(choice.win_chance) });
  }
  if (typeof choice.game_chance === "number") return " " + t("why:chance-short-game", { chance: gameChanceShown(choice.game_chance) });
  return typeof choice.win_chance === "number" ? " " + t("why:chance-short", { chance: roundChanceShown(choice.win_chance) }) : "";
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
