"""Who sits where: a new table as its request asks, people taking and naming seats (one change of a table's
set-up at a time), a seat handed to a computer player, the next game at the table, the networks a rated table's seats
play from, and the seats of a forgotten player rewritten."""

from __future__ import annotations

import asyncio
import contextlib
import secrets
import time
from collections.abc import AsyncIterator
from typing import Any

from racko.play.session import SeatSpec, bots_for, renamed
from racko.play.text import plain_name
from racko.web.clock import ALL_PRESETS
from racko.web.core import Refusal
from racko.web.players import (
    BOT_MARK,
    FORGOTTEN,
    MARKS_PER_SEAT,
    SHARED,
    Player,
    posing_as,
    reserved_like,
    shares_a_network,
)
from racko.web.table import timing
from racko.web.table.computer import ComputerPlayers
from racko.web.table.registry import log
from racko.web.table.requests import NAME_LENGTH, BotAccountSeat, LevelSeat, PersonSeat, TableRequest
from racko.web.table.state import (
    TOKEN_BYTES,
    Table,
    journal_made_by,
    new_id,
    not_saved_if_refused,
    noted_record,
    replay_stored,
    said,
    seat_line,
    token_hash,
)

AWAY = "away"
"""How a seat handed to a computer player by the others (its person away) was left (the set-up's ``left``)."""


