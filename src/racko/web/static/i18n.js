"use strict";
// The page's words in the languages of the rule sheets, the game's log among them.
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
    sit_down: "Sit down", download: "Download the game's record", again: "Play again", to_lobby: "The lobby", continue: "Continue", close: "Close",
    your_turn: "Your turn", to_play: "{name} to play", game_over: "Game over: {name} won.", watching: "You are watching.",
    pick: "Take the discard (t) or draw from the stock (d).",
    "pick-or-call": "Your rack qualifies: call Rack-O (r), or draw (d) or take (t) to play on.",
    "place-taken": "You took {card}: click a slot (or keys 1-9, 0) to put it there.",
    "place-drawn": "You drew {card}: click a slot (1-9, 0) to put it there, or discard it (x).",
    declare: "Your rack qualifies: call Rack-O (r) or wait for a longer run (w).",
    "place-in-row": "Put {card} at a position: click it, or keys 1-9 and 0.",
    swap: "A Swap: click two positions to swap them, or keep your row (k).",
    swap_second: "Swap position {n} with which?", round_over: "Round {n} is over", away: "away for {s} s",
    connected: "here", bot: "computer ({bot})", hand_over: "Hand to a computer",
    away_wait: "{name} is away ({s} s): the table waits; in {left} s you may hand the seat to a computer player.",
    away_now: "{name} has been away for {s} s.",
    not_come_wait: "{name} has not come to the table yet ({s} s); in {left} s you may give the seat to a computer player.",
    not_come_now: "{name} has not come to the table ({s} s).", joined_not: "invited, not here yet",
    reconnecting: "Connection lost: reconnecting…", stock: "Stock: {n} cards", discard_pile: "Discard pile",
    empty: "empty", slot: "slot {label}", position: "position {label}", card: "card {card}", hidden: "hidden card",
    keys_help: "Keys: d draw, t take the discard, 1-9 and 0 choose a slot, x discard, r Rack-O, w wait, k keep, ? hint.",
    copy: "Copy", copied: "Copied", partner: "partner", you: "you",
  },
  nl: {
    title: "Rack-O", language: "Taal", new_table: "Een nieuwe tafel", variant: "Spel", players: "Spelers",
    seats: "Wie zit waar", target: "Eindscore", refill: "Als de stok op is",
    refill_flip: "de aflegstapel omdraaien", refill_shuffle: "de aflegstapel schudden", run_rule: "2 spelers",
    run_rule_on: "een Rack-O vraagt een reeks van drie", run_rule_off: "geen reeks nodig", create: "Maak de tafel",
    links: "Stuur iedereen zijn link",
    links_help: "Elke link is een plaats: wie hem opent, speelt daar. Houd de jouwe; stuur de andere naar je vrienden.",
    go: "Naar de tafel", me: "ik", person: "een speler uitnodigen", computer: "computer", seat: "Plaats",
    spectate: "Toeschouwers (alleen wat open ligt)", your_link: "jouw plaats",
    discard: "Afleggen", racko: "Rack-O!", wait: "Wachten", keep: "Rij houden", hint: "Tip", scores: "Stand",
    log: "Wat er gebeurde", rules: "De regels in het kort", people: "Aan tafel", your_name: "Je naam",
    sit_down: "Aan tafel", download: "Het verslag van het spel downloaden", again: "Nog eens", to_lobby: "De lobby", continue: "Verder", close: "Sluiten",
    your_turn: "Jij bent aan de beurt", to_play: "{name} is aan de beurt", game_over: "Afgelopen: {name} wint.",
    watching: "Je kijkt mee.",
    pick: "Neem de bovenste aflegkaart (t) of trek van de stok (d).",
    "pick-or-call": "Je rek is klaar: roep Rack-O (r), of trek (d) of neem (t) om door te spelen.",
    "place-taken": "Je nam {card}: klik een gleuf (of toetsen 1-9, 0) om hem daar te leggen.",
    "place-drawn": "Je trok {card}: klik een gleuf (1-9, 0) of leg hem af (x).",
    declare: "Je rek is klaar: roep Rack-O (r) of wacht op een langere reeks (w).",
    "place-in-row": "Leg {card} op een plaats: klik hem, of toetsen 1-9 en 0.",
    swap: "Een Wissel: klik twee plaatsen om ze te ruilen, of houd je rij (k).",
    swap_second: "Plaats {n} ruilen met welke?", round_over: "Ronde {n} is voorbij", away: "{s} s weg",
    connected: "aanwezig", bot: "computer ({bot})", hand_over: "Aan de computer geven",
    away_wait: "{name} is weg ({s} s): de tafel wacht; over {left} s mag je de plaats aan een computerspeler geven.",
    away_now: "{name} is al {s} s weg.",
    not_come_wait: "{name} is nog niet aan tafel ({s} s); over {left} s mag je de plaats aan een computerspeler geven.",
    not_come_now: "{name} is niet aan tafel gekomen ({s} s).", joined_not: "uitgenodigd, nog niet hier",
    reconnecting: "Verbinding verbroken: opnieuw verbinden…", stock: "Stok: {n} kaarten", discard_pile: "Aflegstapel",
    empty: "leeg", slot: "gleuf {label}", position: "plaats {label}", card: "kaart {card}", hidden: "verborgen kaart",
    keys_help: "Toetsen: d trekken, t aflegkaart nemen, 1-9 en 0 een gleuf, x afleggen, r Rack-O, w wachten, k houden, ? tip.",
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
    sit_down: "S’asseoir", download: "Télécharger le relevé de la partie", again: "Rejouer", to_lobby: "Le salon", continue: "Continuer", close: "Fermer",
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
    away_wait: "{name} est absent ({s} s) : la table attend ; dans {left} s vous pourrez confier sa place à l’ordinateur.",
    away_now: "{name} est absent depuis {s} s.",
    not_come_wait: "{name} n’est pas encore à la table ({s} s) ; dans {left} s vous pourrez confier sa place à l’ordinateur.",
    not_come_now: "{name} n’est pas venu à la table ({s} s).",
    joined_not: "invité, pas encore là", reconnecting: "Connexion perdue : reconnexion…", stock: "Pioche : {n} cartes",
    discard_pile: "Défausse", empty: "vide", slot: "case {label}", position: "position {label}", card: "carte {card}",
    hidden: "carte cachée",
    keys_help: "Touches : d piocher, t prendre la défausse, 1-9 et 0 une case, x défausser, r Rack-O, w attendre, k garder, ? conseil.",
    copy: "Copier", copied: "Copié", partner: "partenaire", you: "vous",
  },
};

