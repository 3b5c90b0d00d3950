"""The tournaments room's engine (docs/TOURNAMENTS.md): making tournaments, joining and leaving them, and running
them: one process at a time, the holder of a lease in the store, starts them on time, pairs each Swiss round, seats
an arena's players as they become free, makes the tables, and finishes them; every process passes on the results of
the tables it plays, and tells the bots it serves that a tournament of theirs started or finished.

Every step is a short transaction fenced by what it changes, so that a process that stopped (kill -9) at any point
leaves nothing half done that the next holder would do twice: a Swiss round is paired only if the tournament is
still at the round before it; an arena seats an entrant only if it sits at no table; a result is kept only for a
game without one.  A table is made under the id its game was given when it was paired, so that a holder that stopped
before knowing whether its table was made makes it again, or finds it made."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import math
import random
import secrets
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any, Protocol

from racko import bots
from racko.analysis.words import fill
from racko.match import Match
from racko.play.session import default_opponent
from racko.play.tournaments import (
    ARENA,
    REMATCH_WAIT,
    SWISS,
    Contender,
    Pairing,
    Standing,
    Waiter,
    meetings,
    pair_swiss,
    seat_arena,
    standings,
    totals,
)
from racko.rules import variant
from racko.web.core import Refusal
from racko.web.players import FORGOTTEN, Player, Players
from racko.web.store import Rows, TableStore, new_id
from racko.web.table import FinishedGame
from racko.web.tournaments import kept as kept_rows
from racko.web.tournaments.kept import (
    ACTIVE,
    BOT,
    BYE,
    CREATED,
    FINISHED,
    LEVEL,
    MEMBER,
    PAUSED,
    PERSON,
    SERVER,
    STARTED,
    TABLE,
    TEAM,
    TOO_FEW,
    Entrant,
    GameRow,
    Kept,
)
from racko.web.tournaments.kept import (
    FORGOTTEN as FORGOTTEN_STATE,
)
from racko.web.tournaments.settings import LONGEST_WAIT, TournamentSettings
from racko.web.tournaments.tables import PlacesOf, Seat, TableMaker, TableOrder, result_of
from racko.web.tournaments.words import push_words, words_languages

log = logging.getLogger("racko.serve")

TICK_SECONDS = 1.0
"""The longest the runner waits before it looks again (a start, a round or an end due sooner is waited for to the
moment; a result passed on in this process wakes it at once)."""
LEASE_SECONDS = 5.0
"""The runner's lease: renewed at every look, taken over by another process this long after its holder stopped."""
ROUND_PAUSE = 30.0
"""Seconds between a Swiss round's last game and the next round: time to look at the standings."""
CHECK_SECONDS = 10.0
"""How often the holder looks for tables that ended without their result reaching the tournament (their process
stopped between the game's end and passing it on; a game aborted)."""
MAKE_TRIES = 3
"""A table that could not be made this many times is given up: its game counts for nothing."""
MIN_ENTRANTS = 2
MAX_ENTRANTS = 5000
MADE_AT_ONCE = 3
"""Tournaments not finished one player may have made from the page."""
MADE_PER_DAY = 10
FINISHED_LISTED = 30
LISTING_SECONDS = 2.0
"""The list of tournaments is read again at most this often by one process (each lobby asks for it)."""
SERVER_GAME_ACTIONS = 20_000
"""A game of racko's levels alone ends where it stands after this many actions (two levels that cannot sort a rack
would play for ever)."""
DAY = 86400.0


class Conflict(Exception):
    """A fenced write found the tournament changed meanwhile (another holder did it): nothing was written."""


class Pushes(Protocol):
    def tell(self, player_id: str, message_of: Callable[[str], dict[str, str]]) -> None:
        """Push a message to the player's devices, worded in each device's language."""


class BotTeller(Protocol):
    def tell(self, player_id: str, event: dict[str, Any]) -> None: ...

    def listening(self, player_id: str) -> bool: ...


@dataclass(frozen=True)
class Snapshot:
    """A tournament as the store has it at one moment."""

    kept: Kept
    entrants: list[Entrant]
    games: list[GameRow]

    @property
    def units(self) -> list[Entrant]:
        """Those the standings count: every entrant, or (Partners, once started) every team."""
        return [entrant for entrant in self.entrants if entrant.state != MEMBER]

    def by_id(self) -> dict[str, Entrant]:
        return {entrant.entrant: entrant for entrant in self.entrants}

    def finished_order(self) -> list[GameRow]:
        """The games in the order they finished (an arena's streaks follow it), those not finished last."""
        return sorted(self.games, key=lambda game: (game.finished is None, game.finished or 0.0, game.number))

    def standings(self) -> list[Standing]:
        kind = self.kept.kind
        units = [unit.entrant for unit in self.units]
        return standings(kind, units, [game.scored() for game in self.finished_order()], self.kept.settings.sides)

    def points(self) -> dict[str, float]:
        """Each unit's points alone (no tie-breaks)."""
        units = [unit.entrant for unit in self.units]
        scored = [game.scored() for game in self.finished_order()]
        return totals(self.kept.kind, units, scored, self.kept.settings.sides)


