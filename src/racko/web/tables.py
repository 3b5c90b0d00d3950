"""The server's tables: seats and their tokens, versions, the watchers of each table, computer players.

Framework-free: :mod:`racko.web.app` carries frames between browsers and a :class:`Hub`.  Each table is a
:class:`~racko.play.session.PlaySession` (the play loop every front end drives) kept in a :class:`TableStore`
journal; an action is committed there before any watcher is told.  Every watcher gets frames built for its own
viewer (:mod:`racko.web.views`), with the version they bring it to: a client names the version it saw when it acts,
and a stale one is refused.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import json
import logging
import secrets
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Coroutine, Iterator
from dataclasses import dataclass, field
from typing import Any

from racko import bots
from racko.analysis.evaluate import seat_history
from racko.analysis.explain import choice_move, explained_choices
from racko.errors import IllegalActionError, RackoError
from racko.families import AnyAction, family_of
from racko.match import Match
from racko.play.session import PlaySession, SeatSpec, bots_for, renamed
from racko.play.text import plain_name
from racko.record import GameRecord
from racko.rules import Rules, variant
from racko.web.addresses import MARKS_PER_SEAT, SHARED, AddressMarks, shares_a_network
from racko.web.metrics import Metrics
from racko.web.names import posing_as, reserved_like
from racko.web.players import FORGOTTEN, Player, Players
from racko.web.store import IDLE_DAYS, UNPLAYED_DAYS, DamagedTableError, TableStore
from racko.web.views import hint_json, log_entries, table_setup, view_of

TOKEN_BYTES = 24
"""A seat token is 192 random bits: nobody can guess one, and one table's token is worthless at another (it is
checked against that table's seats only)."""
NAME_LENGTH = 24
HINT_CHOICES = 3
"""How many of the advisor's choices a hint shows, best first."""
RETRY_SECONDS = 1.0
"""The pause before a computer player tries again a move the database refused."""
KEEP_SECONDS = 1.0
"""How often the leases of the tables this process plays are renewed (and idle tables looked for)."""
IDLE_SECONDS = 600.0
"""A table nobody has watched for this long (and no computer player is thinking at) leaves this process's memory;
the next connection opens it again from the database."""
SWEEP_SECONDS = 3600.0
"""How often the tables nobody needs any more are forgotten (and once at start)."""
MOVED = 4012
"""The close code that tells a page to reconnect at once: the table is played by another process now."""
REPLACED = 4409
"""The close code of a connection whose seat was opened on another connection since."""
REACTIONS = ("gg", "wp", "oops", "your-turn", "thinking")
"""The quick messages a seat may send to the table (the page words them in its language): no free text."""
REACTION_SECONDS = 2.5
"""A seat may react once in this many seconds."""
ME, PERSON = "me", "person"


class WebError(RackoError):
    """A frame the server refuses: ``code`` for programs, the message for people."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


class Elsewhere(WebError):
    """The table is played by another server process, alive and renewing its lease: the connection is told which."""

    def __init__(self, node: str) -> None:
        super().__init__("elsewhere", f"This table is played by the server {node}: reconnecting there.")
        self.node = node


DAMAGED = "This table cannot be opened: its saved game is damaged. The server's operator has been told why."
log = logging.getLogger("racko.serve")


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def new_id() -> str:
    return secrets.token_urlsafe(9)


@dataclass
class Watcher:
    """One open connection: who it sees the table as, and the version it was last brought to."""

    viewer: int | None
    send: Callable[[dict[str, Any]], Awaitable[None]]
    version: int = 0
    close: Callable[[int], Awaitable[None]] | None = None
    """Closes the connection with a code (the page reconnects after :data:`MOVED`)."""
    replaced: bool = False
    """The same seat was opened on another connection since: this one is told so and closed."""
    network: str | None = None
    """The mark of the network the connection comes from (racko.web.addresses), for a rated table's seats."""


@dataclass
class Table:
    table_id: str
    setup: dict[str, Any]
    session: PlaySession
    watchers: list[Watcher] = field(default_factory=list)
    away_since: dict[int, float] = field(default_factory=dict)
    """Per person seat whose person has no connection open: since when."""
    thinking: asyncio.Task[None] | None = None
    lost: str | None = None
    """Why this table's last move was not committed (a failed group commit): it is reloaded from the store."""
    quiet_since: float | None = None
    """Since when nobody has watched the table (monotonic seconds); ``None`` while somebody does."""
    turn: tuple[int | None, int] | None = None
    turn_since: float = 0.0
    """Whose turn it is (seat, round) and since when: every page shows how long the seat to act has had."""
    reacted: dict[int, float] = field(default_factory=dict)
    """Per seat, when it last sent a reaction."""
    reported: bool = False
    """Whether this game's end was passed on (ratings, histories)."""

    @property
    def version(self) -> int:
        return self.session.version

    def seat_of_player(self, player_id: str) -> int | None:
        """The seat bound to this player, if any."""
        return seat_of_player(self.setup, player_id)

    def open_seat(self) -> int | None:
        """A person's seat nobody has taken yet, or None."""
        return next((seat for seat, spec in enumerate(self.setup["seats"]) if seat_is_free(spec)), None)

    def seat_of(self, token: str | None) -> int | None:
        return seat_of_token(self.setup, token)

    def connected(self, seat: int) -> bool:
        return any(watcher.viewer == seat for watcher in self.watchers)

    def note_turn(self) -> float:
        """How long the seat to act has had, in seconds: its clock starts when the turn passes or a round begins."""
        now = time.monotonic()
        turn = (self.session.to_act, len(self.session.match.results))
        if turn != self.turn:
            self.turn, self.turn_since = turn, now
        return now - self.turn_since


