"use strict";
// A player's page: their ratings with a chart of each, their statistics, and their finished games with each game's
// record, its replay and a rematch.
const $ = (id) => document.getElementById(id);
const PLAYER = decodeURIComponent(location.pathname.split("/").pop());
let me = null, data = null, hidden = new Set();
const SVG = "http://www.w3.org/2000/svg";

function svg(tag, attributes) {
  const made = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) made.setAttribute(name, String(value));
  return made;
}

// One rating's history as a line, the uncertainty as a band around it; drawn from the numbers alone, at the width its
// box has (in the page's own pixels: its words as large as the page's, the first and last ratings beside the line's
// ends and inside the drawing, on a phone too).
function chart(variantName, points, width) {
  const height = 160, top = 10, bottom = 10, gap = 6;
  const measure = document.createElement("canvas").getContext("2d");
  measure.font = "12px " + getComputedStyle(document.body).fontFamily;
  const first = String(points[0].rating), last = String(points[points.length - 1].rating);
  const left = Math.ceil(measure.measureText(first).width) + 2 * gap;
  const right = Math.ceil(measure.measureText(last).width) + 2 * gap;
  const lows = points.map((p) => p.rating - p.uncertainty), highs = points.map((p) => p.rating + p.uncertainty);
  const low = Math.min(...lows), high = Math.max(...highs) || low + 1;
  const span = width - left - right;
  const x = (index) => left + (points.length > 1 ? (index * span) / (points.length - 1) : span / 2);
  const y = (value) => height - bottom - ((value - low) * (height - top - bottom)) / (high - low || 1);
  const figure = element("figure", "chart");
  const title = t("chart", { title: variantTitle(variantName, variantName) });
  const drawing = svg("svg", {
    viewBox: `0 0 ${width} ${height}`, width, height, role: "img", "aria-label": title + ": " + points.map((p) => p.rating).join(", "),
  });
  const band = points.map((p, i) => `${x(i)},${y(p.rating + p.uncertainty)}`).concat(points.map((p, i) => `${x(i)},${y(p.rating - p.uncertainty)}`).reverse());
  drawing.append(svg("polygon", { points: band.join(" "), class: "band" }));
  drawing.append(svg("polyline", { points: points.map((p, i) => `${x(i)},${y(p.rating)}`).join(" "), class: "line" }));
  points.forEach((p, i) => drawing.append(svg("circle", { cx: x(i), cy: y(p.rating), r: 3, class: "dot" })));
  const level = (value) => Math.min(Math.max(y(value) + 4, 12), height - 2); // a label's baseline, inside the drawing
  const firstLabel = svg("text", { x: left - gap, y: level(points[0].rating), class: "axis", "text-anchor": "end" });
  firstLabel.textContent = first;
  const lastLabel = svg("text", { x: width - right + gap, y: level(points[points.length - 1].rating), class: "axis" });
  lastLabel.textContent = last;
  drawing.append(firstLabel, lastLabel);
  figure.append(drawing, element("figcaption", "", title));
  return figure;
}

// The charts at the width of their box (drawn again when it changes: a phone turned, a window resized).
let chartsWidth = 0;
function drawCharts() {
  const box = $("charts");
  chartsWidth = Math.min(box.clientWidth, 576);
  const drawn = Object.entries(data.history).filter(([, points]) => points.length);
  box.replaceChildren(...drawn.map(([name, points]) => chart(name, points, chartsWidth)));
}

// One line of statistics: the games and rounds played and won, each count with its noun in the language's plural.
function statsLine(tally) {
  const games = t("stats_line", { games: t("n_games", { n: tally.games }), won: t("n_won", { n: tally.won }) });
  const rounds = t("stats_rounds", {
    rounds: t("n_rounds", { n: tally.rounds }),
    rounds_won: t("n_won", { n: tally.rounds_won }),
    best_round: tally.best_round,
  });
  return games + "; " + rounds;
}

// A variant's title as the statistics name it (the English title) in the page's language.
function titleWords(title) {
  const key = Object.keys(WORDS.en).find((word) => word.startsWith("title:") && WORDS.en[word] === title);
  return key ? t(key) : title;
}

function personName(seat) {
  if (seat.subject.startsWith("p:") && hidden.has(seat.subject.slice(2))) return t("a_player");
  return seat.name;
}