class Tournaments:
    """The tournaments of this server, in this process."""

    def __init__(
        self,
        store: TableStore,
        players: Players,
        tables: TableMaker,
        places_of: PlacesOf,
        *,
        now: Callable[[], float] = time.time,
        pushes: Pushes | None = None,
        bot_events: BotTeller | None = None,
        tick: float = TICK_SECONDS,
        round_pause: float = ROUND_PAUSE,
        lease: float = LEASE_SECONDS,
    ) -> None:
        self.store = store
        self.players = players
        self.tables = tables
        self.places_of = places_of
        self.now = now
        self.pushes = pushes
        self.bot_events = bot_events
        self.tick_seconds = tick
        self.round_pause = round_pause
        self.lease_seconds = lease
        self.holder = f"{store.node or 'racko'}-{secrets.token_hex(4)}"
        self.holding = False
        self._woken: asyncio.Event | None = None
        self._failures: dict[str, int] = {}
        """Per table, the times its making failed."""
        self._checked = -CHECK_SECONDS
        self._statuses: dict[str, str] | None = None
        """What this process last saw of each tournament's status (bots are told of the changes)."""
        self._views: dict[str, tuple[int, dict[str, Any]]] = {}
        """Each tournament's page as last built here, by its version."""
        self._listed: tuple[float, tuple[list[Kept], dict[str, int]]] | None = None
        self._quiet: dict[str, tuple[int, float]] = {}
        """Per tournament looked at and left as it was: its version then, and until when nothing is due."""
        self._recheck: dict[str, float] = {}
        """Per arena: when players waiting for somebody new may meet their last opponents (looked at again then)."""
        self.after_look: list[Callable[[], Awaitable[None]]] = []
        """Called after every look (tests wait on it)."""

    # --- making, joining, leaving ------------------------------------------------------------------------------

    async def create(self, settings: TournamentSettings, starts_in: float, made_by: Player | None) -> Kept:
        """A new tournament (:func:`make_tournament`), looked at once it is kept."""
        kept = await asyncio.to_thread(make_tournament, self.store, settings, starts_in, made_by, self.now())
        self.wake()
        return kept

    async def join(self, tournament_id: str, player: Player, *, bot: bool, partner: str | None = None) -> str:
        """The player enters (or comes back after a pause); their entrant's state."""
        kept = await self._kept(tournament_id)
        settings = kept.settings
        if settings.entry == "people" and bot:
            raise Refusal("people-only", "This tournament is for people: bots may not enter.")
        if settings.entry == "bots" and not bot:
            raise Refusal("bots-only", "This tournament is for bots: people watch it.")
        if settings.finishers and not bot:
            finishing = await asyncio.to_thread(self.players.finishing, player.id)
            if not finishing.finisher:
                share = round(100 * (finishing.share or 0))
                raise Refusal(
                    "not-a-finisher",
                    f"This tournament is for players who finish 80% of their games; you finished {share}%.",
                )
        wish = partner.strip()[:40] if isinstance(partner, str) and partner.strip() else None
        now = self.now()

        def work(rows: Rows) -> str:
            current = kept_rows.tournament(rows, tournament_id)
            if current is None:
                raise Refusal("no-tournament", "There is no such tournament.")
            _joinable(current, now)
            mine = _entrant_of(rows, tournament_id, player.id)
            if mine is not None:
                unit = _unit_of(rows, tournament_id, mine)
                if unit.state == PAUSED:
                    rows(
                        "UPDATE racko_tournament_entrants SET state = ?, since = ? WHERE tournament_id = ? "
                        "AND entrant = ?",
                        (ACTIVE, now, tournament_id, unit.entrant),
                    )
                    kept_rows.changed(rows, tournament_id)
                elif wish != mine.partner and current.status == CREATED:
                    rows(
                        "UPDATE racko_tournament_entrants SET partner = ? WHERE tournament_id = ? AND entrant = ?",
                        (wish, tournament_id, mine.entrant),
                    )
                    kept_rows.changed(rows, tournament_id)
                return ACTIVE
            if current.settings.partners and current.status != CREATED:
                raise Refusal("too-late", "Partners' teams were made at the start: join the next one.")
            count, top = rows(
                "SELECT COUNT(*), MAX(number) FROM racko_tournament_entrants WHERE tournament_id = ?", (tournament_id,)
            )[0]
            if int(count) >= MAX_ENTRANTS:
                raise Refusal("full", f"This tournament has {MAX_ENTRANTS} players already.")
            number = int(top or 0) + 1
            _insert_entrant(
                rows, tournament_id, number, player.name, player.id, BOT if bot else PERSON, None, wish, now
            )
            return ACTIVE

        state = await asyncio.to_thread(self.store.run, work)
        self.wake()
        return state

    async def withdraw(self, tournament_id: str, player_id: str) -> str:
        """The player leaves: before the start, out of the tournament; after it, a pause (their results stay, and
        they may come back); the state it leaves them in (``out`` or ``paused``)."""
        return await self._leave(tournament_id, player_id, pause_only=False)

    async def pause(self, tournament_id: str, player_id: str) -> str:
        """The player is seated no more until they come back (join again); their results stay."""
        return await self._leave(tournament_id, player_id, pause_only=True)

    async def _leave(self, tournament_id: str, player_id: str, *, pause_only: bool) -> str:
        def work(rows: Rows) -> str:
            current = kept_rows.tournament(rows, tournament_id)
            if current is None:
                raise Refusal("no-tournament", "There is no such tournament.")
            if current.status == FINISHED:
                raise Refusal("over", "This tournament is over.")
            mine = _entrant_of(rows, tournament_id, player_id)
            if mine is None:
                raise Refusal("not-in", "You are not in this tournament.")
            if current.status == CREATED:
                if pause_only:
                    raise Refusal("not-started", "The tournament has not started: withdraw instead.")
                rows(
                    "DELETE FROM racko_tournament_entrants WHERE tournament_id = ? AND entrant = ?",
                    (tournament_id, mine.entrant),
                )
                kept_rows.changed(rows, tournament_id)
                return "out"
            unit = _unit_of(rows, tournament_id, mine)
            rows(
                "UPDATE racko_tournament_entrants SET state = ? WHERE tournament_id = ? AND entrant = ? AND state = ?",
                (PAUSED, tournament_id, unit.entrant, ACTIVE),
            )
            kept_rows.changed(rows, tournament_id)
            return PAUSED

        state = await asyncio.to_thread(self.store.run, work)
        self.wake()
        return state

    async def _kept(self, tournament_id: str) -> Kept:
        found = await asyncio.to_thread(self.store.read, lambda rows: kept_rows.tournament(rows, tournament_id))
        if found is None:
            raise Refusal("no-tournament", "There is no such tournament.")
        return found

    async def snapshot(self, tournament_id: str) -> Snapshot | None:
        def work(rows: Rows) -> Snapshot | None:
            found = kept_rows.tournament(rows, tournament_id)
            if found is None:
                return None
            return Snapshot(found, kept_rows.entrants(rows, tournament_id), kept_rows.games(rows, tournament_id))

        return await asyncio.to_thread(self.store.read, work)

    async def view(self, tournament_id: str, build: Callable[[Snapshot], dict[str, Any]]) -> dict[str, Any] | None:
        """The tournament's page as ``build`` makes it from a snapshot, built again only when it changed."""
        version = await asyncio.to_thread(self.store.read, lambda rows: kept_rows.version_of(rows, tournament_id))
        if version is None:
            return None
        cached = self._views.get(tournament_id)
        if cached is not None and cached[0] == version:
            return cached[1]
        snapshot = await self.snapshot(tournament_id)
        if snapshot is None:
            return None
        built = await asyncio.to_thread(build, snapshot)  # a big tournament's standings: off the event loop
        if len(self._views) > 200:
            self._views.clear()
        self._views[tournament_id] = (snapshot.kept.version, built)
        return built

    async def listing(self) -> tuple[list[Kept], dict[str, int]]:
        """The tournaments not finished and the last finished, with how many entered each: read at most once in
        :data:`LISTING_SECONDS` (every lobby asks for it), and again after a change made here."""

        def work(rows: Rows) -> tuple[list[Kept], dict[str, int]]:
            found = kept_rows.listed(rows, FINISHED_LISTED)
            return found, kept_rows.entrant_counts(rows, [kept.id for kept in found])

        if self._listed is None or time.monotonic() - self._listed[0] > LISTING_SECONDS:
            self._listed = (time.monotonic(), await asyncio.to_thread(self.store.read, work))
        return self._listed[1]

    # --- results -------------------------------------------------------------------------------------------------

    async def table_over(self, game: FinishedGame) -> None:
        """A table's game ended in this process (the table room's news): if it is a tournament's game, its result is
        kept as the table room placed it (the first game at the table only: a game played again there is the
        players' own)."""
        if game.setup.game == 1:
            await self.table_result(game.table_id, lambda: result_of(game.standing, game.setup.rules))

    async def table_result(self, table_id: str, result: Callable[[], dict[str, Any]]) -> bool:
        """Keep the result of a tournament's table (``result()`` reads it, only if the table is a tournament's);
        whether it was kept now."""
        found = await asyncio.to_thread(
            self.store.read,
            lambda rows: rows(
                "SELECT tournament_id, number FROM racko_tournament_games WHERE table_id = ?", (table_id,)
            ),
        )
        if not found:
            return False
        return await self.keep_result(str(found[0][0]), int(found[0][1]), result())

    async def keep_result(self, tournament_id: str, number: int, result: dict[str, Any]) -> bool:
        """Keep a game's result (once: a second is ignored); whether it was kept now."""
        now = self.now()

        def work(rows: Rows) -> bool:
            done = rows(
                "UPDATE racko_tournament_games SET finished = ?, result = ? WHERE tournament_id = ? AND number = ? "
                "AND finished IS NULL RETURNING number",
                (now, json.dumps(result), tournament_id, number),
            )
            if not done:
                return False
            rows(
                "UPDATE racko_tournament_entrants SET busy = NULL, since = ? WHERE tournament_id = ? AND busy = ?",
                (now, tournament_id, number),
            )
            kept_rows.changed(rows, tournament_id)
            return True

        kept = await asyncio.to_thread(self.store.run, work)
        if kept:
            self.wake()
        return kept

    # --- running -------------------------------------------------------------------------------------------------

    def wake(self) -> None:
        """Look again at once (a result came, a player joined); the list is read again when next asked for."""
        self._listed = None
        if self._woken is not None:
            self._woken.set()

    async def run(self) -> None:
        """For the server's life: look, then wait until the next thing is due (a second at most)."""
        self._woken = asyncio.Event()
        while True:
            try:
                wait = await self.look()
            except Exception as error:  # the database away a moment: the next look tries again
                log.warning("the tournaments could not be run: %s", error)
                wait = self.tick_seconds
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._woken.wait(), max(0.0, wait))
            self._woken.clear()

    async def look(self) -> float:
        """One look: if this process holds the lease, every tournament moved on as far as it can now; then the bots
        served here told of the starts and ends (this process's, and the others').  Seconds until the next thing is
        due."""
        now = self.now()
        holding = await asyncio.to_thread(self.store.run, lambda rows: self._hold(rows, now))
        if holding != self.holding:
            log.info("the tournaments are %s by this process (%s)", "run" if holding else "no longer run", self.holder)
        self.holding = holding
        wait = self.tick_seconds
        if self.holding:
            under_way = await asyncio.to_thread(self.store.read, kept_rows.under_way)
            if time.monotonic() - self._checked >= CHECK_SECONDS:
                self._checked = time.monotonic()
                await self._check_tables(under_way)
            for kept in under_way:
                try:
                    due = await self._advance(kept.id)
                except Conflict:
                    continue  # another holder moved it meanwhile: looked at again next time
                if due is not None:
                    wait = min(wait, due - self.now())
        await self._tell_bots(self.now())
        for hook in self.after_look:
            await hook()
        return wait

    def _hold(self, rows: Rows, now: float) -> bool:
        held = rows(
            "INSERT INTO racko_tournament_lease (name, holder, until) VALUES ('runner', ?, ?) "
            "ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, until = excluded.until "
            "WHERE racko_tournament_lease.until < ? OR racko_tournament_lease.holder = ? RETURNING holder",
            (self.holder, now + self.lease_seconds, now, self.holder),
        )
        return bool(held)

    async def _advance(self, tournament_id: str) -> float | None:
        """Move one tournament on as far as it can now; when it is next due (None: when a game ends).  A tournament
        that nothing changed since its last look (its version the same), and that has nothing due yet, is not read
        again: a big one's look costs one small query a second while its games are played."""
        quiet = self._quiet.get(tournament_id)
        if quiet is not None and self.now() < quiet[1]:
            version = await asyncio.to_thread(self.store.read, lambda rows: kept_rows.version_of(rows, tournament_id))
            if version == quiet[0]:
                return None if quiet[1] == math.inf else quiet[1]
        self._quiet.pop(tournament_id, None)
        snapshot = await self.snapshot(tournament_id)
        if snapshot is None:
            return None
        kept = snapshot.kept
        now = self.now()
        if kept.status == CREATED:
            if now < kept.starts:
                self._quiet[tournament_id] = (kept.version, kept.starts)
                return kept.starts
            await asyncio.to_thread(self.store.run, lambda rows: self._start(rows, tournament_id, now))
            snapshot = await self.snapshot(tournament_id)
            if snapshot is None or snapshot.kept.status != STARTED:
                return None
            kept = snapshot.kept
            if self._statuses is not None:  # its bots hear of the start before they hear of their first table
                self._statuses[kept.id] = STARTED
                self._tell_bots_of(snapshot)
        await self._make_tables(snapshot)
        if kept.kind == SWISS:
            due = await self._swiss(snapshot, now)
        else:
            due = await self._arena(snapshot, now)
        recheck = self._recheck.pop(tournament_id, math.inf)
        after = await asyncio.to_thread(self.store.read, lambda rows: kept_rows.version_of(rows, tournament_id))
        if after == kept.version:  # nothing written by this look: the next reads only the version until it changes
            self._quiet[tournament_id] = (kept.version, min(recheck, math.inf if due is None else due))
        return due

    def _look_again(self, tournament_id: str, at: float) -> None:
        """Look at the tournament again by ``at`` though nothing changes in the store meanwhile."""
        self._recheck[tournament_id] = min(self._recheck.get(tournament_id, math.inf), at)

    def _start(self, rows: Rows, tournament_id: str, now: float) -> None:
        """Start a tournament whose time has come (fenced: only one that has not started): Partners' players made
        teams, an arena's end set; one with too few entrants finished at once, saying so."""
        current = kept_rows.tournament(rows, tournament_id)
        if current is None or current.status != CREATED:
            return
        entrants = [entrant for entrant in kept_rows.entrants(rows, tournament_id) if entrant.state == ACTIVE]
        settings = current.settings
        if settings.partners:
            teams = _teams(entrants, settings, current.seed)
            top = max((entrant.number for entrant in entrants), default=0)
            for offset, (first, second) in enumerate(teams, start=1):
                team = f"t{offset}"
                levels = LEVEL if first.kind == LEVEL and second.kind == LEVEL else None
                rows(
                    "INSERT INTO racko_tournament_entrants (tournament_id, entrant, number, name, player_id, kind, "
                    "level, state, partner, team, busy, since) VALUES (?, ?, ?, ?, NULL, ?, ?, ?, NULL, ?, NULL, ?)",
                    (tournament_id, team, top + offset, f"{first.name} & {second.name}", TEAM, levels, ACTIVE,
                     f"{first.entrant},{second.entrant}", now),
                )  # fmt: skip
                for member in (first, second):
                    if not member.entrant:
                        continue  # racko's level entered for the one left over: nobody's row
                    rows(
                        "UPDATE racko_tournament_entrants SET state = ?, team = ? WHERE tournament_id = ? "
                        "AND entrant = ?",
                        (MEMBER, team, tournament_id, member.entrant),
                    )
            units = len(teams)
        else:
            units = len(entrants)
        if units < MIN_ENTRANTS:
            rows(
                "UPDATE racko_tournaments SET status = ?, finished = ?, note = ? WHERE id = ?",
                (FINISHED, now, TOO_FEW, tournament_id),
            )
            log.info("tournament %s had too few players at its start (%d): finished", tournament_id, units)
        else:
            ends = current.starts + 60 * settings.minutes if settings.kind == ARENA and settings.minutes else None
            rows("UPDATE racko_tournaments SET status = ?, ends = ? WHERE id = ?", (STARTED, ends, tournament_id))
            log.info("tournament %s started: %d players", tournament_id, units)
        kept_rows.changed(rows, tournament_id)

    async def _swiss(self, snapshot: Snapshot, now: float) -> float | None:
        kept = snapshot.kept
        rounds = kept.settings.rounds or 0
        if any(game.finished is None for game in snapshot.games if game.round == kept.round):
            return None
        if kept.round >= rounds:
            await asyncio.to_thread(self.store.run, lambda rows: self._finish(rows, kept))
            return None
        if kept.round > 0:
            at = kept.next_at
            if at is None:  # the round just ended: the next one starts after a pause (to the moment)
                at = now + self.round_pause
                await asyncio.to_thread(self.store.run, lambda rows: _next_round_at(rows, kept, at))
            if now < at:
                return at
        pairing = await asyncio.to_thread(_next_round, snapshot)  # the standings and the pairing: off the event loop
        await asyncio.to_thread(self.store.run, lambda rows: self._pair(rows, snapshot, pairing, now))
        log.info(
            "tournament %s: round %d paired, %d tables and %d byes",
            kept.id,
            kept.round + 1,
            len(pairing.tables),
            len(pairing.byes),
        )
        fresh = await self.snapshot(kept.id)
        if fresh is not None:
            await self._make_tables(fresh)
        return None

    def _pair(self, rows: Rows, snapshot: Snapshot, pairing: Pairing, now: float) -> None:
        """Keep a Swiss round (fenced: only if the tournament is still at the round before it)."""
        kept = snapshot.kept
        moved = rows(
            "UPDATE racko_tournaments SET round = ?, next_at = NULL, version = version + 1 WHERE id = ? AND round = ? "
            "AND status = ? RETURNING id",
            (kept.round + 1, kept.id, kept.round, STARTED),
        )
        if not moved:
            raise Conflict(kept.id)
        number = _next_number(rows, kept.id)
        units = snapshot.by_id()
        for sides in pairing.tables:
            self._seat(rows, kept, units, number, kept.round + 1, sides, now)
            number += 1
        for entrant in pairing.byes:
            rows(
                "INSERT INTO racko_tournament_games (tournament_id, number, round, kind, table_id, seats, sides, "
                "started, made, finished, result) VALUES (?, ?, ?, ?, NULL, ?, ?, ?, 1, ?, ?)",
                (kept.id, number, kept.round + 1, BYE, json.dumps([entrant]), json.dumps([entrant]), now, now,
                 json.dumps({"bye": True})),
            )  # fmt: skip
            number += 1

    def _seat(
        self,
        rows: Rows,
        kept: Kept,
        units: dict[str, Entrant],
        number: int,
        round_: int,
        sides: Sequence[str | None],
        now: float,
    ) -> None:
        """One game's row, its units marked as seated at it (an arena's fenced: each only if it sits nowhere)."""
        seats = _seats_of(kept.settings, units, sides)
        people = any(
            entrant is not None and units[entrant].kind in (PERSON, BOT) and units[entrant].player_id is not None
            for entrant in seats
        )
        kind = TABLE if people else SERVER
        table_id = new_id() if kind == TABLE else None
        for unit in sides:
            if unit is None:
                continue
            taken = rows(
                "UPDATE racko_tournament_entrants SET busy = ? WHERE tournament_id = ? AND entrant = ? "
                "AND busy IS NULL RETURNING entrant",
                (number, kept.id, unit),
            )
            if not taken and kept.kind == ARENA:
                raise Conflict(kept.id)
        rows(
            "INSERT INTO racko_tournament_games (tournament_id, number, round, kind, table_id, seats, sides, started, "
            "made, finished, result) VALUES (?, ?, ?, ?, ?, ?, ?, ?, 0, NULL, NULL)",
            (kept.id, number, round_, kind, table_id, json.dumps(seats), json.dumps(list(sides)), now),
        )

    async def _arena(self, snapshot: Snapshot, now: float) -> float | None:
        kept = snapshot.kept
        ends = kept.ends or now
        if now >= ends:
            if all(game.finished is not None for game in snapshot.games):
                await asyncio.to_thread(self.store.run, lambda rows: self._finish(rows, kept))
            return None
        waiting, tables = await asyncio.to_thread(_next_tables, snapshot, now)  # off the event loop
        if not tables:  # those who wait for somebody new rather than meet their last opponents are looked at again
            here = {waiter.id for waiter in waiting}
            self._recheck[kept.id] = min(
                (
                    waiter.since + REMATCH_WAIT
                    for waiter in waiting
                    if waiter.last & here and waiter.since + REMATCH_WAIT > now
                ),
                default=math.inf,
            )
        if tables:
            await asyncio.to_thread(self.store.run, lambda rows: self._seat_arena(rows, snapshot, tables, now))
            fresh = await self.snapshot(kept.id)
            if fresh is not None:
                await self._make_tables(fresh)
        return ends

    def _seat_arena(self, rows: Rows, snapshot: Snapshot, tables: list[tuple[str, ...]], now: float) -> None:
        kept = snapshot.kept
        number = _next_number(rows, kept.id)
        units = snapshot.by_id()
        for sides in tables:
            self._seat(rows, kept, units, number, 0, sides, now)
            number += 1
        kept_rows.changed(rows, kept.id)

    def _finish(self, rows: Rows, kept: Kept) -> None:
        done = rows(
            "UPDATE racko_tournaments SET status = ?, finished = ?, version = version + 1 WHERE id = ? AND status = ? "
            "RETURNING id",
            (FINISHED, self.now(), kept.id, STARTED),
        )
        if done:
            log.info("tournament %s finished", kept.id)

    async def _make_tables(self, snapshot: Snapshot) -> None:
        """Make the tables of the games paired but not made yet (a holder that stopped left them), and play the
        games of racko's levels alone."""
        kept = snapshot.kept
        entrants = snapshot.by_id()
        for game in snapshot.games:
            if game.kind == SERVER and game.finished is None:
                result = await asyncio.to_thread(self._server_game, kept, entrants, game)
                await self.keep_result(kept.id, game.number, result)
            if game.kind != TABLE or game.made or game.table_id is None:
                continue
            order = TableOrder(
                game.table_id,
                kept.settings.variant,
                tuple(_seat_for(kept.settings, entrants, entrant) for entrant in game.seats),
                kept.settings.clock,
                kept.settings.rated,
                kept.settings.rule_options(),
            )
            try:
                await self.tables.make(order)
            except Exception as error:
                tries = self._failures[game.table_id] = self._failures.get(game.table_id, 0) + 1
                log.warning("tournament %s: table %s not made (%d): %s", kept.id, game.table_id, tries, error)
                if tries >= MAKE_TRIES:
                    await self.keep_result(kept.id, game.number, {"void": True, "why": "not-made"})
                else:
                    self._look_again(kept.id, self.now() + self.tick_seconds)
                continue
            await asyncio.to_thread(self.store.run, lambda rows, number=game.number: _made(rows, kept.id, number))
            self._notify(kept, order, game.round)

    def _server_game(self, kept: Kept, entrants: dict[str, Entrant], game: GameRow) -> dict[str, Any]:
        """A game of racko's levels alone, played here to its end (blocking: a worker thread's)."""
        settings = kept.settings
        rules = variant(settings.variant).rules(settings.seats, **settings.rule_options())
        rng = random.Random(kept.seed * 1000 + game.number)
        match = Match(rules, seed=rng.randrange(2**32))
        levels = [_seat_for(settings, entrants, entrant).level or "medium" for entrant in game.seats]
        players = [bots.create(level, seed=rng.randrange(2**32)) for level in levels]
        for _ in range(SERVER_GAME_ACTIONS):
            seat = match.to_act
            if match.over or seat is None:
                break
            match.apply(players[seat].act(match.observation(seat)))
        places = self.places_of(match, [False] * settings.seats)
        teams = rules.teams
        sides = [list(team) for team in teams] if teams is not None else [[seat] for seat in range(settings.seats)]
        return {"places": [places[side[0]] for side in sides], "totals": list(match.seat_totals), "server": True}

    def _notify(self, kept: Kept, order: TableOrder, round_: int) -> None:
        """ "Your round starts" (a Swiss) or "your game is ready" (an arena), pushed to each person at the table."""
        if self.pushes is None:
            return
        what = "round" if kept.kind == SWISS else "game"
        for seat in order.seats:
            if seat.player_id is None or seat.bot_account or seat.level is not None:
                continue
            others = [other.name for other in order.seats if other is not seat]
            self.pushes.tell(seat.player_id, _push_message(what, kept.name, round_, order.table_id, others))

    async def _check_tables(self, under_way: list[Kept]) -> None:
        """The results that did not reach the tournament: tables no longer open whose game has none (read from the
        table itself: its process stopped before it passed the game's end on, or the game was aborted)."""
        waiting: list[tuple[str, GameRow]] = []
        for kept in under_way:
            snapshot = await self.snapshot(kept.id) if kept.status == STARTED else None
            for game in snapshot.games if snapshot is not None else []:
                if game.kind == TABLE and game.made and game.finished is None and game.table_id is not None:
                    waiting.append((kept.id, game))
        if not waiting:
            return
        still = await asyncio.to_thread(self.tables.open_tables)
        for tournament_id, game in waiting:
            if game.table_id in still:
                continue
            assert game.table_id is not None
            result = await self.tables.outcome(game.table_id)
            if result is not None and await self.keep_result(tournament_id, game.number, result):
                log.info("tournament %s: the result of table %s was read from the table", tournament_id, game.table_id)

    # --- bots ----------------------------------------------------------------------------------------------------

    async def _tell_bots(self, now: float) -> None:
        """Tell the bot accounts whose event stream is open here that a tournament of theirs started or finished
        (whichever process started it)."""
        if self.bot_events is None:
            return
        statuses = await asyncio.to_thread(
            self.store.read,
            lambda rows: {
                str(identity): str(status)
                for identity, status in rows(
                    "SELECT id, status FROM racko_tournaments WHERE status <> ? OR finished > ?",
                    (FINISHED, now - 3600),
                )
            },
        )
        seen, self._statuses = self._statuses, statuses
        if seen is None:
            return  # this process's first look: streams opened from now on are told on opening
        for tournament_id, status in statuses.items():
            if seen.get(tournament_id, CREATED) == status or status == CREATED:
                continue
            snapshot = await self.snapshot(tournament_id)
            if snapshot is not None:
                self._tell_bots_of(snapshot)

    def _tell_bots_of(self, snapshot: Snapshot, only: str | None = None) -> None:
        events = self.bot_events
        if events is None:
            return
        kept = snapshot.kept
        places = {line.entrant: index + 1 for index, line in enumerate(snapshot.standings())}
        for entrant in snapshot.entrants:
            player = entrant.player_id
            if entrant.kind != BOT or player is None or (only is not None and player != only):
                continue
            if not events.listening(player):
                continue
            if kept.status == STARTED:
                event = {"type": "tournamentStart", "tournament": kept.id} | _event_settings(kept)
            else:
                unit = entrant.team if entrant.state == MEMBER and entrant.team else entrant.entrant
                event = {"type": "tournamentFinish", "tournament": kept.id, "place": places.get(unit)}
            events.tell(player, event)

    async def bot_opened(self, bot: Player, tell: Callable[[dict[str, Any]], None]) -> None:
        """A bot's event stream opened: a ``tournamentStart`` for each tournament under way it is in."""

        def work(rows: Rows) -> list[tuple[Any, ...]]:
            return rows(
                "SELECT t.id FROM racko_tournaments t JOIN racko_tournament_entrants e ON e.tournament_id = t.id "
                "WHERE e.player_id = ? AND t.status = ? ORDER BY t.starts",
                (bot.id, STARTED),
            )

        for (tournament_id,) in await asyncio.to_thread(self.store.read, work):
            kept = await self._kept(str(tournament_id))
            tell({"type": "tournamentStart", "tournament": kept.id} | _event_settings(kept))


