"use strict";
// The page's words in the languages of the rule sheets.  The game's log comes from the server in English.
const WORDS = {
  en: {
    title: "Rack-O", language: "Language", new_table: "A new table", variant: "Variant", players: "Players",
    seats: "Who sits where", target: "Target score", refill: "When the stock runs out",
    refill_flip: "turn the discard pile over", refill_shuffle: "shuffle the discard pile", run_rule: "2 players",
    run_rule_on: "a Rack-O needs a run of three", run_rule_off: "no run needed", create: "Create the table",
    links: "Send each person their link",
    links_help: "Each link is a seat: whoever opens it plays there. Keep yours; send the others to your friends.",
    go: "Go to the table", me: "me", person: "invite a person", computer: "computer", seat: "Seat",
    spectate: "Spectators (the public table only)", your_link: "your seat",
    discard: "Discard", racko: "Rack-O!", wait: "Wait", keep: "Keep my row", hint: "Hint", scores: "Scores",
    log: "What happened", rules: "The rules in short", people: "At the table", your_name: "Your name",
    sit_down: "Sit down", download: "Download the game's record", again: "Play again", continue: "Continue",
    your_turn: "Your turn", to_play: "{name} to play", game_over: "Game over: {name} won.", watching: "You are watching.",
    pick: "Take the discard (t) or draw from the stock (d).",
    "pick-or-call": "Your rack qualifies: call Rack-O (r), or draw (d) or take (t) to play on.",
    "place-taken": "You took {card}: click a slot (or keys 1-9, 0) to put it there.",
    "place-drawn": "You drew {card}: click a slot (1-9, 0) to put it there, or discard it (x).",
    declare: "Your rack qualifies: call Rack-O (r) or wait for a longer run (w).",
    "place-in-row": "Put {card} at a position: click it, or keys 1-9 and 0.",
    swap: "A Swap: click two positions to swap them, or keep your row (k).",
    swap_second: "Swap position {n} with which?", round_over: "Round {n} is over", away: "away for {s} s",
    connected: "here", bot: "computer ({bot})", hand_over: "Hand to a computer", joined_not: "invited, not here yet",
    reconnecting: "Connection lost: reconnecting…", stock: "Stock: {n} cards", discard_pile: "Discard pile",
    empty: "empty", slot: "slot {label}", position: "position {label}", card: "card {card}", hidden: "hidden card",
    keys_help: "Keys: d draw, t take the discard, 1-9 and 0 choose a slot, x discard, r Rack-O, w wait, k keep, ? hint.",
    copy: "Copy", copied: "Copied", partner: "partner", you: "you",
  },
  nl: {
    title: "Rack-O", language: "Taal", new_table: "Een nieuwe tafel", variant: "Spel", players: "Spelers",
    seats: "Wie zit waar", target: "Eindscore", refill: "Als de pot op is",
    refill_flip: "de aflegstapel omdraaien", refill_shuffle: "de aflegstapel schudden", run_rule: "2 spelers",
    run_rule_on: "een Rack-O vraagt een reeks van drie", run_rule_off: "geen reeks nodig", create: "Maak de tafel",
    links: "Stuur iedereen zijn link",
    links_help: "Elke link is een plaats: wie hem opent, speelt daar. Houd de jouwe; stuur de andere naar je vrienden.",
    go: "Naar de tafel", me: "ik", person: "een speler uitnodigen", computer: "computer", seat: "Plaats",
    spectate: "Toeschouwers (alleen wat open ligt)", your_link: "jouw plaats",
    discard: "Afleggen", racko: "Rack-O!", wait: "Wachten", keep: "Rij houden", hint: "Tip", scores: "Stand",
    log: "Wat er gebeurde", rules: "De regels in het kort", people: "Aan tafel", your_name: "Je naam",
    sit_down: "Aan tafel", download: "Het verslag van het spel downloaden", again: "Nog eens", continue: "Verder",
    your_turn: "Jij bent aan de beurt", to_play: "{name} is aan de beurt", game_over: "Afgelopen: {name} wint.",
    watching: "Je kijkt mee.",
    pick: "Neem de bovenste aflegkaart (t) of trek uit de pot (d).",
    "pick-or-call": "Je rek is klaar: roep Rack-O (r), of trek (d) of neem (t) om door te spelen.",
    "place-taken": "Je nam {card}: klik een vak (of toetsen 1-9, 0) om hem daar te leggen.",
    "place-drawn": "Je trok {card}: klik een vak (1-9, 0) of leg hem af (x).",
    declare: "Je rek is klaar: roep Rack-O (r) of wacht op een langere reeks (w).",
    "place-in-row": "Leg {card} op een plaats: klik hem, of toetsen 1-9 en 0.",
    swap: "Een Wissel: klik twee plaatsen om ze te ruilen, of houd je rij (k).",
    swap_second: "Plaats {n} ruilen met welke?", round_over: "Ronde {n} is voorbij", away: "{s} s weg",
    connected: "aanwezig", bot: "computer ({bot})", hand_over: "Aan de computer geven", joined_not: "uitgenodigd, nog niet hier",
    reconnecting: "Verbinding verbroken: opnieuw verbinden…", stock: "Pot: {n} kaarten", discard_pile: "Aflegstapel",
    empty: "leeg", slot: "vak {label}", position: "plaats {label}", card: "kaart {card}", hidden: "verborgen kaart",
    keys_help: "Toetsen: d trekken, t aflegkaart nemen, 1-9 en 0 een vak, x afleggen, r Rack-O, w wachten, k houden, ? tip.",
    copy: "Kopiëren", copied: "Gekopieerd", partner: "partner", you: "jij",
  },
  fr: {
    title: "Rack-O", language: "Langue", new_table: "Une nouvelle table", variant: "Jeu", players: "Joueurs",
    seats: "Qui est assis où", target: "Score à atteindre", refill: "Quand la pioche est vide",
    refill_flip: "retourner la défausse", refill_shuffle: "mélanger la défausse", run_rule: "2 joueurs",
    run_rule_on: "un Rack-O demande une suite de trois", run_rule_off: "pas de suite exigée", create: "Créer la table",
    links: "Envoyez à chacun son lien",
    links_help: "Chaque lien est une place : qui l’ouvre y joue. Gardez le vôtre ; envoyez les autres à vos amis.",
    go: "Aller à la table", me: "moi", person: "inviter quelqu’un", computer: "ordinateur", seat: "Place",
    spectate: "Spectateurs (seulement ce qui est visible)", your_link: "votre place",
    discard: "Défausser", racko: "Rack-O !", wait: "Attendre", keep: "Garder ma rangée", hint: "Conseil", scores: "Scores",
    log: "Ce qui s’est passé", rules: "Les règles en bref", people: "À la table", your_name: "Votre nom",
    sit_down: "S’asseoir", download: "Télécharger le relevé de la partie", again: "Rejouer", continue: "Continuer",
    your_turn: "À vous de jouer", to_play: "À {name} de jouer", game_over: "Partie finie : {name} gagne.",
    watching: "Vous regardez.",
    pick: "Prenez la carte de la défausse (t) ou piochez (d).",
    "pick-or-call": "Votre support est prêt : annoncez Rack-O (r), ou piochez (d) ou prenez (t) pour continuer.",
    "place-taken": "Vous avez pris {card} : cliquez une case (ou touches 1-9, 0) pour l’y placer.",
    "place-drawn": "Vous avez pioché {card} : cliquez une case (1-9, 0) ou défaussez-la (x).",
    declare: "Votre support est prêt : annoncez Rack-O (r) ou attendez une plus longue suite (w).",
    "place-in-row": "Placez {card} : cliquez une position, ou touches 1-9 et 0.",
    swap: "Un Échange : cliquez deux positions pour les échanger, ou gardez votre rangée (k).",
    swap_second: "Échanger la position {n} avec laquelle ?", round_over: "La manche {n} est finie",
    away: "absent depuis {s} s", connected: "présent", bot: "ordinateur ({bot})", hand_over: "Confier à l’ordinateur",
    joined_not: "invité, pas encore là", reconnecting: "Connexion perdue : reconnexion…", stock: "Pioche : {n} cartes",
    discard_pile: "Défausse", empty: "vide", slot: "case {label}", position: "position {label}", card: "carte {card}",
    hidden: "carte cachée",
    keys_help: "Touches : d piocher, t prendre la défausse, 1-9 et 0 une case, x défausser, r Rack-O, w attendre, k garder, ? conseil.",
    copy: "Copier", copied: "Copié", partner: "partenaire", you: "vous",
  },
};

function chooseLanguage() {
  const kept = localStorage.getItem("racko-lang");
  if (kept && WORDS[kept]) return kept;
  for (const wanted of navigator.languages || [navigator.language || "en"]) {
    const code = String(wanted).slice(0, 2).toLowerCase();
    if (WORDS[code]) return code;
  }
  return "en";
}

let LANG = chooseLanguage();

function t(key, values) {
  let text = (WORDS[LANG] && WORDS[LANG][key]) || WORDS.en[key] || key;
  for (const [name, value] of Object.entries(values || {})) text = text.split("{" + name + "}").join(String(value));
  return text;
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
  select.addEventListener("change", () => {
    LANG = select.value;
    localStorage.setItem("racko-lang", LANG);
    translatePage();
    if (onChange) onChange();
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
  if (label) card.setAttribute("aria-label", label);
  return card;
}