class JournalStore:
    """The play session's store at a server table: appends the actions not yet in the journal."""

    def __init__(self, store: TableStore, table_id: str, stored: int) -> None:
        self.store = store
        self.table_id = table_id
        self.stored = stored

    def save(self, record: GameRecord) -> None:
        family = family_of(record.rules)
        actions = [action for round_ in record.rounds for action in round_.actions]
        new = [family.action_to_json(action) for action in actions[self.stored :]]
        if not new:
            return
        try:
            self.store.append(self.table_id, self.stored, new)
        except Exception as error:  # a database error must reach the players as a failed save, like a full disk
            raise OSError(f"the table's database refused the move ({error})") from None
        self.stored = len(actions)

    def finish(self, record: GameRecord) -> str:
        self.save(record)
        try:
            self.store.finish(self.table_id, record.dumps())
        except Exception as error:
            raise OSError(f"the table's database refused the finished game ({error})") from None
        return f"/api/tables/{self.table_id}/record"


class Hub:
    """Every table this server process plays, and the people watching them.

    With a store that several processes share, a table is played here only while this process holds its lease
    (:meth:`TableStore.claim`): :meth:`keep` renews the leases, drops a table whose lease was lost, and hands on the
    tables nobody watches any more, so that whichever process a proxy sends the next connection to can claim them."""

    def __init__(
        self,
        store: TableStore,
        *,
        pace: float = 0.8,
        away_seconds: float = 60.0,
        idle_seconds: float = IDLE_SECONDS,
        metrics: Metrics | None = None,
        rate_shared_addresses: bool = False,
    ) -> None:
        self.store = store
        self.pace = pace
        """Seconds a computer player waits before its move, so that people can follow."""
        self.away_seconds = away_seconds
        self.idle_seconds = idle_seconds
        self.metrics = metrics
        self.tables: dict[str, Table] = {}
        self.set_aside: dict[str, str] = {}
        """Tables whose stored rows cannot be replayed, and why: refused with :data:`DAMAGED`, never played."""
        self._commit: asyncio.Task[None] | None = None
        """The group commit under way, in a worker thread (a store that groups its commits only)."""
        self.players = Players(store)
        self.listeners: list[Callable[[], None]] = []
        """Told when a public table's listing changed (the lobby, which then looks again)."""
        self.background: set[asyncio.Task[None]] = set()
        """Tasks a game's end set going (its lobby line, ratings, histories), kept until done."""
        self.game_over_hooks: list[Callable[[Table, GameRecord], Awaitable[None]]] = []
        """Called once when a table's game ends, with its record (ratings and the players' histories)."""
        self.rate_shared_addresses = rate_shared_addresses
        """Whether a rated table stays rated when two of its seats play from one network address (a school's)."""
        self.marks = AddressMarks(store)
        self._setup_locks: dict[str, asyncio.Lock] = {}
        """Per table, held while its set-up changes (:meth:`_changing`)."""
        self._forgetting = asyncio.Lock()

    # --- setting tables up ---------------------------------------------------------------------------

    async def create(
        self,
        form: dict[str, Any],
        players: list[Player | None] | None = None,
        addresses: list[str | None] | None = None,
    ) -> dict[str, Any]:
        """A new table from the start page's form; returns its links (a token per person seat).  ``players``: the
        player sitting in each seat, whose seat is theirs without its link (the maker's own seat, or everybody
        quick play seated); a seat with a player has joined under the player's name.  ``addresses``: where each
        seated person asked from (a rated table notes their networks, racko.web.addresses).  A store of one process
        opens the table here at once; a shared store leaves it to the process its first connection reaches."""
        rules, seats, tokens = _setup_from_form(form)
        bound = list(players or []) + [None] * (len(seats) - len(players or []))
        asked_from = list(addresses or []) + [None] * (len(seats) - len(addresses or []))
        table_id = new_id()
        setup: dict[str, Any] = {
            "rules": rules.to_dict(),
            "seed": secrets.randbits(32),
            "game": 1,
            "public": form.get("public") is True,
            "rated": form.get("rated") is True,
            "seats": [
                {
                    "name": player.name if (player := bound[index]) is not None and seat.bot is None else seat.name,
                    "bot": seat.bot,
                    "token": _hash(token) if (token := tokens[index]) else None,
                    "joined": seat.bot is not None or form_seat_is_me(form, index) or player is not None,
                    "player": player.id if player is not None and seat.bot is None else None,
                }
                for index, seat in enumerate(seats)
            ],
        }
        for index, address in enumerate(asked_from):
            if address is not None and seats[index].bot is None:
                setup = self._noted(setup, index, await asyncio.to_thread(self.marks.mark, address))
        # Each player's seat is noted first: a player forgotten meanwhile is refused here (the row needs the
        # player's), and one forgotten after it has the seat forgotten too (the note names the seat).
        seated = [
            (index, player) for index, player in enumerate(bound) if player is not None and seats[index].bot is None
        ]
        try:
            for index, player in seated:
                await asyncio.to_thread(self.players.bind, table_id, index, player.id, *_seat_line(setup))
            self.store.create(table_id, setup)
            await self._commit_now(table_id)
        except BaseException:
            with contextlib.suppress(Exception):
                await asyncio.to_thread(self.players.unbind, table_id)
            raise
        await self._list(table_id, setup, None)
        if self.metrics is not None:
            self.metrics.tables_created.inc()
        if not self.store.shared:
            self._open(table_id, setup, [])
        return {
            "table": table_id,
            "seats": [
                {"seat": index, "name": seat.name, "who": _who(form, index), "token": tokens[index]}
                for index, seat in enumerate(seats)
            ],
        }

    async def _list(self, table_id: str, setup: dict[str, Any], session: PlaySession | None) -> None:
        """Keep a public table's line in the lobby up to date (in the database, so that every process's lobby sees
        it), and tell this process's lobby."""
        if not setup.get("public"):
            return
        seats = setup["seats"]
        open_seats = sum(1 for spec in seats if seat_is_free(spec))
        match = session.match if session is not None else None
        over = match is not None and match.over
        rules = Rules.from_dict(setup["rules"])
        listing = {
            "table": table_id,
            "variant": rules.variant,
            "players": rules.players,
            "target": rules.target,
            "rated": bool(setup.get("rated")),
            "seats": [
                {"name": spec["name"] if spec["joined"] or spec["bot"] else None, "bot": spec["bot"]} for spec in seats
            ],
            "open_seats": open_seats,
            "over": over,
        }
        text = json.dumps(listing)
        await asyncio.to_thread(
            self.store.run,
            lambda rows: rows(
                "INSERT INTO racko_listings (table_id, listing, open_seats, over, updated) VALUES (?, ?, ?, ?, ?) "
                "ON CONFLICT (table_id) DO UPDATE SET listing = excluded.listing, open_seats = excluded.open_seats, "
                "over = excluded.over, updated = excluded.updated",
                (table_id, text, open_seats, int(over), time.time()),
            ),
        )
        for listener in self.listeners:
            listener()

    def _open(self, table_id: str, setup: dict[str, Any], actions: list[dict[str, Any]]) -> Table:
        """The table replayed from its set-up and journal; :class:`DamagedTableError` if they are not a game."""
        match = replay_stored(table_id, setup, actions)
        try:
            seats = [SeatSpec(spec["name"], spec["bot"]) for spec in setup["seats"]]
        except (RackoError, KeyError, TypeError, ValueError) as error:
            raise DamagedTableError(table_id, f"its set-up is not a game ({_said(error)})") from None
        try:
            store = JournalStore(self.store, table_id, len(actions))
            session = PlaySession(match, seats, store, bot_seed=setup["seed"])
        except (RackoError, KeyError, TypeError, ValueError) as error:
            raise DamagedTableError(table_id, f"its seats are not a game's ({_said(error)})") from None
        table = Table(table_id, setup, session, quiet_since=time.monotonic())
        self.tables[table_id] = table
        now = time.monotonic()
        for seat, spec in enumerate(setup["seats"]):
            if spec["bot"] is None:
                table.away_since[seat] = now
        return table

    def table(self, table_id: str) -> Table | None:
        """The table if this process plays it or may start to now (claimed and loaded from the store); ``None`` if
        there is no such table, it is set aside, or another process holds it."""
        if not isinstance(table_id, str) or not 0 < len(table_id) <= 40:
            return None
        table = self.tables.get(table_id)
        if table is not None or table_id in self.set_aside:
            return table
        if self.store.claim(table_id) is not None:
            return None
        return self._load(table_id)

    def _load(self, table_id: str) -> Table | None:
        """Open a table this process has claimed; a damaged one is set aside (one line in the log, no traceback)."""
        try:
            stored = self.store.load(table_id)
            if stored is not None:
                table = self._open(table_id, stored.setup, list(stored.actions))
                log.info("table %s opened at version %d", table_id, table.version)
                if table.session.match.over:  # its end may not have been passed on before a crash
                    with contextlib.suppress(RuntimeError):  # no running loop: nobody to pass it to
                        self.in_background(self._report(table))
                return table
        except DamagedTableError as damage:
            self.set_aside[table_id] = damage.reason
            log.warning("table %s set aside: %s", table_id, damage.reason)
            if self.metrics is not None:
                self.metrics.tables_set_aside.inc()
        self.store.release(table_id)
        return None

    async def reach(self, table_id: str) -> Table:
        """The table for a new connection.  If another process holds it, wait for its lease to run out (a process
        that died) unless that process renews it meanwhile (alive: :class:`Elsewhere` says which one).  Raises
        :class:`WebError` ``no-table`` or ``damaged`` too."""
        if not isinstance(table_id, str) or not 0 < len(table_id) <= 40:
            raise WebError("no-table", "There is no such table.")
        deadline: float | None = None
        seen: float | None = None
        while (table := self.tables.get(table_id)) is None:
            if table_id in self.set_aside:
                raise WebError("damaged", DAMAGED)
            holder = await asyncio.to_thread(self.store.claim, table_id)
            if table_id in self.tables:
                continue  # another connection opened it meanwhile
            if holder is None:
                table = self._load(table_id)  # no await between the check above and the table's opening
                if table is None:
                    raise (
                        WebError("damaged", DAMAGED)
                        if table_id in self.set_aside
                        else WebError("no-table", "There is no such table.")
                    )
                return table
            now = time.monotonic()
            ends = now + holder.seconds_left
            if seen is not None and ends > seen + KEEP_SECONDS / 2:
                raise Elsewhere(holder.node)  # its lease was renewed while we waited: its process is alive
            seen = ends
            if deadline is None:
                deadline = ends + 2 * KEEP_SECONDS
            if now > deadline:
                raise Elsewhere(holder.node)
            await asyncio.sleep(min(KEEP_SECONDS / 4, holder.seconds_left + 0.05))
        return table

    def resume_all(self) -> int:
        """Open every table whose game is not over (at start-up), so that computer players go on; how many.  A
        shared store's tables wait for their first connection instead: the proxy decides which process plays them."""
        if self.store.shared:
            return 0
        count = 0
        for table_id in list(self.store.open_tables()):
            table = self.table(table_id)
            if table is not None:
                count += 1
                self.wake_bots(table)
        return count

    async def drop(self, table: Table, why: str) -> None:
        """Stop playing the table here: forget it, stop its computer players, and tell its connections to reconnect
        (to whichever process plays it next).  ``why``: ``lost``, ``idle``, ``released``."""
        if self.tables.get(table.table_id) is table:
            del self.tables[table.table_id]
        if table.thinking is not None:
            table.thinking.cancel()
        if self.metrics is not None:
            self.metrics.tables_dropped.labels(why).inc()
        for watcher in list(table.watchers):
            with contextlib.suppress(Exception):  # a connection already gone
                await watcher.send({"type": "moved", "message": "The table moved to another server: reconnecting."})
                if watcher.close is not None:
                    await watcher.close(MOVED)

    async def keep(self) -> None:
        """For the server's life: renew the leases, drop the tables whose lease was lost, hand on the idle ones, and
        now and then forget the tables nobody needs any more."""
        swept = -SWEEP_SECONDS
        while True:
            await asyncio.sleep(KEEP_SECONDS)
            try:
                lost = await asyncio.to_thread(self.store.renew)
            except Exception as error:  # the database is away: the writes' fences keep the tables safe meanwhile
                log.warning("could not renew the tables' leases: %s", _said(error))
                lost = []
            for table_id in lost:
                table = self.tables.get(table_id)
                if table is not None:
                    log.warning("table %s lost: another process took it over", table_id)
                    await self.drop(table, "lost")
            await self._hand_on_idle()
            await self.forget_seats()
            if time.monotonic() - swept >= SWEEP_SECONDS:
                swept = time.monotonic()
                await self.sweep()

    async def sweep(self) -> int:
        """Forget the tables nobody needs any more, in the database and here."""
        try:
            count = await asyncio.to_thread(self.store.sweep, IDLE_DAYS * 86400, UNPLAYED_DAYS * 86400)
        except Exception as error:
            log.warning("could not forget old tables: %s", _said(error))
            return 0
        if count:
            log.info("%d tables nobody needed any more were forgotten", count)
        return count

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
                log.warning("could not read the seats to forget: %s", _said(error))
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
                    log.warning("table %s: a forgotten seat could not be rewritten: %s", table_id, _said(error))

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
                    with _not_saved_if_refused():
                        self.store.rewrite_records(table.table_id, rewritten)
                        await self._commit_now(table.table_id)
                await asyncio.to_thread(self.players.seat_names, table.table_id, _seat_line(table.setup)[1])
            await asyncio.to_thread(self.players.seat_forgotten, table.table_id, seat)
        await self.broadcast(table)
        await self._tell_presence(table)
        await self._list(table.table_id, table.setup, table.session)

    async def _hand_on_idle(self) -> None:
        now = time.monotonic()
        for table in list(self.tables.values()):
            quiet = table.quiet_since
            if quiet is None or now - quiet < self.idle_seconds or table.watchers:
                continue
            if table.thinking is not None and not table.thinking.done():
                continue
            if self.store.unsaved(table.table_id):
                continue
            await self.drop(table, "idle")
            await asyncio.to_thread(self.store.release, table.table_id)

    def in_background(self, work: Coroutine[Any, Any, None]) -> None:
        """Run ``work`` in a task of its own, kept until it is done (and waited for at shutdown)."""
        task = asyncio.get_running_loop().create_task(work)
        self.background.add(task)
        task.add_done_callback(self.background.discard)

    async def close(self) -> None:
        """At shutdown: what a game's end set going is done, computer players stop, every write is committed, every
        table is handed on."""
        await asyncio.gather(*list(self.background), return_exceptions=True)
        for table in list(self.tables.values()):
            if table.thinking is not None:
                table.thinking.cancel()
        for table in list(self.tables.values()):
            await self.drop(table, "released")
        await asyncio.to_thread(self.store.close)

    # --- watchers ------------------------------------------------------------------------------------

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
        self.wake_bots(table)
        if watcher.network is not None and table.setup.get("rated"):
            await self.note_network(table, watcher.viewer, watcher.network)

    async def leave(self, table: Table, watcher: Watcher) -> None:
        if watcher in table.watchers:
            table.watchers.remove(watcher)
        seat = watcher.viewer
        if seat is not None and not table.connected(seat) and table.session.seats[seat].bot is None:
            table.away_since[seat] = time.monotonic()
        if not table.watchers:
            table.quiet_since = time.monotonic()
        await self._tell_presence(table)

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
            "view": view_of(session, watcher.viewer),
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
        }

    async def _tell_presence(self, table: Table) -> None:
        frame = self.presence(table)
        for watcher in list(table.watchers):
            with contextlib.suppress(Exception):
                await watcher.send(frame)

    # --- what players do -----------------------------------------------------------------------------

    async def act(self, table: Table, seat: int | None, version: Any, raw_action: Any) -> None:
        """A person's move: committed, then every watcher is told.  Raises :class:`WebError`, changing nothing."""
        session = table.session
        if seat is None:
            raise WebError("spectator", "Spectators cannot play: open the link of a seat to play.")
        if self.store.unsaved(table.table_id) or table.lost is not None:  # one move at a time: the last one first
            try:
                await self.saved(table)
            except OSError:
                raise WebError("not-saved", "The last move could not be saved; look again.") from None
            table = self.tables.get(table.table_id, table)
            session = table.session
        if not isinstance(version, int) or isinstance(version, bool):
            raise WebError("bad-frame", 'An action names the version it was chosen at ("version": a number).')
        if version != session.version:
            raise WebError("stale", "The table has moved on since you chose that: look again and choose anew.")
        if session.match.over:
            raise WebError("over", "The game is over.")
        if session.to_act != seat:
            raise WebError("not-your-turn", "It is not your turn.")
        if session.seats[seat].bot is not None:
            raise WebError("not-your-seat", "A computer player has taken over this seat.")
        if not table.setup["seats"][seat]["joined"]:
            raise WebError("name-first", "Choose your name first.")
        if not isinstance(raw_action, dict):
            raise WebError("bad-frame", 'An action is a JSON object such as {"act": "draw"}.')
        family = family_of(session.rules)
        try:
            action: AnyAction = family.action_from_json({**raw_action, "seat": seat})
            session.play(action)
        except IllegalActionError as error:
            raise WebError("illegal", str(error)) from None
        except RackoError as error:
            raise WebError("illegal", str(error)) from None
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
            raise WebError("not-saved", f"{problem} Nothing was changed; try again.")
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
        await self._list(table.table_id, table.setup, table.session)
        await asyncio.to_thread(self.players.table_over, table.table_id, True)
        await self._report(table)

    async def _report(self, table: Table) -> None:
        """Pass a finished game on, once per process (the hooks themselves keep each game once, so a table opened
        again after a crash between its last move and this is passed on again safely)."""
        if table.reported:
            return
        table.reported = True
        record = table.session.record()
        for hook in self.game_over_hooks:
            try:
                await hook(table, record)
            except Exception as error:  # the game itself is kept whatever a hook does
                log.warning("table %s: the game's end could not be passed on: %s", table.table_id, _said(error))

    async def saved(self, table: Table) -> None:
        """Wait until the table's writes are committed; raises :class:`OSError` if they were lost (and the table
        keeps saying so until it is reloaded)."""
        try:
            await self._commit_now(table.table_id)
        except OSError as error:
            table.lost = str(error)
        if table.lost is not None:
            raise OSError(f"the table's database refused the move ({table.lost})")

    async def _commit_now(self, table_id: str) -> None:
        """Wait until the table's writes are committed: a store that groups its commits commits in a worker thread,
        once for every table written meanwhile, so the event loop never waits for the database.  Raises
        :class:`OSError` with the reason if the table's writes were not kept."""
        while self.store.unsaved(table_id):
            if self._commit is None or self._commit.done():
                self._commit = asyncio.get_running_loop().create_task(self._commit_in_thread())
            await asyncio.shield(self._commit)
        problem = self.store.lost(table_id)
        if problem is not None:
            raise OSError(problem)

    async def _commit_in_thread(self) -> None:
        # The writes go into the transaction here (quick); the worker thread only waits for the disk's sync.
        # A failure is not raised: the tables whose writes were lost learn it from store.lost.
        started = time.perf_counter()
        with contextlib.suppress(Exception):
            self.store.stage()
        try:
            await asyncio.to_thread(self.store.commit)
        except Exception as error:
            log.warning("a commit of the database failed: %s", _said(error))
        else:
            if self.metrics is not None:
                self.metrics.database_commit.observe(time.perf_counter() - started)

    def wake_bots(self, table: Table, pause: float = 0.0) -> None:
        """Start the computer players' moves (after ``pause`` seconds) if one is to act and none is thinking yet."""
        if table.thinking is not None and not table.thinking.done():
            return
        if table.session.bot_to_act() is None or table.session.match.over:
            return
        with contextlib.suppress(RuntimeError):  # no running loop (a table opened outside the server)
            table.thinking = asyncio.get_running_loop().create_task(self._bots_play(table, pause))

    async def _bots_play(self, table: Table, pause: float = 0.0) -> None:
        if pause:
            await asyncio.sleep(pause)
        session = table.session
        while not session.match.over and self.tables.get(table.table_id) is table:
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
            if session.version != version or session.bot_to_act() is not bot or handed_on:
                continue  # the table changed meanwhile (a seat handed over, the table handed on): think again
            session.play_bot(action)
            try:
                await self._committed(table, time.perf_counter())
            except WebError:
                # The database refused the move and the table was reloaded without it: the reloaded table's computer
                # player tries again, after a pause, so that a database that stays down is not hammered.
                fresh = self.tables.get(table.table_id)
                if fresh is not None:
                    self.wake_bots(fresh, RETRY_SECONDS)
                return

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
        with _not_saved_if_refused():
            self.store.update_setup(table.table_id, setup)
            await self._commit_now(table.table_id)
        table.setup = setup

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
            raise WebError("spectator", "Spectators have no seat to name.")
        if not isinstance(name, str) or not name.strip():
            raise WebError("bad-name", "A name is some text, such as Ann.")
        clean = plain_name(name)[:NAME_LENGTH].strip() or "Player"
        mark = await asyncio.to_thread(self.marks.mark, address)
        async with self._changing(table) as table:
            if reserved_like(clean) is not None:
                raise WebError("name-reserved", f"“{clean}” looks like a computer player's name: choose another.")
            others = [
                spec["name"] for other, spec in enumerate(table.setup["seats"]) if other != seat and spec["joined"]
            ]
            if posing_as(clean, others) is not None:
                raise WebError("name-taken", f"Somebody at this table is called like “{clean}”: choose another name.")
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
        setup = self._noted({**table.setup, "seats": seats}, seat, mark)
        if player is not None:  # noted first: a player forgotten meanwhile is refused, and a later forgetting
            # finds the seat (as a new table's are, in :meth:`create`)
            await asyncio.to_thread(self.players.bind, table.table_id, seat, player.id, *_seat_line(setup))
        try:
            await self._keep_setup(table, setup)
        except WebError:
            if player is not None:
                with contextlib.suppress(Exception):
                    await asyncio.to_thread(self.players.unbind, table.table_id, seat)
            raise
        await asyncio.to_thread(self.players.seat_names, table.table_id, _seat_line(setup)[1])
        session_seats = list(table.session.seats)
        session_seats[seat] = SeatSpec(name, session_seats[seat].bot)
        table.session.seats = tuple(session_seats)
        await self.broadcast(table)
        await self._tell_presence(table)
        await self._list(table.table_id, table.setup, table.session)

    async def take_seat(self, table: Table, player: Player, address: str | None = None) -> int:
        """A player takes a seat nobody has taken yet at a table listed in the lobby; the seat (theirs already if
        they sit there)."""
        mark = await asyncio.to_thread(self.marks.mark, address)
        async with self._changing(table) as table:
            mine = table.seat_of_player(player.id)
            if mine is not None:
                return mine
            if not table.setup.get("public"):
                raise WebError("not-public", "This table is by invitation only: ask for a seat's link.")
            if table.session.match.over:
                raise WebError("over", "The game is over.")
            seat = table.open_seat()
            if seat is None:
                raise WebError("full", "Every seat at this table is taken.")
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
            await self._list(table.table_id, table.setup, table.session)

    async def hand_over(self, table: Table, seat: int | None, other: Any, bot_name: Any) -> None:
        """A seated person hands the seat of a person who has been away long enough to a computer player."""
        if seat is None:
            raise WebError("spectator", "Only players at the table can hand a seat to a computer player.")
        if not isinstance(other, int) or isinstance(other, bool) or not 0 <= other < len(table.session.seats):
            raise WebError("bad-frame", "There is no such seat.")
        if table.session.seats[other].bot is not None:
            raise WebError("bad-frame", "A computer player sits there already.")
        since = table.away_since.get(other)
        if table.connected(other) or since is None:
            raise WebError("not-away", "That player is at the table.")
        waited = time.monotonic() - since
        if waited < self.away_seconds:
            raise WebError("not-away", f"Wait {round(self.away_seconds - waited)} more seconds for them to come back.")
        chosen = bot_name if isinstance(bot_name, str) else ""
        if chosen not in bots_for(table.session.rules.variant):
            raise WebError(
                "bad-frame", f"Choose a computer player: {', '.join(bots_for(table.session.rules.variant))}."
            )
        async with self._changing(table) as table:
            if table.session.seats[other].bot is not None:
                raise WebError("bad-frame", "A computer player sits there already.")
            seats = list(table.setup["seats"])
            seats[other] = {**seats[other], "bot": chosen, "token": None}
            await self._keep_setup(table, {**table.setup, "seats": seats})
            table.session.hand_to_bot(other, chosen)
            table.away_since.pop(other, None)
        await self.broadcast(table)
        await self._tell_presence(table)
        self.wake_bots(table)
        await self._list(table.table_id, table.setup, table.session)

    async def again(self, table: Table, seat: int | None) -> None:
        """After the game: a new game at the same table, same seats and links."""
        if seat is None:
            raise WebError("spectator", "Only players can start the next game.")
        session = table.session
        if not session.match.over:
            raise WebError("not-over", "The game is not over yet.")
        game = table.setup["game"]
        async with self._changing(table) as table:
            if table.setup["game"] != game:
                return  # the next game began meanwhile (both players asked at once)
            with contextlib.suppress(OSError):  # the finished game's record may still be on its way to the database
                await self._commit_now(table.table_id)
            filed = self.store.records(table.table_id)
            # Filed when it ended, unless that failed; the record filed then is passed on as it was, since the store
            # files a text it does not hold yet, and the record's text changes with a name changed after the game.
            record = filed[game - 1] if len(filed) >= game else table.session.record().dumps()
            setup = {**table.setup, "seed": secrets.randbits(32), "game": game + 1}
            with _not_saved_if_refused():
                self.store.restart(table.table_id, setup, record)
                await self._commit_now(table.table_id)
            watchers = table.watchers
            fresh = self._open(table.table_id, setup, [])
            fresh.watchers = watchers
        for watcher in watchers:
            watcher.version = 0
            with contextlib.suppress(Exception):
                await watcher.send({"type": "new-game", "game": setup["game"]})
        await self.broadcast(fresh)
        self.wake_bots(fresh)
        await self._list(fresh.table_id, fresh.setup, fresh.session)
        await asyncio.to_thread(self.players.table_over, fresh.table_id, False)

    async def react(self, table: Table, seat: int | None, reaction: Any) -> None:
        """One of the fixed quick messages, from a seat to everyone at the table (nothing is kept)."""
        if seat is None:
            raise WebError("spectator", "Spectators cannot react: open the link of a seat to react.")
        if not isinstance(reaction, str) or reaction not in REACTIONS:
            raise WebError("bad-reaction", f"A reaction is one of {', '.join(REACTIONS)}.")
        if not table.setup["seats"][seat]["joined"]:
            raise WebError("name-first", "Choose your name first.")
        now = time.monotonic()
        if now - table.reacted.get(seat, -REACTION_SECONDS) < REACTION_SECONDS:
            raise WebError("too-soon", f"One reaction every {REACTION_SECONDS:g} seconds: wait a moment.")
        table.reacted[seat] = now
        frame = {"type": "reaction", "seat": seat, "reaction": reaction}
        for watcher in list(table.watchers):
            with contextlib.suppress(Exception):
                await watcher.send(frame)

    async def hint(self, table: Table, seat: int | None) -> list[dict[str, Any]]:
        """The advisor's best choices for the seat to act, judged from its own observation (in a worker thread), with
        the sentences that say why and the chance to win (racko.analysis)."""
        session = table.session
        if seat is None or session.to_act != seat or session.match.over:
            raise WebError("no-hint", "A hint is for your own turn.")
        observation = session.observation(seat)
        seen = seat_history(session.match.round, seat)
        choices = await asyncio.to_thread(explained_choices, observation, seen=seen, names=session.names)
        return [
            hint_json(choice, choice_move(observation, choice).to_json() if choice.why else None)
            for choice in choices[:HINT_CHOICES]
        ]

    def record(self, table_id: str, game: int | None = None) -> str | None:
        """A finished game's record (never one in progress: it holds every card)."""
        records = self.store.records(table_id)
        if not records:
            return None
        if game is None:
            return records[-1]
        return records[game - 1] if 1 <= game <= len(records) else None