// The game's log, worded in the page's language from the server's entries (kind and fields, already filtered for
// this seat).  Keys: "ev:" + kind, or "ev:hl:" + kind where High-Low words the same kind differently.
Object.assign(WORDS.en, {
  "variant:classic": "First to 500. Go Rack-O for 75; everyone else scores 5 a card up to the first break. With 2 players a Rack-O needs a run of three (the 2-player rule).",
  "variant:bonus": "Rack-O with bonuses for the longest run: 3/4/5/6+ in a row add 50/100/200/400. Declaring is your choice, so you may wait for a longer run.",
  "variant:partners": "Four players, two against two, partners opposite; partners' scores are added. First team to 500.",
  "variant:highlow": "3-5 players, 112 cards with Wilds and Swaps, every row face up. Each card you replace passes to the player on your right. Go Rack-O in either direction; doubles score. First to 300.",
  "hint:racko": "Call Rack-O: your rack qualifies, and the round is yours.",
  "hint:wait": "Wait instead of calling Rack-O, hoping for a longer run ({after}).",
  "hint:take": "Take {card} from the discard pile and put it in slot {slot}: {after}.",
  "hint:draw-insured": "Draw from the stock and keep your rack if the card does not help: {after}.",
  "hint:draw-next": "Draw from the stock: the turned-over pile shows the next card is {upcoming}; {after}.",
  "hint:draw": "Draw from the stock: {after} on average over the cards that may come.",
  "hint:exchange": "Put {held} in slot {slot}, discarding {out}: {after}.",
  "hint:discard": "Discard {held} and keep your rack: {after}.",
  "hint:highlow-place": "The expert would put {card} at position {position}.",
  "hint:highlow-swap": "The expert would swap positions {first} and {second}.",
  "hint:highlow-keep": "The expert would keep the row as it is.",
  "after:racko": "that is Rack-O", "after:turns": "about {turns} turns to Rack-O, counting this one",
  "after:insured": "your ordered start would win the game even if somebody else went out first",
  "rules:intro": "{title}: {players} players, first to {target}.",
  "rules:play": "Take the top discard or draw from the stock, and put the card in a slot: the card there is discarded (a card you drew may be discarded instead). Get your rack in order, lowest in slot 5, highest in slot 50.",
  "rules:run": "With two players a rack in order is not enough: it needs a run of three consecutive numbers in neighbouring slots, like 28, 29, 30 (the 2-player rule). A sorted rack without one plays on.",
  "rules:partners": "Partners sit opposite each other; their scores are added up.",
  "rules:score": "Scoring: Rack-O {racko}; everyone else {per} a card in order from slot 5 up to the first break.",
  "rules:bonus": "Bonus for the longest run when you go Rack-O ({bonuses}; 6 or more counts as 6). Going Rack-O is your choice: you may wait for a longer run, at the risk of someone going out first.",
  "rules:hl:play": "Every row is face up. The drawer puts the card drawn in place of any card of the row; the card taken out passes to the player on the right, who must place it the same way; the last one is discarded. A Swap card lets every player swap two cards of their row. A Wild is any number you like.",
  "rules:hl:out": "Go Rack-O with your row in order, low to high or high to low (equal neighbours count as in order).",
  "rules:hl:score": "Scoring: Rack-O {racko}; everyone else {per} a card in order from the left end; {per} for every double (two identical numbers side by side, or a number followed by a Wild).",
  "rules:hl:bonus": "Run bonus for the winner's longest run ({bonuses}; 7 or more counts as 6).",
  "ev:dealt": "{name} dealt ten cards to each player.",
  "ev:turned-up": "{card} was turned up to start the discard pile.",
  "ev:drew": "{name} drew from the stock.", "ev:drew-seen": "{name} drew from the stock ({card}).",
  "ev:took": "{name} took {card} from the discard pile.",
  "ev:exchanged": "{name} put {card_in} into slot {slot} and discarded {card_out}.",
  "ev:discarded": "{name} discarded {card}.",
  "ev:refilled-flip": "The stock ran out: the discard pile was turned over to make a new stock.",
  "ev:refilled-shuffle": "The stock ran out: the discard pile was shuffled to make a new stock.",
  "ev:racko": "{name} went Rack-O!", "ev:waited": "{name} could go Rack-O but chose to wait.",
  "ev:round-ended": "Round over.", "ev:round-won": "Round over: {name} went Rack-O.",
  "ev:round-capped": "Round over: nobody went Rack-O in {turns} turns (turn cap).",
  "ev:hl:dealt": "Ten cards each were dealt and turned face up.",
  "ev:swap-discarded": "At the deal {name} had a Swap card at position {position}; by the rules it went to the discard pile.",
  "ev:hl:drew": "{name} drew {card}.", "ev:placed": "{name} put {card} in position {position}, taking out {removed}.",
  "ev:placed-at-deal": "By the rules {name} got {card} from the stock in its place (position {position}).", "ev:passed": "{name} received {card}.",
  "ev:hl:discarded": "{card} went to the discard pile.", "ev:swapped": "{name} swapped positions {first} and {second}.",
  "ev:kept": "{name} kept the row as it was.", "ev:hl:refilled": "The stock ran out: the discard pile became the new stock.",
  "ev:capped": "The hand reached the turn cap.",
  a_card: "a card", the_wild: "the Wild", a_swap: "a Swap card",
  "exp:won": "went Rack-O: 75 points", "exp:bonus": "went Rack-O: 75 points + {bonus} bonus for a run of {run} = {points}",
  "exp:all": "all ten cards in order: {count} × 5 = {points} points",
  "exp:upto": "in order up to slot {upto}, broken at slot {broken}: {count} × 5 = {points} points",
  "exp:hl:won": "went Rack-O ({way}): 75{doubles}{bonus} = {points} points", "exp:hl:doubles": " + {pairs} doubles × 5",
  "exp:hl:bonus": " + {bonus} for a run of {run}", "exp:hl:count": "{count} in order × 5{doubles} = {points} points",
  low: "Low", high: "High", stock_short: "stock", order_breaks: "the order breaks here", points: "points", total: "Total", round: "Round", sheet: "Score sheet",
  // The table's turn signals, reactions, notices, variant titles and key lists.
  "title:classic": "Classic Rack-O", "title:bonus": "Bonus Rack-O", "title:partners": "Partners Rack-O", "title:highlow": "High-Low Rack-O",
  keys_intro: "Keys: {keys}.", "key:draw": "d draw", "key:take": "t take the discard", "key:exchange": "1-9 and 0 a slot",
  "key:replace": "1-9 and 0 a position", "key:swap": "two positions to swap", "key:discard": "x discard", "key:racko": "r Rack-O",
  "key:wait": "w wait", "key:keep": "k keep your row", "key:hint": "? hint (on your turn)",
  panel: "Scores and log", mute: "Sound off", react: "Say something", "reaction:gg": "Good game", "reaction:wp": "Well played",
  "reaction:oops": "Oops", "reaction:your-turn": "Your turn!", "reaction:thinking": "Thinking…",
  rack_of: "Rack of {name}", row_of: "Row of {name}", in_hand: "in hand: {card}", watch_instead: "Watch this table instead",
  take_back: "Play here", bad_link: "This link is not a seat at this table",
  bad_link_text: "The link may be cut short, or belong to another table or an earlier game. Ask for your link again, or watch the table without playing.",
  no_table: "There is no such table", no_table_text: "The link may be cut short, or the table was forgotten after 30 days without play.",
  damaged: "This table cannot be opened", damaged_text: "Its saved game is damaged, so it cannot be played on. The server's operator has been told why; every other table plays as usual.",
  replaced: "This seat was opened in another window",
  replaced_text: "One window plays a seat at a time: this one stopped. Play here to take the seat back from the other window.",
  game_title: "{title}: the game is over", winner_is: "Winner: {name}", last_round: "Round {n}, the last", show_result: "The final scores",
  "err:stale": "The table moved on before your move arrived: look again and choose anew.", "err:not-your-turn": "It is not your turn.",
  "err:too-soon": "One reaction every few seconds: wait a moment.", "err:slow-down": "Too many clicks at once: slow down.",
  "err:no-hint": "A hint is for your own turn.", "err:spectator": "Spectators watch: open the link of a seat to play or react.",
  seconds: "{s} s",
});
Object.assign(WORDS.nl, {
  "variant:classic": "Wie het eerst 500 haalt. Rack-O is 75 waard; de anderen krijgen 5 per kaart tot de eerste onderbreking. Met 2 spelers vraagt een Rack-O een reeks van drie (de regel voor 2 spelers).",
  "variant:bonus": "Rack-O met bonussen voor de langste reeks: 3/4/5/6+ op een rij geven 50/100/200/400 extra. Rack-O roepen is je eigen keus: je mag wachten op een langere reeks.",
  "variant:partners": "Vier spelers, twee tegen twee, partners tegenover elkaar; de punten van partners worden opgeteld. Het eerste team aan 500 wint.",
  "variant:highlow": "3-5 spelers, 112 kaarten met Wild- en Wisselkaarten, alle rijen open. Elke kaart die je vervangt, gaat naar de speler rechts. Rack-O in beide richtingen; dubbels tellen. Wie het eerst 300 haalt.",
  "hint:racko": "Roep Rack-O: je rekje is klaar en de ronde is van jou.",
  "hint:wait": "Wacht met Rack-O roepen, in de hoop op een langere reeks ({after}).",
  "hint:take": "Neem {card} van de aflegstapel en steek hem in gleuf {slot}: {after}.",
  "hint:draw-insured": "Trek van de stok en houd je rekje als de kaart niet helpt: {after}.",
  "hint:draw-next": "Trek van de stok: de omgedraaide stapel laat zien dat de volgende kaart {upcoming} is; {after}.",
  "hint:draw": "Trek van de stok: {after}, gemiddeld over de kaarten die kunnen komen.",
  "hint:exchange": "Steek {held} in gleuf {slot} en leg {out} af: {after}.",
  "hint:discard": "Leg {held} af en houd je rekje: {after}.",
  "hint:highlow-place": "De expert zou {card} op plaats {position} leggen.",
  "hint:highlow-swap": "De expert zou plaats {first} en {second} ruilen.",
  "hint:highlow-keep": "De expert zou de rij houden zoals hij is.",
  "after:racko": "dat is Rack-O", "after:turns": "ongeveer {turns} beurten tot Rack-O, deze meegeteld",
  "after:insured": "je geordende begin wint het spel, ook als een ander eerder klaar is",
  "rules:intro": "{title}: {players} spelers, wie het eerst {target} haalt.",
  "rules:play": "Neem de bovenste kaart van de aflegstapel of trek van de stok, en steek de kaart in een gleuf: de kaart die daar stak, wordt afgelegd (een getrokken kaart mag je ook meteen afleggen). Zet je rekje op volgorde, de laagste in gleuf 5, de hoogste in gleuf 50.",
  "rules:run": "Met twee spelers is een rekje op volgorde niet genoeg: het moet een reeks van drie opeenvolgende getallen in naburige gleuven hebben, zoals 28, 29, 30 (de regel voor 2 spelers). Zonder reeks wordt doorgespeeld.",
  "rules:partners": "Partners zitten tegenover elkaar; hun punten worden opgeteld.",
  "rules:score": "Punten: Rack-O {racko}; de anderen {per} per kaart op volgorde vanaf gleuf 5 tot de eerste onderbreking.",
  "rules:bonus": "Bonus voor de langste reeks wie Rack-O heeft ({bonuses}; 6 of meer telt als 6). Rack-O roepen is je eigen keus: je mag wachten op een langere reeks, met het risico dat een ander eerder klaar is.",
  "rules:hl:play": "Alle rijen liggen open. Wie trekt, legt de getrokken kaart in plaats van een kaart uit de rij; de weggenomen kaart gaat naar de speler rechts, die haar op dezelfde manier moet leggen; de laatste wordt afgelegd. Een Wisselkaart laat iedere speler twee kaarten van de eigen rij ruilen. Een Wild-kaart is elk getal dat je wilt.",
  "rules:hl:out": "Je hebt Rack-O met je rij op volgorde, van laag naar hoog of van hoog naar laag (gelijke buren tellen als op volgorde).",
  "rules:hl:score": "Punten: Rack-O {racko}; de anderen {per} per kaart op volgorde vanaf links; {per} voor elke dubbel (twee gelijke getallen naast elkaar, of een getal gevolgd door een Wild-kaart).",
  "rules:hl:bonus": "Reeksbonus voor de langste reeks van de winnaar ({bonuses}; 7 of meer telt als 6).",
  "ev:dealt": "{name} gaf iedereen tien kaarten.",
  "ev:turned-up": "{card} werd omgedraaid als begin van de aflegstapel.",
  "ev:drew": "{name} trok een kaart van de stok.", "ev:drew-seen": "{name} trok een kaart van de stok ({card}).",
  "ev:took": "{name} nam {card} van de aflegstapel.",
  "ev:exchanged": "{name} stak {card_in} in gleuf {slot} en legde {card_out} af.",
  "ev:discarded": "{name} legde {card} af.",
  "ev:refilled-flip": "De stok was op: de aflegstapel werd omgedraaid als nieuwe stok.",
  "ev:refilled-shuffle": "De stok was op: de aflegstapel werd geschud als nieuwe stok.",
  "ev:racko": "{name} heeft Rack-O!", "ev:waited": "{name} kon Rack-O roepen maar wacht nog.",
  "ev:round-ended": "De ronde is voorbij.", "ev:round-won": "De ronde is voorbij: {name} heeft Rack-O.",
  "ev:round-capped": "De ronde is voorbij: niemand had Rack-O na {turns} beurten (de beurtengrens).",
  "ev:hl:dealt": "Iedereen kreeg tien kaarten, open op tafel.",
  "ev:swap-discarded": "Bij het delen had {name} een Wisselkaart op plaats {position}; volgens de regels ging die naar de aflegstapel.",
  "ev:hl:drew": "{name} trok {card}.", "ev:placed": "{name} legde {card} op plaats {position} en nam {removed} weg.",
  "ev:placed-at-deal": "Volgens de regels kreeg {name} er {card} van de stok voor in de plaats (plaats {position}).", "ev:passed": "{name} kreeg {card}.",
  "ev:hl:discarded": "{card} ging naar de aflegstapel.", "ev:swapped": "{name} ruilde plaats {first} en {second}.",
  "ev:kept": "{name} hield de rij zoals hij was.", "ev:hl:refilled": "De stok was op: de aflegstapel werd de nieuwe stok.",
  "ev:capped": "Het spel bereikte de beurtengrens.",
  a_card: "een kaart", the_wild: "de Wild-kaart", a_swap: "een Wisselkaart",
  "exp:won": "Rack-O: 75 punten", "exp:bonus": "Rack-O: 75 punten + {bonus} bonus voor een reeks van {run} = {points}",
  "exp:all": "alle tien kaarten op volgorde: {count} × 5 = {points} punten",
  "exp:upto": "op volgorde tot gleuf {upto}, onderbroken bij gleuf {broken}: {count} × 5 = {points} punten",
  "exp:hl:won": "Rack-O ({way}): 75{doubles}{bonus} = {points} punten", "exp:hl:doubles": " + {pairs} dubbels × 5",
  "exp:hl:bonus": " + {bonus} voor een reeks van {run}", "exp:hl:count": "{count} op volgorde × 5{doubles} = {points} punten",
  low: "Laag", high: "Hoog", stock_short: "stok", order_breaks: "hier breekt de volgorde", points: "punten", total: "Totaal", round: "Ronde", sheet: "Scoreblad",
  // The table's turn signals, reactions, notices, variant titles and key lists.
  "title:classic": "Klassieke Rack-O", "title:bonus": "Bonus-Rack-O", "title:partners": "Partner-Rack-O", "title:highlow": "Hoog-Laag-Rack-O",
  keys_intro: "Toetsen: {keys}.", "key:draw": "d trekken", "key:take": "t aflegkaart nemen", "key:exchange": "1-9 en 0 een gleuf",
  "key:replace": "1-9 en 0 een plaats", "key:swap": "twee plaatsen om te ruilen", "key:discard": "x afleggen", "key:racko": "r Rack-O",
  "key:wait": "w wachten", "key:keep": "k rij houden", "key:hint": "? tip (als je aan de beurt bent)",
  panel: "Stand en verloop", mute: "Geluid uit", react: "Iets zeggen", "reaction:gg": "Goed spel", "reaction:wp": "Goed gespeeld",
  "reaction:oops": "Oeps", "reaction:your-turn": "Jouw beurt!", "reaction:thinking": "Even denken…",
  rack_of: "Rek van {name}", row_of: "Rij van {name}", in_hand: "in de hand: {card}", watch_instead: "Deze tafel bekijken",
  take_back: "Hier spelen", bad_link: "Deze link is geen plaats aan deze tafel",
  bad_link_text: "De link is misschien afgebroken, of hoort bij een andere tafel of een vorig spel. Vraag je link opnieuw, of kijk mee zonder te spelen.",
  no_table: "Deze tafel bestaat niet", no_table_text: "De link is misschien afgebroken, of de tafel is vergeten na 30 dagen zonder spel.",
  damaged: "Deze tafel kan niet geopend worden", damaged_text: "Het bewaarde spel is beschadigd, dus er kan niet verder op gespeeld worden. De beheerder van de server weet waarom; alle andere tafels spelen gewoon.",
  replaced: "Deze plaats is in een ander venster geopend",
  replaced_text: "Eén venster speelt een plaats: dit venster is gestopt. Kies Hier spelen om de plaats terug te nemen.",
  game_title: "{title}: het spel is uit", winner_is: "Winnaar: {name}", last_round: "Ronde {n}, de laatste", show_result: "De eindstand",
  "err:stale": "De tafel was al verder toen je zet aankwam: kijk opnieuw en kies.", "err:not-your-turn": "Je bent niet aan de beurt.",
  "err:too-soon": "Eén reactie per paar seconden: wacht even.", "err:slow-down": "Te veel klikken tegelijk: rustig aan.",
  "err:no-hint": "Een tip is voor je eigen beurt.", "err:spectator": "Toeschouwers kijken mee: open de link van een plaats om te spelen of te reageren.",
  seconds: "{s} s",
});
Object.assign(WORDS.fr, {
  "variant:classic": "Le premier à 500. Rack-O vaut 75 ; les autres marquent 5 par carte jusqu’à la première rupture. À deux, un Rack-O demande une suite de trois (la règle à deux).",
  "variant:bonus": "Rack-O avec des bonus pour la plus longue suite : 3/4/5/6+ à la suite ajoutent 50/100/200/400. Annoncer est votre choix : vous pouvez attendre une plus longue suite.",
  "variant:partners": "Quatre joueurs, deux contre deux, partenaires face à face ; leurs points s’additionnent. La première équipe à 500 gagne.",
  "variant:highlow": "3 à 5 joueurs, 112 cartes avec des Wild et des cartes Échange, toutes les rangées face visible. Chaque carte remplacée passe au joueur de droite. Rack-O dans un sens ou dans l’autre ; les doubles comptent. Le premier à 300.",
  "hint:racko": "Annoncez Rack-O : votre support est prêt, la manche est à vous.",
  "hint:wait": "Attendez au lieu d’annoncer Rack-O, dans l’espoir d’une plus longue suite ({after}).",
  "hint:take": "Prenez {card} dans la défausse et placez-la dans la case {slot} : {after}.",
  "hint:draw-insured": "Piochez et gardez votre support si la carte n’aide pas : {after}.",
  "hint:draw-next": "Piochez : la défausse retournée montre que la prochaine carte est {upcoming} ; {after}.",
  "hint:draw": "Piochez : {after} en moyenne sur les cartes qui peuvent venir.",
  "hint:exchange": "Placez {held} dans la case {slot} en défaussant {out} : {after}.",
  "hint:discard": "Défaussez {held} et gardez votre support : {after}.",
  "hint:highlow-place": "L’expert mettrait {card} en position {position}.",
  "hint:highlow-swap": "L’expert échangerait les positions {first} et {second}.",
  "hint:highlow-keep": "L’expert garderait sa rangée telle quelle.",
  "after:racko": "c’est Rack-O", "after:turns": "environ {turns} tours jusqu’à Rack-O, celui-ci compris",
  "after:insured": "votre début en ordre gagnerait la partie même si un autre finissait avant vous",
  "rules:intro": "{title} : {players} joueurs, le premier à {target} gagne.",
  "rules:play": "Prenez la carte du dessus de la défausse ou piochez, et placez la carte dans une case : la carte qui s’y trouvait est défaussée (une carte piochée peut aussi être défaussée). Rangez votre support dans l’ordre, la plus faible dans la case 5, la plus forte dans la case 50.",
  "rules:run": "À deux, un support en ordre ne suffit pas : il lui faut une suite de trois nombres consécutifs dans des cases voisines, comme 28, 29, 30 (la règle à deux). Sans suite, on continue de jouer.",
  "rules:partners": "Les partenaires sont assis face à face ; leurs points s’additionnent.",
  "rules:score": "Points : Rack-O {racko} ; les autres {per} par carte en ordre depuis la case 5 jusqu’à la première rupture.",
  "rules:bonus": "Bonus pour la plus longue suite quand vous faites Rack-O ({bonuses} ; 6 ou plus compte comme 6). Faire Rack-O est votre choix : vous pouvez attendre une plus longue suite, au risque qu’un autre finisse avant vous.",
  "rules:hl:play": "Toutes les rangées sont face visible. Qui pioche met la carte piochée à la place d’une carte de sa rangée ; la carte retirée passe au joueur de droite, qui doit la placer de même ; la dernière est défaussée. Une carte Échange permet à chacun d’échanger deux cartes de sa rangée. Un Wild vaut le nombre que vous voulez.",
  "rules:hl:out": "Faites Rack-O avec votre rangée en ordre, croissant ou décroissant (des voisins égaux comptent comme en ordre).",
  "rules:hl:score": "Points : Rack-O {racko} ; les autres {per} par carte en ordre depuis la gauche ; {per} pour chaque double (deux nombres identiques côte à côte, ou un nombre suivi d’un Wild).",
  "rules:hl:bonus": "Bonus de suite pour la plus longue suite du gagnant ({bonuses} ; 7 ou plus compte comme 6).",
  "ev:dealt": "{name} a distribué dix cartes à chacun.",
  "ev:turned-up": "{card} a été retournée pour commencer la défausse.",
  "ev:drew": "{name} a pioché.", "ev:drew-seen": "{name} a pioché ({card}).",
  "ev:took": "{name} a pris {card} dans la défausse.",
  "ev:exchanged": "{name} a mis {card_in} dans la case {slot} et défaussé {card_out}.",
  "ev:discarded": "{name} a défaussé {card}.",
  "ev:refilled-flip": "La pioche est vide : la défausse a été retournée pour faire une nouvelle pioche.",
  "ev:refilled-shuffle": "La pioche est vide : la défausse a été mélangée pour faire une nouvelle pioche.",
  "ev:racko": "{name} a fait Rack-O !", "ev:waited": "{name} pouvait faire Rack-O mais attend.",
  "ev:round-ended": "La manche est finie.", "ev:round-won": "La manche est finie : {name} a fait Rack-O.",
  "ev:round-capped": "La manche est finie : personne n’a fait Rack-O en {turns} tours (la limite de tours).",
  "ev:hl:dealt": "Dix cartes chacun, distribuées face visible.",
  "ev:swap-discarded": "À la donne, {name} avait une carte Échange en position {position} ; selon les règles, elle est allée à la défausse.",
  "ev:hl:drew": "{name} a pioché {card}.", "ev:placed": "{name} a mis {card} en position {position} et retiré {removed}.",
  "ev:placed-at-deal": "Selon les règles, {name} a reçu {card} de la pioche à sa place (position {position}).", "ev:passed": "{name} a reçu {card}.",
  "ev:hl:discarded": "{card} est allée à la défausse.", "ev:swapped": "{name} a échangé les positions {first} et {second}.",
  "ev:kept": "{name} a gardé sa rangée telle quelle.", "ev:hl:refilled": "La pioche est vide : la défausse devient la nouvelle pioche.",
  "ev:capped": "La donne a atteint la limite de tours.",
  a_card: "une carte", the_wild: "le Wild", a_swap: "une carte Échange",
  "exp:won": "Rack-O : 75 points", "exp:bonus": "Rack-O : 75 points + {bonus} de bonus pour une suite de {run} = {points}",
  "exp:all": "les dix cartes en ordre : {count} × 5 = {points} points",
  "exp:upto": "en ordre jusqu’à la case {upto}, rompu à la case {broken} : {count} × 5 = {points} points",
  "exp:hl:won": "Rack-O ({way}) : 75{doubles}{bonus} = {points} points", "exp:hl:doubles": " + {pairs} doubles × 5",
  "exp:hl:bonus": " + {bonus} pour une suite de {run}", "exp:hl:count": "{count} en ordre × 5{doubles} = {points} points",
  low: "Bas", high: "Haut", stock_short: "pioche", order_breaks: "l’ordre se rompt ici", points: "points", total: "Total", round: "Manche", sheet: "Feuille de marque",
  // The table's turn signals, reactions, notices, variant titles and key lists.
  "title:classic": "Rack-O classique", "title:bonus": "Rack-O bonus", "title:partners": "Rack-O en équipes", "title:highlow": "Rack-O Haut-Bas",
  keys_intro: "Touches : {keys}.", "key:draw": "d piocher", "key:take": "t prendre la défausse", "key:exchange": "1-9 et 0 une case",
  "key:replace": "1-9 et 0 une position", "key:swap": "deux positions à échanger", "key:discard": "x défausser", "key:racko": "r Rack-O",
  "key:wait": "w attendre", "key:keep": "k garder sa rangée", "key:hint": "? conseil (à votre tour)",
  panel: "Scores et journal", mute: "Son coupé", react: "Dire quelque chose", "reaction:gg": "Bonne partie", "reaction:wp": "Bien joué",
  "reaction:oops": "Oups", "reaction:your-turn": "À toi de jouer !", "reaction:thinking": "Je réfléchis…",
  rack_of: "Support de {name}", row_of: "Rangée de {name}", in_hand: "en main : {card}", watch_instead: "Regarder cette table",
  take_back: "Jouer ici", bad_link: "Ce lien n’est pas une place à cette table",
  bad_link_text: "Le lien est peut-être coupé, ou appartient à une autre table ou à une partie précédente. Redemandez votre lien, ou regardez la table sans jouer.",
  no_table: "Cette table n’existe pas", no_table_text: "Le lien est peut-être coupé, ou la table a été oubliée après 30 jours sans jeu.",
  damaged: "Cette table ne peut pas être ouverte", damaged_text: "Sa partie enregistrée est abîmée : on ne peut plus y jouer. L’administrateur du serveur sait pourquoi ; toutes les autres tables jouent normalement.",
  replaced: "Cette place a été ouverte dans une autre fenêtre",
  replaced_text: "Une seule fenêtre joue une place : celle-ci s’est arrêtée. Jouer ici reprend la place à l’autre fenêtre.",
  game_title: "{title} : la partie est finie", winner_is: "Vainqueur : {name}", last_round: "Manche {n}, la dernière", show_result: "Le score final",
  "err:stale": "La table a bougé avant que votre coup n’arrive : regardez et choisissez à nouveau.", "err:not-your-turn": "Ce n’est pas votre tour.",
  "err:too-soon": "Une réaction toutes les quelques secondes : patientez un instant.", "err:slow-down": "Trop de clics à la fois : doucement.",
  "err:no-hint": "Un conseil, c’est pour votre propre tour.", "err:spectator": "Les spectateurs regardent : ouvrez le lien d’une place pour jouer ou réagir.",
  seconds: "{s} s",
});

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

