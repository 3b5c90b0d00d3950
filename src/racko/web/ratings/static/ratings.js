"use strict";
// The ratings of a variant: people and computer levels, best first by the cautious rating (the rating less 1.5 times
// its uncertainty, which the server ranks by): that number first, so that the order shown is the order of a number
// shown, then the rating with its uncertainty. Beside them the bots' board (bot accounts, marked as bots, and
// computer levels: the bot ladder's ratings), shown the same way.
const $ = (id) => document.getElementById(id);
let OPTIONS = null;

async function render() {
  const name = $("variant").value;
  await Promise.all([board(name, "people", $("ratings-board")), board(name, "bots", $("bots-board"))]);
}

async function board(name, pool, table) {
  const data = await api("/api/ratings/" + encodeURIComponent(name) + "?pool=" + pool);
  const head = element("tr");
  for (const key of ["rank", "name", "ranked", "rating", "games"]) head.append(element("th", "", t(key)));
  const rows = data.lines.map((line, index) => {
    const row = element("tr");
    const who = element("td", "name");
    if (line.subject.startsWith("p:")) {
      const link = element("a");
      link.href = "/p/" + encodeURIComponent(line.subject.slice(2));
      link.append(bdi(line.name));
      who.append(link);
      if (line.bot) who.append(" (" + t("bot_tag") + ")");
    } else who.append(line.name + " (" + t("computer_level") + ")");
    row.append(element("td", "", String(index + 1)), who, element("td", "ranked", String(line.ranked)),
      element("td", "rating", line.rating + " ±\u00a0" + line.uncertainty), element("td", "", String(line.games)));
    return row;
  });
  table.replaceChildren(head, ...rows);
}

async function main() {
  OPTIONS = await api("/api/options");
  $("variant").replaceChildren(...OPTIONS.variants.map((v) => new Option(variantTitle(v.name, v.title), v.name)));
  $("variant").addEventListener("change", render);
  watchLanguage(render);
  whoAmI();
  render();
}

main();