def _said(error: BaseException) -> str:
    """An error in one short line, for a log line or a message (never a traceback)."""
    text = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
    return text[:200]


@contextlib.contextmanager
def _not_saved_if_refused() -> Iterator[None]:
    """A change the database refuses (a full disk, a lock held too long) is a not-saved error for the player, as a
    refused move is, instead of an exception that closes the connection."""
    try:
        yield
    except Exception as error:
        raise WebError(
            "not-saved", f"The table's database refused the change ({error}). Nothing was changed; try again."
        ) from None


def replay_stored(table_id: str, setup: dict[str, Any], actions: list[dict[str, Any]]) -> Match:
    """A stored table's game replayed from its set-up and journal; :class:`DamagedTableError` with the reason if they
    are not a game."""
    try:
        rules = Rules.from_dict(setup["rules"])
        match = Match(rules, seed=setup["seed"])
    except (RackoError, KeyError, TypeError, ValueError) as error:
        raise DamagedTableError(table_id, f"its set-up is not a game ({_said(error)})") from None
    family = family_of(rules)
    for number, raw in enumerate(actions, start=1):
        try:
            match.apply(family.action_from_json(raw))
        except (RackoError, KeyError, TypeError, ValueError) as error:
            reason = f"action {number} of its journal is refused: {_said(error)}"
            raise DamagedTableError(table_id, reason) from None
    return match


