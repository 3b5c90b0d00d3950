"use strict";
// One tournament, kept live: what it is and where it stands (the time counted down each second on the server's
// clock), joining, pausing and withdrawing, the standings with their tie-breaks, the tables of the round under way
// (each to watch), the earlier rounds, each player's games, and the podium at the end.  The page asks the server
// every three seconds whether anything changed (?known=VERSION), and opens a person's table when their next game is
// ready (each table once: a person who comes back to this page from their game is not sent back).
const $ = (id) => document.getElementById(id);
const TOURNAMENT = decodeURIComponent(location.pathname.split("/").pop());
let shown = null, me = null, chosen = null;

function ordinal(n) {
  const kind = new Intl.PluralRules(LANG, { type: "ordinal" }).select(n);
  const key = "tn_ord_" + kind;
  return t("tn_ordinal", { n, suffix: WORDS.en[key] ? t(key) : t("tn_ord_other") });
}

function points(value) {
  return numberText(Number(value)); // as the page's language writes a number (1,5 in Dutch and French)
}

function nameNodes(line) {
  if (line.members && line.members.length) {
    const nodes = [];
    line.members.forEach((member, index) => { if (index) nodes.push(" & "); nodes.push(bdi(member.name)); });
    return nodes;
  }
  return [bdi(line.name)];
}

function whatItIs(line) {
  if (line.kind === "level") return " (" + t("computer_level") + ")";
  return "";
}

function renderAbout(data) {
  document.title = data.name + " · Rack-O";
  $("t-name").replaceChildren(bdi(data.name));
  const settings = { ...data.settings, status: data.status, round: data.round, next_round_at: data.next_round_at, ends: data.ends, starts: data.starts, note: data.note };
  $("t-tags").replaceChildren(...tournamentTags(settings).flatMap((tag) => [element("span", "tag", tag), " "]));
  if (data.settings.target) $("t-tags").append(element("span", "tag", t("tn_target_n", { n: data.settings.target })));
  $("t-when").tournament = settings;
  $("t-when").textContent = tournamentWhen(settings);
  $("t-when").classList.add("when");
  $("t-count").textContent = "· " + t("tn_players", { n: data.entrants });
  $("t-rules").textContent = data.kind === "swiss" ? t("tn_swiss_help", { bye: points((data.settings.variant === "partners" ? 1 : data.settings.seats - 1) / 2) }) : t("tn_arena_help");
}

function renderYou(data) {
  const you = data.you;
  const over = data.status === "finished";
  const partners = data.settings.variant === "partners";
  const entry = data.settings.entry;
  $("need-name").hidden = !!me || over || entry === "bots";
  const joinable = !!me && !over && entry !== "bots" && (!you || you.state === "paused")
    && !(partners && data.status !== "created" && !you)
    && !(data.kind === "swiss" && data.status === "started" && data.round >= data.settings.rounds);
  $("join-form").hidden = !joinable;
  $("join").textContent = you && you.state === "paused" ? t("tn_come_back") : t("tn_join");
  $("partner-row").hidden = !(partners && data.status === "created" && !you);
  $("pause").hidden = !(you && data.status === "started" && you.state === "active");
  $("withdraw").hidden = !(you && data.status === "created");
  $("you-table").hidden = !(you && you.table);
  if (you && you.table) $("you-go").href = "/t/" + encodeURIComponent(you.table);
  let line = "";
  if (!me && entry === "bots") line = t("tn_for_bots");
  else if (you && over) line = t("tn_you_finished", { place: ordinal(you.rank), n: data.standings.length });
  else if (you && you.state === "paused") line = t("tn_you_paused");
  else if (you && data.status === "created") line = t("tn_you_in_soon");
  else if (you) line = t("tn_you_in", { place: ordinal(you.rank), n: data.standings.length });
  else if (me && entry === "bots") line = t("tn_for_bots");
  $("you-line").textContent = line;
  // A new table of this person's: opened at once (each table once; a person who comes back here is not sent back).
  if (you && you.table && data.status === "started") {
    const opened = JSON.parse(sessionStorage.getItem("racko-tournament-tables") || "[]");
    if (!opened.includes(you.table)) {
      sessionStorage.setItem("racko-tournament-tables", JSON.stringify([...opened, you.table].slice(-50)));
      $("you-line").textContent = t("tn_your_game_ready");
      location.assign("/t/" + encodeURIComponent(you.table));
    }
  }
}