// The keys this variant uses, in the page's language: only the verbs its players ever take (classic has no w or k).
function keysHelp(setup) {
  const order = ["draw", "take", "exchange", "replace", "swap", "discard", "racko", "wait", "keep"];
  const keys = order.filter((verb) => setup.verbs.includes(verb)).map((verb) => t("key:" + verb));
  return t("keys_intro", { keys: [...keys, t("key:hint")].join(", ") });
}

// A name as the page shows it: isolated, so that a right-to-left name never reorders the text around it.
function bdi(text) {
  const element = document.createElement("bdi");
  element.textContent = text;
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
function describeEntry(entry, names, family, slots) {
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
    removed: cardWords(entry.removed), slot: entry.slot !== undefined ? slots[entry.slot] : "",
    position: entry.position !== undefined ? entry.position + 1 : "", first: entry.first !== undefined ? entry.first + 1 : "",
    second: entry.second !== undefined ? entry.second + 1 : "", turns: entry.turns,
  });
}

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
  const text = (WORDS[LANG] && WORDS[LANG][key]) || WORDS.en[key] || key;
  // One pass, so that a value (a player's name) that looks like "{card}" is never filled in itself.
  return text.replace(/\{(\w+)\}/g, (whole, name) => (values && name in values ? String(values[name]) : whole));
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
  if (label) {
    // A picture with its words (slot and card), which screen readers read: a plain span's label they ignore.
    card.setAttribute("role", "img");
    card.setAttribute("aria-label", label);
  }
  return card;
}

// A room's block of words joins the page's: every room (analysis, review, lesson, puzzles) has a block of its own,
// marked as below, so that Python reads the same words (racko/analysis/words.py).
function addWords(block) {
  for (const language of Object.keys(block)) Object.assign(WORDS[language], block[language]);
}

