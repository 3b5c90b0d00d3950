"""Computer players at a table: each thinks in a worker thread when its seat is to act, after the table's pace, and
plays through the same commit as a person's move."""

from __future__ import annotations

import asyncio
import contextlib
import time

from racko.web.core import Refusal
from racko.web.table.moves import Moves
from racko.web.table.state import Table

RETRY_SECONDS = 1.0
"""The pause before a computer player tries again a move the database refused."""


class ComputerPlayers(Moves):
    """The computer players of every table (:class:`Moves` commits what they play)."""

    def wake_bots(self, table: Table, pause: float = 0.0) -> None:
        """Start the computer players' moves (after ``pause`` seconds) if one is to act and none is thinking yet."""
        if table.thinking is not None and not table.thinking.done():
            return
        if table.session.bot_to_act() is None or table.over:
            return
        with contextlib.suppress(RuntimeError):  # no running loop (a table opened outside the server)
            table.thinking = asyncio.get_running_loop().create_task(self._bots_play(table, pause))

    async def _bots_play(self, table: Table, pause: float = 0.0) -> None:
        if pause:
            await asyncio.sleep(pause)
        session = table.session
        while not table.over and self.tables.get(table.table_id) is table:
            bot = session.bot_to_act()
            seat = session.to_act
            if bot is None or seat is None:
                return
            await asyncio.sleep(self.pace)
            observation = session.observation(seat)
            version = session.version
            # The bot thinks in a worker thread: a slow bot never holds up another table.
            started = time.perf_counter()
            action = await asyncio.to_thread(bot.act, observation)
            if self.metrics is not None:
                self.metrics.thinking.observe(time.perf_counter() - started)
            handed_on = self.tables.get(table.table_id) is not table
            if session.version != version or session.bot_to_act() is not bot or handed_on or table.over:
                continue  # the table changed meanwhile (a seat handed over, the table handed on): think again
            session.play_bot(action)
            try:
                await self._committed(table, time.perf_counter())
            except Refusal:
                # The database refused the move and the table was reloaded without it: the reloaded table's computer
                # player tries again, after a pause, so that a database that stays down is not hammered.
                fresh = self.tables.get(table.table_id)
                if fresh is not None:
                    self.wake_bots(fresh, RETRY_SECONDS)
                return