class Seating(ComputerPlayers):
    """Seats and set-ups (:class:`ComputerPlayers` and the classes below it play the game)."""

    async def create(self, request: TableRequest) -> dict[str, Any]:
        """A new table as ``request`` asks (:mod:`.requests`: its consents checked there); its links (a token per
        person seat).  A seat with a player is theirs without its link and has joined under the player's name; a
        bot account's seat is bound to it, has no link, and counts against its games at once.  A store of one
        process opens the table here at once; a shared store leaves it to the process its first connection
        reaches."""
        rules = request.rules
        tokens: list[str | None] = [
            secrets.token_urlsafe(TOKEN_BYTES) if isinstance(seat, PersonSeat) else None for seat in request.seats
        ]
        table_id = new_id()
        async with self._seating_bots:  # a bot account's games are counted and its seat bound one table at a time
            for account in request.bot_accounts:
                await self._may_seat_bot(account)
            setup: dict[str, Any] = {
                "rules": rules.to_dict(),
                "seed": secrets.randbits(32),
                "game": 1,
                "public": request.public,
                "rated": request.rated,
                "clock": request.clock,
                "clock_from": None,
                "seats": [_seat_spec(request, index, tokens[index]) for index in range(rules.players)],
            }
            setup = self._clock_started(setup)
            for index, seat in enumerate(request.seats):
                if isinstance(seat, PersonSeat) and seat.player is not None and seat.address is not None:
                    setup = self._noted(setup, index, await asyncio.to_thread(self.marks.mark, seat.address))
            # Each player's seat is noted first: a player forgotten meanwhile is refused here (the row needs the
            # player's), and one forgotten after it has the seat forgotten too (the note names the seat).
            seated = [(index, spec["player"]) for index, spec in enumerate(setup["seats"]) if spec.get("player")]
            try:
                for index, player_id in seated:
                    await asyncio.to_thread(self.players.bind, table_id, index, player_id, *seat_line(setup))
                self.store.create(table_id, setup, due=_first_due(table_id, setup))
                await self._commit_now(table_id)
            except BaseException:
                with contextlib.suppress(Exception):
                    await asyncio.to_thread(self.players.unbind, table_id)
                raise
        await self._publish(table_id, setup, None)
        if self.metrics is not None:
            self.metrics.tables_created.inc()
        if not self.store.shared:
            self._open(table_id, setup, [])
        return {
            "table": table_id,
            "seats": [
                {
                    "seat": index,
                    "name": setup["seats"][index]["name"],
                    "who": request.who(index),
                    "token": tokens[index],
                }
                for index in range(rules.players)
            ],
        }

    async def _may_seat_bot(self, account: Player) -> None:
        """A ``too-many-games`` refusal if the bot account sits at as many games not over as a bot may."""
        playing = await asyncio.to_thread(self.players.unfinished, account.id)
        if playing >= self.bot_games_at_once:
            raise Refusal(
                "too-many-games",
                f"{account.name} plays {playing} games already, as many at once as this server lets a bot play: "
                "finish one first.",
            )

    @contextlib.asynccontextmanager
    async def _changing(self, table: Table) -> AsyncIterator[Table]:
        """Hold the table's set-up for one change (who sits where, their names, a seat handed over, the next game):
        changes of one table's set-up take turns, so that two people joining or naming themselves at once both
        keep theirs.  Yields the table as it is once it is this change's turn (it may have been opened again
        meanwhile).  Only the process holding a table's lease writes its set-up (racko.web.store), so this orders
        them in every process."""
        lock = self._setup_locks.setdefault(table.table_id, asyncio.Lock())
        async with lock:
            yield self.tables.get(table.table_id, table)

    async def _keep_setup(self, table: Table, setup: dict[str, Any]) -> None:
        """A changed set-up (made while :meth:`_changing` holds the table): in the database first, then here; a
        database that refuses changes nothing."""
        with not_saved_if_refused():
            self.store.update_setup(table.table_id, setup)
            await self._commit_now(table.table_id)
        table.setup = setup
        timing.refresh(table)  # a clock started, a seat back, a seat handed to a computer player
        self.store.set_due(table.table_id, timing.wake_at(table))
        with contextlib.suppress(OSError):  # the deadline is for other processes: the next write brings it again
            await self._commit_now(table.table_id)

    def _clock_started(self, setup: dict[str, Any]) -> dict[str, Any]:
        """The set-up with its clock started now if every person's seat is taken (a clock waits for everybody: a
        friend's link not opened yet costs nobody time)."""
        if setup.get("clock") is None or setup.get("clock_from") is not None:
            return setup
        if not all(spec["joined"] for spec in setup["seats"] if spec["bot"] is None):
            return setup
        return {**setup, "clock_from": self.now()}

    def _noted(self, setup: dict[str, Any], seat: int, mark: str | None) -> dict[str, Any]:
        """The set-up with ``mark`` (a network, racko.web.addresses) noted for a person's seat of a rated table; the
        game becomes casual when two seats share a network and the operator does not rate them (the same set-up
        if nothing changes)."""
        spec = setup["seats"][seat]
        marks = spec.get("networks") or []
        if mark is None or not setup.get("rated") or spec["bot"] is not None or mark in marks:
            return setup
        seats = list(setup["seats"])
        seats[seat] = {**spec, "networks": [*marks, mark][-MARKS_PER_SEAT:]}
        changed = {**setup, "seats": seats}
        if not self.rate_shared_addresses and shares_a_network(seats):
            changed.update(rated=False, casual_because=SHARED)
        return changed

    async def name(
        self, table: Table, seat: int | None, name: Any, player: Player | None = None, address: str | None = None
    ) -> None:
        """A person opening a seat's link names themselves; a player (the lobby's cookie) is bound to the seat, so
        that it opens without its link and the game goes into their history (and rating), unless they have a seat
        at this table already (one browser playing two seats)."""
        if seat is None:
            raise Refusal("spectator", "Spectators have no seat to name.")
        if not isinstance(name, str) or not name.strip():
            raise Refusal("bad-name", "A name is some text, such as Ann.")
        clean = plain_name(name)[:NAME_LENGTH].strip() or "Player"
        mark = await asyncio.to_thread(self.marks.mark, address)
        async with self._changing(table) as table:
            if reserved_like(clean) is not None:
                raise Refusal("name-reserved", f"“{clean}” looks like a computer player's name: choose another.")
            others = [
                spec["name"] for other, spec in enumerate(table.setup["seats"]) if other != seat and spec["joined"]
            ]
            if posing_as(clean, others) is not None:
                raise Refusal("name-taken", f"Somebody at this table is called like “{clean}”: choose another name.")
            free = table.setup["seats"][seat].get("player") is None
            bound = player if player is not None and free and table.seat_of_player(player.id) is None else None
            await self._seat_person(table, seat, clean, bound, mark)

    async def _seat_person(
        self, table: Table, seat: int, name: str, player: Player | None = None, mark: str | None = None
    ) -> None:
        """A person sits down at a seat under a name (a player's seat is theirs from then on); the caller holds
        :meth:`_changing`."""
        seats = list(table.setup["seats"])
        seats[seat] = {**seats[seat], "name": name, "joined": True}
        if player is not None:
            seats[seat]["player"] = player.id
        setup = self._clock_started(self._noted({**table.setup, "seats": seats}, seat, mark))
        if player is not None:  # noted first: a player forgotten meanwhile is refused, and a later forgetting
            # finds the seat (as a new table's are, in :meth:`create`)
            await asyncio.to_thread(self.players.bind, table.table_id, seat, player.id, *seat_line(setup))
        try:
            await self._keep_setup(table, setup)
        except Refusal:
            if player is not None:
                with contextlib.suppress(Exception):
                    await asyncio.to_thread(self.players.unbind, table.table_id, seat)
            raise
        await asyncio.to_thread(self.players.seat_names, table.table_id, seat_line(setup)[1])
        session_seats = list(table.session.seats)
        session_seats[seat] = SeatSpec(name, session_seats[seat].bot)
        table.session.seats = tuple(session_seats)
        await self.broadcast(table)
        await self._tell_presence(table)
        self.wake_bots(table)  # the clock may have started
        await self._publish_table(table)

    async def take_seat(self, table: Table, player: Player, address: str | None = None) -> int:
        """A player takes a seat nobody has taken yet at a table listed in the lobby; the seat (theirs already if
        they sit there)."""
        mark = await asyncio.to_thread(self.marks.mark, address)
        async with self._changing(table) as table:
            mine = table.seat_of_player(player.id)
            if mine is not None:
                return mine
            if not table.setup.get("public"):
                raise Refusal("not-public", "This table is by invitation only: ask for a seat's link.")
            if table.over:
                raise Refusal("over", "The game is over.")
            seat = table.open_seat()
            if seat is None:
                raise Refusal("full", "Every seat at this table is taken.")
            await self._seat_person(table, seat, player.name, player, mark)
            return seat

    async def note_network(self, table: Table, seat: int | None, mark: str | None) -> None:
        """A seat's person connected from a network: noted at a rated table (which may become casual)."""
        if seat is None or mark is None:
            return
        if self._noted(table.setup, seat, mark) is table.setup:
            return  # nothing new: no lock, no write (the common case, at every connection)
        async with self._changing(table) as table:
            setup = self._noted(table.setup, seat, mark)
            if setup is table.setup:
                return
            casual = setup.get("rated") != table.setup.get("rated")
            await self._keep_setup(table, setup)
        if casual:
            await self._tell_presence(table)
            await self._publish_table(table)

    async def hand_over(self, table: Table, seat: int | None, other: Any, bot_name: Any) -> None:
        """A seated person hands the seat of a person who has been away long enough to a computer player."""
        if seat is None:
            raise Refusal("spectator", "Only players at the table can hand a seat to a computer player.")
        if not isinstance(other, int) or isinstance(other, bool) or not 0 <= other < len(table.session.seats):
            raise Refusal("bad-frame", "There is no such seat.")
        if table.session.seats[other].bot is not None:
            raise Refusal("bad-frame", "A computer player sits there already.")
        since = table.away_since.get(other)
        if table.connected(other) or since is None:
            raise Refusal("not-away", "That player is at the table.")
        waited = time.monotonic() - since
        if waited < self.away_seconds:
            raise Refusal("not-away", f"Wait {round(self.away_seconds - waited)} more seconds for them to come back.")
        chosen = bot_name if isinstance(bot_name, str) else ""
        if chosen not in bots_for(table.session.rules.variant):
            raise Refusal("bad-frame", f"Choose a computer player: {', '.join(bots_for(table.session.rules.variant))}.")
        async with self._changing(table) as table:
            if table.session.seats[other].bot is not None:
                raise Refusal("bad-frame", "A computer player sits there already.")
            seats = list(table.setup["seats"])
            # The person who went away left the game: rated last and a game left (as by the clock), never credited
            # with the computer player's play.
            left = {"how": AWAY, "after": len(table.played), "at": self.now()}
            seats[other] = {**seats[other], "bot": chosen, "token": None, "left": left}
            await self._keep_setup(table, {**table.setup, "seats": seats})
            table.session.hand_to_bot(other, chosen)
            table.away_since.pop(other, None)
        await self.broadcast(table)
        await self._tell_presence(table)
        self.wake_bots(table)
        await self._publish_table(table)

    async def again(self, table: Table, seat: int | None) -> None:
        """After the game: a new game at the same table, same seats and links."""
        if seat is None:
            raise Refusal("spectator", "Only players can start the next game.")
        if not table.over:
            raise Refusal("not-over", "The game is not over yet.")
        game = table.setup["game"]
        async with self._changing(table) as table:
            if table.setup["game"] != game:
                return  # the next game began meanwhile (both players asked at once)
            with contextlib.suppress(OSError):  # the finished game's record may still be on its way to the database
                await self._commit_now(table.table_id)
            filed = self.store.records(table.table_id)
            # Filed when it ended, unless that failed; the record filed then is passed on as it was, since the store
            # files a text it does not hold yet, and the record's text changes with a name changed after the game.
            record = (
                filed[game - 1]
                if len(filed) >= game
                else noted_record(table.setup, table.session.record(), journal_made_by(table)).dumps()
            )
            # A seat whose person resigned or left keeps its computer player, and is nobody's any more.
            seats = [
                {key: value for key, value in spec.items() if key not in ("back", "left")}
                | ({"player": None} if spec.get("left") else {})
                for spec in table.setup["seats"]
            ]
            setup = {key: value for key, value in table.setup.items() if key not in ("ended", "offer", "declined")} | {
                "seed": secrets.randbits(32),
                "game": game + 1,
                "seats": seats,
                "clock_from": None,
            }
            setup = self._clock_started(setup)
            with not_saved_if_refused():
                self.store.restart(table.table_id, setup, record)
                await self._commit_now(table.table_id)
            watchers = table.watchers
            fresh = self._open(table.table_id, setup, [])
            fresh.watchers = watchers
            self.store.set_due(fresh.table_id, timing.wake_at(fresh))
        for watcher in watchers:
            watcher.version = 0
            with contextlib.suppress(Exception):
                await watcher.send({"type": "new-game", "game": setup["game"]})
        await self.broadcast(fresh)
        self.wake_bots(fresh)
        await self._publish_table(fresh)
        await asyncio.to_thread(self.players.table_over, fresh.table_id, False)

    async def forget_seats(self) -> None:
        """Carry out the notes "this seat is a forgotten player's now" that forgetting a player left
        (:meth:`Players.forget`: "Forget me", ``racko admin remove``) at the tables this process plays or may claim
        now: the seat's name becomes :data:`FORGOTTEN` in the set-up, the game on, the finished games filed at the
        table, the lobby's line and the players' lists; a table another process holds is left to it.  Called at
        every turn of :meth:`keep` (so within a second in any process) and at once by the process that forgot."""
        async with self._forgetting:
            try:
                notes = await asyncio.to_thread(self.players.seats_to_forget)
            except Exception as error:  # the database is away a moment: the next turn tries again
                log.warning("could not read the seats to forget: %s", said(error))
                return
            for table_id, seat in notes:
                table = self.tables.get(table_id)
                if table is None:
                    if table_id in self.set_aside:
                        continue  # its set-up cannot be read back: the note waits (the operator was told why)
                    if await asyncio.to_thread(self.store.claim, table_id) is not None:
                        continue  # another process plays it and carries the note out
                    table = self.tables.get(table_id) or self._load(table_id)
                    if table is None:
                        if table_id not in self.set_aside:  # no such table any more: nothing to forget there
                            await asyncio.to_thread(self.players.seat_forgotten, table_id, seat)
                        continue
                try:
                    await self._forget_seat(table, seat)
                except Exception as error:  # kept for the next turn; every other note goes on
                    log.warning("table %s: a forgotten seat could not be rewritten: %s", table_id, said(error))

    async def _forget_seat(self, table: Table, seat: int) -> None:
        async with self._changing(table) as table:
            seats = list(table.setup["seats"])
            if 0 <= seat < len(seats):
                spec = seats[seat]
                seats[seat] = {**spec, "name": FORGOTTEN, "player": None, "forgotten": True, "networks": []}
                await self._keep_setup(table, {**table.setup, "seats": seats})
                session_seats = list(table.session.seats)
                session_seats[seat] = SeatSpec(FORGOTTEN, session_seats[seat].bot)
                table.session.seats = tuple(session_seats)
                filed = await asyncio.to_thread(self.store.records, table.table_id)
                rewritten = {}
                for number, text in enumerate(filed):
                    if (new := renamed(text, seat, FORGOTTEN)) != text:
                        rewritten[number] = new
                if rewritten:
                    with not_saved_if_refused():
                        self.store.rewrite_records(table.table_id, rewritten)
                        await self._commit_now(table.table_id)
                await asyncio.to_thread(self.players.seat_names, table.table_id, seat_line(table.setup)[1])
            await asyncio.to_thread(self.players.seat_forgotten, table.table_id, seat)
        await self.broadcast(table)
        await self._tell_presence(table)
        await self._publish_table(table)


