"use strict";
// The page's words in the languages of the rule sheets, the game's log among them.
const WORDS = {
  en: {
    nav_learn: "Learn", learn_link: "New to Rack-O? Learn it in ten minutes.", nav_puzzles: "Puzzles",
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
    nav_learn: "Leren", learn_link: "Nieuw in Rack-O? Leer het in tien minuten.", nav_puzzles: "Puzzels",
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
    nav_learn: "Apprendre", learn_link: "Nouveau au Rack-O ? Apprenez-le en dix minutes.", nav_puzzles: "Problèmes",
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
  forgotten_player: "a forgotten player", rated_game: "Rated game", casual_game: "Casual game",
  casual_shared: "Casual game: two seats play from one network address, and such games are not rated.",
  "err:name-reserved": "That name looks like a computer player's or a forgotten player's: choose another.",
  "err:name-taken": "Somebody at this table goes by a name like that: choose another.",
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
  forgotten_player: "een vergeten speler", rated_game: "Spel met rating", casual_game: "Vrij spel",
  casual_shared: "Vrij spel: twee plaatsen spelen vanaf één netwerkadres, en zulke spellen tellen niet voor de rating.",
  "err:name-reserved": "Die naam lijkt op die van een computerspeler of een vergeten speler: kies een andere.",
  "err:name-taken": "Iemand aan deze tafel heet al zo of bijna zo: kies een andere naam.",
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
  forgotten_player: "un joueur oublié", rated_game: "Partie classée", casual_game: "Partie amicale",
  casual_shared: "Partie amicale : deux places jouent depuis une même adresse réseau, et ces parties ne sont pas classées.",
  "err:name-reserved": "Ce nom ressemble à celui d’un joueur ordinateur ou d’un joueur oublié : choisissez-en un autre.",
  "err:name-taken": "Quelqu’un à cette table porte déjà ce nom ou presque : choisissez-en un autre.",
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
// marked as below, so that Python reads the same words (racko/analysis/words.py); the lesson's and the puzzles' are
// in files of their own (lesson-words.js, puzzles-words.js), loaded by their pages only.
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
    "why:goes-out": "It completes your rack: Rack-O at once, and the round is yours.",
    "why:may-call": "Your rack is then complete: call Rack-O at the end of this turn and the round is yours.",
    "why:wait": "Waiting plays on for a run longer than {run}, at the risk that somebody goes out first.",
    "why:fits-between-many": "Slots {from}–{to} need {count} cards between {low} and {high}; {card} fits there.",
    "why:fits-between-one": "Slot {from} needs a card between {low} and {high}; {card} fits there.",
    "why:fits-below-many": "Slots {from}–{to} need {count} cards below {high}; {card} fits there.",
    "why:fits-below-one": "Slot {from} needs a card below {high}; {card} fits there.",
    "why:fits-above-many": "Slots {from}–{to} need {count} cards above {low}; {card} fits there.",
    "why:fits-above-one": "Slot {from} needs a card above {low}; {card} fits there.",
    "why:replaces-kept": "{card} takes the place of {out} in slot {slot}, which was in the order you keep too.",
    "why:fits-new-between": "In slot {slot}, {card} fits between {low} and {high}, the cards you keep on either side.",
    "why:fits-new-below": "In slot {slot}, {card} fits below {high}, the next card you keep.",
    "why:fits-new-above": "In slot {slot}, {card} fits above {low}, the card you keep before it.",
    "why:out-of-order": "{card} in slot {slot} is out of order with the cards you keep.",
    "why:gives-up-kept": "It gives up {out}, which was in order in slot {slot}.",
    "why:drops-kept-one": "{card} in slot {slot} no longer fits the order you keep.",
    "why:drops-kept": "{cards} no longer fit the order you keep.",
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
    "why:draw-over-take": "{top} would fit slots {from}–{to}; drawing passes it up for a card from the stock: {fit} of the {may} cards that may come fit an open slot.",
    "why:draw-over-take-one": "{top} would fit slot {from}; drawing passes it up for a card from the stock: {fit} of the {may} cards that may come fit an open slot.",
    "why:draw-empty": "{fit} of the {may} cards that may come fit an open slot.",
    "why:draw-next": "The stock is the discard pile turned over, so its next card is {upcoming}.",
    "why:discard-fits": "{held} would fit slots {from}–{to}; discarding it keeps your rack as it is.",
    "why:discard-fits-one": "{held} would fit slot {from}; discarding it keeps your rack as it is.",
    "why:discard-nowhere": "{held} fits none of your open slots; discarding it keeps your rack as it is.",
    "why:gives-wanted": "{out} goes to {name}, who took {taken} from the pile earlier: they probably collect cards near it.",
    "why:gives-wanted-next": "{out} goes to the next player, who took {taken} from the pile earlier: they probably collect cards near it.",
    "why:denies": "{card} stays out of reach of {name}, who took {taken} from the pile earlier and probably collects cards near it.",
    "why:denies-next": "{card} stays out of reach of the next player, who took {taken} from the pile earlier and probably collects cards near it.",
    "why:best": "From what you can see, this move wins the round about {chance}% of the time ({playouts} play-outs): no other move wins more often.",
    "why:best-ahead": "The next best move wins about {second}%: this one is {points} points ahead.",
    "why:best-close": "The next best move wins about {second}%: the difference is within the noise of the estimate.",
    "why:best-turns": "From what you can see, about {turns} turns to go out after this move, counting this one ({playouts} play-outs): no other move is quicker.",
    "why:best-ahead-turns": "The next best move needs about {second}: this one is {turns} turns quicker.",
    "why:best-close-turns": "The next best move needs about {second} turns: the difference is within the noise of the estimate.",
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
    "why:goes-out": "Dit maakt je rekje af: meteen Rack-O, en de ronde is voor jou.",
    "why:may-call": "Je rekje is dan af: roep Rack-O aan het eind van deze beurt en de ronde is voor jou.",
    "why:wait": "Wachten speelt door voor een reeks langer dan {run}, met het risico dat een ander eerst uitgaat.",
    "why:fits-between-many": "Gleuven {from}–{to} hebben {count} kaarten nodig tussen {low} en {high}; {card} past daar.",
    "why:fits-between-one": "Gleuf {from} heeft een kaart nodig tussen {low} en {high}; {card} past daar.",
    "why:fits-below-many": "Gleuven {from}–{to} hebben {count} kaarten onder {high} nodig; {card} past daar.",
    "why:fits-below-one": "Gleuf {from} heeft een kaart onder {high} nodig; {card} past daar.",
    "why:fits-above-many": "Gleuven {from}–{to} hebben {count} kaarten boven {low} nodig; {card} past daar.",
    "why:fits-above-one": "Gleuf {from} heeft een kaart boven {low} nodig; {card} past daar.",
    "why:replaces-kept": "{card} neemt in gleuf {slot} de plaats in van {out}, die ook al in de volgorde stond die je houdt.",
    "why:fits-new-between": "In gleuf {slot} past {card} tussen {low} en {high}, de kaarten die je aan weerszijden houdt.",
    "why:fits-new-below": "In gleuf {slot} past {card} onder {high}, de volgende kaart die je houdt.",
    "why:fits-new-above": "In gleuf {slot} past {card} boven {low}, de kaart die je ervoor houdt.",
    "why:out-of-order": "{card} in gleuf {slot} past niet in de volgorde van de kaarten die je houdt.",
    "why:gives-up-kept": "Je geeft {out} op, die in gleuf {slot} op volgorde stond.",
    "why:drops-kept-one": "{card} in gleuf {slot} past dan niet meer in de volgorde die je houdt.",
    "why:drops-kept": "{cards} passen dan niet meer in de volgorde die je houdt.",
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
    "why:draw-over-take": "{top} zou in gleuven {from}–{to} passen; wie trekt, laat die liggen voor een kaart van de stok: {fit} van de {may} kaarten die kunnen komen passen in een open gleuf.",
    "why:draw-over-take-one": "{top} zou in gleuf {from} passen; wie trekt, laat die liggen voor een kaart van de stok: {fit} van de {may} kaarten die kunnen komen passen in een open gleuf.",
    "why:draw-empty": "{fit} van de {may} kaarten die kunnen komen passen in een open gleuf.",
    "why:draw-next": "De stok is de omgedraaide aflegstapel, dus de volgende kaart is {upcoming}.",
    "why:discard-fits": "{held} zou in gleuven {from}–{to} passen; afleggen laat je rekje zoals het is.",
    "why:discard-fits-one": "{held} zou in gleuf {from} passen; afleggen laat je rekje zoals het is.",
    "why:discard-nowhere": "{held} past in geen van je open gleuven; afleggen laat je rekje zoals het is.",
    "why:gives-wanted": "{out} gaat naar {name}, die eerder {taken} van de stapel nam: die verzamelt waarschijnlijk kaarten in de buurt.",
    "why:gives-wanted-next": "{out} gaat naar de volgende speler, die eerder {taken} van de stapel nam: die verzamelt waarschijnlijk kaarten in de buurt.",
    "why:denies": "{card} blijft buiten bereik van {name}, die eerder {taken} van de aflegstapel nam en waarschijnlijk kaarten in de buurt verzamelt.",
    "why:denies-next": "{card} blijft buiten bereik van de volgende speler, die eerder {taken} van de aflegstapel nam en waarschijnlijk kaarten in de buurt verzamelt.",
    "why:best": "Naar wat jij kunt zien, wint deze zet de ronde ongeveer {chance}% van de keren ({playouts} nagespeelde rondes): geen andere zet wint vaker.",
    "why:best-ahead": "De op een na beste zet wint ongeveer {second}%: deze ligt {points} procentpunt voor.",
    "why:best-close": "De op een na beste zet wint ongeveer {second}%: het verschil valt binnen de ruis van de schatting.",
    "why:best-turns": "Naar wat jij kunt zien, nog ongeveer {turns} beurten tot Rack-O na deze zet, deze meegeteld ({playouts} nagespeelde rondes): met geen andere zet gaat het sneller.",
    "why:best-ahead-turns": "De op een na beste zet heeft er ongeveer {second} nodig: deze is {turns} beurten sneller.",
    "why:best-close-turns": "De op een na beste zet heeft ongeveer {second} beurten nodig: het verschil valt binnen de ruis van de schatting.",
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
    "why:goes-out": "Ce coup complète votre support : Rack-O aussitôt, et la manche est à vous.",
    "why:may-call": "Votre support est alors complet : annoncez Rack-O à la fin de ce tour et la manche est à vous.",
    "why:wait": "Attendre, c’est jouer pour une suite plus longue que {run}, au risque qu’un autre finisse avant vous.",
    "why:fits-between-many": "Les cases {from} à {to} attendent {count} cartes entre {low} et {high} ; {card} y a sa place.",
    "why:fits-between-one": "La case {from} attend une carte entre {low} et {high} ; {card} y a sa place.",
    "why:fits-below-many": "Les cases {from} à {to} attendent {count} cartes sous {high} ; {card} y a sa place.",
    "why:fits-below-one": "La case {from} attend une carte sous {high} ; {card} y a sa place.",
    "why:fits-above-many": "Les cases {from} à {to} attendent {count} cartes au-dessus de {low} ; {card} y a sa place.",
    "why:fits-above-one": "La case {from} attend une carte au-dessus de {low} ; {card} y a sa place.",
    "why:replaces-kept": "{card} prend dans la case {slot} la place de {out}, qui était déjà dans l’ordre des cartes que vous gardez.",
    "why:fits-new-between": "Dans la case {slot}, {card} se place entre {low} et {high}, les cartes que vous gardez de part et d’autre.",
    "why:fits-new-below": "Dans la case {slot}, {card} se place sous {high}, la carte suivante que vous gardez.",
    "why:fits-new-above": "Dans la case {slot}, {card} se place au-dessus de {low}, la carte que vous gardez juste avant.",
    "why:out-of-order": "{card} dans la case {slot} n’est pas dans l’ordre des cartes que vous gardez.",
    "why:gives-up-kept": "Vous renoncez à {out}, qui était dans l’ordre dans la case {slot}.",
    "why:drops-kept-one": "{card} dans la case {slot} n’est alors plus dans l’ordre des cartes que vous gardez.",
    "why:drops-kept": "{cards} ne sont alors plus dans l’ordre des cartes que vous gardez.",
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
    "why:draw-over-take": "{top} irait dans les cases {from} à {to} ; piocher, c’est la laisser pour une carte de la pioche : {fit} des {may} cartes qui peuvent venir vont dans une case ouverte.",
    "why:draw-over-take-one": "{top} irait dans la case {from} ; piocher, c’est la laisser pour une carte de la pioche : {fit} des {may} cartes qui peuvent venir vont dans une case ouverte.",
    "why:draw-empty": "{fit} des {may} cartes qui peuvent venir vont dans une case ouverte.",
    "why:draw-next": "La pioche est la défausse retournée : sa prochaine carte est donc {upcoming}.",
    "why:discard-fits": "{held} irait dans les cases {from} à {to} ; la défausser laisse votre support tel quel.",
    "why:discard-fits-one": "{held} irait dans la case {from} ; la défausser laisse votre support tel quel.",
    "why:discard-nowhere": "{held} ne va dans aucune de vos cases ouvertes ; la défausser laisse votre support tel quel.",
    "why:gives-wanted": "{out} va à {name}, qui a pris {taken} dans la défausse plus tôt : sans doute des cartes qu’on rassemble par là.",
    "why:gives-wanted-next": "{out} va au joueur suivant, qui a pris {taken} dans la défausse plus tôt : sans doute des cartes qu’il rassemble par là.",
    "why:denies": "{card} reste hors de portée de {name}, qui a pris {taken} dans la défausse plus tôt et rassemble sans doute des cartes par là.",
    "why:denies-next": "{card} reste hors de portée du joueur suivant, qui a pris {taken} dans la défausse plus tôt et rassemble sans doute des cartes par là.",
    "why:best": "D’après ce que vous voyez, ce coup gagne la manche environ {chance} % des fois ({playouts} manches simulées) : aucun autre coup ne gagne plus souvent.",
    "why:best-ahead": "Le deuxième meilleur coup gagne environ {second} % : celui-ci a {points} points d’avance.",
    "why:best-close": "Le deuxième meilleur coup gagne environ {second} % : l’écart reste dans le bruit de l’estimation.",
    "why:best-turns": "D’après ce que vous voyez, encore environ {turns} tours jusqu’à Rack-O après ce coup, celui-ci compris ({playouts} manches simulées) : aucun autre coup n’est plus rapide.",
    "why:best-ahead-turns": "Le deuxième meilleur coup en demande environ {second} : celui-ci a {turns} tours d’avance.",
    "why:best-close-turns": "Le deuxième meilleur coup demande environ {second} tours : l’écart reste dans le bruit de l’estimation.",
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
  "en": {
    "review:page-title": "Review of a game",
    "review:heading": "Review: {title}",
    "review:scope-round": "Round {n}",
    "review:scope-game": "The whole game",
    "review:own": "Your own moves only: everyone's are shown once the game is over.",
    "review:everyone": "Every player's moves, each judged from what that player could see then.",
    "review:measure-chance": "A move is judged by its chance to win the round ({playouts} play-outs a move).",
    "review:measure-turns": "A move is judged by the turns it leaves to go out: fewer is better.",
    "review:starting": "Starting the review…",
    "review:waiting": "Waiting for {ahead} other reviews to finish…",
    "review:bar": "Progress of the review",
    "review:players": "Players",
    "review:player": "Player",
    "review:accuracy-head": "Accuracy",
    "review:accuracy-help": "Accuracy: 100 is the best move every time; each move counts less the more it loses, half at a loss of 20 points of win chance (or 2 turns).",
    "review:round": "Round",
    "review:round-n": "Round {n}",
    "review:round-accuracy": "{name}: accuracy {accuracy} in this round",
    "review:costly-only": "Only inaccuracies, mistakes and blunders",
    "review:moves": "The decisions of round {n}",
    "review:move-n": "Move {n}",
    "review:none-costly": "No inaccuracy, mistake or blunder in this round.",
    "review:loss-points": "{points} points of win chance lost",
    "review:loss-turns": "{turns} turns lost",
    "review:chance-line": "Chance to win the round: {before}% with the best move, {after}% after the move played",
    "review:turns-line": "Turns to go out: {before} with the best move, {after} after the move played",
    "review:chart-turns": "Turns to go out, move by move (fewer is better)",
    "review:chart-summary": "{name}: from {first} to {last}",
    "review:decision-marked": "Move {n}, {name}: {class}",
    "review:err-forbidden": "While the game is on, each player may review only their own moves, from their seat's link. Everyone may review the game once it is over.",
    "review:err-missing": "There is no such game to review.",
    "review:err-not-ended": "Nothing to review yet: a round is reviewed once it is over.",
    "review:err-busy": "Many reviews are under way: try again in a minute.",
    "review:err-failed": "The review failed: {message}",
    "review:link-round": "Review your moves of this round",
    "review:link-game": "Review the game",
    "review:link": "Review",
    "review:chance-best": "Chance to win the round after this move: {after}%",
    "review:turns-best": "Turns to go out after this move: {after}",
    "review:played-line": "Played: {move}",
    "review:best-line": "Best: {move}",
    "review:count": "{class}: {count}"
  },
  "nl": {
    "review:page-title": "Analyse van een spel",
    "review:heading": "Analyse: {title}",
    "review:scope-round": "Ronde {n}",
    "review:scope-game": "Het hele spel",
    "review:own": "Alleen je eigen zetten: die van iedereen zie je als het spel voorbij is.",
    "review:everyone": "De zetten van elke speler, elk beoordeeld naar wat die speler toen kon zien.",
    "review:measure-chance": "Een zet wordt beoordeeld naar zijn kans om de ronde te winnen ({playouts} nagespeelde rondes per zet).",
    "review:measure-turns": "Een zet wordt beoordeeld naar het aantal beurten tot Rack-O dat hij overlaat: minder is beter.",
    "review:starting": "De analyse begint…",
    "review:waiting": "Wachten tot {ahead} andere analyses klaar zijn…",
    "review:bar": "Voortgang van de analyse",
    "review:players": "Spelers",
    "review:player": "Speler",
    "review:accuracy-head": "Nauwkeurigheid",
    "review:accuracy-help": "Nauwkeurigheid: 100 is telkens de beste zet; een zet telt minder naarmate hij meer verliest, de helft bij een verlies van 20 procentpunt winkans (of 2 beurten).",
    "review:round": "Ronde",
    "review:round-n": "Ronde {n}",
    "review:round-accuracy": "{name}: nauwkeurigheid {accuracy} in deze ronde",
    "review:costly-only": "Alleen onnauwkeurigheden, fouten en blunders",
    "review:moves": "De beslissingen van ronde {n}",
    "review:move-n": "Zet {n}",
    "review:none-costly": "Geen onnauwkeurigheid, fout of blunder in deze ronde.",
    "review:loss-points": "{points} procentpunt winkans verloren",
    "review:loss-turns": "{turns} beurten verloren",
    "review:chance-line": "Kans om de ronde te winnen: {before}% met de beste zet, {after}% na de gespeelde zet",
    "review:turns-line": "Beurten tot Rack-O: {before} met de beste zet, {after} na de gespeelde zet",
    "review:chart-turns": "Beurten tot Rack-O, zet na zet (minder is beter)",
    "review:chart-summary": "{name}: van {first} naar {last}",
    "review:decision-marked": "Zet {n}, {name}: {class}",
    "review:err-forbidden": "Zolang het spel loopt, mag elke speler alleen zijn eigen zetten analyseren, via de link van zijn plaats. Als het spel voorbij is, mag iedereen het analyseren.",
    "review:err-missing": "Er is geen spel om te analyseren.",
    "review:err-not-ended": "Nog niets te analyseren: een ronde wordt geanalyseerd als ze voorbij is.",
    "review:err-busy": "Er lopen veel analyses: probeer het over een minuut opnieuw.",
    "review:err-failed": "De analyse mislukte: {message}",
    "review:link-round": "Analyseer je zetten van deze ronde",
    "review:link-game": "Analyseer het spel",
    "review:link": "Analyse",
    "review:chance-best": "Kans om de ronde te winnen na deze zet: {after}%",
    "review:turns-best": "Beurten tot Rack-O na deze zet: {after}",
    "review:played-line": "Gespeeld: {move}",
    "review:best-line": "Beste: {move}",
    "review:count": "{class}: {count}"
  },
  "fr": {
    "review:page-title": "Analyse d’une partie",
    "review:heading": "Analyse : {title}",
    "review:scope-round": "Manche {n}",
    "review:scope-game": "Toute la partie",
    "review:own": "Vos propres coups seulement : ceux de chacun sont montrés une fois la partie finie.",
    "review:everyone": "Les coups de chaque joueur, chacun jugé d’après ce que ce joueur pouvait voir alors.",
    "review:measure-chance": "Un coup est jugé par sa chance de gagner la manche ({playouts} manches simulées par coup).",
    "review:measure-turns": "Un coup est jugé par le nombre de tours qu’il laisse avant de finir : moins, c’est mieux.",
    "review:starting": "L’analyse commence…",
    "review:waiting": "En attente de {ahead} autres analyses…",
    "review:bar": "Avancement de l’analyse",
    "review:players": "Joueurs",
    "review:player": "Joueur",
    "review:accuracy-head": "Précision",
    "review:accuracy-help": "Précision : 100, c’est le meilleur coup à chaque fois ; un coup compte d’autant moins qu’il perd, moitié moins pour une perte de 20 points de chance de gagner (ou 2 tours).",
    "review:round": "Manche",
    "review:round-n": "Manche {n}",
    "review:round-accuracy": "{name} : précision {accuracy} dans cette manche",
    "review:costly-only": "Seulement les imprécisions, erreurs et gaffes",
    "review:moves": "Les décisions de la manche {n}",
    "review:move-n": "Coup {n}",
    "review:none-costly": "Aucune imprécision, erreur ou gaffe dans cette manche.",
    "review:loss-points": "{points} points de chance de gagner perdus",
    "review:loss-turns": "{turns} tours perdus",
    "review:chance-line": "Chance de gagner la manche : {before} % avec le meilleur coup, {after} % après le coup joué",
    "review:turns-line": "Tours avant de finir : {before} avec le meilleur coup, {after} après le coup joué",
    "review:chart-turns": "Tours avant de finir, coup après coup (moins, c’est mieux)",
    "review:chart-summary": "{name} : de {first} à {last}",
    "review:decision-marked": "Coup {n}, {name} : {class}",
    "review:err-forbidden": "Tant que la partie dure, chaque joueur ne peut analyser que ses propres coups, depuis le lien de sa place. Tout le monde peut l’analyser une fois finie.",
    "review:err-missing": "Il n’y a pas de telle partie à analyser.",
    "review:err-not-ended": "Rien à analyser pour l’instant : une manche s’analyse une fois finie.",
    "review:err-busy": "Beaucoup d’analyses sont en cours : réessayez dans une minute.",
    "review:err-failed": "L’analyse a échoué : {message}",
    "review:link-round": "Analyser vos coups de cette manche",
    "review:link-game": "Analyser la partie",
    "review:link": "Analyse",
    "review:chance-best": "Chance de gagner la manche après ce coup : {after} %",
    "review:turns-best": "Tours avant de finir après ce coup : {after}",
    "review:played-line": "Joué : {move}",
    "review:best-line": "Meilleur : {move}",
    "review:count": "{class} : {count}"
  }
}
// review-words:end
;
addWords(REVIEW_WORDS);



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
