"use strict";
// The ratings of a variant: people and computer levels, best first, each with how uncertain it still is; beside them
// the bots' board (bot accounts, marked as bots, and computer levels: the bot ladder's ratings).
const $ = (id) => document.getElementById(id);
let OPTIONS = null;

async function render() {
  const name = $("variant").value;
  await Promise.all([board(name, "people", $("ratings-board")), board(name, "bots", $("bots-board"))]);
}

async function board(name, pool, table) {
  const data = await api("/api/ratings/" + encodeURIComponent(name) + "?pool=" + pool);
  const head = element("tr");
  for (const key of ["rank", "name", "rating", "games"]) head.append(element("th", "", t(key)));
  const rows = data.lines.map((line, index) => {
    const row = element("tr");
    const who = element("td");
    if (line.subject.startsWith("p:")) {
      const link = element("a");
      link.href = "/p/" + encodeURIComponent(line.subject.slice(2));
      link.append(bdi(line.name));
      who.append(link);
      if (line.bot) who.append(" (" + t("bot_tag") + ")");
    } else who.append(line.name + " (" + t("computer_level") + ")");
    row.append(element("td", "", String(index + 1)), who, element("td", "", line.rating + " ± " + line.uncertainty), element("td", "", String(line.games)));
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