function renderPodium(data) {
  $("podium-panel").hidden = !data.podium.length;
  $("podium").replaceChildren(...data.standings.slice(0, data.podium.length).map((line) => {
    const item = element("li");
    item.append(element("span", "place", ordinal(line.rank)), ...nameNodes(line), whatItIs(line), " · " + t("tn_points_n", { points: line.points }));
    return item;
  }));
}

function tieBreakHeads(data) {
  if (data.kind === "arena") return [["tn_wins", "wins"]];
  if (data.settings.variant === "partners" || data.settings.seats === 2) return [["tn_buchholz", "buchholz"], ["tn_sb", "sonneborn_berger"], ["tn_wins", "wins"]];
  return [["tn_opponents_points", "opponents_points"], ["tn_placings", "placings"]];
}

function renderStandings(data) {
  const heads = tieBreakHeads(data);
  const head = element("tr");
  const titles = [["tn_rank", "num"], ["tn_player", ""], ["tn_points", "num"], ["tn_games", "num"], ...heads.map(([key]) => [key, "num tie"])];
  for (const [key, className] of titles) {
    const cell = element("th", className, t(key));
    cell.scope = "col";
    head.append(cell);
  }
  const mine = data.you ? data.standings.find((line) => line.rank === data.you.rank) : null;
  const rows = data.standings.map((line) => {
    const row = element("tr", line === mine ? "you" : "");
    const who = element("td", "name");
    const button = element("button", "player");
    button.type = "button";
    button.append(...nameNodes(line));
    button.setAttribute("aria-label", t("tn_show_games", { name: line.members.length ? line.members.map((m) => shownName(m.name)).join(" & ") : shownName(line.name) }));
    button.addEventListener("click", () => { chosen = line.entrant; renderGames(shown, true); });
    who.append(button, whatItIs(line));
    if (line.fire) { // on fire: its next game's points are doubled (a mark of text: no emoji font needed)
      const fire = element("span", "fire", "×2");
      fire.setAttribute("role", "img");
      fire.setAttribute("aria-label", t("tn_on_fire"));
      fire.title = t("tn_on_fire");
      who.append(" ", fire);
    }
    if (line.state === "paused") who.append(" ", element("span", "tag", t("tn_paused_tag")));
    if (line.playing) who.append(" ", element("span", "tag", t("tn_playing_tag")));
    row.append(element("td", "num", String(line.rank)), who, element("td", "num", points(line.points)), element("td", "num", String(line.games)));
    for (const [, key] of heads) {
      const value = line.tie_breaks[key];
      row.append(element("td", "num tie", Array.isArray(value) ? value.join("·") : points(value)));
    }
    return row;
  });
  $("standings").replaceChildren(head, ...rows);
}

// One table's line: who sits where (with each one's place and points once it ended), and a link to watch it.
function tableLine(table) {
  const item = element("li", "line");
  if (table.kind === "bye") {
    item.append(bdi(table.seats[0]), " ", element("span", "tag", t("tn_bye_line", { points: points(table.result ? table.result.points[0] : 0) })));
    return item;
  }
  const seats = element("span", "seats");
  table.seats.forEach((name, seat) => {
    if (seat) seats.append(", ");
    const who = element("span", table.result && table.result.places && table.result.places[seat] === 1 ? "won" : "");
    who.append(bdi(name));
    if (table.levels && table.levels[seat]) who.append(" (" + t("computer_level") + ")");
    if (table.result && table.result.places) who.append(" " + t("tn_seat_result", { place: ordinal(table.result.places[seat]), points: points(table.result.points[seat]) }));
    seats.append(who);
  });
  item.append(seats, " ");
  if (table.result && table.result.void) item.append(element("span", "tag", t("tn_void")), " ");
  if (table.kind === "server") item.append(element("span", "tag", t("tn_by_server")), " ");
  if (table.table) {
    const link = element("a", table.result ? "" : "button", t(table.result ? "tn_see_game" : "tn_watch"));
    link.href = "/t/" + encodeURIComponent(table.table);
    item.append(link);
  } else if (!table.result) item.append(element("span", "tag", t("tn_playing_tag")));
  return item;
}