def make_tournament(
    store: TableStore, settings: TournamentSettings, starts_in: float, made_by: Player | None, now: float
) -> Kept:
    """A new tournament, starting in ``starts_in`` seconds; racko's levels it names enter it at once.  A player
    (``made_by``) makes at most :data:`MADE_AT_ONCE` not finished and :data:`MADE_PER_DAY` a day; an operator
    (``racko admin tournament add``, ``None``) any number.  Blocking."""
    if not 0 <= starts_in <= LONGEST_WAIT:
        raise Refusal("bad-settings", "A tournament starts within 30 days.")
    kept = Kept(
        id=new_id(6),
        settings=settings.check(),
        made_by=None if made_by is None else made_by.id,
        created=now,
        starts=now + starts_in,
        status=CREATED,
        round=0,
        next_at=None,
        ends=None,
        finished=None,
        note=None,
        seed=secrets.randbits(31),
        version=1,
    )

    def work(rows: Rows) -> None:
        if made_by is not None:
            open_ones = rows(
                "SELECT COUNT(*) FROM racko_tournaments WHERE made_by = ? AND status <> ?", (made_by.id, FINISHED)
            )
            today = rows(
                "SELECT COUNT(*) FROM racko_tournaments WHERE made_by = ? AND created > ?", (made_by.id, now - DAY)
            )
            if int(open_ones[0][0]) >= MADE_AT_ONCE:
                raise Refusal("too-many", f"You have {MADE_AT_ONCE} tournaments that have not finished: wait for one.")
            if int(today[0][0]) >= MADE_PER_DAY:
                raise Refusal("too-many", f"You made {MADE_PER_DAY} tournaments today: that is the most.")
        kept_rows.insert(rows, kept)
        named: dict[str, int] = {}
        for number, level in enumerate(settings.levels, start=1):
            named[level] = named.get(level, 0) + 1
            name = level if named[level] == 1 else f"{level} {named[level]}"
            _insert_entrant(rows, kept.id, number, name, None, LEVEL, level, None, now)

    store.run(work)
    log.info("tournament %s made: %s, %s", kept.id, settings.kind, settings.name)
    return kept


