"use strict";
// What every page of people shares: the header's links, who you are, and JSON calls that say what went wrong.
// (i18n.js loads first and holds t(), the page's language and its words.)
async function api(path, options) {
  const init = Object.assign({ headers: { "Content-Type": "application/json" } }, options || {});
  const answer = await fetch(path, init);
  const data = await answer.json().catch(() => ({}));
  // what went wrong, for people (the server's English) and for the page (its status, code and details)
  if (!answer.ok) throw Object.assign(new Error(data.error || String(answer.status)), { status: answer.status, code: data.code, like: data.like, why: data.why });
  return data;
}

// Why a name was refused, in the page's language (from the server's code, the names as text in their <bdi>): it
// looks like the name of someone playing now, of a computer player or of a forgotten player, carries a bot's mark,
// or is not written as a name is (a character that shows nothing, mixed scripts…).  Anything else keeps the server's
// words.
function nameRefusal(error, typed) {
  const name = bdi(typed.trim()), like = bdi(error.like || "");
  if (error.code === "name-taken") return tNodes("name_taken", { name, like });
  if (error.code === "name-unfit" && WORDS.en["name_unfit:" + error.why]) return tNodes("name_unfit:" + error.why, { name });
  if (error.code === "name-reserved" && error.like === "(bot)") return tNodes("name_bot_mark", { name });
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