// ---- racko.analysis: the words of the review, the hints that say why, the first lesson and the puzzles ----
// Python reads this block too (racko/analysis/words.py), so that the terminal says the same sentences from the same
// keys: between the two marker lines it must stay plain JSON (double quotes, no trailing commas, no comments).
const ANALYSIS_WORDS =
// analysis-words:begin
{
  "en": {
    "why:call": "Your rack qualifies: going out now wins the round.",
    "why:wait": "Waiting plays on for a run longer than {run}, at the risk that somebody goes out first.",
    "why:fits-between-many": "Slots {from}–{to} need {count} cards between {low} and {high}; {card} fits there.",
    "why:fits-between-one": "Slot {from} needs a card between {low} and {high}; {card} fits there.",
    "why:fits-below-many": "Slots {from}–{to} need {count} cards below {high}; {card} fits there.",
    "why:fits-below-one": "Slot {from} needs a card below {high}; {card} fits there.",
    "why:fits-above-many": "Slots {from}–{to} need {count} cards above {low}; {card} fits there.",
    "why:fits-above-one": "Slot {from} needs a card above {low}; {card} fits there.",
    "why:out-of-order": "{card} in slot {slot} is out of order with the cards you keep.",
    "why:gives-up-kept": "It gives up {out}, which was in order in slot {slot}.",
    "why:in-order": "{cards} are in order and stay in place.",
    "why:start-grows": "Slots 5 to {upto} now rise from the bottom: {points} points if somebody else goes out first.",
    "why:start-breaks": "It breaks the rising start from slot 5 to {upto}: {points} points if somebody else goes out first.",
    "why:run-made": "{cards} is a run of three: with two players a Rack-O needs one.",
    "why:run-near": "{low} and {high} sit side by side: {below} or {above} beside them would make the run of three a Rack-O needs with two players.",
    "why:run-near-one": "{low} and {high} sit side by side: {wanted} beside them would make the run of three a Rack-O needs with two players.",
    "why:run-lost": "It breaks up {low} and {high}, your start of a run of three (with two players a Rack-O needs one).",
    "why:run-none": "No run yet: with two players a Rack-O needs three numbers in a row side by side, like 28, 29, 30.",
    "why:room-between-many": "Still open: slots {from}–{to} need {count} cards between {low} and {high} ({may} of them may still come).",
    "why:room-between-one": "Still open: slot {from} needs a card between {low} and {high} ({may} of them may still come).",
    "why:room-below-many": "Still open: slots {from}–{to} need {count} cards below {high} ({may} of them may still come).",
    "why:room-below-one": "Still open: slot {from} needs a card below {high} ({may} of them may still come).",
    "why:room-above-many": "Still open: slots {from}–{to} need {count} cards above {low} ({may} of them may still come).",
    "why:room-above-one": "Still open: slot {from} needs a card above {low} ({may} of them may still come).",
    "why:all-in-order": "All ten cards are in order.",
    "why:draw": "{top} on the discard pile fits none of your open slots; {fit} of the {may} cards that may come from the stock would.",
    "why:draw-over-take": "{top} would fit slots {from}–{to}, but a card from the stock is the better chance: {fit} of the {may} cards that may come fit an open slot.",
    "why:draw-over-take-one": "{top} would fit slot {from}, but a card from the stock is the better chance: {fit} of the {may} cards that may come fit an open slot.",
    "why:draw-empty": "{fit} of the {may} cards that may come fit an open slot.",
    "why:discard-fits": "{held} would fit slots {from}–{to}, but your rack does better without it.",
    "why:discard-fits-one": "{held} would fit slot {from}, but your rack does better without it.",
    "why:discard-nowhere": "{held} fits none of your open slots: keep your rack as it is.",
    "why:gives-wanted": "{out} goes to {name}, who took {taken} from the pile earlier: they probably collect cards near it.",
    "why:gives-wanted-next": "{out} goes to the next player, who took {taken} from the pile earlier: they probably collect cards near it.",
    "why:chance": "From what you can see, this move wins the round about {chance}% of the time ({playouts} play-outs).",
    "why:behind": "That is {points} points of win chance less than the best move.",
    "why:turns": "From what you can see, about {turns} turns to go out after this move, counting this one.",
    "why:behind-turns": "That is {turns} turns slower than the best move.",
    "why:close": "About as good as the best move: the difference is within the noise of the estimate.",
    "why:chance-short": "({chance}% to win the round)",
    "move:draw": "draw",
    "move:take": "take {card}",
    "move:take-to": "take {card} for slot {slot}",
    "move:exchange": "put {card} in slot {slot}",
    "move:discard": "discard {card}",
    "move:racko": "call Rack-O",
    "move:wait": "wait",
    "move:replace": "put {card} at position {position}",
    "move:swap": "swap positions {first} and {second}",
    "move:keep": "keep the row",
    "review:best": "best",
    "review:good": "good",
    "review:inaccuracy": "inaccuracy",
    "review:mistake": "mistake",
    "review:blunder": "blunder",
    "review:title": "Review",
    "review:accuracy": "Accuracy {accuracy}",
    "review:chart": "Chance to win the round, move by move",
    "review:progress": "Reviewing: {done} of {total} decisions",
    "review:played": "Played",
    "review:best-move": "Best"
  },
  "nl": {
    "why:call": "Je rekje is klaar: nu Rack-O roepen wint de ronde.",
    "why:wait": "Wachten speelt door voor een reeks langer dan {run}, met het risico dat een ander eerst uitgaat.",
    "why:fits-between-many": "Gleuven {from}–{to} hebben {count} kaarten nodig tussen {low} en {high}; {card} past daar.",
    "why:fits-between-one": "Gleuf {from} heeft een kaart nodig tussen {low} en {high}; {card} past daar.",
    "why:fits-below-many": "Gleuven {from}–{to} hebben {count} kaarten onder {high} nodig; {card} past daar.",
    "why:fits-below-one": "Gleuf {from} heeft een kaart onder {high} nodig; {card} past daar.",
    "why:fits-above-many": "Gleuven {from}–{to} hebben {count} kaarten boven {low} nodig; {card} past daar.",
    "why:fits-above-one": "Gleuf {from} heeft een kaart boven {low} nodig; {card} past daar.",
    "why:out-of-order": "{card} in gleuf {slot} past niet in de volgorde van de kaarten die je houdt.",
    "why:gives-up-kept": "Je geeft {out} op, die in gleuf {slot} op volgorde stond.",
    "why:in-order": "{cards} liggen op volgorde en blijven liggen.",
    "why:start-grows": "Gleuven 5 tot {upto} lopen nu op vanaf onderen: {points} punten als een ander eerst uitgaat.",
    "why:start-breaks": "Dit breekt de oplopende start van gleuf 5 tot {upto}: {points} punten als een ander eerst uitgaat.",
    "why:run-made": "{cards} is een reeks van drie: met twee spelers vraagt een Rack-O er een.",
    "why:run-near": "{low} en {high} liggen naast elkaar: {below} of {above} ernaast maakt de reeks van drie die een Rack-O met twee spelers vraagt.",
    "why:run-near-one": "{low} en {high} liggen naast elkaar: {wanted} ernaast maakt de reeks van drie die een Rack-O met twee spelers vraagt.",
    "why:run-lost": "Dit haalt {low} en {high} uit elkaar, je begin van een reeks van drie (met twee spelers vraagt een Rack-O er een).",
    "why:run-none": "Nog geen reeks: met twee spelers vraagt een Rack-O drie opeenvolgende getallen naast elkaar, zoals 28, 29, 30.",
    "why:room-between-many": "Nog open: gleuven {from}–{to} hebben {count} kaarten nodig tussen {low} en {high} ({may} daarvan kunnen nog komen).",
    "why:room-between-one": "Nog open: gleuf {from} heeft een kaart nodig tussen {low} en {high} ({may} daarvan kunnen nog komen).",
    "why:room-below-many": "Nog open: gleuven {from}–{to} hebben {count} kaarten onder {high} nodig ({may} daarvan kunnen nog komen).",
    "why:room-below-one": "Nog open: gleuf {from} heeft een kaart onder {high} nodig ({may} daarvan kunnen nog komen).",
    "why:room-above-many": "Nog open: gleuven {from}–{to} hebben {count} kaarten boven {low} nodig ({may} daarvan kunnen nog komen).",
    "why:room-above-one": "Nog open: gleuf {from} heeft een kaart boven {low} nodig ({may} daarvan kunnen nog komen).",
    "why:all-in-order": "Alle tien kaarten liggen op volgorde.",
    "why:draw": "{top} op de aflegstapel past in geen van je open gleuven; {fit} van de {may} kaarten die van de stok kunnen komen wel.",
    "why:draw-over-take": "{top} zou in gleuven {from}–{to} passen, maar een kaart van de stok is de betere kans: {fit} van de {may} kaarten die kunnen komen passen in een open gleuf.",
    "why:draw-over-take-one": "{top} zou in gleuf {from} passen, maar een kaart van de stok is de betere kans: {fit} van de {may} kaarten die kunnen komen passen in een open gleuf.",
    "why:draw-empty": "{fit} van de {may} kaarten die kunnen komen passen in een open gleuf.",
    "why:discard-fits": "{held} zou in gleuven {from}–{to} passen, maar je rekje is beter af zonder.",
    "why:discard-fits-one": "{held} zou in gleuf {from} passen, maar je rekje is beter af zonder.",
    "why:discard-nowhere": "{held} past in geen van je open gleuven: houd je rekje zoals het is.",
    "why:gives-wanted": "{out} gaat naar {name}, die eerder {taken} van de stapel nam: die verzamelt waarschijnlijk kaarten in de buurt.",
    "why:gives-wanted-next": "{out} gaat naar de volgende speler, die eerder {taken} van de stapel nam: die verzamelt waarschijnlijk kaarten in de buurt.",
    "why:chance": "Naar wat jij kunt zien, wint deze zet de ronde ongeveer {chance}% van de keren ({playouts} nagespeelde rondes).",
    "why:behind": "Dat is {points} procentpunt winkans minder dan de beste zet.",
    "why:turns": "Naar wat jij kunt zien, nog ongeveer {turns} beurten tot Rack-O na deze zet, deze meegeteld.",
    "why:behind-turns": "Dat is {turns} beurten trager dan de beste zet.",
    "why:close": "Ongeveer even goed als de beste zet: het verschil valt binnen de ruis van de schatting.",
    "why:chance-short": "({chance}% kans om de ronde te winnen)",
    "move:draw": "trekken",
    "move:take": "{card} nemen",
    "move:take-to": "{card} nemen voor gleuf {slot}",
    "move:exchange": "{card} in gleuf {slot}",
    "move:discard": "{card} afleggen",
    "move:racko": "Rack-O roepen",
    "move:wait": "wachten",
    "move:replace": "{card} op plaats {position}",
    "move:swap": "plaats {first} en {second} ruilen",
    "move:keep": "de rij houden",
    "review:best": "beste",
    "review:good": "goed",
    "review:inaccuracy": "onnauwkeurig",
    "review:mistake": "fout",
    "review:blunder": "blunder",
    "review:title": "Analyse",
    "review:accuracy": "Nauwkeurigheid {accuracy}",
    "review:chart": "Kans om de ronde te winnen, zet na zet",
    "review:progress": "Analyseren: {done} van {total} beslissingen",
    "review:played": "Gespeeld",
    "review:best-move": "Beste"
  },
  "fr": {
    "why:call": "Votre support est prêt : annoncer Rack-O maintenant gagne la manche.",
    "why:wait": "Attendre, c’est jouer pour une suite plus longue que {run}, au risque qu’un autre finisse avant vous.",
    "why:fits-between-many": "Les cases {from} à {to} attendent {count} cartes entre {low} et {high} ; {card} y a sa place.",
    "why:fits-between-one": "La case {from} attend une carte entre {low} et {high} ; {card} y a sa place.",
    "why:fits-below-many": "Les cases {from} à {to} attendent {count} cartes sous {high} ; {card} y a sa place.",
    "why:fits-below-one": "La case {from} attend une carte sous {high} ; {card} y a sa place.",
    "why:fits-above-many": "Les cases {from} à {to} attendent {count} cartes au-dessus de {low} ; {card} y a sa place.",
    "why:fits-above-one": "La case {from} attend une carte au-dessus de {low} ; {card} y a sa place.",
    "why:out-of-order": "{card} dans la case {slot} n’est pas dans l’ordre des cartes que vous gardez.",
    "why:gives-up-kept": "Vous renoncez à {out}, qui était dans l’ordre dans la case {slot}.",
    "why:in-order": "{cards} sont dans l’ordre et restent en place.",
    "why:start-grows": "Les cases 5 à {upto} montent maintenant depuis le bas : {points} points si un autre finit avant vous.",
    "why:start-breaks": "Cela rompt le début montant des cases 5 à {upto} : {points} points si un autre finit avant vous.",
    "why:run-made": "{cards} forment une suite de trois : à deux, un Rack-O en demande une.",
    "why:run-near": "{low} et {high} sont côte à côte : {below} ou {above} à côté ferait la suite de trois qu’un Rack-O demande à deux.",
    "why:run-near-one": "{low} et {high} sont côte à côte : {wanted} à côté ferait la suite de trois qu’un Rack-O demande à deux.",
    "why:run-lost": "Cela sépare {low} et {high}, votre début de suite de trois (à deux, un Rack-O en demande une).",
    "why:run-none": "Pas encore de suite : à deux, un Rack-O demande trois nombres qui se suivent, côte à côte, comme 28, 29, 30.",
    "why:room-between-many": "Encore ouvert : les cases {from} à {to} attendent {count} cartes entre {low} et {high} ({may} peuvent encore venir).",
    "why:room-between-one": "Encore ouvert : la case {from} attend une carte entre {low} et {high} ({may} peuvent encore venir).",
    "why:room-below-many": "Encore ouvert : les cases {from} à {to} attendent {count} cartes sous {high} ({may} peuvent encore venir).",
    "why:room-below-one": "Encore ouvert : la case {from} attend une carte sous {high} ({may} peuvent encore venir).",
    "why:room-above-many": "Encore ouvert : les cases {from} à {to} attendent {count} cartes au-dessus de {low} ({may} peuvent encore venir).",
    "why:room-above-one": "Encore ouvert : la case {from} attend une carte au-dessus de {low} ({may} peuvent encore venir).",
    "why:all-in-order": "Les dix cartes sont dans l’ordre.",
    "why:draw": "{top} sur la défausse ne va dans aucune de vos cases ouvertes ; {fit} des {may} cartes qui peuvent venir de la pioche, si.",
    "why:draw-over-take": "{top} irait dans les cases {from} à {to}, mais une carte de la pioche est la meilleure chance : {fit} des {may} cartes qui peuvent venir vont dans une case ouverte.",
    "why:draw-over-take-one": "{top} irait dans la case {from}, mais une carte de la pioche est la meilleure chance : {fit} des {may} cartes qui peuvent venir vont dans une case ouverte.",
    "why:draw-empty": "{fit} des {may} cartes qui peuvent venir vont dans une case ouverte.",
    "why:discard-fits": "{held} irait dans les cases {from} à {to}, mais votre support s’en sort mieux sans elle.",
    "why:discard-fits-one": "{held} irait dans la case {from}, mais votre support s’en sort mieux sans elle.",
    "why:discard-nowhere": "{held} ne va dans aucune de vos cases ouvertes : gardez votre support tel quel.",
    "why:gives-wanted": "{out} va à {name}, qui a pris {taken} dans la défausse plus tôt : sans doute des cartes qu’on rassemble par là.",
    "why:gives-wanted-next": "{out} va au joueur suivant, qui a pris {taken} dans la défausse plus tôt : sans doute des cartes qu’il rassemble par là.",
    "why:chance": "D’après ce que vous voyez, ce coup gagne la manche environ {chance} % des fois ({playouts} manches simulées).",
    "why:behind": "C’est {points} points de chance de gagner en moins que le meilleur coup.",
    "why:turns": "D’après ce que vous voyez, encore environ {turns} tours jusqu’à Rack-O après ce coup, celui-ci compris.",
    "why:behind-turns": "C’est {turns} tours de plus que le meilleur coup.",
    "why:close": "À peu près aussi bon que le meilleur coup : l’écart reste dans le bruit de l’estimation.",
    "why:chance-short": "({chance} % de chances de gagner la manche)",
    "move:draw": "piocher",
    "move:take": "prendre {card}",
    "move:take-to": "prendre {card} pour la case {slot}",
    "move:exchange": "mettre {card} dans la case {slot}",
    "move:discard": "défausser {card}",
    "move:racko": "annoncer Rack-O",
    "move:wait": "attendre",
    "move:replace": "mettre {card} en position {position}",
    "move:swap": "échanger les positions {first} et {second}",
    "move:keep": "garder la rangée",
    "review:best": "meilleur",
    "review:good": "bon",
    "review:inaccuracy": "imprécision",
    "review:mistake": "erreur",
    "review:blunder": "gaffe",
    "review:title": "Analyse",
    "review:accuracy": "Précision {accuracy}",
    "review:chart": "Chance de gagner la manche, coup par coup",
    "review:progress": "Analyse : {done} décisions sur {total}",
    "review:played": "Joué",
    "review:best-move": "Meilleur"
  }
}
// analysis-words:end
;
addWords(ANALYSIS_WORDS);