def _next_round(snapshot: Snapshot) -> Pairing:
    """A Swiss's next round: its players still in, in the order of the standings, paired (blocking)."""
    kept = snapshot.kept
    standing = snapshot.standings()
    units = snapshot.by_id()
    contenders = [
        Contender(line.entrant, line.points, line.byes, units[line.entrant].is_level)
        for line in standing
        if units[line.entrant].state == ACTIVE
    ]
    met = meetings(game.sides for game in snapshot.games if game.kind != BYE)
    return pair_swiss(contenders, kept.settings.sides, met, kept.seed * 100 + kept.round)


def _next_tables(snapshot: Snapshot, now: float) -> tuple[list[Waiter], list[tuple[str, ...]]]:
    """An arena's players waiting now (their points and last opponents), and the tables to seat them at (blocking)."""
    kept = snapshot.kept
    points = snapshot.points()
    last: dict[str, frozenset[str]] = {}
    for game in snapshot.finished_order():
        if game.finished is None:
            continue
        for side in game.sides:
            if side is not None:
                last[side] = frozenset(other for other in game.sides if other is not None and other != side)
    waiting = [
        Waiter(unit.entrant, points[unit.entrant], unit.since, last.get(unit.entrant, frozenset()), unit.is_level)
        for unit in snapshot.units
        if unit.state == ACTIVE and unit.busy is None
    ]
    return waiting, seat_arena(waiting, kept.settings.sides, now, kept.seed + len(snapshot.games))


