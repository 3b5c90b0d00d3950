"""Who watches a table and what each is shown: a connection joins (and gets what it missed), leaves, is brought up to
the table's version with frames built for its own viewer (:mod:`.views`), and everyone is told who is here; a public
table's line in the lobby is kept up to date."""

from __future__ import annotations

import contextlib
import time
from typing import Any

from racko.play.session import PlaySession
from racko.web.table import timing
from racko.web.table.registry import Registry
from racko.web.table.state import REPLACED, Table, Watcher, ended
from racko.web.table.views import log_entries, table_setup, view_of


class Watching(Registry):
    """The watchers of every table (:class:`Registry` keeps the tables)."""

    async def join(self, table: Table, watcher: Watcher, since: int | None) -> None:
        """A connection starts watching; it gets what it missed since ``since`` (or the whole game).  A seat open on
        another connection already is told it was opened elsewhere, and closed: one connection acts for a seat."""
        if watcher.viewer is not None:
            for older in [other for other in table.watchers if other.viewer == watcher.viewer]:
                table.watchers.remove(older)
                older.replaced = True
                with contextlib.suppress(Exception):  # a connection that just closed is gone anyway
                    await older.send({"type": "replaced", "message": "This seat was opened in another window."})
                    if older.close is not None:
                        await older.close(REPLACED)
        came = watcher.viewer is not None and not table.connected(watcher.viewer)
        table.watchers.append(watcher)
        table.quiet_since = None
        if watcher.viewer is not None:
            table.away_since.pop(watcher.viewer, None)
        watcher.version = since if isinstance(since, int) and 0 <= since <= table.version else 0
        await watcher.send(
            {
                "type": "welcome",
                "table": table.table_id,
                "you": watcher.viewer,
                "setup": table_setup(table.session),
                "game": table.setup["game"],
                "joined": watcher.viewer is None or table.setup["seats"][watcher.viewer]["joined"],
                "away_seconds": self.away_seconds,
            }
        )
        await self.bring(table, watcher)
        await self._tell_presence(table)
        if came:  # a person came back: the lobby lists the game again
            await self._publish_table(table)
        self.wake_bots(table)

    async def leave(self, table: Table, watcher: Watcher) -> None:
        if watcher in table.watchers:
            table.watchers.remove(watcher)
        seat = watcher.viewer
        gone = seat is not None and not table.connected(seat) and table.session.seats[seat].bot is None
        if gone and seat is not None:
            table.away_since[seat] = time.monotonic()
        if not table.watchers:
            table.quiet_since = time.monotonic()
        await self._tell_presence(table)
        if gone:  # the lobby lists a game to watch only while one of its people has it open
            await self._publish_table(table)

    async def bring(self, table: Table, watcher: Watcher) -> None:
        """Bring one watcher up to the current version: the lines it missed and the view."""
        if self.store.unsaved(table.table_id):  # nobody sees a move before it is committed
            seen = watcher.version
            try:
                await self.saved(table)
            except OSError:
                return  # the move's own handler reloads the table and tells everybody
            if watcher.version != seen:
                return  # the move's broadcast brought this watcher up to date meanwhile
        session = table.session
        version = session.version
        start = watcher.version if 0 <= watcher.version <= version else 0  # a version the game had, or all
        frame = {
            "type": "state",
            "version": version,
            "since": start,
            "log": log_entries(session.events_between(start, version, watcher.viewer), session.names),
            "view": ended_view(view_of(session, watcher.viewer), table),
            "clock": timing.clock_json(table, self.now()),
        }
        if session.save_problem:
            frame["problem"] = session.save_problem
        watcher.version = version
        with contextlib.suppress(Exception):  # a connection that just closed: its leave() follows
            await watcher.send(frame)

    async def broadcast(self, table: Table) -> None:
        table.note_turn()
        for watcher in list(table.watchers):
            await self.bring(table, watcher)

    def presence(self, table: Table) -> dict[str, Any]:
        now = time.monotonic()
        clock = table.clock
        seats = []
        for seat, spec in enumerate(table.session.seats):
            since = table.away_since.get(seat)
            seats.append(
                {
                    "seat": seat,
                    "bot": spec.bot,
                    "connected": spec.bot is not None or table.connected(seat),
                    "joined": table.setup["seats"][seat]["joined"],
                    # Whole seconds, rounded down: the page offers a hand-over only once the server takes it.
                    "away_for": None if since is None or spec.bot is not None else int(now - since),
                    "gone": clock is not None and spec.bot is None and clock.gone(seat),
                    "left": _left_how(table.setup["seats"][seat]),
                    "account": table.setup["seats"][seat].get("account"),
                }
            )
        return {
            "type": "presence",
            "seats": seats,
            "spectators": sum(w.viewer is None for w in table.watchers),
            "to_act": table.session.to_act,
            "turn_for": round(table.note_turn(), 1),
            "rated": bool(table.setup.get("rated")),
            "casual_because": table.setup.get("casual_because"),
            "clock": timing.clock_json(table, self.now()),
            "offer": table.setup.get("offer"),
            "ended": ended(table.setup),
            "abortable": abortable(table),
        }

    async def _tell_presence(self, table: Table) -> None:
        frame = self.presence(table)
        for watcher in list(table.watchers):
            with contextlib.suppress(Exception):
                await watcher.send(frame)

    async def _publish(
        self, table_id: str, setup: dict[str, Any], session: PlaySession | None, people_here: bool = False
    ) -> None:
        """Tell those who follow the tables (the lobby keeps the public ones' lines) that a table's seats, game or
        people changed: its id, its set-up, whether its game is over, and whether a person has it open."""
        over = session is not None and (session.match.over or ended(setup) is not None)
        for follower in self.followers:
            await follower(table_id, setup, over, people_here)

    async def _publish_table(self, table: Table) -> None:
        here = any(table.connected(seat) for seat, spec in enumerate(table.setup["seats"]) if spec["bot"] is None)
        await self._publish(table.table_id, table.setup, table.session, here)


ABORT_TURNS = 2
"""A game may be aborted until every seat has had this many turns (docs/PLAYING.md "A way out")."""


def turns_played(table: Table) -> list[int]:
    """Per seat, how many turns it has had in this game (a turn: a seat's actions in a row, within a round)."""
    turns = [0] * len(table.session.seats)
    last: tuple[int, int] | None = None
    for played in table.played:
        if (played.seat, played.round) != last:
            turns[played.seat] += 1
            last = (played.seat, played.round)
    return turns


def abortable(table: Table) -> bool:
    """Whether the game may still be aborted: not over, and some seat has had fewer than two turns."""
    return not table.over and min(turns_played(table)) < ABORT_TURNS


def ended_view(view: dict[str, Any], table: Table) -> dict[str, Any]:
    """A seat's view with the game's early end (``ended``: how, or ``None``): nobody is to act any more."""
    early = ended(table.setup)
    view["ended"] = early["how"] if early is not None else None
    if early is not None:
        view.update(over=True, to_act=None, legal=[], situation=None)
    return view


def _left_how(spec: dict[str, Any]) -> str | None:
    left = spec.get("left")
    return str(left["how"]) if isinstance(left, dict) else None
