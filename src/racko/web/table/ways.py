"""A way out for everyone (docs/PLAYING.md "A way out"): a person (or a bot account, through the Bot API) resigns
or leaves the table (a computer player of the table's level takes the seat, and the seat left the game), aborts a
game that has barely begun (no rating, no history), offers to end a casual game, which the other people accept or
decline, or takes back a gone seat; the others hand an away person's seat to a computer player (a table without a
clock only).  Each is kept in the table's set-up, so that a reload, a restart and another process show the same,
is a seat's event (:mod:`.seats`), is said to everyone (a ``way-out`` frame), and reaches the game's record.

What a seat may do now is one function (:func:`refusal_of`): the page's menu offers exactly the ways it allows
(:func:`ways_open`, in every ``presence`` frame), and the server refuses the others with its reason."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from racko.play.session import bots_for, default_opponent
from racko.web.core import Refusal
from racko.web.table.seats import HOLDS_THE_SEAT, PERSON_PLAYS, SeatEvent, refusal, step
from racko.web.table.setup import (
    ABORTED,
    AGREED,
    AWAY,
    DESERTED,
    LEFT,
    RESIGNED,
    Back,
    Declined,
    Ended,
    Left,
    Offer,
)
from racko.web.table.table import Table, not_saved_if_refused, noted_record

if TYPE_CHECKING:
    from racko.web.table.changes import Changes
    from racko.web.table.registry import Registry

ABORT_TURNS = 2
"""A game may be aborted until every seat has had this many turns."""
WAYS = ("resign", "leave", "abort", "offer-end", "accept-end", "decline-end", "back")
"""Every way a seated person may take (the socket's frames, and the Bot API's routes)."""
EVENTS = {
    "resign": SeatEvent.RESIGN,
    "leave": SeatEvent.LEAVE,
    "abort": SeatEvent.ABORT,
    "offer-end": SeatEvent.OFFER,
    "accept-end": SeatEvent.ANSWER,
    "decline-end": SeatEvent.ANSWER,
    "back": SeatEvent.BACK,
}


def abortable(table: Table) -> bool:
    """Whether the game may still be aborted: not over, and some seat has had fewer than two turns."""
    return not table.over and min(table.turns_played()) < ABORT_TURNS


def _people(table: Table, but: int) -> list[int]:
    """The seats whose people still play the game, but one."""
    return [
        seat
        for seat in range(len(table.setup.seats))
        if seat != but and table.seats.state(seat) in HOLDS_THE_SEAT | PERSON_PLAYS
    ]


def refusal_of(table: Table, seat: int | None, way: str) -> Refusal | None:
    """Why ``seat`` may not take ``way`` now (``None``: it may)."""
    if seat is None:
        return Refusal("spectator", "Only a player at the table can do that.")
    if way not in EVENTS:
        return Refusal("bad-frame", f"A way out is one of {', '.join(WAYS)}.")
    if table.over:
        return Refusal("over", "The game is over.")
    state = table.seats.state(seat)
    try:
        step(state, EVENTS[way])
    except Refusal as refused:
        return refused
    if way != "back" and state not in HOLDS_THE_SEAT:
        return refusal(state, EVENTS[way])
    offer, declined = table.setup.offer, table.setup.declined
    if way == "abort" and not abortable(table):
        return Refusal("too-late", "Every seat has played twice: the game can no longer be aborted.")
    if way == "offer-end":
        if table.setup.rated and _people(table, seat):
            return Refusal("rated", "A rated game cannot be ended by agreement: play on, or resign.")
        if offer is not None:
            return Refusal("offer-standing", "An offer to end the game stands already: wait for the answers.")
        if declined is not None and declined.by == seat and declined.after == len(table.played):
            return Refusal("offer-declined", "Your offer was declined: play on before you offer again.")
    if way in ("accept-end", "decline-end") and offer is None:
        return Refusal("no-offer", "Nobody has offered to end the game.")
    if way == "accept-end" and offer is not None and offer.by == seat:
        return Refusal("own-offer", "You made this offer: the others answer it.")
    if way == "accept-end" and offer is not None and seat in offer.yes:
        return Refusal("own-offer", "You have accepted already: the others answer it.")
    return None


def ways_open(table: Table, seat: int) -> list[str]:
    """The ways ``seat`` may take now: what its page's menu and answers offer."""
    return [way for way in WAYS if refusal_of(table, seat, way) is None]