// ---- the review of a game in the browser: plain JSON between the marker lines, as above ----
const REVIEW_WORDS =
// review-words:begin
{
  "en": {},
  "nl": {},
  "fr": {}
}
// review-words:end
;
addWords(REVIEW_WORDS);

// ---- the first lesson (/learn, racko learn): plain JSON between the marker lines, as above ----
const LESSON_WORDS =
// lesson-words:begin
{
"en": {
"lesson:nav":"Learn",
"lesson:title":"Learn Rack-O",
"lesson:intro":"A first round that teaches the game, step by step: about ten minutes.",
"lesson:step-of":"Step {n} of {total}",
"lesson:continue":"Continue",
"lesson:restart":"Start again",
"lesson:keys":"Keys: t take the discard, d draw, 1-9 and 0 a slot, x discard, r Rack-O, w play on, Enter continue.",
"lesson:out-mark":"out of order",
"lesson:play-on":"Play on",
"lesson:wrong":"Not quite",
"lesson:your-rack":"Your rack",
"lesson:rack-of":"Rack of {name}",
"lesson:points":"{points} points",
"lesson:new-game":"Play against the computer",
"lesson:lobby":"To the lobby",
"lesson:error":"The lesson could not go on: {message}",
"lesson:start-link":"New to Rack-O? Learn it in ten minutes.",
"lesson:slot-word":"slot",
"lesson:card-word":"card",
"lesson:term-intro":"Rack-O, the first lesson: one round against {name}, step by step. Type q to leave.",
"lesson:term-help":"Commands: t take the discard, d draw, 5 10 … 50 a slot, x discard, r Rack-O, w play on, Enter continue, q leave.",
"lesson:term-choose":"Type one of the answers: {choices}.",
"lesson:term-unknown":"“{command}” is not a command here.",
"lesson:term-bye":"You left the lesson. Run racko learn to start it again.",
"lesson:term-piles":"Discard pile: {discard}. Stock: {stock} cards.",
"lesson:term-held":"In hand: {card}.",
"lesson:term-out":"Out of order: slot {slots}.",
"lesson:scores":"Scores: you {mine}, {name} {theirs}.",
"lesson:term-next":"Play a real game with: racko play",
"lesson:not-now":"That is not a move for now.",
"lesson:not-an-answer":"That is not an answer the lesson knows.",
"lesson:prompt:read":"Read on, then continue.",
"lesson:prompt:pick":"Now choose a pile: take the discard, or draw from the stock.",
"lesson:prompt:place":"Now put the card you hold in a slot, or discard it if you drew it from the stock.",
"lesson:prompt:declare":"Now call Rack-O, or play on.",
"lesson:prompt:choose":"Choose one of the answers.",
"lesson:why-too-low":"{card} in slot {slot} would be lower than {low} in slot {low_slot}: out of order.",
"lesson:why-too-high":"{card} in slot {slot} would be higher than {high} in slot {high_slot}: out of order.",
"lesson:why-no-gain":"{out} in slot {slot} is in order already: putting {card} there gains nothing.",
"lesson:why-not-best":"{card} could go in slot {slot}, but another slot does more for your rack.",
"lesson:why-must-place":"You took {card} from the discard pile, so it must go into your rack (only a drawn card may be discarded).",
"lesson:they-drew":"{name} drew a card from the stock.",
"lesson:they-discarded":"{name} discarded {card}.",
"lesson:they-took":"{name} took {card} from the discard pile.",
"lesson:they-put":"{name} put it in slot {slot} and discarded {out}.",
"lesson:rack:title":"Your rack",
"lesson:rack:text":"This is your rack: ten slots, 5 to 50. Only you see its cards. Your goal: cards rising from the lowest in slot 5 to the highest in slot 50; whoever gets there first goes Rack-O and wins the round. {first} in slot 15 and {second} in slot 35 break the order.",
"lesson:rack:right":"Let's play. You play against {name}, and you go first.",
"lesson:take:title":"Take or draw",
"lesson:take:text":"Each turn you take one card: the top of the discard pile (face up) or of the stock (face down, a surprise). The discard is {card}; slot 15 holds {out}, out of order between {low} and {high}. Take or draw?",
"lesson:take:right":"Right: {card} fits between {low} and {high}. A card you can see that fits beats a surprise.",
"lesson:take:draw":"The stock is a surprise, and {card} is a sure gain: it fits between {low} in slot 10 and {high} in slot 20. Take it.",
"lesson:place-taken:title":"Where the card goes",
"lesson:place-taken:text":"You hold {card}. Put it in a slot; the card there goes face up onto the discard pile (cards never move otherwise). Which slot?",
"lesson:place-taken:right":"Well done: {out} went to the discard pile, and slots 5 to 30 now rise: 3, 9, 12, 14, 17, 22. Your turn is over, and {name} plays.",
"lesson:draw:title":"A card that does not help",
"lesson:draw:text":"One card still breaks your order: {out} in slot 35, which needs a card from {low} to {high}. Take {top}, or draw?",
"lesson:draw:right":"Right: {top} would only replace a card that is in order already. The stock may hold the card you need.",
"lesson:draw:take":"{top} fits only in slot 50, in place of {kept}, already in order: nothing gained. Draw instead.",
"lesson:discard:title":"Discarding",
"lesson:discard:text":"You drew {card}. A drawn card may go into a slot, or straight onto the discard pile, leaving your rack as it is. Where does {card} help?",
"lesson:discard:right":"Right: {card} helps nowhere: slot 35 needs {low} to {high}, and elsewhere it would replace a card in order or break the order.",
"lesson:draw-again:title":"Take or draw, once more",
"lesson:draw-again:text":"{top} lies on the discard pile now. Take it, or draw?",
"lesson:draw-again:right":"Right: {top} could only replace {kept} in slot 5, and {kept} is low enough already.",
"lesson:draw-again:take":"{top} could only replace {kept} in slot 5, already in order: nothing gained. Draw.",
"lesson:place-drawn:title":"The card you need",
"lesson:place-drawn:text":"You drew {card}. Where does it go?",
"lesson:place-drawn:right":"Yes: {card} fits between {low} in slot 30 and {high} in slot 40. All ten cards now rise from slot 5 to slot 50!",
"lesson:place-drawn:discard":"Keep it: {card} fits slot {slot}, between {low} and {high}, the one slot still out of order.",
"lesson:run:title":"The rule for two players",
"lesson:run:text":"All ten cards are in order. But with two players a Rack-O also needs a run of three: three numbers in a row side by side, like 27, 28, 29. Call Rack-O, or play on?",
"lesson:run:right":"Right: {cards} is a run of two, not three. A 26 in slot 35 or a 29 in slot 50 would make one. Your turn ends, and {name} plays.",
"lesson:run:racko":"{cards} is a run of only two, and with two players a Rack-O needs three numbers in a row side by side. Play on.",
"lesson:take-run:title":"Watch the discard pile",
"lesson:take-run:text":"Look at the card {name} gave away. Take it, or draw?",
"lesson:take-run:right":"Yes: {top} beside 27 and 28 makes a run of three.",
"lesson:take-run:draw":"{top} is just what you need: beside 27 and 28 it makes a run of three. Take it.",
"lesson:place-run:title":"A run of three",
"lesson:place-run:text":"You hold {card}. Which slot gives you the run 27, 28, 29?",
"lesson:place-run:right":"27, 28, 29 in slots 40, 45 and 50: a run of three, and every card in order. {out} goes to the discard pile.",
"lesson:call:title":"Rack-O!",
"lesson:call:text":"Your rack is in order from slot 5 to slot 50 and has a run of three. Call Rack-O, or wait?",
"lesson:call:right":"Rack-O! You win the round. (At racko's classic tables it is called for you.)",
"lesson:call:wait":"Waiting gives {name} turns to go out first, and in this game a longer run earns nothing. Call Rack-O.",
"lesson:score:title":"How a round is scored",
"lesson:score:text":"Going Rack-O scores {racko}: 5 a card and 25 for the Rack-O. The others score 5 a card in order from slot 5 up to the first break. How many points does {name} score?",
"lesson:score:right":"Right: {cards} rise from slot 5; {breaker} in slot {breaker_slot} breaks the order: {count} × 5 = {points}. Rounds go on until someone reaches {target}.",
"lesson:score:every-card":"{all_in_order} counts every card in order, but counting stops at the first break: {breaker} in slot {breaker_slot} is lower than {above} in slot {above_slot}.",
"lesson:score:racko":"{racko} is for the player who goes Rack-O: you. {name} scores 5 for each card in order from slot 5 up to the first break.",
"lesson:bonus:title":"Bonus Rack-O",
"lesson:bonus:text":"In Bonus Rack-O (a variant on the start page), going Rack-O also scores your longest run: 3 cards +50, 4 +100, 5 +200, 6 or more +400, and calling is a choice: you may wait for a longer run. You went out with {cards}. What would that score?",
"lesson:bonus:right":"Right: {racko} + {bonus} for a run of three = {points}. A run of four would have made {longer}, if you had dared to wait.",
"lesson:bonus:classic":"{racko} is the classic score; Bonus Rack-O adds {bonus} for your run of three.",
"lesson:bonus:longer":"{longer} is for a run of four; {cards} is a run of three.",
"lesson:end:title":"You know Rack-O!",
"lesson:end:text":"You took, drew, placed, discarded, made a run of three and went Rack-O. Now play a real game against the computer.",
"lesson:term-wrong":"Not quite: {why}",
"lesson:term-heading":"{what}:"
},
"nl": {
"lesson:nav":"Leren",
"lesson:title":"Rack-O leren",
"lesson:intro":"Een eerste ronde die je het spel stap voor stap leert: ongeveer tien minuten.",
"lesson:step-of":"Stap {n} van {total}",
"lesson:continue":"Verder",
"lesson:restart":"Opnieuw beginnen",
"lesson:keys":"Toetsen: t de aflegkaart nemen, d trekken, 1-9 en 0 een gleuf, x afleggen, r Rack-O, w doorspelen, Enter verder.",
"lesson:out-mark":"niet op volgorde",
"lesson:play-on":"Doorspelen",
"lesson:wrong":"Niet helemaal",
"lesson:your-rack":"Je rekje",
"lesson:rack-of":"Rekje van {name}",
"lesson:points":"{points} punten",
"lesson:new-game":"Speel tegen de computer",
"lesson:lobby":"Naar de lobby",
"lesson:error":"De les kon niet verder: {message}",
"lesson:start-link":"Nieuw in Rack-O? Leer het in tien minuten.",
"lesson:slot-word":"gleuf",
"lesson:card-word":"kaart",
"lesson:term-intro":"Rack-O, de eerste les: één ronde tegen {name}, stap voor stap. Typ q om te stoppen.",
"lesson:term-help":"Commando's: t de aflegkaart nemen, d trekken, 5 10 … 50 een gleuf, x afleggen, r Rack-O, w doorspelen, Enter verder, q stoppen.",
"lesson:term-choose":"Typ een van de antwoorden: {choices}.",
"lesson:term-unknown":"„{command}” is hier geen commando.",
"lesson:term-bye":"Je hebt de les verlaten. Start hem opnieuw met racko learn.",
"lesson:term-piles":"Aflegstapel: {discard}. Stok: {stock} kaarten.",
"lesson:term-held":"In je hand: {card}.",
"lesson:term-out":"Niet op volgorde: gleuf {slots}.",
"lesson:scores":"Punten: jij {mine}, {name} {theirs}.",
"lesson:term-next":"Speel een echt spel met: racko play",
"lesson:not-now":"Dat is nu geen zet.",
"lesson:not-an-answer":"Dat antwoord kent de les niet.",
"lesson:prompt:read":"Lees verder en ga dan door.",
"lesson:prompt:pick":"Kies nu een stapel: neem de aflegkaart, of trek van de stok.",
"lesson:prompt:place":"Steek nu de kaart in je hand in een gleuf, of leg hem af als je hem van de stok trok.",
"lesson:prompt:declare":"Roep nu Rack-O, of speel door.",
"lesson:prompt:choose":"Kies een van de antwoorden.",
"lesson:why-too-low":"{card} in gleuf {slot} zou lager zijn dan {low} in gleuf {low_slot}: niet op volgorde.",
"lesson:why-too-high":"{card} in gleuf {slot} zou hoger zijn dan {high} in gleuf {high_slot}: niet op volgorde.",
"lesson:why-no-gain":"{out} in gleuf {slot} staat al op volgorde: {card} daar steken levert niets op.",
"lesson:why-not-best":"{card} kan in gleuf {slot}, maar een andere gleuf doet meer voor je rekje.",
"lesson:why-must-place":"Je nam {card} van de aflegstapel, dus hij moet in je rekje (alleen een getrokken kaart mag je afleggen).",
"lesson:they-drew":"{name} trok een kaart van de stok.",
"lesson:they-discarded":"{name} legde {card} af.",
"lesson:they-took":"{name} nam {card} van de aflegstapel.",
"lesson:they-put":"{name} stak hem in gleuf {slot} en legde {out} af.",
"lesson:rack:title":"Je rekje",
"lesson:rack:text":"Dit is je rekje: tien gleuven, 5 tot 50. Alleen jij ziet de kaarten. Je doel: kaarten die oplopen van de laagste in gleuf 5 tot de hoogste in gleuf 50; wie dat eerst heeft, heeft Rack-O en wint de ronde. {first} in gleuf 15 en {second} in gleuf 35 breken de volgorde.",
"lesson:rack:right":"Daar gaan we. Je speelt tegen {name}, en jij begint.",
"lesson:take:title":"Nemen of trekken",
"lesson:take:text":"Elke beurt neem je één kaart: de bovenste van de aflegstapel (open) of van de stok (gesloten, een verrassing). Op de aflegstapel ligt {card}; in gleuf 15 staat {out}, niet op volgorde tussen {low} en {high}. Nemen of trekken?",
"lesson:take:right":"Goed: {card} past tussen {low} en {high}. Een kaart die je ziet en die past, is beter dan een verrassing.",
"lesson:take:draw":"De stok is een verrassing, en {card} is zeker winst: hij past tussen {low} in gleuf 10 en {high} in gleuf 20. Neem hem.",
"lesson:place-taken:title":"Waar de kaart heen gaat",
"lesson:place-taken:text":"Je hebt {card} in je hand. Steek hem in een gleuf; de kaart die daar stak, gaat open op de aflegstapel (anders verschuiven kaarten nooit). Welke gleuf?",
"lesson:place-taken:right":"Mooi: {out} ging naar de aflegstapel, en gleuf 5 tot 30 lopen nu op: 3, 9, 12, 14, 17, 22. Je beurt is voorbij; {name} is aan de beurt.",
"lesson:draw:title":"Een kaart die niet helpt",
"lesson:draw:text":"Eén kaart breekt nog je volgorde: {out} in gleuf 35, waar een kaart van {low} tot {high} hoort. Neem je {top}, of trek je?",
"lesson:draw:right":"Goed: {top} zou alleen een kaart vervangen die al op volgorde staat. Op de stok ligt misschien de kaart die je zoekt.",
"lesson:draw:take":"{top} past alleen in gleuf 50, in plaats van {kept}, al op volgorde: dat levert niets op. Trek liever.",
"lesson:discard:title":"Afleggen",
"lesson:discard:text":"Je trok {card}. Een getrokken kaart mag in een gleuf, of meteen op de aflegstapel: dan blijft je rekje zoals het is. Waar helpt {card}?",
"lesson:discard:right":"Goed: {card} helpt nergens: gleuf 35 vraagt {low} tot {high}, en elders zou hij een kaart op volgorde vervangen of de volgorde breken.",
"lesson:draw-again:title":"Nog eens nemen of trekken",
"lesson:draw-again:text":"Nu ligt {top} op de aflegstapel. Neem je die, of trek je?",
"lesson:draw-again:right":"Goed: {top} kan alleen {kept} in gleuf 5 vervangen, en {kept} is al laag genoeg.",
"lesson:draw-again:take":"{top} kan alleen {kept} in gleuf 5 vervangen, al op volgorde: dat levert niets op. Trek.",
"lesson:place-drawn:title":"De kaart die je zocht",
"lesson:place-drawn:text":"Je trok {card}. Waar hoort hij?",
"lesson:place-drawn:right":"Ja: {card} past tussen {low} in gleuf 30 en {high} in gleuf 40. Alle tien kaarten lopen nu op van gleuf 5 tot gleuf 50!",
"lesson:place-drawn:discard":"Houd hem: {card} past in gleuf {slot}, tussen {low} en {high}, de enige gleuf die nog niet op volgorde staat.",
"lesson:run:title":"De regel voor twee spelers",
"lesson:run:text":"Alle tien kaarten staan op volgorde. Maar met twee spelers vraagt een Rack-O ook een reeks van drie: drie opeenvolgende getallen naast elkaar, zoals 27, 28, 29. Rack-O roepen, of doorspelen?",
"lesson:run:right":"Goed: {cards} is een reeks van twee, niet van drie. Een 26 in gleuf 35 of een 29 in gleuf 50 zou er een maken. Je beurt is voorbij; {name} is aan de beurt.",
"lesson:run:racko":"{cards} is maar een reeks van twee, en met twee spelers vraagt een Rack-O drie opeenvolgende getallen naast elkaar. Speel door.",
"lesson:take-run:title":"Let op de aflegstapel",
"lesson:take-run:text":"Kijk naar de kaart die {name} weggaf. Neem je die, of trek je?",
"lesson:take-run:right":"Ja: {top} naast 27 en 28 maakt een reeks van drie.",
"lesson:take-run:draw":"{top} is precies wat je zoekt: naast 27 en 28 maakt hij een reeks van drie. Neem hem.",
"lesson:place-run:title":"Een reeks van drie",
"lesson:place-run:text":"Je hebt {card} in je hand. Welke gleuf geeft je de reeks 27, 28, 29?",
"lesson:place-run:right":"27, 28, 29 in gleuf 40, 45 en 50: een reeks van drie, en elke kaart op volgorde. {out} gaat naar de aflegstapel.",
"lesson:call:title":"Rack-O!",
"lesson:call:text":"Je rekje staat op volgorde van gleuf 5 tot gleuf 50 en heeft een reeks van drie. Roep je Rack-O, of wacht je?",
"lesson:call:right":"Rack-O! Je wint de ronde. (Aan de klassieke tafels van racko gebeurt dat vanzelf.)",
"lesson:call:wait":"Wachten geeft {name} beurten om eerder klaar te zijn, en in dit spel levert een langere reeks niets op. Roep Rack-O.",
"lesson:score:title":"Hoe een ronde geteld wordt",
"lesson:score:text":"Rack-O levert {racko} op: 5 per kaart en 25 voor de Rack-O. De anderen krijgen 5 per kaart op volgorde vanaf gleuf 5 tot de eerste onderbreking. Hoeveel punten krijgt {name}?",
"lesson:score:right":"Goed: {cards} lopen op vanaf gleuf 5; {breaker} in gleuf {breaker_slot} breekt de volgorde: {count} × 5 = {points}. Er wordt gespeeld tot iemand {target} haalt.",
"lesson:score:every-card":"{all_in_order} telt elke kaart op volgorde, maar het tellen stopt bij de eerste onderbreking: {breaker} in gleuf {breaker_slot} is lager dan {above} in gleuf {above_slot}.",
"lesson:score:racko":"{racko} is voor wie Rack-O heeft: jij. {name} krijgt 5 per kaart op volgorde vanaf gleuf 5 tot de eerste onderbreking.",
"lesson:bonus:title":"Bonus Rack-O",
"lesson:bonus:text":"Bij Bonus Rack-O (een spel op de startpagina) levert Rack-O ook punten op voor je langste reeks: 3 kaarten +50, 4 +100, 5 +200, 6 of meer +400, en roepen is je eigen keus: je mag wachten op een langere reeks. Je ging uit met {cards}. Hoeveel levert dat op?",
"lesson:bonus:right":"Goed: {racko} + {bonus} voor een reeks van drie = {points}. Een reeks van vier had {longer} opgeleverd, als je had durven wachten.",
"lesson:bonus:classic":"{racko} is de klassieke score; Bonus Rack-O telt er {bonus} bij voor je reeks van drie.",
"lesson:bonus:longer":"{longer} is voor een reeks van vier; {cards} is een reeks van drie.",
"lesson:end:title":"Je kent Rack-O!",
"lesson:end:text":"Je nam, trok, stak, legde af, maakte een reeks van drie en riep Rack-O. Speel nu een echt spel tegen de computer.",
"lesson:term-wrong":"Niet helemaal: {why}",
"lesson:term-heading":"{what}:"
},
"fr": {
"lesson:nav":"Apprendre",
"lesson:title":"Apprendre le Rack-O",
"lesson:intro":"Une première manche qui vous apprend le jeu pas à pas : une dizaine de minutes.",
"lesson:step-of":"Étape {n} sur {total}",
"lesson:continue":"Continuer",
"lesson:restart":"Recommencer",
"lesson:keys":"Touches : t prendre la défausse, d piocher, 1-9 et 0 une case, x défausser, r Rack-O, w continuer à jouer, Entrée continuer.",
"lesson:out-mark":"pas dans l’ordre",
"lesson:play-on":"Continuer à jouer",
"lesson:wrong":"Pas tout à fait",
"lesson:your-rack":"Votre support",
"lesson:rack-of":"Support de {name}",
"lesson:points":"{points} points",
"lesson:new-game":"Jouer contre l’ordinateur",
"lesson:lobby":"Vers le salon",
"lesson:error":"La leçon n’a pas pu continuer : {message}",
"lesson:start-link":"Nouveau au Rack-O ? Apprenez-le en dix minutes.",
"lesson:slot-word":"case",
"lesson:card-word":"carte",
"lesson:term-intro":"Rack-O, la première leçon : une manche contre {name}, pas à pas. Tapez q pour quitter.",
"lesson:term-help":"Commandes : t prendre la défausse, d piocher, 5 10 … 50 une case, x défausser, r Rack-O, w continuer à jouer, Entrée continuer, q quitter.",
"lesson:term-choose":"Tapez une des réponses : {choices}.",
"lesson:term-unknown":"« {command} » n’est pas une commande ici.",
"lesson:term-bye":"Vous avez quitté la leçon. Lancez racko learn pour la recommencer.",
"lesson:term-piles":"Défausse : {discard}. Pioche : {stock} cartes.",
"lesson:term-held":"En main : {card}.",
"lesson:term-out":"Pas dans l’ordre : case {slots}.",
"lesson:scores":"Points : vous {mine}, {name} {theirs}.",
"lesson:term-next":"Jouez une vraie partie avec : racko play",
"lesson:not-now":"Ce n’est pas un coup pour l’instant.",
"lesson:not-an-answer":"La leçon ne connaît pas cette réponse.",
"lesson:prompt:read":"Lisez, puis continuez.",
"lesson:prompt:pick":"Choisissez maintenant un tas : prenez la défausse, ou piochez.",
"lesson:prompt:place":"Placez maintenant la carte que vous tenez dans une case, ou défaussez-la si vous l’avez piochée.",
"lesson:prompt:declare":"Annoncez maintenant Rack-O, ou continuez à jouer.",
"lesson:prompt:choose":"Choisissez une des réponses.",
"lesson:why-too-low":"{card} dans la case {slot} serait plus faible que {low} dans la case {low_slot} : hors de l’ordre.",
"lesson:why-too-high":"{card} dans la case {slot} serait plus forte que {high} dans la case {high_slot} : hors de l’ordre.",
"lesson:why-no-gain":"{out} dans la case {slot} est déjà dans l’ordre : y mettre {card} ne rapporte rien.",
"lesson:why-not-best":"{card} pourrait aller dans la case {slot}, mais une autre case fait plus pour votre support.",
"lesson:why-must-place":"Vous avez pris {card} dans la défausse, elle doit donc aller sur votre support (seule une carte piochée peut être défaussée).",
"lesson:they-drew":"{name} a pioché une carte.",
"lesson:they-discarded":"{name} a défaussé {card}.",
"lesson:they-took":"{name} a pris {card} dans la défausse.",
"lesson:they-put":"{name} l’a placée dans la case {slot} et a défaussé {out}.",
"lesson:rack:title":"Votre support",
"lesson:rack:text":"Voici votre support : dix cases, de 5 à 50. Vous seul en voyez les cartes. Votre but : des cartes qui montent de la plus faible dans la case 5 à la plus forte dans la case 50 ; le premier qui y parvient fait Rack-O et gagne la manche. {first} dans la case 15 et {second} dans la case 35 rompent l’ordre.",
"lesson:rack:right":"À vous de jouer. Vous jouez contre {name}, et vous commencez.",
"lesson:take:title":"Prendre ou piocher",
"lesson:take:text":"À chaque tour, vous prenez une carte : celle du dessus de la défausse (visible) ou de la pioche (cachée, une surprise). La défausse montre {card} ; la case 15 contient {out}, hors de l’ordre entre {low} et {high}. Prendre ou piocher ?",
"lesson:take:right":"Bien : {card} va entre {low} et {high}. Une carte visible qui convient vaut mieux qu’une surprise.",
"lesson:take:draw":"La pioche est une surprise, et {card} est un gain sûr : elle va entre {low} dans la case 10 et {high} dans la case 20. Prenez-la.",
"lesson:place-taken:title":"Où va la carte",
"lesson:place-taken:text":"Vous tenez {card}. Placez-la dans une case ; la carte qui s’y trouvait part face visible sur la défausse (sinon, les cartes ne bougent jamais). Quelle case ?",
"lesson:place-taken:right":"Bravo : {out} est partie sur la défausse, et les cases 5 à 30 montent maintenant : 3, 9, 12, 14, 17, 22. Votre tour est fini ; c’est à {name} de jouer.",
"lesson:draw:title":"Une carte qui n’aide pas",
"lesson:draw:text":"Une carte rompt encore votre ordre : {out} dans la case 35, où il faudrait une carte de {low} à {high}. Prenez-vous {top}, ou piochez-vous ?",
"lesson:draw:right":"Bien : {top} ne ferait que remplacer une carte déjà dans l’ordre. La pioche cache peut-être la carte qu’il vous faut.",
"lesson:draw:take":"{top} ne va que dans la case 50, à la place de {kept}, déjà dans l’ordre : rien à gagner. Piochez plutôt.",
"lesson:discard:title":"Défausser",
"lesson:discard:text":"Vous avez pioché {card}. Une carte piochée peut aller dans une case, ou directement sur la défausse : votre support reste alors tel quel. Où {card} aide-t-elle ?",
"lesson:discard:right":"Bien : {card} n’aide nulle part : la case 35 demande {low} à {high}, et ailleurs elle remplacerait une carte dans l’ordre ou romprait l’ordre.",
"lesson:draw-again:title":"Prendre ou piocher, encore",
"lesson:draw-again:text":"C’est maintenant {top} qui est sur la défausse. La prenez-vous, ou piochez-vous ?",
"lesson:draw-again:right":"Bien : {top} ne pourrait que remplacer {kept} dans la case 5, et {kept} est déjà assez faible.",
"lesson:draw-again:take":"{top} ne pourrait remplacer que {kept} dans la case 5, déjà dans l’ordre : rien à gagner. Piochez.",
"lesson:place-drawn:title":"La carte qu’il vous faut",
"lesson:place-drawn:text":"Vous avez pioché {card}. Où va-t-elle ?",
"lesson:place-drawn:right":"Oui : {card} va entre {low} dans la case 30 et {high} dans la case 40. Les dix cartes montent maintenant de la case 5 à la case 50 !",
"lesson:place-drawn:discard":"Gardez-la : {card} va dans la case {slot}, entre {low} et {high}, la seule case encore hors de l’ordre.",
"lesson:run:title":"La règle à deux",
"lesson:run:text":"Les dix cartes sont dans l’ordre. Mais à deux joueurs, un Rack-O demande aussi une suite de trois : trois nombres qui se suivent, côte à côte, comme 27, 28, 29. Annoncer Rack-O, ou continuer à jouer ?",
"lesson:run:right":"Bien : {cards} est une suite de deux, pas de trois. Un 26 dans la case 35 ou un 29 dans la case 50 en ferait une. Votre tour est fini ; c’est à {name} de jouer.",
"lesson:run:racko":"{cards} n’est qu’une suite de deux, et à deux joueurs un Rack-O demande trois nombres qui se suivent, côte à côte. Continuez à jouer.",
"lesson:take-run:title":"Surveillez la défausse",
"lesson:take-run:text":"Regardez la carte dont {name} s’est défait. La prenez-vous, ou piochez-vous ?",
"lesson:take-run:right":"Oui : {top} à côté de 27 et 28 forme une suite de trois.",
"lesson:take-run:draw":"{top} est exactement ce qu’il vous faut : à côté de 27 et 28, elle forme une suite de trois. Prenez-la.",
"lesson:place-run:title":"Une suite de trois",
"lesson:place-run:text":"Vous tenez {card}. Quelle case vous donne la suite 27, 28, 29 ?",
"lesson:place-run:right":"27, 28, 29 dans les cases 40, 45 et 50 : une suite de trois, et toutes les cartes dans l’ordre. {out} part sur la défausse.",
"lesson:call:title":"Rack-O !",
"lesson:call:text":"Votre support est dans l’ordre de la case 5 à la case 50 et a une suite de trois. Annoncez-vous Rack-O, ou attendez-vous ?",
"lesson:call:right":"Rack-O ! Vous gagnez la manche. (Aux tables classiques de racko, il est annoncé pour vous.)",
"lesson:call:wait":"Attendre laisse à {name} des tours pour finir avant vous, et dans ce jeu une plus longue suite ne rapporte rien. Annoncez Rack-O.",
"lesson:score:title":"Le compte des points",
"lesson:score:text":"Faire Rack-O rapporte {racko} : 5 par carte et 25 pour le Rack-O. Les autres marquent 5 par carte dans l’ordre depuis la case 5 jusqu’à la première rupture. Combien de points marque {name} ?",
"lesson:score:right":"Bien : {cards} montent depuis la case 5 ; {breaker} dans la case {breaker_slot} rompt l’ordre : {count} × 5 = {points}. On joue jusqu’à ce que quelqu’un atteigne {target}.",
"lesson:score:every-card":"{all_in_order} compte toutes les cartes dans l’ordre, mais le compte s’arrête à la première rupture : {breaker} dans la case {breaker_slot} est plus faible que {above} dans la case {above_slot}.",
"lesson:score:racko":"{racko}, c’est pour qui fait Rack-O : vous. {name} marque 5 par carte dans l’ordre depuis la case 5 jusqu’à la première rupture.",
"lesson:bonus:title":"Rack-O bonus",
"lesson:bonus:text":"Au Rack-O bonus (une variante de la page d’accueil), faire Rack-O rapporte aussi pour votre plus longue suite : 3 cartes +50, 4 +100, 5 +200, 6 ou plus +400, et annoncer est un choix : vous pouvez attendre une plus longue suite. Vous avez fini avec {cards}. Combien cela rapporterait-il ?",
"lesson:bonus:right":"Bien : {racko} + {bonus} pour une suite de trois = {points}. Une suite de quatre aurait fait {longer}, si vous aviez osé attendre.",
"lesson:bonus:classic":"{racko} est le score classique ; le Rack-O bonus ajoute {bonus} pour votre suite de trois.",
"lesson:bonus:longer":"{longer}, c’est pour une suite de quatre ; {cards} est une suite de trois.",
"lesson:end:title":"Vous connaissez le Rack-O !",
"lesson:end:text":"Vous avez pris, pioché, placé, défaussé, formé une suite de trois et fait Rack-O. Jouez maintenant une vraie partie contre l’ordinateur.",
"lesson:term-wrong":"Pas tout à fait : {why}",
"lesson:term-heading":"{what} :"
}
}
// lesson-words:end
;
addWords(LESSON_WORDS);

