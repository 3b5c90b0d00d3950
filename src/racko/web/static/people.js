"use strict";
// The words of the lobby and the players' pages (quick play, names, ratings, histories, replays), in the languages
// of the rule sheets; i18n.js loads first and holds t(), the page's language and the game's own words.
Object.assign(WORDS.en, {
  online_heading: "Online",
  with_them: "with",
  stats_all: "All games", stats_against: "against {name}", people_only: "people only",
  stats_rounds: "{rounds} rounds, {rounds_won} won, best round {best_round}",
  others_waiting: "People waiting now", others_none: "Nobody is waiting for a game right now.", n_waiting: "{n} waiting",
  join_them: "Join them",
  who_joins: "Who may join", public_no: "those I send a link to", public_yes: "anyone, from the lobby",
  rated_table: "Rated (every person plays under their name from the lobby)",
  lobby: "Lobby", nav_new: "A new table", nav_ratings: "Ratings", nav_me: "You",
  pick_name: "Pick a name to play with others", pick_name_help: "No account, no e-mail: this browser remembers you.",
  name_label: "Your name", save_name: "Play", you_are: "You play as {name}.", your_page: "Your page",
  settings: "Name and devices",
  quick: "Quick play", quick_help: "People who ask for the same game are seated together at once.",
  players_any: "any number", rated: "Rated", casual: "Casual", quick_go: "Quick play",
  waiting_for: "Waiting for {game}: {n} waiting, {s} s.", cancel: "Cancel",
  fill_help: "Nobody else yet? Fill the empty seats with computer players:", fill: "Play with computer players",
  game_of: "{title}, {players}", game_any: "{title}, any number of players",
  yours: "Your tables", yours_none: "No table yet.", go: "Go", seat_n: "seat {n}",
  open_tables: "Tables waiting for people", open_none: "No table is waiting for people right now.",
  take_seat: "Take a seat", seats_free: "{n} free", playing: "Games to watch", playing_none: "No game to watch right now.",
  watch: "Watch", online: "Online ({n})", online_none: "Nobody else right now.",
  a_player: "a player", seated: "You are seated: on to the table…", need_name: "Pick a name first.",
  err_generic: "That did not work: {message}",
  me_title: "Your name and your devices", rename: "Change your name", saved: "Saved.", save: "Save",
  transfer: "Use on another device", transfer_help: "Open this link on your other device within ten minutes; it works once.",
  forget: "Forget me", forget_help: "Removes your name, your ratings and your history from this server, and this browser forgets you.",
  forget_sure: "Forget everything about you on this server? This cannot be undone.", forgotten: "You are forgotten.",
  hidden_players: "Names you hid", hide_name: "Hide this player's name", show_name: "Show this player's name",
  claim_title: "Use this device", claim_ok: "This device now plays as {name}.", claim_bad: "This link has been used already, or is more than ten minutes old.",
  player_title: "{name}", ratings_title: "Ratings", rating_in: "{title}: {rating} ± {uncertainty} ({games} rated games)",
  no_ratings: "No rated game yet.", history: "Finished games", no_games: "No finished game yet.",
  record: "Record", replay: "Replay", rematch: "Rematch", place_n: "place {n}", rated_game: "rated",
  chart: "Rating over the rated games of {title}", statistics: "Statistics", stats_line: "{games} games, {won} won",
  rank: "#", name: "Name", rating: "Rating", games: "Games", computer_level: "computer",
  replay_title: "{title}: the game again, move by move", step_of: "Move {n} of {total}", previous: "Back",
  next: "Forward", play_replay: "Play", pause: "Pause", first: "Start", last: "End", to_act_now: "to act",
  invited: "{name} asks for a rematch.", not_found: "There is no such page.",
  name_taken: "“{name}” looks too much like “{like}”, who plays here now: choose another name.",
  name_reserved: "“{name}” looks like the computer player {like}: choose another name.",
  name_reserved_forgotten: "“{name}” looks like “{forgotten}”, as the pages call a forgotten player: choose another name.",
});
Object.assign(WORDS.nl, {
  online_heading: "Online",
  with_them: "met",
  stats_all: "Alle spellen", stats_against: "tegen {name}", people_only: "alleen mensen",
  stats_rounds: "{rounds} rondes, {rounds_won} gewonnen, beste ronde {best_round}",
  others_waiting: "Nu aan het wachten", others_none: "Er wacht nu niemand op een spel.", n_waiting: "{n} wachtend",
  join_them: "Doe mee",
  who_joins: "Wie mag meedoen", public_no: "wie ik een link stuur", public_yes: "iedereen, vanuit de lobby",
  rated_table: "Met rating (iedereen speelt onder de naam uit de lobby)",
  lobby: "Lobby", nav_new: "Een nieuwe tafel", nav_ratings: "Ranglijst", nav_me: "Jij",
  pick_name: "Kies een naam om met anderen te spelen", pick_name_help: "Geen account, geen e-mail: deze browser onthoudt je.",
  name_label: "Je naam", save_name: "Spelen", you_are: "Je speelt als {name}.", your_page: "Jouw pagina",
  settings: "Naam en apparaten",
  quick: "Snel spelen", quick_help: "Wie om hetzelfde spel vraagt, komt meteen samen aan tafel.",
  players_any: "elk aantal", rated: "Met rating", casual: "Vrij", quick_go: "Snel spelen",
  waiting_for: "Wachten op {game}: {n} wachtend, {s} s.", cancel: "Annuleren",
  fill_help: "Nog niemand anders? Vul de lege plaatsen met computerspelers:", fill: "Met computerspelers spelen",
  game_of: "{title}, {players}", game_any: "{title}, elk aantal spelers",
  yours: "Jouw tafels", yours_none: "Nog geen tafel.", go: "Ga", seat_n: "plaats {n}",
  open_tables: "Tafels die op spelers wachten", open_none: "Er wacht nu geen tafel op spelers.",
  take_seat: "Aanschuiven", seats_free: "{n} vrij", playing: "Spellen om te bekijken", playing_none: "Er is nu geen spel om te bekijken.",
  watch: "Kijken", online: "Online ({n})", online_none: "Verder niemand op dit moment.",
  a_player: "een speler", seated: "Je hebt een plaats: naar de tafel…", need_name: "Kies eerst een naam.",
  err_generic: "Dat lukte niet: {message}",
  me_title: "Je naam en je apparaten", rename: "Je naam wijzigen", saved: "Bewaard.", save: "Bewaren",
  transfer: "Op een ander apparaat gebruiken", transfer_help: "Open deze link binnen tien minuten op je andere apparaat; hij werkt één keer.",
  forget: "Vergeet mij", forget_help: "Verwijdert je naam, je rating en je geschiedenis van deze server, en deze browser vergeet je.",
  forget_sure: "Alles over jou op deze server vergeten? Dit kan niet ongedaan gemaakt worden.", forgotten: "Je bent vergeten.",
  hidden_players: "Namen die je verbergt", hide_name: "De naam van deze speler verbergen", show_name: "De naam van deze speler tonen",
  claim_title: "Dit apparaat gebruiken", claim_ok: "Dit apparaat speelt nu als {name}.", claim_bad: "Deze link is al gebruikt, of ouder dan tien minuten.",
  player_title: "{name}", ratings_title: "Ranglijst", rating_in: "{title}: {rating} ± {uncertainty} ({games} spellen met rating)",
  no_ratings: "Nog geen spel met rating.", history: "Gespeelde spellen", no_games: "Nog geen gespeeld spel.",
  record: "Verslag", replay: "Terugkijken", rematch: "Revanche", place_n: "plaats {n}", rated_game: "met rating",
  chart: "Rating over de spellen met rating van {title}", statistics: "Statistieken", stats_line: "{games} spellen, {won} gewonnen",
  rank: "#", name: "Naam", rating: "Rating", games: "Spellen", computer_level: "computer",
  replay_title: "{title}: het spel nog eens, zet voor zet", step_of: "Zet {n} van {total}", previous: "Terug",
  next: "Verder", play_replay: "Afspelen", pause: "Pauze", first: "Begin", last: "Einde", to_act_now: "aan de beurt",
  invited: "{name} vraagt om revanche.", not_found: "Deze pagina bestaat niet.",
  name_taken: "“{name}” lijkt te veel op “{like}”, die hier nu speelt: kies een andere naam.",
  name_reserved: "“{name}” lijkt op de computerspeler {like}: kies een andere naam.",
  name_reserved_forgotten: "“{name}” lijkt op “{forgotten}”, zoals de pagina’s een vergeten speler noemen: kies een andere naam.",
});
Object.assign(WORDS.fr, {
  online_heading: "En ligne",
  with_them: "avec",
  stats_all: "Toutes les parties", stats_against: "contre {name}", people_only: "seulement des personnes",
  stats_rounds: "{rounds} manches, {rounds_won} gagnées, meilleure manche {best_round}",
  others_waiting: "Ils attendent", others_none: "Personne n’attend de partie pour l’instant.", n_waiting: "{n} en attente",
  join_them: "Les rejoindre",
  who_joins: "Qui peut venir", public_no: "ceux à qui j’envoie un lien", public_yes: "tout le monde, depuis le salon",
  rated_table: "Classée (chacun joue sous son nom du salon)",
  lobby: "Salon", nav_new: "Une nouvelle table", nav_ratings: "Classement", nav_me: "Vous",
  pick_name: "Choisissez un nom pour jouer avec d’autres", pick_name_help: "Pas de compte, pas d’e-mail : ce navigateur se souvient de vous.",
  name_label: "Votre nom", save_name: "Jouer", you_are: "Vous jouez sous le nom de {name}.", your_page: "Votre page",
  settings: "Nom et appareils",
  quick: "Partie rapide", quick_help: "Ceux qui demandent la même partie sont assis ensemble aussitôt.",
  players_any: "n’importe quel nombre", rated: "Classée", casual: "Amicale", quick_go: "Partie rapide",
  waiting_for: "En attente de {game} : {n} en attente, {s} s.", cancel: "Annuler",
  fill_help: "Personne d’autre pour l’instant ? Complétez la table avec des joueurs ordinateur :", fill: "Jouer avec l’ordinateur",
  game_of: "{title}, {players}", game_any: "{title}, n’importe quel nombre de joueurs",
  yours: "Vos tables", yours_none: "Pas encore de table.", go: "Aller", seat_n: "place {n}",
  open_tables: "Tables qui attendent des joueurs", open_none: "Aucune table n’attend de joueurs en ce moment.",
  take_seat: "Prendre une place", seats_free: "{n} libre(s)", playing: "Parties à regarder", playing_none: "Aucune partie à regarder en ce moment.",
  watch: "Regarder", online: "En ligne ({n})", online_none: "Personne d’autre pour l’instant.",
  a_player: "un joueur", seated: "Vous avez une place : en route pour la table…", need_name: "Choisissez d’abord un nom.",
  err_generic: "Cela n’a pas marché : {message}",
  me_title: "Votre nom et vos appareils", rename: "Changer de nom", saved: "Enregistré.", save: "Enregistrer",
  transfer: "Utiliser sur un autre appareil", transfer_help: "Ouvrez ce lien sur votre autre appareil dans les dix minutes ; il ne sert qu’une fois.",
  forget: "M’oublier", forget_help: "Efface votre nom, votre classement et votre historique de ce serveur, et ce navigateur vous oublie.",
  forget_sure: "Tout oublier de vous sur ce serveur ? C’est définitif.", forgotten: "Vous êtes oublié.",
  hidden_players: "Noms que vous masquez", hide_name: "Masquer le nom de ce joueur", show_name: "Afficher le nom de ce joueur",
  claim_title: "Utiliser cet appareil", claim_ok: "Cet appareil joue maintenant sous le nom de {name}.", claim_bad: "Ce lien a déjà servi, ou a plus de dix minutes.",
  player_title: "{name}", ratings_title: "Classement", rating_in: "{title} : {rating} ± {uncertainty} ({games} parties classées)",
  no_ratings: "Pas encore de partie classée.", history: "Parties terminées", no_games: "Pas encore de partie terminée.",
  record: "Relevé", replay: "Revoir", rematch: "Revanche", place_n: "place {n}", rated_game: "classée",
  chart: "Classement au fil des parties classées de {title}", statistics: "Statistiques", stats_line: "{games} parties, {won} gagnées",
  rank: "#", name: "Nom", rating: "Cote", games: "Parties", computer_level: "ordinateur",
  replay_title: "{title} : la partie coup par coup", step_of: "Coup {n} sur {total}", previous: "Reculer",
  next: "Avancer", play_replay: "Lire", pause: "Pause", first: "Début", last: "Fin", to_act_now: "à jouer",
  invited: "{name} demande une revanche.", not_found: "Cette page n’existe pas.",
  name_taken: "« {name} » ressemble trop à « {like} », qui joue ici en ce moment : choisissez un autre nom.",
  name_reserved: "« {name} » ressemble au joueur ordinateur {like} : choisissez un autre nom.",
  name_reserved_forgotten: "« {name} » ressemble à « {forgotten} », le nom que les pages donnent à un joueur oublié : choisissez un autre nom.",
});