def start_now(store: TableStore, tournament_id: str, now: float) -> Kept:
    """A tournament not started yet starts now (its runner starts it at its next look, within a second): the
    operator's ``racko admin tournament start``.  A :class:`Refusal` if there is no such tournament or it has
    started.  Blocking."""

    def work(rows: Rows) -> Kept:
        moved = rows(
            "UPDATE racko_tournaments SET starts = ?, version = version + 1 WHERE id = ? AND status = ? RETURNING id",
            (now, tournament_id, CREATED),
        )
        found = kept_rows.tournament(rows, tournament_id)
        if found is None:
            raise Refusal("no-tournament", "There is no such tournament.")
        if not moved:
            raise Refusal("started", f"The tournament {tournament_id} has started already.")
        return found

    return store.run(work)


def _event_settings(kept: Kept) -> dict[str, Any]:
    """What a bot's ``tournamentStart`` says of the tournament."""
    settings = kept.settings.json()
    return {key: settings[key] for key in ("name", "kind", "variant", "seats", "clock", "rated")}


def _push_message(
    what: str, name: str, round_: int, table_id: str, others: list[str]
) -> Callable[[str], dict[str, str]]:
    """ "Your round starts" or "your game is ready", in a device's language, opening the table."""

    def message(lang: str) -> dict[str, str]:
        words = push_words(lang)
        values = {"name": name, "round": round_, "names": ", ".join(others)}
        body = fill(words[f"tn_push_{what}_body"], values, lang if lang in words_languages() else "en")
        return {
            "title": words[f"tn_push_{what}_title"],
            "body": body,
            "url": f"/t/{table_id}",
            "tag": f"turn-{table_id}",
        }

    return message


