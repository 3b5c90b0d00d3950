"""What people do at a table: a move (committed, then every watcher told; refused with the reason and nothing changed
otherwise), a hint from the seat's own view, a quick reaction."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Any

from racko.analysis.evaluate import seat_history
from racko.analysis.explain import choice_move, explained_choices
from racko.errors import RackoError
from racko.families import AnyAction, family_of
from racko.web.core import Refusal
from racko.web.table.changes import Changes
from racko.web.table.registry import Registry
from racko.web.table.seats import SeatEvent, step
from racko.web.table.table import Table
from racko.web.table.views import hint_json

HINT_CHOICES = 3
"""How many of the advisor's choices a hint shows, best first."""
REACTIONS = ("gg", "wp", "oops", "your-turn", "thinking")
"""The quick messages a seat may send to the table (the page words them in its language): no free text."""
REACTION_SECONDS = 2.5
"""A seat may react once in this many seconds."""


class Moves:
    """People's moves (and a bot account's, through the Bot API), hints and reactions."""

    def __init__(self, registry: Registry, changes: Changes, now: Callable[[], float]) -> None:
        self.registry = registry
        self.changes = changes
        self.now = now

    async def act(self, table: Table, seat: int | None, version: Any, raw_action: Any) -> None:
        """A person's move: committed, then every watcher is told.  A :class:`Refusal` changes nothing."""
        if seat is None:
            raise Refusal("spectator", "Spectators cannot play: open the link of a seat to play.")
        if self.registry.store.unsaved(table.table_id) or table.lost is not None:  # one move at a time
            table = await self.registry.settled(table)
        session = table.session
        if table.over:
            raise Refusal("over", "The game is over.")
        if not isinstance(version, int) or isinstance(version, bool):
            raise Refusal("bad-frame", 'An action names the version it was chosen at ("version": a number).')
        if version != session.version:
            raise Refusal("stale", "The table has moved on since you chose that: look again and choose anew.")
        if session.to_act != seat:
            raise Refusal("not-your-turn", "It is not your turn.")
        step(table.seats.state(seat), SeatEvent.MOVE)  # its person plays it (not a computer, not while gone)
        if not isinstance(raw_action, dict):
            raise Refusal("bad-frame", 'An action is a JSON object such as {"act": "draw"}.')
        deadline = table.due()
        if deadline is not None and self.now() >= deadline:
            # The clock decides, never the order two messages happen to arrive in: past the deadline the turn is
            # the computer player's, which is playing it now.
            raise Refusal("out-of-time", "Your time ran out: the computer player makes this move for you.")
        family = family_of(session.rules)
        try:
            action: AnyAction = family.action_from_json({**raw_action, "seat": seat})
            session.play(action)
        except RackoError as error:
            raise Refusal("illegal", str(error)) from None
        state = table.seats.state(seat)
        changed = table.seats.move(seat, self.now()) is not state
        await self.changes.after(table, seats_changed=changed, moved=time.perf_counter())

    async def react(self, table: Table, seat: int | None, reaction: Any) -> None:
        """One of the fixed quick messages, from a seat to everyone at the table (nothing is kept)."""
        if seat is None:
            raise Refusal("spectator", "Spectators cannot react: open the link of a seat to react.")
        if not isinstance(reaction, str) or reaction not in REACTIONS:
            raise Refusal("bad-reaction", f"A reaction is one of {', '.join(REACTIONS)}.")
        if not table.setup.seats[seat].joined:
            raise Refusal("name-first", "Choose your name first.")
        now = time.monotonic()
        if now - table.reacted.get(seat, -REACTION_SECONDS) < REACTION_SECONDS:
            raise Refusal("too-soon", f"One reaction every {REACTION_SECONDS:g} seconds: wait a moment.")
        table.reacted[seat] = now
        await self.changes.watching.tell(table, {"type": "reaction", "seat": seat, "reaction": reaction})

    async def hint(self, table: Table, seat: int | None) -> list[dict[str, Any]]:
        """The advisor's best choices for the seat to act, judged from its own observation (in a worker thread), with
        the sentences that say why and the chance to win the game from the scores, as racko review grades
        (racko.analysis); none at a rated table."""
        session = table.session
        if seat is None or session.to_act != seat or table.over:
            raise Refusal("no-hint", "A hint is for your own turn.")
        if table.setup.rated:  # fair play: in a game that counts, each plays on their own
            raise Refusal("hints-off", "Hints are off in rated games.")
        observation = session.observation(seat)
        seen = seat_history(session.match.round, seat)
        choices = await asyncio.to_thread(explained_choices, observation, seen=seen, names=session.names)
        return [
            hint_json(choice, choice_move(observation, choice).to_json() if choice.why else None)
            for choice in choices[:HINT_CHOICES]
        ]
