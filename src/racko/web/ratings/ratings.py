"""Ratings and the players' histories: OpenSkill (Plackett-Luce) per variant, for players and computer levels.

When a game at a table ends, every seat with a player or a computer player gets a line in the players' histories
(``racko_games``, ``racko_game_seats``: the game's record, its place and total).  If the table was rated and every
person at it was a player, the ratings move: one rating per subject (``p:ID`` for a player, ``bot:LEVEL`` for a
computer level) and variant, the places from the final totals (Partners: the two sides, as teams), and each new
rating kept in ``racko_rating_history`` for the player's chart.  Bot accounts are rated on a board of their own
(:data:`POOLS`: ``racko_bot_ratings``), where racko's levels are rated too.  A game is passed on once (its id is the
table's and the game's number), so a table opened again after a crash passes it on again harmlessly.

Computer levels start from ratings calibrated between them (:func:`calibrate`, written to
``web/ratings/data/bot_ratings.json`` by ``racko admin calibrate``: rounds between the levels, each ranked by its
scores), so that theirs mean something on the first day; rated games against people move them from there.
"""

from __future__ import annotations

import contextlib
import json
import random
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from openskill.models import PlackettLuce

from racko import bots
from racko.errors import RackoError
from racko.match import Match
from racko.play.library import Stats, count_game
from racko.play.session import renamed
from racko.record import GameRecord, replay
from racko.rules import VARIANTS
from racko.web.players import (
    BOT_MARK,
    FORGOTTEN,
    FORGOTTEN_SUBJECT,
    Players,
    bots_in,
    names_in,
    note_game,
    subject_of,
)
from racko.web.store import Rows, SchemaPart, TableStore
from racko.web.table import FinishedGame, sides_of

CALIBRATED = Path(__file__).parent / "data" / "bot_ratings.json"
SCALE = 40.0
"""Ratings are shown as OpenSkill's mu times this (a new player: 1000), with two sigmas as the uncertainty."""
HISTORY_SHOWN = 50
STATS_GAMES = 200
"""A player's statistics count their latest games, at most this many (each is replayed to be counted)."""
PEOPLE, BOTS = "people", "bots"
POOLS = {PEOPLE: ("racko_ratings", "racko_rating_history"), BOTS: ("racko_bot_ratings", "racko_bot_rating_history")}
"""The two boards' tables (ratings, their history): people's, and bot accounts' (the bot ladder's, docs/BOTS.md).
racko's computer levels have a rating on each.  A rated game with no person and a bot account moves the bots'
board; a rated game with a person moves the people's board, for the people and levels at it only: a bot account
there plays at its bots' rating and keeps nothing (docs/RATINGS.md)."""


SCHEMA = SchemaPart.of_room(
    "ratings",
    upgrades=(
        # Before version 4 a game that ended after its player was forgotten wrote their rating again.
        (
            4,
            "DELETE FROM racko_ratings WHERE subject LIKE 'p:%' "
            "AND substr(subject, 3) NOT IN (SELECT id FROM racko_players)",
        ),
        (
            4,
            "DELETE FROM racko_rating_history WHERE subject LIKE 'p:%' "
            "AND substr(subject, 3) NOT IN (SELECT id FROM racko_players)",
        ),
        (
            4,
            "UPDATE racko_game_seats SET subject = 'forgotten' WHERE subject LIKE 'p:%' "
            "AND substr(subject, 3) NOT IN (SELECT id FROM racko_players)",
        ),
    ),
)
"""The finished games of those who keep a history (a subject is ``p:ID`` for a player, ``bot:LEVEL`` for a computer
level, ``forgotten`` for a forgotten player's seat, ``person:NAME`` for a guest's), the ratings and their history."""


def shown(mu: float, sigma: float) -> dict[str, int]:
    """A rating as people see it: a number and how uncertain it still is (±)."""
    return {"rating": round(mu * SCALE), "uncertainty": round(2 * sigma * SCALE)}


def ranked(mu: float, sigma: float) -> int:
    """The number the ratings page ranks by, and shows: the cautious estimate μ − 3σ on the rating's scale (the
    rating less 1.5 times its ± ), so that a few lucky games do not put a new player above those who proved
    themselves over many."""
    return round((mu - 3 * sigma) * SCALE)


def calibrated_ratings(path: Path = CALIBRATED) -> dict[str, dict[str, tuple[float, float]]]:
    """The computer levels' starting ratings, per variant: ``{variant: {level: (mu, sigma)}}``."""
    try:
        data = json.loads(path.read_text())
    except (OSError, ValueError):
        return {}
    return {
        name: {level: (float(pair[0]), float(pair[1])) for level, pair in levels.items()}
        for name, levels in data.get("ratings", {}).items()
    }