function render() {
  const player = data.player;
  $("player-title").replaceChildren(bdi(hidden.has(player.id) ? t("a_player") : player.name), player.bot ? " (bot)" : "");
  if (player.bot) { // a bot account: a person may challenge it (the bots room's page)
    const challenge = element("a", "button", t("challenge_link"));
    challenge.href = "/challenge/" + encodeURIComponent(player.name);
    $("player-title").append(" ", challenge);
  }
  // The record of finishing: rated games and games at public tables (a friends' casual table never counts).
  const finishing = data.finishing;
  const counting = finishing.finished + finishing.left;
  $("finishing").textContent = counting
    ? t("finishing", { finished: finishing.finished, games: counting, share: Math.round(finishing.share * 100), left: finishing.left })
    : t("finishing_none");
  const ratings = Object.entries(data.ratings);
  $("player-ratings").replaceChildren(...(ratings.length ? ratings.map(([name, r]) =>
    element("li", "", t("rating_in", { title: variantTitle(name, name), rating: r.rating, uncertainty: r.uncertainty,
      games: t("n_rated_games", { n: r.games }) }))) :
    [element("li", "empty", t("no_ratings"))]));
  drawCharts();
  // The statistics as racko stats counts them (the server replays the player's latest games).
  const stats = data.stats;
  const rows = stats.total.games ? [[t("stats_all"), stats.total]]
    .concat(Object.entries(stats.by_variant).map(([title, tally]) => [titleWords(title), tally]))
    .concat(Object.entries(stats.by_opponent).map(([name, tally]) => [name === "people only" ? t("people_only") : t("stats_against", { name }), tally])) : [];
  $("stats").replaceChildren(...(rows.length ? rows.map(([name, tally]) =>
    element("li", "", t("stats_row", { name, stats: statsLine(tally) }))) : [element("li", "empty", t("no_games"))]));
  $("games").replaceChildren(...(data.games.length ? data.games.map((game) => {
    const item = element("li", "line");
    const when = new Date(game.finished * 1000).toLocaleString(LANG);
    item.append(element("strong", "", variantTitle(game.variant, game.variant)), " ", element("span", "tag", game.rated ? t("rated_tag") : t("casual")), " ", when, " ");
    const who = element("span", "who");
    game.seats.forEach((seat, index) => {
      if (index) who.append(", ");
      who.append(bdi(personName(seat)), " " + seat.total + " (" + t("place_n", { n: seat.place }) + ")");
    });
    const record = element("a", "button", t("record"));
    record.href = "/api/games/" + encodeURIComponent(game.game) + "/record";
    record.setAttribute("download", "racko-game.json");
    const replay = element("a", "button", t("replay"));
    replay.href = "/replay/" + encodeURIComponent(game.game);
    const review = element("a", "button", t("review:link"));
    review.href = reviewHref(game.game);
    item.append(who, " ", record, " ", replay, " ", review);
    if (me && game.seats.some((seat) => seat.subject === "p:" + me.id)) {
      const again = element("button", "", t("rematch"));
      again.type = "button";
      again.addEventListener("click", async () => {
        try {
          const made = await api("/api/games/" + encodeURIComponent(game.game) + "/rematch", { method: "POST", body: "{}" });
          location.assign("/t/" + encodeURIComponent(made.table));
        } catch (error) { $("status").textContent = error.message; }
      });
      item.append(" ", again);
    }
    return item;
  }) : [element("li", "empty", t("no_games"))]));
  const box = $("hide-box");
  box.hidden = !me || me.id === player.id;
  $("hide").textContent = t(hidden.has(player.id) ? "show_name" : "hide_name");
}

async function main() {
  watchLanguage(() => { if (data) render(); });
  me = await whoAmI();
  try {
    data = await api("/api/players/" + encodeURIComponent(PLAYER));
  } catch (error) {
    $("player-title").textContent = t("not_found");
    return;
  }
  if (me) hidden = new Set((await api("/api/me/hidden")).hidden);
  $("hide").addEventListener("click", async () => {
    const answer = await api("/api/me/hide", { method: "POST", body: JSON.stringify({ player: PLAYER, hidden: !hidden.has(PLAYER) }) });
    hidden = new Set(answer.hidden);
    render();
  });
  render();
  addEventListener("resize", () => { if (Math.min($("charts").clientWidth, 576) !== chartsWidth) drawCharts(); });
}

main();
