"""Who watches a table and what each is shown: a connection joins (and gets what it missed), leaves, is brought up to
the table's version with frames built for its own viewer (:mod:`.views`), and everyone is told who is here.  A
connection of a seat is that seat's presence: its first opening and its last closing are the seat's ``connect`` and
``disconnect`` (:mod:`.seats`).  Every text and menu a page shows follows the seat's state, which the frames carry."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Awaitable, Callable
from typing import Any

from racko.play.text import side_names
from racko.web.table.results import places_of
from racko.web.table.seats import PERSON_PLAYS
from racko.web.table.table import REPLACED, Table, Watcher
from racko.web.table.views import log_entries, table_setup, view_of
from racko.web.table.ways import abortable, ways_open


class Watching:
    """The connections of every table: who sees what, and telling them."""

    def __init__(
        self,
        now: Callable[[], float],
        saved: Callable[[Table], Awaitable[None]],
        unsaved: Callable[[str], bool],
        away_seconds: float,
    ) -> None:
        self.now = now
        self.saved = saved
        """Waits until the table's writes are committed (nobody sees a move before it is)."""
        self.unsaved = unsaved
        self.away_seconds = away_seconds

    async def join(self, table: Table, watcher: Watcher, since: int | None) -> bool:
        """A connection starts watching; it gets what it missed since ``since`` (or the whole game).  A seat open on
        another connection already is told it was opened elsewhere, and closed: one connection acts for a seat.
        Whether the seat's person came (its first connection)."""
        seat = watcher.viewer
        if seat is not None:
            for older in [other for other in table.watchers if other.viewer == seat]:
                table.watchers.remove(older)
                table.seats.disconnect(seat, self.now())
                older.replaced = True
                with contextlib.suppress(Exception):  # a connection that just closed is gone anyway
                    await older.send({"type": "replaced", "message": "This seat was opened in another window."})
                    if older.close is not None:
                        await older.close(REPLACED)
        table.watchers.append(watcher)
        table.quiet_since = None
        came = seat is not None and table.seats.connect(seat, self.now())
        watcher.version = since if isinstance(since, int) and 0 <= since <= table.version else 0
        welcome: dict[str, Any] = {
            "type": "welcome",
            "table": table.table_id,
            "you": seat,
            "setup": table_setup(table.session),
            "game": table.setup.game,
            "joined": seat is None or table.setup.seats[seat].joined,
            "away_seconds": self.away_seconds,
        }
        if watcher.former is not None:  # their seat is a computer's now: they watch, and are told why
            welcome["former"] = {"seat": watcher.former, "state": table.seats.state(watcher.former).value}
        await watcher.send(welcome)
        await self.bring(table, watcher)
        await self.tell_presence(table)
        return came

    async def leave(self, table: Table, watcher: Watcher) -> bool:
        """A connection closed; whether it was its seat's last (the seat's person went away)."""
        went = False
        if watcher in table.watchers:
            table.watchers.remove(watcher)
            if watcher.viewer is not None and not watcher.replaced:
                went = table.seats.disconnect(watcher.viewer, self.now())
        if not table.watchers:
            table.quiet_since = time.monotonic()
        await self.tell_presence(table)
        return went

    def state_frame(self, table: Table, viewer: int | None, start: int) -> dict[str, Any]:
        """The ``state`` frame that brings ``viewer`` from version ``start`` to the table's."""
        session = table.session
        version = session.version
        frame: dict[str, Any] = {
            "type": "state",
            "version": version,
            "since": start,
            "log": log_entries(session.events_between(start, version, viewer), session.names),
            "view": seat_view(table, viewer),
            "clock": table.clock_json(self.now()),
            "starts_in": starts_in(table, self.now()),
        }
        if session.save_problem:
            frame["problem"] = session.save_problem
        return frame

    async def bring(self, table: Table, watcher: Watcher) -> None:
        """Bring one watcher up to the current version: the lines it missed and the view."""
        if table.lost is not None or self.unsaved(table.table_id):
            seen = watcher.version
            try:
                await self.saved(table)
            except Exception:
                return  # the move's own handler reloads the table and tells everybody
            if watcher.version != seen:
                return  # the move's broadcast brought this watcher up to date meanwhile
        version = table.session.version
        start = watcher.version if 0 <= watcher.version <= version else 0  # a version the game had, or all
        frame = self.state_frame(table, watcher.viewer, start)
        watcher.version = version
        with contextlib.suppress(Exception):  # a connection that just closed: its leave() follows
            await watcher.send(frame)

    async def broadcast(self, table: Table) -> None:
        table.note_turn()
        for watcher in list(table.watchers):
            await self.bring(table, watcher)

    async def tell(self, table: Table, frame: dict[str, Any], seat: int | None = None, every: bool = True) -> None:
        """A frame to every connection (or to ``seat``'s only, ``every`` False)."""
        for watcher in list(table.watchers):
            if every or watcher.viewer == seat:
                with contextlib.suppress(Exception):
                    await watcher.send(frame)

    async def tell_presence(self, table: Table) -> None:
        await self.tell(table, self.presence(table))

    def presence(self, table: Table) -> dict[str, Any]:
        """Who is at the table, each seat's state and what each may do now (the page's menus: ``ways``), whose turn
        it is and for how long, the clock, the standing offer and how the game ended."""
        now = self.now()
        seats = table.seats
        clocked = table.clocked
        lines = []
        for seat, spec in enumerate(table.session.seats):
            setup = table.setup.seats[seat]
            state = seats.state(seat)
            away = seats.away_for(seat, now)
            hand_over = None if table.over else seats.hand_over_in(seat, now, clocked, self.away_seconds)
            lines.append(
                {
                    "seat": seat,
                    "bot": spec.bot,
                    "state": state.value,
                    "connected": spec.bot is not None or seats.connected(seat),
                    "joined": setup.joined,
                    # Whole seconds, rounded down: the page offers a hand-over only once the server takes it.
                    "away_for": None if away is None else int(away),
                    "hand_over_in": None if hand_over is None else int(hand_over + 0.999),
                    "gone": state.value == "gone",
                    "left": setup.left.how if setup.left is not None else None,
                    "account": "bot" if setup.bot_account else None,
                    "ways": ways_open(table, seat),
                }
            )
        offer = table.setup.offer
        return {
            "type": "presence",
            "seats": lines,
            "spectators": sum(watcher.viewer is None for watcher in table.watchers),
            "to_act": None if table.over else table.session.to_act,
            "turn_for": round(table.note_turn(), 1),
            "rated": table.setup.rated,
            "casual_because": table.setup.casual_because,
            "clocked": clocked,
            "clock": table.clock_json(now),
            "starts_in": starts_in(table, now),
            "offer": offer.json() if offer is not None else None,
            "ended": table.setup.ended.json() if table.setup.ended is not None else None,
            "abortable": abortable(table),
        }