def seat_of_token(setup: dict[str, Any], token: Any) -> int | None:
    """The seat of a table's set-up whose link holds this token, if any (any process can tell, from the store)."""
    if not token or not isinstance(token, str) or len(token) > 100:
        return None
    digest = _hash(token)
    for seat, spec in enumerate(setup["seats"]):
        stored = spec.get("token")
        if stored and hmac.compare_digest(stored, digest):
            return seat
    return None


def seat_of_player(setup: dict[str, Any], player_id: str) -> int | None:
    """The seat of a table's set-up bound to this player, if any."""
    for seat, spec in enumerate(setup["seats"]):
        if spec.get("player") == player_id and spec["bot"] is None:
            return seat
    return None


def seat_is_free(spec: dict[str, Any]) -> bool:
    """A person's seat nobody has taken yet: no computer player, no name given, no player bound."""
    return spec["bot"] is None and not spec["joined"] and not spec.get("player")


def _seat_line(setup: dict[str, Any]) -> tuple[str, list[str]]:
    """What a player's lobby says of a table they sit at: its variant and who sits there."""
    return str(setup["rules"].get("variant", "classic")), [str(spec["name"]) for spec in setup["seats"]]


def form_seat_is_me(form: dict[str, Any], index: int) -> bool:
    return _who(form, index) == ME