def _first_due(table_id: str, setup: dict[str, Any]) -> float | None:
    """A new table's first deadline (kept in the store, so that any process plays the first turn if its time runs
    out before anybody opens the table)."""
    preset = ALL_PRESETS.get(setup.get("clock") or "")
    start = setup.get("clock_from")
    if preset is None or start is None:
        return None
    seat = replay_stored(table_id, setup, []).to_act
    if seat is None or setup["seats"][seat]["bot"] is not None:
        return None
    deadline = float(start) + preset.move + preset.bank
    return deadline - (preset.remind_before or 0.0)  # a turn-based table's first reminder comes first


def _seat_spec(request: TableRequest, index: int, token: str | None) -> dict[str, Any]:
    """Seat ``index`` of a new table's set-up, as ``request`` asks for it."""
    seat = request.seats[index]
    if isinstance(seat, LevelSeat):
        twice = sum(isinstance(other, LevelSeat) and other.level == seat.level for other in request.seats) > 1
        label = f"{seat.level} {index + 1}" if twice else seat.level
        return {"name": label, "bot": seat.level, "token": None, "joined": True, "player": None}
    if isinstance(seat, BotAccountSeat):  # bound to the account, no link, marked as a bot (docs/BOTS.md)
        name = seat.account.name + BOT_MARK
        return {"name": name, "bot": None, "token": None, "joined": True, "player": seat.account.id, "account": "bot"}
    player = seat.player
    return {
        "name": player.name if player is not None else seat.name or f"Player {index + 1}",
        "bot": None,
        "token": token_hash(token) if token else None,
        "joined": seat.me or player is not None,
        "player": player.id if player is not None else None,
    }