def starts_in(table: Table, now: float) -> float:
    """How long until the round's report's pause ends (0: none): nobody acts and no clock runs until then, and the
    pages close the report then, at every table."""
    until = table.seats.pause_until
    return round(until - now, 1) if until is not None and until > now and not table.over else 0


def seat_view(table: Table, viewer: int | None) -> dict[str, Any]:
    """The table as ``viewer`` may see it now, with every seat's state, and what follows from it: a seat its person
    does not play (a computer plays it: gone, resigned …) has nothing to do; a game over names as its winners those
    placed first among the seats whose people did not leave (:mod:`.results`, as the ratings place them)."""
    view = view_of(table.session, viewer)
    states = [table.seats.state(seat) for seat in range(len(table.session.seats))]
    view["states"] = [state.value for state in states]
    if viewer is not None and states[viewer] not in PERSON_PLAYS:
        view.update(legal=[], situation=None)
    ended = table.setup.ended
    view["ended"] = ended.how if ended is not None else None
    if ended is not None:
        view.update(over=True, to_act=None, legal=[], situation=None)
    if view["over"]:
        winners = places_of(table).winners
        rules = table.session.rules
        if rules.teams is not None:
            sides = sorted({rules.side_of(seat) for seat in winners})
            names = [side_names(rules, table.session.names)[side] for side in sides]
        else:
            names = [table.session.names[seat] for seat in winners]
        view["winners"] = " & ".join(names) if names else None
        view["winner_seats"] = list(winners)
    return view