class WaysOut:
    """Resigning, leaving, aborting, ending a game by agreement, coming back, and a seat handed over."""

    def __init__(
        self,
        registry: Registry,
        changes: Changes,
        now: Callable[[], float],
        away_seconds: float,
    ) -> None:
        self.registry = registry
        self.changes = changes
        self.now = now
        self.away_seconds = away_seconds

    async def take(self, table: Table, seat: int | None, way: str) -> None:
        """``seat`` takes ``way`` (:data:`WAYS`); a :class:`Refusal` with the reason changes nothing."""
        refused = refusal_of(table, seat, way)
        if refused is not None:
            raise refused
        assert seat is not None
        async with self.registry.changing(table) as table:
            table = await self.registry.settled(table)
            refused = refusal_of(table, seat, way)
            if refused is not None:
                raise refused
            if way in ("resign", "leave"):
                what = await self._give_up(table, seat, RESIGNED if way == "resign" else LEFT)
            elif way == "abort":
                await self._end(table, ABORTED, seat)
                what = ABORTED
            elif way == "offer-end":
                what = await self._offer(table, seat)
            elif way == "back":
                await self._back(table, seat)
                what = "back"
            else:
                what = await self._answer(table, seat, way == "accept-end")
        await self._said(table, what, seat)

    async def hand_over(self, table: Table, seat: int | None, other: Any, bot_name: Any) -> None:
        """A seated person hands the seat of a person who has been away long enough to a computer player (a table
        without a clock only: at one with a clock only the clock takes a seat)."""
        if seat is None:
            raise Refusal("spectator", "Only players at the table can hand a seat to a computer player.")
        if not isinstance(other, int) or isinstance(other, bool) or not 0 <= other < len(table.session.seats):
            raise Refusal("bad-frame", "There is no such seat.")
        levels = bots_for(table.session.rules.variant)
        chosen = bot_name if isinstance(bot_name, str) else ""
        if chosen not in levels:
            raise Refusal("bad-frame", f"Choose a computer player: {', '.join(levels)}.")
        if table.over:
            raise Refusal("over", "The game is over.")
        table.seats.may_hand_over(other, self.now(), table.clocked, self.away_seconds)
        async with self.registry.changing(table) as table:
            table.seats.may_hand_over(other, self.now(), table.clocked, self.away_seconds)
            # The person who went away left the game: placed last and a game left (as by the clock), never credited
            # with the computer player's play.
            left = Left(AWAY, len(table.played), self.now())
            await self.registry.keep_setup(table, table.setup.with_seat(other, bot=chosen, left=left))
            table.session.hand_to_bot(other, chosen)
            table.seats.apply(other, SeatEvent.HAND_OVER, self.now())
        await self.changes.after(table, listed=True)

    async def end_game(self, table: Table, how: str) -> None:
        """The server ends the game where it stands (``limit``: a table with a bot account that reached its limit
        of turns)."""
        async with self.registry.changing(table) as table:
            if table.over:
                return
            table = await self.registry.settled(table)
            await self._end(table, how, None)
        frame = {"type": "way-out", "what": how, "seat": None, "name": None}
        await self.changes.watching.tell(table, frame)
        await self.changes.after(table, listed=True)

    # --- inside (each holds the table's set-up) --------------------------------------------------------------

    async def _give_up(self, table: Table, seat: int, how: str) -> str:
        """The person gives up their part in the game: a computer player of the table's level plays the seat on;
        the game ends (deserted) if no person is left playing."""
        level = default_opponent(table.session.rules.variant)
        left = Left(how, len(table.played), self.now())
        # A standing offer to end the game goes: the others are asked again if they still want it.
        setup = table.setup.with_seat(seat, bot=level, left=left, back=None).changed(offer=None)
        await self.registry.keep_setup(table, setup)
        table.session.hand_to_bot(seat, level)
        table.stand_ins.pop(seat, None)
        table.seats.apply(seat, SeatEvent.RESIGN if how == RESIGNED else SeatEvent.LEAVE, self.now())
        for watcher in table.watchers:  # the person watches from now on (their old rack is the computer's)
            if watcher.viewer == seat:
                watcher.viewer, watcher.version, watcher.former = None, 0, seat
                table.seats.disconnect(seat, self.now())
        table.refresh_clock()  # no clock runs for a computer player
        self.registry.store.set_due(table.table_id, table.wake_at())
        if not _people(table, but=-1):
            await self._end(table, DESERTED, seat)
        return how

    async def _offer(self, table: Table, seat: int) -> str:
        if not _people(table, but=seat):  # nobody else to ask: it ends at once
            await self._end(table, AGREED, seat)
            return AGREED
        await self.registry.keep_setup(table, table.setup.changed(offer=Offer(seat, (), self.now())))
        return "offered"

    async def _answer(self, table: Table, seat: int, yes: bool) -> str:
        offer = table.setup.offer
        assert offer is not None
        if not yes:  # declined (or withdrawn by the one who made it)
            declined = Declined(offer.by, len(table.played))
            await self.registry.keep_setup(table, table.setup.changed(offer=None, declined=declined))
            return "declined"
        agreed = tuple(sorted({*offer.yes, seat}))
        if set(agreed) >= set(_people(table, but=offer.by)):
            await self._end(table, AGREED, offer.by)
            return AGREED
        await self.registry.keep_setup(table, table.setup.changed(offer=Offer(offer.by, agreed, offer.at)))
        return "accepted"

    async def _back(self, table: Table, seat: int) -> None:
        """A gone seat's person takes it back: kept in the set-up, so that every process derives the same clocks; a
        turn under way starts again for them."""
        back = Back(len(table.played), self.now())
        await self.registry.keep_setup(table, table.setup.with_seat(seat, back=back))
        table.seats.apply(seat, SeatEvent.BACK, self.now())
        await self.registry.note_due(table)  # its clock runs again

    async def _end(self, table: Table, how: str, by: int | None) -> None:
        """End the game where it stands (the caller holds the set-up): the set-up says how, and its record is filed
        as a finished game's."""
        setup = table.setup.changed(ended=Ended(how, by, len(table.played), self.now()), offer=None)
        record = noted_record(setup, table.session.record(), table.made_by).dumps()
        store = self.registry.store
        with not_saved_if_refused():
            store.update_setup(table.table_id, setup.json())
            store.finish(table.table_id, record)
            await self.registry.commit_now(table.table_id)
        table.setup = setup
        table.seats.every(SeatEvent.ABORT if how == ABORTED else SeatEvent.GAME_END, self.now())
        table.refresh_clock()
        store.set_due(table.table_id, None)

    async def _said(self, table: Table, what: str, seat: int) -> None:
        """Everyone at the table is told (a ``way-out`` frame), then the step after a change."""
        frame = {"type": "way-out", "what": what, "seat": seat, "name": table.session.names[seat]}
        await self.changes.watching.tell(table, frame)
        await self.changes.after(table, listed=what in (RESIGNED, LEFT, ABORTED, AGREED, DESERTED))
