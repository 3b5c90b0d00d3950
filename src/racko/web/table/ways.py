"""A way out for everyone (issue 39, docs/PLAYING.md "A way out"): a person resigns or leaves the table (a computer
player of the table's level takes the seat, and the seat counts as gone for ratings), aborts a game that has barely
begun (no rating, no history), or offers to end a casual game, which the other people accept or decline.  Each is
kept in the table's set-up (``seats[k].left``, ``offer``, ``declined``, ``ended``), so that a reload, a restart and
another process show the same, is said to everyone (a ``way-out`` frame), and reaches the game's record."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

from racko.play.session import default_opponent
from racko.web.core import Refusal
from racko.web.table import timing
from racko.web.table.clocks import Clocks
from racko.web.table.state import ABORTED, Table, journal_made_by, not_saved_if_refused, noted_record
from racko.web.table.watching import abortable

RESIGNED, LEFT = "resigned", "left"
"""How a seat's person left it (``seats[k].left.how``)."""
AGREED, DESERTED = "agreed", "deserted"
"""How a game ended early besides :data:`ABORTED`: by agreement, or because no person was left playing."""


class WaysOut(Clocks):
    """Resigning, leaving, aborting, and ending a game by agreement (:class:`Clocks` and below play the game)."""

    def _seated(self, table: Table, seat: int | None, doing: str) -> int:
        """The asker's seat, if they may act at this table now; else the reason, as a :class:`Refusal`."""
        if seat is None:
            raise Refusal("spectator", f"Only a player at the table can {doing}.")
        if table.over:
            raise Refusal("over", "The game is over.")
        if table.session.seats[seat].bot is not None:
            raise Refusal("not-your-seat", "A computer player has taken over this seat.")
        return seat

    async def _settled(self, table: Table) -> Table:
        """The table once its last move is in the database (a way out never overtakes a move)."""
        try:
            await self.saved(table)
        except OSError:
            raise Refusal("not-saved", "The last move could not be saved; look again.") from None
        return self.tables.get(table.table_id, table)

    async def resign(self, table: Table, seat: int | None, how: str = RESIGNED) -> None:
        """The person gives up their part in the game (``how``: resigned, or left the table): a computer player of the
        table's level plays the seat on; the game ends if no person is left playing."""
        self._seated(table, seat, "resign" if how == RESIGNED else "leave the table")
        async with self._changing(table) as table:
            table = await self._settled(table)
            seat = self._seated(table, seat, "resign")
            level = default_opponent(table.session.rules.variant)
            seats = list(table.setup["seats"])
            spec = {key: value for key, value in seats[seat].items() if key != "back"}
            seats[seat] = {
                **spec,
                "bot": level,
                "token": None,
                "left": {"how": how, "after": len(table.played), "at": self.now()},
            }
            # A standing offer to end the game goes: the others are asked again if they still want it.
            setup = {**table.setup, "seats": seats, "offer": None}
            await self._keep_setup(table, setup)
            table.session.hand_to_bot(seat, level)
            table.away_since.pop(seat, None)
            table.stand_ins.pop(seat, None)
            timing.refresh(table)  # no clock runs for a computer player
            self.store.set_due(table.table_id, timing.due(table))
            if all(spec["bot"] is not None for spec in seats):
                await self._end(table, DESERTED, seat)
            for watcher in table.watchers:  # the person watches from now on (their old rack is the computer's)
                if watcher.viewer == seat:
                    watcher.viewer, watcher.version = None, 0
        await self._said(table, how, seat)

    async def abort(self, table: Table, seat: int | None) -> None:
        """The game ends before it has really begun: no rating, no history."""
        self._seated(table, seat, "abort the game")
        async with self._changing(table) as table:
            table = await self._settled(table)
            seat = self._seated(table, seat, "abort the game")
            if not abortable(table):
                raise Refusal("too-late", "Every seat has played twice: the game can no longer be aborted.")
            await self._end(table, ABORTED, seat)
        await self._said(table, ABORTED, seat)

    async def offer_end(self, table: Table, seat: int | None) -> None:
        """A person offers to end the game where it stands; with nobody else to ask, it ends at once."""
        self._seated(table, seat, "offer to end the game")
        async with self._changing(table) as table:
            table = await self._settled(table)
            seat = self._seated(table, seat, "offer to end the game")
            others = _people(table, but=seat)
            if table.setup.get("rated") and others:
                raise Refusal("rated", "A rated game cannot be ended by agreement: play on, or resign.")
            if table.setup.get("offer"):
                raise Refusal("offer-standing", "An offer to end the game stands already: wait for the answers.")
            declined = table.setup.get("declined")
            if isinstance(declined, dict) and declined.get("by") == seat and declined.get("after") == len(table.played):
                raise Refusal("offer-declined", "Your offer was declined: play on before you offer again.")
            if not others:
                await self._end(table, AGREED, seat)
            else:
                offer = {"by": seat, "yes": [], "at": self.now()}
                await self._keep_setup(table, {**table.setup, "offer": offer})
        await self._said(table, AGREED if not others else "offered", seat)

    async def answer_end(self, table: Table, seat: int | None, yes: bool) -> None:
        """A person accepts or declines the standing offer; once every other person accepted, the game ends."""
        self._seated(table, seat, "answer an offer")
        async with self._changing(table) as table:
            table = await self._settled(table)
            seat = self._seated(table, seat, "answer an offer")
            offer = table.setup.get("offer")
            if not isinstance(offer, dict):
                raise Refusal("no-offer", "Nobody has offered to end the game.")
            if offer["by"] == seat and yes:
                raise Refusal("own-offer", "You made this offer: the others answer it.")
            if not yes:  # declined (or withdrawn by the one who made it)
                declined = {"by": offer["by"], "after": len(table.played)}
                await self._keep_setup(table, {**table.setup, "offer": None, "declined": declined})
                what = "declined"
            else:
                agreed = sorted({*offer["yes"], seat})
                if set(agreed) >= set(_people(table, but=offer["by"])):
                    await self._end(table, AGREED, offer["by"])
                    what = AGREED
                else:
                    await self._keep_setup(table, {**table.setup, "offer": {**offer, "yes": agreed}})
                    what = "accepted"
        await self._said(table, what, seat)

    async def _end(self, table: Table, how: str, by: int | None) -> None:
        """End the game where it stands (the caller holds :meth:`_changing`): the set-up says how, and its record is
        filed as a finished game's."""
        early = {"how": how, "by": by, "after": len(table.played), "at": self.now()}
        setup: dict[str, Any] = {**table.setup, "ended": early, "offer": None}
        record = noted_record(setup, table.session.record(), journal_made_by(table)).dumps()
        with not_saved_if_refused():
            self.store.update_setup(table.table_id, setup)
            self.store.finish(table.table_id, record)
            await self._commit_now(table.table_id)
        table.setup = setup
        timing.refresh(table)
        self.store.set_due(table.table_id, None)
        with contextlib.suppress(OSError):
            await self._commit_now(table.table_id)
        for task in (table.thinking, table.timer):
            if task is not None and task is not asyncio.current_task():
                task.cancel()

    async def _said(self, table: Table, what: str, seat: int) -> None:
        """Everyone at the table is told (a ``way-out`` frame, the state and who sits where); a game that ended is
        passed on (the lobby, the players' lists, ratings and histories: not an aborted one)."""
        frame = {"type": "way-out", "what": what, "seat": seat, "name": table.session.names[seat]}
        for watcher in list(table.watchers):
            with contextlib.suppress(Exception):
                await watcher.send(frame)
        if table.over and not table.session.match.over:
            # Not in the asker's own task: a person who closes the page right after must not cancel the game's end
            # on its way to the lobby, the players' lists, the ratings and the histories.
            self.in_background(self._pass_on_end(table))
        await self.broadcast(table)
        await self._tell_presence(table)
        self.wake_bots(table)
        if not table.over:
            await self._publish_table(table)

    async def _pass_on_end(self, table: Table) -> None:
        await self._publish_table(table)
        await asyncio.to_thread(self.players.table_over, table.table_id, True)
        await self._report(table)


def _people(table: Table, but: int) -> list[int]:
    """The seats people still play, but one."""
    return [seat for seat, spec in enumerate(table.setup["seats"]) if spec["bot"] is None and seat != but]