class Ratings:
    """The ratings and histories kept in the server's store."""

    def __init__(
        self, store: TableStore, players: Players, calibrated: dict[str, dict[str, tuple[float, float]]] | None = None
    ) -> None:
        self.store = store
        self.players = players
        self.model = PlackettLuce()
        self.calibrated = calibrated_ratings() if calibrated is None else calibrated
        players.forgetting.append(self._forget)

    def _forget(self, rows: Rows, player_id: str) -> None:
        """A player forgotten (in the players room's transaction): their ratings and rating history go, and in the
        games they finished their seat becomes a forgotten player's, in the histories and the records."""
        subject = subject_of(player_id)
        games = rows("SELECT game_id, seat FROM racko_game_seats WHERE subject = ?", (subject,))
        for ratings_table, history_table in POOLS.values():
            rows(f"DELETE FROM {ratings_table} WHERE subject = ?", (subject,))
            rows(f"DELETE FROM {history_table} WHERE subject = ?", (subject,))
        rows("UPDATE racko_game_seats SET subject = ? WHERE subject = ?", (FORGOTTEN_SUBJECT, subject))
        for game_id, seat in games:
            for (text,) in rows("SELECT record FROM racko_games WHERE id = ?", (game_id,)):
                rows("UPDATE racko_games SET record = ? WHERE id = ?", (renamed(text, seat, FORGOTTEN), game_id))

    # --- a game's end -----------------------------------------------------------------------------------

    def game_over(self, game: FinishedGame) -> bool:
        """Keep a finished game in the histories of those at the table, with the places the table room gave it (the
        seats whose people left the game last: racko.web.table.results, the same places every page's result line
        names), and, if rated, move their ratings by them; whether the ratings moved.  Blocking: call it in a worker
        thread."""
        setup, record, table_id = game.setup, game.record, game.table_id
        match = replay(record)
        early = setup.ended
        if match.outcome is None and early is None:
            return False
        if early is not None and early.how == "aborted":
            return False  # an aborted game counts for nothing (docs/PLAYING.md "A way out")
        # A game ended early (by agreement, or no person left) is placed by the totals of its finished rounds.
        seats = setup.seats
        seated: list[str | None] = [
            subject_of(spec.player) if spec.player else
            FORGOTTEN_SUBJECT if spec.forgotten else
            f"bot:{spec.bot}" if spec.bot else None
            for spec in seats
        ]  # fmt: skip
        if all(subject is None or subject.startswith("bot:") for subject in seated):
            return False  # nobody at the table keeps a history
        rules = record.rules
        totals = match.seat_totals
        sides = sides_of(rules)
        places = game.standing.places
        left = game.standing.left
        game_id = f"{table_id}-{setup.game}"
        now = time.time()
        accounts = {subject_of(spec.player) for spec in seats if spec.bot_account and spec.player}
        with_people = any(spec.bot is None and not spec.bot_account for spec in seats)
        pool = PEOPLE if with_people or not accounts else BOTS

        def work(rows: Rows) -> bool:
            # A player forgotten while the game went on (here or in another process, before the table heard of it)
            # is a forgotten player's seat: nothing is written for them again, not even their name in the record.
            known = names_in(
                rows, [subject[2:] for subject in seated if subject is not None and subject.startswith("p:")]
            )
            subjects = [
                FORGOTTEN_SUBJECT if subject is not None and subject.startswith("p:") and subject[2:] not in known
                else subject
                for subject in seated
            ]  # fmt: skip
            text = record.dumps()
            for seat, subject in enumerate(subjects):
                if subject == FORGOTTEN_SUBJECT:
                    text = renamed(text, seat, FORGOTTEN)
            rated = setup.rated and all(subject is not None for subject in subjects)
            kept = rows(
                "INSERT INTO racko_games (id, table_id, variant, rated, finished, record) VALUES (?, ?, ?, ?, ?, ?) "
                "ON CONFLICT (id) DO NOTHING RETURNING id",
                (game_id, table_id, rules.variant, int(rated), now, text),
            )
            if not kept:
                return False  # passed on already
            if setup.counts:  # each person's record of finishing: a seat whose person left it is a game left
                note_game(
                    rows,
                    game_id,
                    {subject[2:]: left[seat] for seat, subject in enumerate(subjects)
                     if subject is not None and subject.startswith("p:")},
                    now,
                )  # fmt: skip
            for seat, subject in enumerate(subjects):
                rows(
                    "INSERT INTO racko_game_seats (game_id, seat, subject, place, total) VALUES (?, ?, ?, ?, ?)",
                    (game_id, seat, subject or f"person:{seats[seat].name}", places[seat], totals[seat]),
                )
            if not rated:
                return False
            teams = [[subjects[seat] or "" for seat in side] for side in sides]
            guests = accounts if pool == PEOPLE else set()
            self._rate(rows, rules.variant, game_id, teams, [places[side[0]] for side in sides], now, pool, guests)
            return True

        return self.store.run(work)

    def _rate(
        self,
        rows: Rows,
        variant_name: str,
        game_id: str,
        teams: list[list[str]],
        ranks: list[int],
        now: float,
        pool: str = PEOPLE,
        guests: set[str] | frozenset[str] = frozenset(),
    ) -> None:
        """Move the ratings of the sides by their places on ``pool``'s board.  A forgotten player's seat plays at a
        newcomer's rating and keeps nothing, so that the others' game still counts and nothing names the one
        forgotten; so does a ``guests`` subject (a bot account at a person's table), at its bots' rating."""
        current = {
            subject: self._rating(rows, subject, variant_name, BOTS if subject in guests else pool)
            for team in teams
            for subject in team
        }
        ratings_table, history_table = POOLS[pool]
        ratings = [[self.model.rating(*current[subject], name=subject) for subject in team] for team in teams]
        updated = self.model.rate(ratings, ranks=[float(rank) for rank in ranks])
        for team, new in zip(teams, updated, strict=True):
            for subject, rating in zip(team, new, strict=True):
                if subject == FORGOTTEN_SUBJECT or subject in guests:
                    continue
                rows(
                    f"INSERT INTO {ratings_table} (subject, variant, mu, sigma, games) VALUES (?, ?, ?, ?, 1) "
                    "ON CONFLICT (subject, variant) DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma, "
                    f"games = {ratings_table}.games + 1",
                    (subject, variant_name, rating.mu, rating.sigma),
                )
                rows(
                    f"INSERT INTO {history_table} (subject, variant, game_id, mu, sigma, at) VALUES "
                    "(?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
                    (subject, variant_name, game_id, rating.mu, rating.sigma, now),
                )

    def _rating(self, rows: Rows, subject: str, variant_name: str, pool: str = PEOPLE) -> tuple[float, float]:
        if subject == FORGOTTEN_SUBJECT:
            default = self.model.rating()
            return float(default.mu), float(default.sigma)
        found = rows(
            f"SELECT mu, sigma FROM {POOLS[pool][0]} WHERE subject = ? AND variant = ?", (subject, variant_name)
        )
        if found:
            return float(found[0][0]), float(found[0][1])
        if subject.startswith("bot:") and subject[4:] in self.calibrated.get(variant_name, {}):
            return self.calibrated[variant_name][subject[4:]]
        default = self.model.rating()
        return float(default.mu), float(default.sigma)

    # --- what the pages show ----------------------------------------------------------------------------

    def board(self, variant_name: str, limit: int = 100, pool: str = PEOPLE) -> list[dict[str, Any]]:
        """A variant's ratings on ``pool``'s board (people's or bots'), players and computer levels (those that
        played a rated game, and the calibrated levels), best first by the cautious estimate (:func:`ranked`), which
        each line carries as ``ranked``; a bot account's line says ``"bot": true``, and the people's board has none
        (a bot rated there before the bots had a board of their own is left out)."""

        def work(rows: Rows) -> list[tuple[Any, ...]]:
            found = rows(
                f"SELECT subject, mu, sigma, games FROM {POOLS[pool][0]} WHERE variant = ? "
                "ORDER BY mu - 3 * sigma DESC LIMIT ?",
                (variant_name, limit),
            )
            ids = [str(line[0])[2:] for line in found if str(line[0]).startswith("p:")]
            names, accounts = names_in(rows, ids), bots_in(rows, ids)
            return [
                (*line, names.get(str(line[0])[2:]) if str(line[0]).startswith("p:") else None, line[0][2:] in accounts)
                for line in found
            ]

        lines = [
            {
                "subject": subject,
                "name": name if name is not None else subject[4:],
                "games": games,
                "ranked": ranked(mu, sigma),
                **shown(mu, sigma),
            }
            | ({"bot": True} if bot else {})
            for subject, mu, sigma, games, name, bot in self.store.read(work)
            if (name is not None and bot == (pool == BOTS)) or subject.startswith("bot:")  # a player forgotten: none
        ]
        rated = {line["subject"] for line in lines}
        for level, (mu, sigma) in self.calibrated.get(variant_name, {}).items():
            if f"bot:{level}" not in rated:
                line = {"subject": f"bot:{level}", "name": level, "games": 0, "ranked": ranked(mu, sigma)}
                lines.append({**line, **shown(mu, sigma)})
        return sorted(lines, key=lambda line: (line["ranked"], line["rating"]), reverse=True)

    def of_player(self, player_id: str) -> dict[str, Any]:
        """A player's ratings per variant, their rating's history (for the chart) and their finished games."""
        subject = subject_of(player_id)

        def work(rows: Rows) -> dict[str, Any]:
            # A player's ratings are on one board: a bot account's on the bots' (which wins over any it had on the
            # people's before the bots had a board of their own), a person's on the people's.
            pool = BOTS if bots_in(rows, [player_id]) else PEOPLE
            ratings_table, history_table = POOLS[pool]
            ratings = {
                name: {"games": games, **shown(mu, sigma)}
                for name, mu, sigma, games in rows(
                    f"SELECT variant, mu, sigma, games FROM {ratings_table} WHERE subject = ?", (subject,)
                )
            }
            history: dict[str, list[dict[str, Any]]] = {}
            for name, mu, sigma, at in rows(
                f"SELECT variant, mu, sigma, at FROM {history_table} WHERE subject = ? ORDER BY at", (subject,)
            ):
                history.setdefault(name, []).append({"at": at, **shown(mu, sigma)})
            # The player's latest games, and every seat of them, in two queries: the latest few are listed, all
            # of them counted in the statistics.
            latest = rows(
                "SELECT games.id, games.variant, games.rated, games.finished, games.record, mine.seat FROM "
                "racko_games AS games JOIN racko_game_seats AS mine ON mine.game_id = games.id AND mine.subject = ? "
                "ORDER BY games.finished DESC LIMIT ?",
                (subject, STATS_GAMES),
            )
            seats: dict[str, list[dict[str, Any]]] = {}
            found = rows(
                "SELECT seats.game_id, seats.seat, seats.subject, seats.place, seats.total FROM "
                "racko_game_seats AS seats WHERE seats.game_id IN (SELECT games.id FROM racko_games AS games "
                "JOIN racko_game_seats AS mine ON mine.game_id = games.id AND mine.subject = ? "
                "ORDER BY games.finished DESC LIMIT ?) ORDER BY seats.seat",
                (subject, STATS_GAMES),
            )
            ids = sorted({str(who)[2:] for _, _, who, _, _ in found if str(who).startswith("p:")})
            names, accounts = names_in(rows, ids), bots_in(rows, ids)
            for game_id, seat, who, place, total in found:
                player = names.get(str(who)[2:]) if str(who).startswith("p:") else None
                if player is not None and str(who)[2:] in accounts:
                    player += BOT_MARK  # marked as a bot wherever its name is shown
                seats.setdefault(game_id, []).append(
                    {"seat": seat, "subject": who, "name": _name(who, player), "place": place, "total": total}
                )
            return {"ratings": ratings, "history": history, "latest": latest, "seats": seats, "pool": pool}

        found = self.store.read(work)
        games = [
            {
                "game": game_id,
                "variant": name,
                "rated": bool(rated),
                "finished": finished,
                "seats": found["seats"][game_id],
            }
            for game_id, name, rated, finished, _, _ in found["latest"][:HISTORY_SHOWN]
        ]
        stats = Stats()
        for game_id, _, _, _, text, seat in found["latest"]:
            lines = found["seats"][game_id]
            levels = {line["seat"]: line["subject"][4:] for line in lines if line["subject"].startswith("bot:")}
            # Won as the game was placed (the table room's places, as the result line and the ratings have them): a
            # game the player left is never won, whatever their computer player scored.
            won = any(line["seat"] == int(seat) and line["place"] == 1 for line in lines)
            with contextlib.suppress(RackoError):  # a record that does not load is left out of the statistics
                count_game(stats, GameRecord.loads(text), {int(seat)}, levels, won=won)
        stats.skipped.clear()
        return {
            "ratings": found["ratings"],
            "history": found["history"],
            "pool": found["pool"],
            "games": games,
            "stats": stats.to_json(),
        }

    def shown_ratings(self, variant_name: str, subjects: list[str], pool: str = BOTS) -> dict[str, int]:
        """The ratings of these subjects (``p:ID``, ``bot:LEVEL``) on ``pool``'s board as people see them (a
        newcomer's, or a level's calibrated one, for a subject that has none yet): the bot ladder pairs by them."""

        def work(rows: Rows) -> dict[str, int]:
            return {subject: shown(*self._rating(rows, subject, variant_name, pool))["rating"] for subject in subjects}

        return self.store.read(work)

    def record(self, game_id: str) -> str | None:
        found = self.store.read(lambda rows: rows("SELECT record FROM racko_games WHERE id = ?", (game_id,)))
        return str(found[0][0]) if found else None

    def game_seats(self, game_id: str) -> tuple[str, bool, list[str]] | None:
        """A finished game's record, whether it was rated, and who sat in each seat (``p:ID``, ``bot:LEVEL``,
        ``forgotten``, or a guest's ``person:NAME``); None if there is no such game."""

        def work(rows: Rows) -> tuple[str, bool, list[str]] | None:
            found = rows("SELECT record, rated FROM racko_games WHERE id = ?", (game_id,))
            if not found:
                return None
            seated = rows("SELECT subject FROM racko_game_seats WHERE game_id = ? ORDER BY seat", (game_id,))
            return str(found[0][0]), bool(found[0][1]), [str(row[0]) for row in seated]

        return self.store.read(work)

    def rated_names(self, except_player: str | None) -> list[str]:
        """The names of the players who have a rating now, but for ``except_player``'s."""

        def work(rows: Rows) -> list[str]:
            subjects = rows("SELECT DISTINCT subject FROM racko_ratings WHERE subject LIKE 'p:%'")
            ids = [str(subject)[2:] for (subject,) in subjects if str(subject)[2:] != except_player]
            return list(names_in(rows, ids).values())

        return self.store.read(work)


