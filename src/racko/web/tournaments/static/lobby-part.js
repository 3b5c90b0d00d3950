"use strict";
// The tournaments room's part of the lobby: the tournaments starting soon and those running, looked at again every
// half minute.
async function showLobbyTournaments() {
  const list = document.getElementById("lobby-tournaments");
  try {
    const data = await api("/api/tournaments");
    noteServerNow(data.now);
    const shown = data.tournaments.filter((line) => line.status !== "finished").slice(0, 6);
    list.replaceChildren(...(shown.length ? shown.map(tournamentLine) : [element("li", "empty", t("tn_none_now"))]));
  } catch (error) {
    list.replaceChildren(element("li", "empty", t("err_generic", { message: error.message })));
  }
}

showLobbyTournaments();
setInterval(showLobbyTournaments, 30000);
setInterval(tickWhens, 1000);
languageWatchers.push(showLobbyTournaments);