function renderTables(data) {
  const rounds = data.rounds;
  if (data.kind === "arena") {
    const games = rounds.length ? rounds[0] : [];
    const playing = games.filter((table) => !table.result);
    const ended = games.filter((table) => table.result).reverse().slice(0, 40);
    $("current-title").textContent = t("tn_being_played");
    $("current-list").replaceChildren(...(playing.length ? playing.map(tableLine) : [element("li", "empty", t("tn_no_tables"))]));
    $("earlier-title").textContent = t("tn_games_ended");
    $("earlier-panel").hidden = !ended.length;
    const list = element("ul", "lines");
    list.append(...ended.map(tableLine));
    $("earlier").replaceChildren(list);
    return;
  }
  const current = rounds.length ? rounds[rounds.length - 1] : [];
  $("current-title").textContent = rounds.length ? t("tn_round_n", { n: rounds.length }) : t("tn_tables");
  $("current-list").replaceChildren(...(current.length ? current.map(tableLine) : [element("li", "empty", t("tn_no_tables"))]));
  const earlier = rounds.slice(0, -1);
  $("earlier-panel").hidden = !earlier.length;
  const open = new Set([...$("earlier").querySelectorAll("details[open]")].map((box) => box.dataset.round));
  $("earlier").replaceChildren(...earlier.map((tables, index) => {
    const box = element("details");
    box.dataset.round = String(index + 1);
    box.open = open.has(box.dataset.round);
    const list = element("ul", "lines");
    list.append(...tables.map(tableLine));
    box.append(element("summary", "", t("tn_round_n", { n: index + 1 })), list);
    return box;
  }).reverse());
}

// A player's games: each table they sat at, with their place and points.
function renderGames(data, focus) {
  const line = chosen && data.standings.find((standing) => standing.entrant === chosen);
  $("games-panel").hidden = !line;
  if (!line) return;
  const name = line.members.length ? line.members.map((member) => shownName(member.name)).join(" & ") : shownName(line.name);
  $("games-title").textContent = t("tn_games_of", { name });
  const games = [];
  data.rounds.forEach((tables, index) => {
    for (const table of tables) {
      const sides = table.sides || table.entrants;
      if (!sides.includes(line.entrant)) continue;
      const item = tableLine(table);
      if (data.kind === "swiss") item.prepend(element("span", "tag", t("tn_round_n", { n: index + 1 })), " ");
      games.push(item);
    }
  });
  $("games-list").replaceChildren(...(games.length ? games : [element("li", "empty", t("tn_no_games"))]));
  if (focus) $("games-title").focus();
}

function render(data) {
  shown = data;
  noteServerNow(data.now);
  renderAbout(data);
  renderYou(data);
  renderPodium(data);
  renderStandings(data);
  renderTables(data);
  renderGames(data, false);
}

async function refresh() {
  const known = shown ? "?known=" + shown.version : "";
  const data = await api("/api/tournaments/" + encodeURIComponent(TOURNAMENT) + known);
  if (data.unchanged) { noteServerNow(data.now); return; }
  render(data);
}

function refusal(error) {
  const key = "tn_refused_" + error.code;
  return WORDS.en[key] ? t(key) : t("err_generic", { message: error.message });
}

async function act(what, body) {
  $("t-problem").textContent = "";
  try {
    await api("/api/tournaments/" + encodeURIComponent(TOURNAMENT) + "/" + what, { method: "POST", body: JSON.stringify(body || {}) });
    shown = null;
    await refresh();
  } catch (error) {
    $("t-problem").textContent = refusal(error);
  }
}

async function main() {
  $("join-form").addEventListener("submit", (event) => { event.preventDefault(); act("join", { partner: $("partner").value }); });
  $("pause").addEventListener("click", () => act("pause"));
  $("withdraw").addEventListener("click", () => act("withdraw"));
  $("games-close").addEventListener("click", () => { chosen = null; $("games-panel").hidden = true; });
  watchLanguage(() => { if (shown) render(shown); });
  me = await whoAmI();
  try {
    await refresh();
  } catch (error) {
    $("t-name").textContent = t("tn_title");
    $("t-problem").textContent = error.status === 404 ? t("tn_no_such") : refusal(error);
    return;
  }
  setInterval(() => refresh().catch(() => {}), 3000);
  setInterval(tickWhens, 1000);
}

main();
