"""What the tournaments room keeps in the store (its ``tables.sql``): each tournament, its entrants and its games, and
the lease under which one process at a time runs them.  Reading and writing them, within a transaction the caller
holds (:class:`~racko.web.store.Rows`)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from racko.play.tournaments import Game
from racko.web.store import Rows, SchemaPart
from racko.web.tournaments.settings import TournamentSettings

SCHEMA = SchemaPart.of_room("tournaments")

CREATED, STARTED, FINISHED = "created", "started", "finished"
STATUSES = (CREATED, STARTED, FINISHED)
ACTIVE, PAUSED, FORGOTTEN, MEMBER = "active", "paused", "forgotten", "member"
"""An entrant's state: seated when its turn comes; not seated until it comes back; a forgotten player's (never seated
again, its results kept); a Partners player who plays in a team (the team is the entrant that is seated)."""
PERSON, BOT, LEVEL, TEAM = "person", "bot", "level", "team"
TABLE, BYE, SERVER = "table", "bye", "server"
"""A game is played at a table of the server, is a bye, or is a table of racko's levels alone, which the tournament
plays by itself (nobody to watch it or rate it)."""
TOO_FEW = "too-few"
"""A tournament that had too few entrants at its start: finished with no game."""


@dataclass(frozen=True)
class Kept:
    """A tournament as kept."""

    id: str
    settings: TournamentSettings
    made_by: str | None
    created: float
    starts: float
    status: str
    round: int
    """A Swiss: the rounds paired so far.  An arena: unused (0)."""
    next_at: float | None
    """A Swiss: when its next round starts (set once the round before it ended)."""
    ends: float | None
    """An arena: when it ends (set at its start)."""
    finished: float | None
    note: str | None
    seed: int
    version: int
    """Counts every change (a join, a result, a round): a page asks whether anything changed since."""

    @property
    def kind(self) -> str:
        return self.settings.kind

    @property
    def name(self) -> str:
        return self.settings.name


@dataclass(frozen=True)
class Entrant:
    """One who entered: a person, a bot account, one of racko's levels, or (Partners, from the start) a team."""

    entrant: str
    number: int
    """The order of joining (the last tie-break)."""
    name: str
    player_id: str | None
    kind: str
    level: str | None
    state: str
    partner: str | None
    """Partners: the name of the player it asked to play with."""
    team: str | None
    """Partners: its team's entrant; a team: its two members' entrants, comma-separated."""
    busy: int | None
    """The game it sits at now."""
    since: float
    """When it last became free (it joined, or its last game ended): an arena seats the longest waiting first."""

    @property
    def members(self) -> list[str]:
        """A team's two players' entrants (``""``: racko's level that plays with the one left over), else itself."""
        return (self.team or "").split(",") if self.kind == TEAM else [self.entrant]

    @property
    def is_level(self) -> bool:
        """racko's level, or a team of two of them: a table of such alone is played by the server."""
        return self.kind == LEVEL or (self.kind == TEAM and self.level is not None)


@dataclass(frozen=True)
class GameRow:
    """One game of the tournament (or a bye)."""

    number: int
    round: int
    kind: str
    table_id: str | None
    seats: tuple[str | None, ...]
    """The entrant at each seat (a team's member in Partners); ``None``: racko's computer player fills it."""
    sides: tuple[str | None, ...]
    """The entrant of each side (a team in Partners): whom the standings count."""
    started: float
    made: bool
    finished: float | None
    result: dict[str, Any] | None
    """``{"places": [per side], "totals": [per seat]}``, ``{"void": true}`` for an aborted game, ``{"bye": points}``."""

    def scored(self) -> Game:
        """The game as the standings count it."""
        result = self.result or {}
        if self.kind == BYE:
            return Game(self.sides, bye=True)
        places = result.get("places")
        return Game(
            self.sides,
            tuple(int(place) for place in places) if self.finished is not None and isinstance(places, list) else None,
            void=bool(result.get("void")),
        )


TOURNAMENT_COLUMNS = (
    "id, settings, made_by, created, starts, status, round, next_at, ends, finished, note, seed, version"
)
ENTRANT_COLUMNS = "entrant, number, name, player_id, kind, level, state, partner, team, busy, since"
GAME_COLUMNS = "number, round, kind, table_id, seats, sides, started, made, finished, result"