def _name(subject: str, player: str | None) -> str:
    if subject.startswith("bot:"):
        return subject[4:]
    if subject.startswith("person:"):
        return subject[7:]
    if subject == FORGOTTEN_SUBJECT:
        return FORGOTTEN
    return player or FORGOTTEN


def calibrate(rounds: int, seed: int = 0, say: Callable[[str], None] = lambda line: None) -> dict[str, Any]:
    """Computer levels rated against each other: ``rounds`` rounds per variant (2-player classic and Bonus with the
    2-player rule, Partners, 3-player High-Low), different levels drawn at random for the seats, each round ranked by
    its scores (Partners: by side); returns the ratings file's contents."""
    model = PlackettLuce()
    rng = random.Random(seed)
    result: dict[str, dict[str, list[float]]] = {}
    left_out = 0
    for name, players in (("classic", 2), ("bonus", 2), ("partners", 4), ("highlow", 3)):
        levels = list(bots.playing(name))
        ratings = {level: model.rating(name=level) for level in levels}
        rules = VARIANTS[name].rules(players)
        sides = [list(team) for team in rules.teams] if rules.teams is not None else [[seat] for seat in range(players)]
        for number in range(rounds):
            seated = rng.sample(levels, players)
            scores = _play_a_round(Match(rules, seed=rng.randrange(2**32)), seated, rng)
            if scores is None:
                left_out += 1
                continue
            side_scores = [sum(scores[seat] for seat in side) for side in sides]
            ranks = [1.0 + sum(other > score for other in side_scores) for score in side_scores]
            teams = [[ratings[seated[seat]] for seat in side] for side in sides]
            for side, new in zip(sides, model.rate(teams, ranks=ranks), strict=True):
                for seat, rating in zip(side, new, strict=True):
                    ratings[seated[seat]] = rating
            if (number + 1) % 50 == 0:
                say(f"{name}: {number + 1} of {rounds} rounds")
        result[name] = {level: [round(rating.mu, 3), round(rating.sigma, 3)] for level, rating in ratings.items()}
    return {"rounds_per_variant": rounds, "seed": seed, "left_out": left_out, "ratings": result}


CALIBRATION_TURNS = 2000
"""A calibration round longer than this many turns is left out (two random players may never sort a rack)."""


def _play_a_round(match: Match, seated: list[str], rng: random.Random) -> list[int] | None:
    """The first round of a match, played by computer players of these levels; its scores (None: left out, too
    long)."""
    players = [bots.create(level, seed=rng.randrange(2**32)) for level in seated]
    for _ in range(CALIBRATION_TURNS):
        if match.results:
            return list(match.results[0].scores)
        seat = match.to_act
        assert seat is not None
        match.apply(players[seat].act(match.observation(seat)))
    return None