def _joinable(kept: Kept, now: float) -> None:
    if kept.status == FINISHED:
        raise Refusal("over", "This tournament is over.")
    settings = kept.settings
    if settings.kind == SWISS and kept.status == STARTED and kept.round >= (settings.rounds or 0):
        raise Refusal("too-late", "The last round has begun: join the next tournament.")
    if settings.kind == ARENA and kept.ends is not None and now >= kept.ends:
        raise Refusal("over", "This arena is over.")


def _insert_entrant(
    rows: Rows,
    tournament_id: str,
    number: int,
    name: str,
    player_id: str | None,
    kind: str,
    level: str | None,
    partner: str | None,
    now: float,
) -> None:
    rows(
        "INSERT INTO racko_tournament_entrants (tournament_id, entrant, number, name, player_id, kind, level, state, "
        "partner, team, busy, since) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, NULL, ?)",
        (tournament_id, f"e{number}", number, name, player_id, kind, level, ACTIVE, partner, now),
    )
    kept_rows.changed(rows, tournament_id)


def _entrant_of(rows: Rows, tournament_id: str, player_id: str) -> Entrant | None:
    found = rows(
        f"SELECT {kept_rows.ENTRANT_COLUMNS} FROM racko_tournament_entrants WHERE tournament_id = ? AND player_id = ?",
        (tournament_id, player_id),
    )
    return kept_rows.read_entrant(found[0]) if found else None