def _kept(row: tuple[Any, ...]) -> Kept:
    identity, settings, made_by, created, starts, status, round_, next_at, ends, finished, note, seed, version = row
    return Kept(
        str(identity),
        TournamentSettings.of(json.loads(settings)),
        None if made_by is None else str(made_by),
        float(created),
        float(starts),
        str(status),
        int(round_),
        None if next_at is None else float(next_at),
        None if ends is None else float(ends),
        None if finished is None else float(finished),
        None if note is None else str(note),
        int(seed),
        int(version),
    )


def read_entrant(row: tuple[Any, ...]) -> Entrant:
    entrant, number, name, player_id, kind, level, state, partner, team, busy, since = row
    return Entrant(
        str(entrant),
        int(number),
        str(name),
        None if player_id is None else str(player_id),
        str(kind),
        None if level is None else str(level),
        str(state),
        None if partner is None else str(partner),
        None if team is None else str(team),
        None if busy is None else int(busy),
        float(since),
    )


def _game(row: tuple[Any, ...]) -> GameRow:
    number, round_, kind, table_id, seats, sides, started, made, finished, result = row
    return GameRow(
        int(number),
        int(round_),
        str(kind),
        None if table_id is None else str(table_id),
        tuple(json.loads(seats)),
        tuple(json.loads(sides)),
        float(started),
        bool(made),
        None if finished is None else float(finished),
        None if result is None else json.loads(result),
    )


def insert(rows: Rows, kept: Kept) -> None:
    rows(
        f"INSERT INTO racko_tournaments (name, kind, {TOURNAMENT_COLUMNS}) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (
            kept.name,
            kept.kind,
            kept.id,
            json.dumps(kept.settings.json()),
            kept.made_by,
            kept.created,
            kept.starts,
            kept.status,
            kept.round,
            kept.next_at,
            kept.ends,
            kept.finished,
            kept.note,
            kept.seed,
            kept.version,
        ),
    )


def tournament(rows: Rows, tournament_id: str) -> Kept | None:
    found = rows(f"SELECT {TOURNAMENT_COLUMNS} FROM racko_tournaments WHERE id = ?", (tournament_id,))
    return _kept(found[0]) if found else None


def version_of(rows: Rows, tournament_id: str) -> int | None:
    found = rows("SELECT version FROM racko_tournaments WHERE id = ?", (tournament_id,))
    return int(found[0][0]) if found else None


def under_way(rows: Rows) -> list[Kept]:
    """The tournaments not finished, the soonest first."""
    return [
        _kept(row)
        for row in rows(
            f"SELECT {TOURNAMENT_COLUMNS} FROM racko_tournaments WHERE status <> ? ORDER BY starts, id", (FINISHED,)
        )
    ]


def listed(rows: Rows, finished_kept: int) -> list[Kept]:
    """The tournaments not finished, and the ``finished_kept`` finished last."""
    finished = rows(
        f"SELECT {TOURNAMENT_COLUMNS} FROM racko_tournaments WHERE status = ? ORDER BY finished DESC, id LIMIT ?",
        (FINISHED, finished_kept),
    )
    return under_way(rows) + [_kept(row) for row in finished]


def entrants(rows: Rows, tournament_id: str) -> list[Entrant]:
    return [
        read_entrant(row)
        for row in rows(
            f"SELECT {ENTRANT_COLUMNS} FROM racko_tournament_entrants WHERE tournament_id = ? ORDER BY number",
            (tournament_id,),
        )
    ]


def entrant_counts(rows: Rows, tournament_ids: list[str]) -> dict[str, int]:
    """How many have entered each of these tournaments (teams left out)."""
    if not tournament_ids:
        return {}
    marks = ", ".join("?" for _ in tournament_ids)
    return {
        str(tournament_id): int(count)
        for tournament_id, count in rows(
            f"SELECT tournament_id, COUNT(*) FROM racko_tournament_entrants WHERE kind <> ? "
            f"AND tournament_id IN ({marks}) GROUP BY tournament_id",
            (TEAM, *tournament_ids),
        )
    }


def games(rows: Rows, tournament_id: str) -> list[GameRow]:
    return [
        _game(row)
        for row in rows(
            f"SELECT {GAME_COLUMNS} FROM racko_tournament_games WHERE tournament_id = ? ORDER BY number",
            (tournament_id,),
        )
    ]


def changed(rows: Rows, tournament_id: str) -> None:
    """Every change of a tournament counts in its version (in the changing transaction)."""
    rows("UPDATE racko_tournaments SET version = version + 1 WHERE id = ?", (tournament_id,))
