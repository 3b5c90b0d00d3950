"use strict";
// What the tournaments' pages (and the lobby's part) share: a tournament's line in a list, what it is in words, and
// how long until something, counted on the server's clock.
let SERVER_OFFSET = 0; // the server's clock less this browser's, in seconds (starts and ends are the server's)

function serverNow() {
  return Date.now() / 1000 + SERVER_OFFSET;
}

function noteServerNow(now) {
  if (typeof now === "number") SERVER_OFFSET = now - Date.now() / 1000;
}

// "Swiss · 5 rounds", "Arena · 30 min"
function tournamentKind(line) {
  return line.kind === "swiss" ? t("tn_swiss_rounds", { n: line.rounds }) : t("tn_arena_minutes", { n: line.minutes });
}

// "Classic Rack-O, tables of 2", "Partners Rack-O, two against two"
function tournamentGame(line) {
  const title = variantTitle(line.variant, line.variant);
  return line.variant === "partners" ? t("tn_game_teams", { title }) : t("tn_game_tables", { title, seats: line.seats });
}

function tournamentSpeed(clock) {
  return t("speed:" + clock);
}

// Where it stands, in words, counted down on the server's clock.
function tournamentWhen(line) {
  const now = serverNow();
  if (line.status === "created") {
    const left = line.starts - now;
    return left > 0 ? t("tn_starts_in", { time: timeWords(left) }) : t("tn_starting");
  }
  if (line.status === "started") {
    if (line.kind === "arena") {
      const left = (line.ends || now) - now;
      return left > 0 ? t("tn_ends_in", { time: timeWords(left) }) : t("tn_last_games");
    }
    if (line.next_round_at && line.next_round_at > now) return t("tn_next_round_in", { round: line.round + 1, time: timeWords(line.next_round_at - now) });
    return t("tn_round_of", { round: Math.max(line.round, 1), rounds: line.rounds });
  }
  return line.note === "too-few" ? t("tn_too_few") : t("tn_over");
}

function tournamentTags(line) {
  const tags = [tournamentKind(line), tournamentGame(line), tournamentSpeed(line.clock), t(line.rated ? "tn_rated" : "tn_casual")];
  if (line.entry !== "anyone") tags.push(t("tn_entry_" + line.entry));
  if (line.finishers) tags.push(t("tn_finishers_tag"));
  return tags;
}

// One tournament's line in a list: its name (a link to its page), what it is, how many play, and when.
function tournamentLine(line) {
  const item = element("li", "line");
  const link = element("a", "");
  link.href = "/tournaments/" + encodeURIComponent(line.id);
  link.append(bdi(line.name));
  const name = element("strong");
  name.append(link);
  item.append(name, " ");
  for (const tag of tournamentTags(line)) item.append(element("span", "tag", tag), " ");
  item.append(element("span", "", t("tn_players", { n: line.entrants })), " · ");
  const when = element("span", "when", tournamentWhen(line));
  when.tournament = line;
  item.append(when);
  return item;
}

// Every line's time said again (each second), in place: the rest of the page is left as it is.
function tickWhens() {
  for (const when of document.querySelectorAll(".when")) {
    if (!when.tournament) continue;
    const said = tournamentWhen(when.tournament);
    if (when.textContent !== said) when.textContent = said;
  }
}