def _unit_of(rows: Rows, tournament_id: str, entrant: Entrant) -> Entrant:
    """The entrant the standings count for this one: itself, or its team."""
    if entrant.state != MEMBER or entrant.team is None:
        return entrant
    found = rows(
        f"SELECT {kept_rows.ENTRANT_COLUMNS} FROM racko_tournament_entrants WHERE tournament_id = ? AND entrant = ?",
        (tournament_id, entrant.team),
    )
    return kept_rows.read_entrant(found[0]) if found else entrant


def _next_number(rows: Rows, tournament_id: str) -> int:
    found = rows("SELECT MAX(number) FROM racko_tournament_games WHERE tournament_id = ?", (tournament_id,))
    return int(found[0][0] or 0) + 1


def _made(rows: Rows, tournament_id: str, number: int) -> None:
    rows("UPDATE racko_tournament_games SET made = 1 WHERE tournament_id = ? AND number = ?", (tournament_id, number))
    kept_rows.changed(rows, tournament_id)


def _next_round_at(rows: Rows, kept: Kept, at: float) -> None:
    rows(
        "UPDATE racko_tournaments SET next_at = ?, version = version + 1 WHERE id = ? AND round = ? "
        "AND next_at IS NULL",
        (at, kept.id, kept.round),
    )


