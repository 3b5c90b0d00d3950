"""The finished games a player has kept: where they are, and what they add up to (``racko stats``).

``racko play`` files every finished game as a record in ``games/`` of the data directory; the statistics are
read from those records, from the seats' point of view of the people who played (their seats have no bot).
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from racko.errors import RackoError
from racko.play.session import seats_from
from racko.record import GameRecord, replay
from racko.rules import variant


def data_dir() -> Path:
    """Where ``racko play`` keeps its games: ``RACKO_DATA_DIR`` if set, else the user's data directory."""
    override = os.environ.get("RACKO_DATA_DIR")
    if override:
        return Path(override)
    import platformdirs  # only the apps need it

    return Path(platformdirs.user_data_dir("racko", appauthor=False))


def finished_games(folder: Path) -> list[Path]:
    """The finished games' records in a data directory, oldest first."""
    return sorted((folder / "games").glob("*.json"), key=lambda path: (path.stat().st_mtime, path.name))


@dataclass
class Tally:
    """Games and rounds played and won by the people at the table, and their best round."""

    games: int = 0
    won: int = 0
    rounds: int = 0
    rounds_won: int = 0
    best_round: int = 0

    def to_json(self) -> dict[str, int]:
        return {
            "games": self.games,
            "won": self.won,
            "rounds": self.rounds,
            "rounds_won": self.rounds_won,
            "best_round": self.best_round,
        }


@dataclass
class Stats:
    """What the finished games add up to, in all, per variant and per opponent (the bots' levels at the table)."""

    total: Tally = field(default_factory=Tally)
    by_variant: dict[str, Tally] = field(default_factory=dict)
    by_opponent: dict[str, Tally] = field(default_factory=dict)
    skipped: dict[str, str] = field(default_factory=dict)
    """Records that were not counted, and why (damaged, or not a game of racko play)."""

    def to_json(self) -> dict[str, Any]:
        return {
            "total": self.total.to_json(),
            "by_variant": {name: tally.to_json() for name, tally in sorted(self.by_variant.items())},
            "by_opponent": {name: tally.to_json() for name, tally in sorted(self.by_opponent.items())},
            "skipped": dict(sorted(self.skipped.items())),
        }


def game_stats(paths: Iterable[Path]) -> Stats:
    """Add up the finished games of these records; a record that cannot be counted is listed with the reason."""
    stats = Stats()
    for path in paths:
        try:
            record = GameRecord.load(path)
            seats = seats_from(record)
        except RackoError as error:
            stats.skipped[str(path)] = str(error)
            continue
        people = {seat for seat, spec in enumerate(seats) if spec.human}
        levels = {seat: spec.bot for seat, spec in enumerate(seats) if spec.bot is not None}
        problem = count_game(stats, record, people, levels)
        if problem:
            stats.skipped[str(path)] = problem
    return stats


def count_game(
    stats: Stats, record: GameRecord, people: set[int], levels: dict[int, str], won: bool | None = None
) -> str | None:
    """Add one finished game, from the point of view of the ``people`` seats (one person's seat, or every person's
    at a table of ``racko play``), against the computer levels at the other seats; why it cannot be counted, if so.
    ``racko stats`` and a player's page on ``racko serve`` count alike.  ``won``: whether the game was won, as the
    server placed it (a seat whose person left never won, whatever its computer player scored; a game ended early
    by agreement is placed by its totals); otherwise the game's own outcome says."""
    try:
        match = replay(record)
    except RackoError as error:
        return str(error)
    outcome = match.outcome
    if (outcome is None and won is None) or not people:
        return "not a finished game with a person at the table"
    named = sorted(set(levels.values()))
    opponent = ", ".join(named) if named else "people only"
    tallies = [
        stats.total,
        stats.by_variant.setdefault(variant(record.rules.variant).title, Tally()),
        stats.by_opponent.setdefault(opponent, Tally()),
    ]
    for tally in tallies:
        tally.games += 1
        tally.won += won if won is not None else outcome is not None and bool(people & set(outcome.seats))
        for result in match.results:
            tally.rounds += 1
            tally.rounds_won += result.winner in people
            tally.best_round = max(tally.best_round, *(result.scores[seat] for seat in people))
    return None


def stats_lines(stats: Stats) -> list[str]:
    """The statistics as a small table: games and rounds won of played, and the best round, per row."""
    if not stats.total.games:
        return ["No finished games yet: statistics come from the games racko play files when they end."]
    rows = [("All games", stats.total)]
    rows += [(name, tally) for name, tally in sorted(stats.by_variant.items())]
    rows += [(f"against {name}", tally) for name, tally in sorted(stats.by_opponent.items())]
    width = max(len(name) for name, _ in rows) + 2
    lines = [f"{'':<{width}}{'games won':>12}{'rounds won':>13}{'best round':>12}"]
    for name, tally in rows:
        games = f"{tally.won}/{tally.games}"
        rounds = f"{tally.rounds_won}/{tally.rounds}"
        lines.append(f"{name:<{width}}{games:>12}{rounds:>13}{tally.best_round:>12}")
    if stats.skipped:
        lines += ["", f"{len(stats.skipped)} record(s) not counted (damaged, or not a finished game of racko play)."]
    return lines