// ---- the puzzles (/puzzles, racko puzzle): plain JSON between the marker lines, as above ----
const PUZZLES_WORDS =
// puzzles-words:begin
{
  "en": {
    "puzzle:nav": "Puzzles",
    "puzzle:title": "Puzzles",
    "puzzle:intro": "Find the best move. Each puzzle is a moment from a game between computer players where one move is clearly best by the review's measure.",
    "puzzle:number": "Puzzle {number} of {count}",
    "puzzle:kind-pick": "Draw or take?",
    "puzzle:kind-place": "Where does the card you drew go?",
    "puzzle:kind-place-taken": "Where does the card you took go?",
    "puzzle:kind-call": "Call Rack-O, or play on?",
    "puzzle:kind-row-place": "Where does the card go in your row?",
    "puzzle:kind-row-swap": "Swap two cards, or keep your row?",
    "puzzle:variant-all": "every variant",
    "puzzle:two-player-rule": "With two players a Rack-O needs a run of three.",
    "puzzle:other-rack": "Player {seat}'s rack, as far as you have seen it",
    "puzzle:other-row": "Row of player {seat}",
    "puzzle:your-rack": "Your rack",
    "puzzle:your-row": "Your row (positions 1 to 10, left to right)",
    "puzzle:in-hand": "In your hand",
    "puzzle:discard": "Discard pile: {card}",
    "puzzle:stock": "Stock: {count} cards",
    "puzzle:empty": "empty",
    "puzzle:slot": "slot",
    "puzzle:card": "card",
    "puzzle:ask-pick": "Your turn: draw (d) or take (t).",
    "puzzle:ask-pick-or-call": "Your rack qualifies: call Rack-O (r), or draw (d) or take (t) to play on.",
    "puzzle:ask-place-taken": "You took {card}: which slot (5 to 50) does it go in?",
    "puzzle:ask-place-drawn": "You drew {card}: which slot (5 to 50) does it go in, or discard it (x)?",
    "puzzle:ask-declare": "Your rack qualifies: call Rack-O (r) or wait (w) for a longer run.",
    "puzzle:ask-place-in-row": "You hold {card}: at which position (1 to 10) does it go?",
    "puzzle:ask-swap": "A Swap card: swap two positions (swap A B) or keep your row (k).",
    "puzzle:right": "Right: {move} is the best move.",
    "puzzle:wrong": "You chose: {move}. The best move: {best}.",
    "puzzle:cost": "From what you could see, {move} wins the round about {chosen}% of the time and {best} about {chance}%: {points} points of win chance lost.",
    "puzzle:cost-turns": "From what you could see, {move} leaves about {chosen} turns to go out and {best} about {turns}: {more} turns more.",
    "puzzle:cost-plan": "With this rack and these scores, the computer players' plan calls: going out now is worth more than a longer run might bring.",
    "puzzle:row": "Rated as the strongest computer player rates rows, this leaves about {turns} turns to go out, against {second} after the next best move.",
    "puzzle:not-a-move": "That is not one of this puzzle's moves.",
    "puzzle:bad-input": "{text} is not a move here. Type one of: {moves}; or help, or quit.",
    "puzzle:help": "Type a move: draw (d), take (t), a slot 5 to 50, discard (x), racko (r), wait (w); in High-Low a position 1 to 10, swap A B, keep (k). Also: show (s), skip (n), help (h), quit (q).",
    "puzzle:streak": "Streak: {streak}",
    "puzzle:best-streak": "best {best}",
    "puzzle:score": "{right} of {done} right",
    "puzzle:next": "Next puzzle",
    "puzzle:skipped": "Skipped: the best move was {best}.",
    "puzzle:bye": "Goodbye: {right} of {done} right, longest streak {best}.",
    "puzzle:none": "There are no puzzles of that variant.",
    "puzzle:start": "{count} puzzles. Find the best move in each; type help for the commands.",
    "puzzle:answer-title-right": "Right!",
    "puzzle:answer-title-wrong": "Not the best move",
    "puzzle:keys": "Keys: d draw, t take, 1-9 and 0 a slot (or a position), x discard, r Rack-O, w wait, k keep, n next puzzle.",
    "puzzle:loading": "Loading a puzzle…",
    "puzzle:error": "The puzzle could not be loaded: {message}",
    "puzzle:missed": "The computer player “{level}” plays another move here: this one is not easy.",
    "puzzle:bad-number": "There are {count} puzzles of that variant: choose --number 1 to {count}."
  },
  "nl": {
    "puzzle:nav": "Puzzels",
    "puzzle:title": "Puzzels",
    "puzzle:intro": "Vind de beste zet. Elke puzzel is een moment uit een spel tussen computerspelers waarop één zet duidelijk de beste is, gemeten zoals de analyse meet.",
    "puzzle:number": "Puzzel {number} van {count}",
    "puzzle:kind-pick": "Trekken of nemen?",
    "puzzle:kind-place": "Waar gaat de getrokken kaart heen?",
    "puzzle:kind-place-taken": "Waar gaat de genomen kaart heen?",
    "puzzle:kind-call": "Rack-O roepen, of doorspelen?",
    "puzzle:kind-row-place": "Waar in je rij gaat de kaart?",
    "puzzle:kind-row-swap": "Twee kaarten ruilen, of je rij houden?",
    "puzzle:variant-all": "elk spel",
    "puzzle:two-player-rule": "Met twee spelers vraagt een Rack-O een reeks van drie.",
    "puzzle:other-rack": "Rek van speler {seat}, voor zover je het hebt gezien",
    "puzzle:other-row": "Rij van speler {seat}",
    "puzzle:your-rack": "Je rek",
    "puzzle:your-row": "Je rij (plaatsen 1 tot 10, van links naar rechts)",
    "puzzle:in-hand": "In je hand",
    "puzzle:discard": "Aflegstapel: {card}",
    "puzzle:stock": "Stok: {count} kaarten",
    "puzzle:empty": "leeg",
    "puzzle:slot": "gleuf",
    "puzzle:card": "kaart",
    "puzzle:ask-pick": "Jij bent aan de beurt: trekken (d) of nemen (t).",
    "puzzle:ask-pick-or-call": "Je rek is klaar: roep Rack-O (r), of trek (d) of neem (t) om door te spelen.",
    "puzzle:ask-place-taken": "Je nam {card}: in welke gleuf (5 tot 50) gaat hij?",
    "puzzle:ask-place-drawn": "Je trok {card}: in welke gleuf (5 tot 50) gaat hij, of leg je hem af (x)?",
    "puzzle:ask-declare": "Je rek is klaar: roep Rack-O (r) of wacht (w) op een langere reeks.",
    "puzzle:ask-place-in-row": "Je hebt {card}: op welke plaats (1 tot 10) gaat hij?",
    "puzzle:ask-swap": "Een Wissel: ruil twee plaatsen (swap A B) of houd je rij (k).",
    "puzzle:right": "Goed: {move} is de beste zet.",
    "puzzle:wrong": "Je koos: {move}. De beste zet: {best}.",
    "puzzle:cost": "Naar wat je kon zien, wint {move} de ronde ongeveer {chosen}% van de keren en {best} ongeveer {chance}%: {points} procentpunt winkans minder.",
    "puzzle:cost-turns": "Naar wat je kon zien, laat {move} nog ongeveer {chosen} beurten tot uitgaan en {best} ongeveer {turns}: {more} beurten meer.",
    "puzzle:cost-plan": "Met dit rek en deze stand roept het plan van de computerspelers: nu uitgaan is meer waard dan wat een langere reeks kan opleveren.",
    "puzzle:row": "Gewogen zoals de sterkste computerspeler rijen weegt, laat deze zet nog ongeveer {turns} beurten tot uitgaan, tegen {second} na de op één na beste zet.",
    "puzzle:not-a-move": "Dat is geen zet van deze puzzel.",
    "puzzle:bad-input": "{text} is hier geen zet. Typ een van: {moves}; of help, of quit.",
    "puzzle:help": "Typ een zet: draw (d) trekken, take (t) nemen, een gleuf 5 tot 50, discard (x) afleggen, racko (r), wait (w) wachten; in High-Low een plaats 1 tot 10, swap A B ruilen, keep (k) houden. Verder: show (s) opnieuw tonen, skip (n) overslaan, help (h), quit (q) stoppen.",
    "puzzle:streak": "Reeks: {streak}",
    "puzzle:best-streak": "beste {best}",
    "puzzle:score": "{right} van {done} goed",
    "puzzle:next": "Volgende puzzel",
    "puzzle:skipped": "Overgeslagen: de beste zet was {best}.",
    "puzzle:bye": "Tot ziens: {right} van {done} goed, langste reeks {best}.",
    "puzzle:none": "Er zijn geen puzzels van dat spel.",
    "puzzle:start": "{count} puzzels. Vind in elk de beste zet; typ help voor de opdrachten.",
    "puzzle:answer-title-right": "Goed!",
    "puzzle:answer-title-wrong": "Niet de beste zet",
    "puzzle:keys": "Toetsen: d trekken, t nemen, 1-9 en 0 een gleuf (of een plaats), x afleggen, r Rack-O, w wachten, k houden, n volgende puzzel.",
    "puzzle:loading": "Een puzzel laden…",
    "puzzle:error": "De puzzel kon niet geladen worden: {message}",
    "puzzle:missed": "De computerspeler ‘{level}’ doet hier een andere zet: deze is niet makkelijk.",
    "puzzle:bad-number": "Er zijn {count} puzzels van dat spel: kies --number 1 tot {count}."
  },
  "fr": {
    "puzzle:nav": "Problèmes",
    "puzzle:title": "Problèmes",
    "puzzle:intro": "Trouvez le meilleur coup. Chaque problème est un moment d’une partie entre joueurs informatiques où un coup est nettement le meilleur, selon la mesure de l’analyse.",
    "puzzle:number": "Problème {number} sur {count}",
    "puzzle:kind-pick": "Piocher ou prendre ?",
    "puzzle:kind-place": "Où va la carte piochée ?",
    "puzzle:kind-place-taken": "Où va la carte prise ?",
    "puzzle:kind-call": "Annoncer Rack-O, ou continuer ?",
    "puzzle:kind-row-place": "Où va la carte dans votre rangée ?",
    "puzzle:kind-row-swap": "Échanger deux cartes, ou garder votre rangée ?",
    "puzzle:variant-all": "toutes les variantes",
    "puzzle:two-player-rule": "À deux, un Rack-O demande une suite de trois.",
    "puzzle:other-rack": "Support du joueur {seat}, tel que vous l’avez vu",
    "puzzle:other-row": "Rangée du joueur {seat}",
    "puzzle:your-rack": "Votre support",
    "puzzle:your-row": "Votre rangée (positions 1 à 10, de gauche à droite)",
    "puzzle:in-hand": "En main",
    "puzzle:discard": "Défausse : {card}",
    "puzzle:stock": "Pioche : {count} cartes",
    "puzzle:empty": "vide",
    "puzzle:slot": "case",
    "puzzle:card": "carte",
    "puzzle:ask-pick": "À vous : piocher (d) ou prendre (t).",
    "puzzle:ask-pick-or-call": "Votre support est prêt : annoncez Rack-O (r), ou piochez (d) ou prenez (t) pour continuer.",
    "puzzle:ask-place-taken": "Vous avez pris {card} : dans quelle case (5 à 50) va-t-elle ?",
    "puzzle:ask-place-drawn": "Vous avez pioché {card} : dans quelle case (5 à 50) va-t-elle, ou la défaussez-vous (x) ?",
    "puzzle:ask-declare": "Votre support est prêt : annoncez Rack-O (r) ou attendez (w) une suite plus longue.",
    "puzzle:ask-place-in-row": "Vous tenez {card} : à quelle position (1 à 10) va-t-elle ?",
    "puzzle:ask-swap": "Une carte Échange : échangez deux positions (swap A B) ou gardez votre rangée (k).",
    "puzzle:right": "Juste : {move} est le meilleur coup.",
    "puzzle:wrong": "Vous avez choisi : {move}. Le meilleur coup : {best}.",
    "puzzle:cost": "D’après ce que vous pouviez voir, {move} gagne la manche environ {chosen} % des fois et {best} environ {chance} % : {points} points de chance de gagner en moins.",
    "puzzle:cost-turns": "D’après ce que vous pouviez voir, {move} laisse environ {chosen} tours avant de finir et {best} environ {turns} : {more} tours de plus.",
    "puzzle:cost-plan": "Avec ce support et ces scores, le plan des joueurs informatiques est d’annoncer : finir maintenant vaut plus que ce qu’une suite plus longue pourrait rapporter.",
    "puzzle:row": "Jugé comme le plus fort joueur informatique juge les rangées, ce coup laisse environ {turns} tours avant de finir, contre {second} après le deuxième meilleur coup.",
    "puzzle:not-a-move": "Ce n’est pas un coup de ce problème.",
    "puzzle:bad-input": "{text} n’est pas un coup ici. Tapez l’un de : {moves} ; ou help, ou quit.",
    "puzzle:help": "Tapez un coup : draw (d) piocher, take (t) prendre, une case de 5 à 50, discard (x) défausser, racko (r), wait (w) attendre ; au High-Low une position de 1 à 10, swap A B échanger, keep (k) garder. Aussi : show (s) réafficher, skip (n) passer, help (h), quit (q) arrêter.",
    "puzzle:streak": "Série : {streak}",
    "puzzle:best-streak": "record {best}",
    "puzzle:score": "{right} sur {done} justes",
    "puzzle:next": "Problème suivant",
    "puzzle:skipped": "Passé : le meilleur coup était {best}.",
    "puzzle:bye": "Au revoir : {right} sur {done} justes, plus longue série {best}.",
    "puzzle:none": "Il n’y a pas de problèmes de cette variante.",
    "puzzle:start": "{count} problèmes. Trouvez le meilleur coup de chacun ; tapez help pour les commandes.",
    "puzzle:answer-title-right": "Juste !",
    "puzzle:answer-title-wrong": "Pas le meilleur coup",
    "puzzle:keys": "Touches : d piocher, t prendre, 1-9 et 0 une case (ou une position), x défausser, r Rack-O, w attendre, k garder, n problème suivant.",
    "puzzle:loading": "Chargement d’un problème…",
    "puzzle:error": "Le problème n’a pas pu être chargé : {message}",
    "puzzle:missed": "Le joueur informatique « {level} » joue ici un autre coup : celui-ci n’est pas facile.",
    "puzzle:bad-number": "Il y a {count} problèmes de cette variante : choisissez --number de 1 à {count}."
  }
}
// puzzles-words:end
;
addWords(PUZZLES_WORDS);

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