def _who(form: dict[str, Any], index: int) -> str:
    seats = form.get("seats")
    if index == 0 and not isinstance(seats, list):
        return ME
    if isinstance(seats, list) and index < len(seats) and isinstance(seats[index], str):
        return str(seats[index])
    return ME if index == 0 else PERSON


def _setup_from_form(form: Any) -> tuple[Rules, list[SeatSpec], list[str | None]]:
    """The rules, the seats and a token per person seat, from the start page's form; a bad form is a WebError."""
    if not isinstance(form, dict):
        raise WebError("bad-form", "The table's settings are a JSON object.")
    try:
        chosen = variant(str(form.get("variant", "classic")))
        players = form.get("players", chosen.player_counts[0])
        if not isinstance(players, int) or isinstance(players, bool) or players not in chosen.player_counts:
            counts = ", ".join(str(count) for count in chosen.player_counts)
            raise WebError("bad-form", f"{chosen.title} is played by {counts} players.")
        options: dict[str, Any] = {}
        for key in ("target", "refill", "two_player_rule"):
            if form.get(key) is not None:
                options[key] = form[key]
        if players != 2:
            options.pop("two_player_rule", None)
        rules = chosen.rules(players, **options)
    except WebError:
        raise
    except (RackoError, TypeError, ValueError) as error:
        raise WebError("bad-form", str(error)) from None
    who = form.get("seats")
    if not isinstance(who, list) or len(who) != players or not all(isinstance(part, str) for part in who):
        raise WebError("bad-form", f"Say who sits in each of the {players} seats.")
    if who.count(ME) > 1:
        raise WebError("bad-form", "You can sit in one seat only.")
    given_names = form.get("names")
    names: list[Any] = given_names if isinstance(given_names, list) else []
    playing = bots_for(chosen.name)
    seats: list[SeatSpec] = []
    tokens: list[str | None] = []
    for index, part in enumerate(who):
        given = names[index] if index < len(names) and isinstance(names[index], str) else ""
        if part in (ME, PERSON):
            name = plain_name(given)[:NAME_LENGTH].strip() if given.strip() else f"Player {index + 1}"
            seats.append(SeatSpec(name))
            tokens.append(secrets.token_urlsafe(TOKEN_BYTES))
        elif part in bots.available():
            if part not in playing:
                raise WebError(
                    "bad-form", f"The {part} bot does not play {chosen.title}; choose from {', '.join(playing)}."
                )
            label = part if who.count(part) == 1 else f"{part} {index + 1}"
            seats.append(SeatSpec(label, part))
            tokens.append(None)
        else:
            raise WebError(
                "bad-form", f"Seat {index + 1}: choose me, a person, or a computer player ({', '.join(playing)})."
            )
    if all(seat.bot is not None for seat in seats):
        raise WebError("bad-form", "At least one seat is for a person.")
    return rules, seats, tokens
