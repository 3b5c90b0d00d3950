"""What players do at a table: a move (committed, then every watcher told, refused with the reason and nothing changed
otherwise), the game's end passed on, a hint from the seat's own view, a quick reaction."""

from __future__ import annotations

import asyncio
import contextlib
import time
from typing import Any

from racko.analysis.evaluate import seat_history
from racko.analysis.explain import choice_move, explained_choices
from racko.errors import IllegalActionError, RackoError
from racko.families import AnyAction, family_of
from racko.web.core import Refusal
from racko.web.table import timing
from racko.web.table.state import Table
from racko.web.table.views import hint_json
from racko.web.table.watching import Watching

HINT_CHOICES = 3
"""How many of the advisor's choices a hint shows, best first."""
REACTIONS = ("gg", "wp", "oops", "your-turn", "thinking")
"""The quick messages a seat may send to the table (the page words them in its language): no free text."""
REACTION_SECONDS = 2.5
"""A seat may react once in this many seconds."""


class Moves(Watching):
    """People's moves, hints and reactions (:class:`Watching` tells everyone)."""

    async def act(self, table: Table, seat: int | None, version: Any, raw_action: Any) -> None:
        """A person's move: committed, then every watcher is told.  Raises :class:`Refusal`, changing nothing."""
        session = table.session
        if seat is None:
            raise Refusal("spectator", "Spectators cannot play: open the link of a seat to play.")
        if self.store.unsaved(table.table_id) or table.lost is not None:  # one move at a time: the last one first
            try:
                await self.saved(table)
            except OSError:
                raise Refusal("not-saved", "The last move could not be saved; look again.") from None
            table = self.tables.get(table.table_id, table)
            session = table.session
        if table.over:
            raise Refusal("over", "The game is over.")
        if not isinstance(version, int) or isinstance(version, bool):
            raise Refusal("bad-frame", 'An action names the version it was chosen at ("version": a number).')
        if version != session.version:
            raise Refusal("stale", "The table has moved on since you chose that: look again and choose anew.")
        if session.to_act != seat:
            raise Refusal("not-your-turn", "It is not your turn.")
        if session.seats[seat].bot is not None:
            raise Refusal("not-your-seat", "A computer player has taken over this seat.")
        if not table.setup["seats"][seat]["joined"]:
            raise Refusal("name-first", "Choose your name first.")
        if not isinstance(raw_action, dict):
            raise Refusal("bad-frame", 'An action is a JSON object such as {"act": "draw"}.')
        if timing.gone_to_act(table) == seat:  # acting at one's own turn takes a gone seat back
            await self.back(table, seat)
            table = self.tables.get(table.table_id, table)
            session = table.session
            if version != session.version or session.to_act != seat:
                raise Refusal("stale", "The table has moved on since you chose that: look again and choose anew.")
        deadline = timing.due(table)
        if deadline is not None and self.now() >= deadline:
            # The clock decides, never the order two messages happen to arrive in: past the deadline the turn is
            # the computer player's, which is playing it now.
            raise Refusal("out-of-time", "Your time ran out: the computer player makes this move for you.")
        family = family_of(session.rules)
        try:
            action: AnyAction = family.action_from_json({**raw_action, "seat": seat})
            session.play(action)
        except IllegalActionError as error:
            raise Refusal("illegal", str(error)) from None
        except RackoError as error:
            raise Refusal("illegal", str(error)) from None
        await self._committed(table, time.perf_counter())

    async def _committed(self, table: Table, moved: float) -> None:
        """After an action (applied at ``moved``, perf_counter seconds): if it did not reach the database, forget it
        (reload the table, or hand it on if another process plays it now) and say so; else tell every watcher."""
        session = table.session
        problem = session.save_problem
        if not problem:
            try:
                await self.saved(table)
            except OSError as error:
                problem = f"The game could not be saved: {error}."
        if problem:
            self.tables.pop(table.table_id, None)
            fresh = self.table(table.table_id)
            if fresh is None:  # another process took the table over: its connections go there
                await self.drop(table, "lost")
            else:
                fresh.watchers = table.watchers
                fresh.quiet_since = None if fresh.watchers else fresh.quiet_since
                for watcher in fresh.watchers:
                    watcher.version = 0
                await self.broadcast(fresh)
            raise Refusal("not-saved", f"{problem} Nothing was changed; try again.")
        if self.metrics is not None:
            self.metrics.actions.inc()
            self.metrics.commit_after_move.observe(time.perf_counter() - moved)
        await self.broadcast(table)
        if self.metrics is not None:
            self.metrics.broadcast_after_move.observe(time.perf_counter() - moved)
        self.wake_bots(table)
        # Not in the mover's own task: a person who closes the page right after the last move must not cancel the
        # game's end on its way to the lobby, the ratings and the histories.
        self.in_background(self._after_move(table))

    async def _after_move(self, table: Table) -> None:
        """After the move that ended the game (any other changes nothing here): the lobby's line of a public table
        goes, and the record goes to those who keep ratings and histories (once).  A round's end changes no line:
        the lobby lists who plays, not the score, so that a thousand games in play do not make it change every
        moment."""
        if not table.session.match.over or table.reported:
            return
        await self._publish_table(table)
        await asyncio.to_thread(self.players.table_over, table.table_id, True)
        await self._report(table)

    async def react(self, table: Table, seat: int | None, reaction: Any) -> None:
        """One of the fixed quick messages, from a seat to everyone at the table (nothing is kept)."""
        if seat is None:
            raise Refusal("spectator", "Spectators cannot react: open the link of a seat to react.")
        if not isinstance(reaction, str) or reaction not in REACTIONS:
            raise Refusal("bad-reaction", f"A reaction is one of {', '.join(REACTIONS)}.")
        if not table.setup["seats"][seat]["joined"]:
            raise Refusal("name-first", "Choose your name first.")
        now = time.monotonic()
        if now - table.reacted.get(seat, -REACTION_SECONDS) < REACTION_SECONDS:
            raise Refusal("too-soon", f"One reaction every {REACTION_SECONDS:g} seconds: wait a moment.")
        table.reacted[seat] = now
        frame = {"type": "reaction", "seat": seat, "reaction": reaction}
        for watcher in list(table.watchers):
            with contextlib.suppress(Exception):
                await watcher.send(frame)

    async def hint(self, table: Table, seat: int | None) -> list[dict[str, Any]]:
        """The advisor's best choices for the seat to act, judged from its own observation (in a worker thread), with
        the sentences that say why and the chance to win the game from the scores, as racko review grades
        (racko.analysis); none at a rated table."""
        session = table.session
        if seat is None or session.to_act != seat or table.over:
            raise Refusal("no-hint", "A hint is for your own turn.")
        if table.setup.get("rated"):  # fair play: in a game that counts, each plays on their own
            raise Refusal("hints-off", "Hints are off in rated games.")
        observation = session.observation(seat)
        seen = seat_history(session.match.round, seat)
        choices = await asyncio.to_thread(explained_choices, observation, seen=seen, names=session.names)
        return [
            hint_json(choice, choice_move(observation, choice).to_json() if choice.why else None)
            for choice in choices[:HINT_CHOICES]
        ]