// What every page of people shares: the header's links, who you are, and JSON calls that say what went wrong.
async function api(path, options) {
  const init = Object.assign({ headers: { "Content-Type": "application/json" } }, options || {});
  const answer = await fetch(path, init);
  const data = await answer.json().catch(() => ({}));
  // what went wrong, for people (the server's English) and for the page (its status, code and details)
  if (!answer.ok) throw Object.assign(new Error(data.error || String(answer.status)), { status: answer.status, code: data.code, like: data.like });
  return data;
}

// Why a name was refused, in the page's language (from the server's code, the names as text in their <bdi>): it
// looks like the name of someone playing now, of a computer player or of a forgotten player.  Anything else keeps
// the server's words.
function nameRefusal(error, typed) {
  const name = bdi(typed.trim()), like = bdi(error.like || "");
  if (error.code === "name-taken") return tNodes("name_taken", { name, like });
  if (error.code === "name-reserved") {
    const forgotten = Object.values(WORDS).some((words) => words.forgotten_player === error.like);
    return forgotten ? tNodes("name_reserved_forgotten", { name, forgotten: t("forgotten_player") }) : tNodes("name_reserved", { name, like });
  }
  return [t("err_generic", { message: error.message })];
}

async function whoAmI() {
  const me = await api("/api/me");
  const link = document.getElementById("nav-me");
  if (link) {
    link.hidden = !me.id;
    if (me.id) link.href = "/p/" + encodeURIComponent(me.id);
  }
  return me.id ? me : null;
}

