"""Who sits where: a new table as its request asks (:mod:`.requests`), people taking and naming seats (one change of
a table's set-up at a time), the next game at the table, the networks a rated table's seats play from, and the seats
of a forgotten player rewritten."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections.abc import Callable
from typing import Any

from racko.play.session import SeatSpec, renamed
from racko.play.text import plain_name
from racko.web.clock import ALL_PRESETS
from racko.web.core import Refusal
from racko.web.ops import Metrics
from racko.web.players import (
    BOT_MARK,
    FORGOTTEN,
    MARKS_PER_SEAT,
    SHARED,
    AddressMarks,
    Player,
    Players,
    posing_as,
    reserved_like,
    shares_a_network,
    unfit_name,
)
from racko.web.store import new_id
from racko.web.table.changes import Changes
from racko.web.table.registry import Registry
from racko.web.table.requests import NAME_LENGTH, BotAccountSeat, LevelSeat, PersonSeat, TableRequest
from racko.web.table.seats import SeatEvent, SeatState
from racko.web.table.setup import SeatSetup, Setup
from racko.web.table.table import (
    TOKEN_BYTES,
    Table,
    not_saved_if_refused,
    noted_record,
    replay_stored,
    said,
    seat_line,
    token_hash,
)

log = logging.getLogger("racko.serve")


class Seating:
    """New tables, and people taking their seats at them."""

    def __init__(
        self,
        registry: Registry,
        changes: Changes,
        players: Players,
        *,
        now: Callable[[], float],
        metrics: Metrics | None = None,
        rate_shared_addresses: bool = False,
        bot_games_at_once: int = 8,
    ) -> None:
        self.registry = registry
        self.changes = changes
        self.players = players
        self.now = now
        self.metrics = metrics
        self.marks = AddressMarks(registry.store)
        self.rate_shared_addresses = rate_shared_addresses
        """Whether a rated table stays rated when two of its seats play from one network address (a school's)."""
        self.bot_games_at_once = bot_games_at_once
        """Games not over a bot account may sit at: a table that would seat it at one more is refused."""
        self._seating_bots = asyncio.Lock()
        self._forgetting = asyncio.Lock()

    async def create(self, request: TableRequest) -> dict[str, Any]:
        """A new table as ``request`` asks (:mod:`.requests`: its consents checked there); its links (a token per
        person seat).  A seat with a player is theirs without its link and has joined under the player's name; a
        bot account's seat is bound to it, has no link, and counts against its games at once.  The table's id is
        the request's if it names one (a tournament's game; the store refuses a second table of one id).  A store of
        one process opens the table here at once; a shared store leaves it to the process its first connection
        reaches."""
        rules = request.rules
        tokens: list[str | None] = [
            secrets.token_urlsafe(TOKEN_BYTES) if isinstance(seat, PersonSeat) else None for seat in request.seats
        ]
        table_id = request.table_id or new_id()
        store = self.registry.store
        async with self._seating_bots:  # a bot account's games are counted and its seat bound one table at a time
            for account in request.bot_accounts:
                await self._may_seat_bot(account)
            setup = Setup(
                rules=rules,
                seed=secrets.randbits(32),
                seats=tuple(_seat_setup(request, index, tokens[index]) for index in range(rules.players)),
                public=request.public,
                rated=request.rated,
                clock=request.clock,
            )
            setup = self._clock_started(setup)
            for index, seat in enumerate(request.seats):
                if isinstance(seat, PersonSeat) and seat.player is not None and seat.address is not None:
                    setup = self._noted(setup, index, await asyncio.to_thread(self.marks.mark, seat.address))
            # Each player's seat is noted first: a player forgotten meanwhile is refused here (the row needs the
            # player's), and one forgotten after it has the seat forgotten too (the note names the seat).
            try:
                for index, spec in enumerate(setup.seats):
                    if spec.player is not None:
                        await asyncio.to_thread(self.players.bind, table_id, index, spec.player, *seat_line(setup))
                store.create(table_id, setup.json(), due=_first_due(table_id, setup))
                await self.registry.commit_now(table_id)
            except BaseException:
                with contextlib.suppress(Exception):
                    await asyncio.to_thread(self.players.unbind, table_id)
                raise
        if self.metrics is not None:
            self.metrics.tables_created.inc()
        table = None if store.shared else self.registry.open(table_id, setup, [])
        if table is not None:
            await self.changes.publish(table)
            self.changes.wake(table)  # a table of computers and bots starts at once
        else:
            await self.changes.tables.publish(_news(table_id, setup))
        return {
            "table": table_id,
            "seats": [
                {"seat": index, "name": setup.seats[index].name, "who": request.who(index), "token": tokens[index]}
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

    def _clock_started(self, setup: Setup) -> Setup:
        """The set-up with its clock started now if every person's seat is taken (a clock waits for everybody: a
        friend's link not opened yet costs nobody time)."""
        if setup.clock is None or setup.clock_from is not None:
            return setup
        if not all(spec.joined for spec in setup.seats if spec.bot is None):
            return setup
        return setup.changed(clock_from=self.now())

    def _noted(self, setup: Setup, seat: int, mark: str | None) -> Setup:
        """The set-up with ``mark`` (a network, racko.web.players.addresses) noted for a person's seat of a rated
        table; the game becomes casual when two seats share a network and the operator does not rate them (the same
        set-up if nothing changes)."""
        spec = setup.seats[seat]
        if mark is None or not setup.rated or spec.bot is not None or mark in spec.networks:
            return setup
        changed = setup.with_seat(seat, networks=(*spec.networks, mark)[-MARKS_PER_SEAT:])
        if not self.rate_shared_addresses and shares_a_network([s.networks for s in changed.seats if s.bot is None]):
            changed = changed.changed(rated=False, casual_because=SHARED)
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
        unfit = unfit_name(name)
        if unfit is not None:
            refused = Refusal("name-unfit", unfit.message, why=unfit.why)
            refused.details.update(unfit.details)  # the character or the scripts, for the page's own words
            raise refused
        clean = plain_name(name)[:NAME_LENGTH].strip() or "Player"
        mark = await asyncio.to_thread(self.marks.mark, address)
        async with self.registry.changing(table) as table:
            if reserved_like(clean) is not None:
                raise Refusal("name-reserved", f"“{clean}” looks like a computer player's name: choose another.")
            others = [spec.name for other, spec in enumerate(table.setup.seats) if other != seat and spec.joined]
            if posing_as(clean, others) is not None:
                raise Refusal("name-taken", f"Somebody at this table is called like “{clean}”: choose another name.")
            free = table.setup.seats[seat].player is None
            bound = player if player is not None and free and table.seat_of_player(player.id) is None else None
            await self._seat_person(table, seat, clean, bound, mark)

    async def _seat_person(
        self, table: Table, seat: int, name: str, player: Player | None = None, mark: str | None = None
    ) -> None:
        """A person sits down at a seat under a name (a player's seat is theirs from then on); the caller holds the
        set-up."""
        setup = table.setup.with_seat(seat, name=name, joined=True)
        if player is not None:
            setup = setup.with_seat(seat, player=player.id)
        setup = self._clock_started(self._noted(setup, seat, mark))
        if player is not None:  # noted first: a player forgotten meanwhile is refused, and a later forgetting
            # finds the seat (as a new table's are, in :meth:`create`)
            await asyncio.to_thread(self.players.bind, table.table_id, seat, player.id, *seat_line(setup))
        try:
            await self.registry.keep_setup(table, setup)
        except Refusal:
            if player is not None:
                with contextlib.suppress(Exception):
                    await asyncio.to_thread(self.players.unbind, table.table_id, seat)
            raise
        await asyncio.to_thread(self.players.seat_names, table.table_id, seat_line(setup)[1])
        session_seats = list(table.session.seats)
        session_seats[seat] = SeatSpec(name, session_seats[seat].bot)
        table.session.seats = tuple(session_seats)
        if table.seats.state(seat) is SeatState.INVITED:
            table.seats.apply(seat, SeatEvent.SIT, self.now())
            if not table.seats.connected(seat):  # taken from the lobby: here once its page opens
                table.seats.apply(seat, SeatEvent.DISCONNECT, self.now())
            await self.registry.note_due(table)  # a clock may run for it now
        await self.changes.after(table, listed=True)

    async def take_seat(self, table: Table, player: Player, address: str | None = None) -> int:
        """A player takes a seat nobody has taken yet at a table listed in the lobby; the seat (theirs already if
        they sit there)."""
        mark = await asyncio.to_thread(self.marks.mark, address)
        async with self.registry.changing(table) as table:
            mine = table.seat_of_player(player.id)
            if mine is not None:
                return mine
            if not table.setup.public:
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
        async with self.registry.changing(table) as table:
            setup = self._noted(table.setup, seat, mark)
            if setup is table.setup:
                return
            casual = setup.rated != table.setup.rated
            await self.registry.keep_setup(table, setup)
        if casual:
            await self.changes.after(table, listed=True)

    async def again(self, table: Table, seat: int | None) -> None:
        """After the game: a new game at the same table, same seats and links."""
        if seat is None:
            raise Refusal("spectator", "Only players can start the next game.")
        if not table.over:
            raise Refusal("not-over", "The game is not over yet.")
        game = table.setup.game
        store = self.registry.store
        async with self.registry.changing(table) as table:
            if table.setup.game != game:
                return  # the next game began meanwhile (both players asked at once)
            with contextlib.suppress(OSError):  # the finished game's record may still be on its way to the database
                await self.registry.commit_now(table.table_id)
            filed = store.records(table.table_id)
            # Filed when it ended, unless that failed; the record filed then is passed on as it was, since the store
            # files a text it does not hold yet, and the record's text changes with a name changed after the game.
            record = (
                filed[game - 1]
                if len(filed) >= game
                else noted_record(table.setup, table.session.record(), table.made_by).dumps()
            )
            # A seat whose person resigned or left keeps its computer player, and is nobody's any more.
            seats = tuple(
                SeatSetup(
                    name=spec.name,
                    bot=spec.bot,
                    token=spec.token if spec.left is None else None,
                    joined=spec.joined,
                    player=spec.player if spec.left is None else None,
                    bot_account=spec.bot_account and spec.left is None,
                    networks=spec.networks,
                    forgotten=spec.forgotten,
                )
                for spec in table.setup.seats
            )
            setup = table.setup.changed(
                seed=secrets.randbits(32),
                game=game + 1,
                seats=seats,
                clock_from=None,
                ended=None,
                offer=None,
                declined=None,
                reminded=None,
            )
            setup = self._clock_started(setup)
            with not_saved_if_refused():
                store.restart(table.table_id, setup.json(), record)
                await self.registry.commit_now(table.table_id)
            watchers = table.watchers
            if table.driver is not None and table.driver is not asyncio.current_task():
                table.driver.cancel()
            fresh = self.registry.open(table.table_id, setup, [])
            fresh.watchers = watchers
            for watcher in watchers:
                watcher.version = 0
                if watcher.viewer is not None:
                    fresh.seats.connect(watcher.viewer, self.now())
            store.set_due(fresh.table_id, fresh.wake_at())
        await self.changes.watching.tell(fresh, {"type": "new-game", "game": setup.game})
        await asyncio.to_thread(self.players.table_over, fresh.table_id, False)
        await self.changes.after(fresh, listed=True)

    async def forget_seats(self) -> None:
        """Carry out the notes "this seat is a forgotten player's now" that forgetting a player left
        (:meth:`Players.forget`: "Forget me", ``racko admin remove``) at the tables this process plays or may claim
        now: the seat's name becomes :data:`FORGOTTEN` in the set-up, the game on, the finished games filed at the
        table, the lobby's line and the players' lists; a table another process holds is left to it.  Called every
        second by the registry's keep loop and at once by the process that forgot."""
        async with self._forgetting:
            try:
                notes = await asyncio.to_thread(self.players.seats_to_forget)
            except Exception as error:  # the database is away a moment: the next turn tries again
                log.warning("could not read the seats to forget: %s", said(error))
                return
            registry = self.registry
            for table_id, seat in notes:
                table = registry.tables.get(table_id)
                if table is None:
                    if table_id in registry.set_aside:
                        continue  # its set-up cannot be read back: the note waits (the operator was told why)
                    if await asyncio.to_thread(registry.store.claim, table_id) is not None:
                        continue  # another process plays it and carries the note out
                    table = registry.tables.get(table_id) or registry.table(table_id)
                    if table is None:
                        if table_id not in registry.set_aside:  # no such table any more: nothing to forget there
                            await asyncio.to_thread(self.players.seat_forgotten, table_id, seat)
                        continue
                try:
                    await self._forget_seat(table, seat)
                except Exception as error:  # kept for the next turn; every other note goes on
                    log.warning("table %s: a forgotten seat could not be rewritten: %s", table_id, said(error))

    async def _forget_seat(self, table: Table, seat: int) -> None:
        store = self.registry.store
        async with self.registry.changing(table) as table:
            if 0 <= seat < len(table.setup.seats):
                setup = table.setup.with_seat(seat, name=FORGOTTEN, player=None, forgotten=True, networks=())
                await self.registry.keep_setup(table, setup)
                session_seats = list(table.session.seats)
                session_seats[seat] = SeatSpec(FORGOTTEN, session_seats[seat].bot)
                table.session.seats = tuple(session_seats)
                filed = await asyncio.to_thread(store.records, table.table_id)
                rewritten = {}
                for number, text in enumerate(filed):
                    if (new := renamed(text, seat, FORGOTTEN)) != text:
                        rewritten[number] = new
                if rewritten:
                    with not_saved_if_refused():
                        store.rewrite_records(table.table_id, rewritten)
                        await self.registry.commit_now(table.table_id)
                await asyncio.to_thread(self.players.seat_names, table.table_id, seat_line(table.setup)[1])
            await asyncio.to_thread(self.players.seat_forgotten, table.table_id, seat)
        await self.changes.after(table, listed=True)


def _news(table_id: str, setup: Setup) -> Any:
    from racko.web.table.changes import TableNews

    return TableNews(table_id, setup, False, False)


def _first_due(table_id: str, setup: Setup) -> float | None:
    """A new table's first deadline (kept in the store, so that any process plays the first turn if its time runs
    out before anybody opens the table)."""
    preset = ALL_PRESETS.get(setup.clock or "")
    start = setup.clock_from
    if preset is None or start is None:
        return None
    seat = replay_stored(table_id, setup, []).to_act
    if seat is None or setup.seats[seat].bot is not None:
        return None
    deadline = start + preset.move + preset.bank
    return deadline - (preset.remind_before or 0.0)  # a turn-based table's first reminder comes first


def _seat_setup(request: TableRequest, index: int, token: str | None) -> SeatSetup:
    """Seat ``index`` of a new table's set-up, as ``request`` asks for it."""
    seat = request.seats[index]
    if isinstance(seat, LevelSeat):
        twice = sum(isinstance(other, LevelSeat) and other.level == seat.level for other in request.seats) > 1
        return SeatSetup(f"{seat.level} {index + 1}" if twice else seat.level, bot=seat.level, joined=True)
    if isinstance(seat, BotAccountSeat):  # bound to the account, no link, marked as a bot (docs/BOTS.md)
        return SeatSetup(seat.account.name + BOT_MARK, joined=True, player=seat.account.id, bot_account=True)
    player = seat.player
    return SeatSetup(
        player.name if player is not None else seat.name or f"Player {index + 1}",
        token=token_hash(token) if token else None,
        joined=seat.me or player is not None,
        player=player.id if player is not None else None,
    )