def _teams(entrants: list[Entrant], settings: TournamentSettings, seed: int) -> list[tuple[Entrant, Entrant]]:
    """Partners' teams at the start: two players who named each other first, then the others two by two in the
    order they joined; one left over plays with racko's level (entered for it, :func:`_filler`)."""
    by_name = {entrant.name.casefold(): entrant for entrant in entrants}
    teams: list[tuple[Entrant, Entrant]] = []
    taken: set[str] = set()
    for entrant in entrants:
        if entrant.entrant in taken or entrant.partner is None:
            continue
        other = by_name.get(entrant.partner.casefold())
        if (
            other is not None
            and other.entrant not in taken
            and other.entrant != entrant.entrant
            and other.partner is not None
            and other.partner.casefold() == entrant.name.casefold()
        ):
            teams.append((entrant, other))
            taken |= {entrant.entrant, other.entrant}
    alone = [entrant for entrant in entrants if entrant.entrant not in taken]
    for first, second in zip(alone[0::2], alone[1::2], strict=False):
        teams.append((first, second))
    if len(alone) % 2:
        level = _filler(settings)
        teams.append((alone[-1], replace(alone[-1], entrant="", name=level, kind=LEVEL, level=level, player_id=None)))
    return teams


def _filler(settings: TournamentSettings) -> str:
    """racko's level that fills a seat nobody of the tournament takes: its first level, else the variant's default
    opponent."""
    return settings.levels[0] if settings.levels else default_opponent(settings.variant)


def _seats_of(settings: TournamentSettings, units: dict[str, Entrant], sides: Sequence[str | None]) -> list[str | None]:
    """A table's seats from its sides: each side's entrant, or in Partners each team's two players, opposite (team A
    in seats 0 and 2, team B in 1 and 3); a filler side's seats are racko's (``None``)."""
    if not settings.partners:
        return list(sides)
    members = [units[side].members if side is not None else ["", ""] for side in sides]
    return [
        (members[seat % 2][seat // 2] or None) if sides[seat % 2] is not None else None
        for seat in range(settings.seats)
    ]


def _seat_for(settings: TournamentSettings, entrants: dict[str, Entrant], entrant: str | None) -> Seat:
    """Who sits in a seat: the entrant's player, its level, or (no entrant, a forgotten player) the filler level."""
    found = entrants.get(entrant) if entrant is not None else None
    if found is None or (found.kind in (PERSON, BOT) and found.player_id is None):
        level = _filler(settings)
        return Seat(FORGOTTEN if found is not None else level, level=level)
    if found.kind == LEVEL:
        return Seat(found.name, level=found.level or _filler(settings))
    return Seat(found.name, found.player_id, bot_account=found.kind == BOT)


def forget_in_tournaments(rows: Rows, player_id: str) -> None:
    """A player forgotten (in the players room's transaction): gone from tournaments not started; in the others a
    forgotten player whose results stay (never seated again), and their name out of their team's."""
    touched = {
        str(tournament_id)
        for (tournament_id,) in rows(
            "SELECT tournament_id FROM racko_tournament_entrants WHERE player_id = ?", (player_id,)
        )
    }
    rows(
        "DELETE FROM racko_tournament_entrants WHERE player_id = ? AND tournament_id IN "
        "(SELECT id FROM racko_tournaments WHERE status = ?)",
        (player_id, CREATED),
    )
    rows(
        "UPDATE racko_tournament_entrants SET player_id = NULL, name = ?, partner = NULL, "
        "state = CASE WHEN state = ? THEN ? ELSE ? END WHERE player_id = ?",
        (FORGOTTEN, MEMBER, MEMBER, FORGOTTEN_STATE, player_id),
    )
    rows("UPDATE racko_tournaments SET made_by = NULL WHERE made_by = ?", (player_id,))
    for tournament_id in touched:
        everyone = {entrant.entrant: entrant for entrant in kept_rows.entrants(rows, tournament_id)}
        for entrant in everyone.values():
            if entrant.kind != TEAM:
                continue
            names = " & ".join(everyone[member].name if member in everyone else "?" for member in entrant.members)
            rows(
                "UPDATE racko_tournament_entrants SET name = ? WHERE tournament_id = ? AND entrant = ?",
                (names, tournament_id, entrant.entrant),
            )
        kept_rows.changed(rows, tournament_id)