// On a phone the header's links scroll sideways in one row: show the current page's link, and fade the edge on the
// side where more links wait (racko.css), again whenever the row scrolls, resizes or its words change language.
function watchHeaderLinks() {
  const links = document.querySelector(".bar .links");
  if (!links) return;
  const mark = () => {
    const more = links.scrollWidth - links.clientWidth;
    links.classList.toggle("more-before", more > 1 && links.scrollLeft > 1);
    links.classList.toggle("more-after", more > 1 && links.scrollLeft < more - 1);
  };
  const current = links.querySelector('[aria-current="page"]');
  if (current && links.scrollWidth > links.clientWidth) {
    links.scrollLeft = Math.max(0, current.offsetLeft - links.offsetLeft - (links.clientWidth - current.offsetWidth) / 2);
  }
  links.addEventListener("scroll", mark, { passive: true });
  new ResizeObserver(mark).observe(links);
  new MutationObserver(mark).observe(links, { subtree: true, characterData: true, childList: true, attributes: true });
  mark();
}
document.addEventListener("DOMContentLoaded", watchHeaderLinks);

function element(tag, className, text) {
  const made = document.createElement(tag);
  if (className) made.className = className;
  if (text !== undefined) made.textContent = text;
  return made;
}

function gameName(variantName, players) {
  const title = variantTitle(variantName, variantName);
  return players ? t("game_of", { title, players: players + " " + t("players").toLowerCase() }) : t("game_any", { title });
}

// A finished game's review page: the game's id is TABLE-N (its table, and its number at that table).
function reviewHref(gameId) {
  const cut = gameId.lastIndexOf("-");
  return "/t/" + encodeURIComponent(gameId.slice(0, cut)) + "/review?game=" + encodeURIComponent(gameId.slice(cut + 1));
}
