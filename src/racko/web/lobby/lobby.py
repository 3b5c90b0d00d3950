"""The lobby: quick play, the tables waiting for people, the games to watch, who is online; live, over one socket.

**Quick play.** A player asks for a variant and a number of players (or any number); people waiting for the same
(and for a rated game or not, the same) are seated together as soon as there are enough of them: the lobby makes
the table, every seat bound to its player, and tells each of them where to go.  After :data:`FILL_SECONDS` of
waiting a player may fill the empty seats with computer players of a level they choose (the people waiting with
them come along).  A player waits in at most :data:`MAX_QUEUES` queues, and quick play (or a rematch) seats nobody
already at :data:`MAX_TABLES` tables whose game is not over.

**The lobby's lines** come from the database (``racko_listings``, which the process playing each public table keeps
up to date), so that the lobby shows every process's tables; it looks again at once when this process changed one,
and every :data:`POLL_SECONDS` for the others.  Who is online: the players with a page of racko open (the lobby or
a table, in any process: noted every few seconds, and at once when the last one closes).  Each connection gets the
lobby as it changes, with the names its player hid shown as "a player".

Behind a proxy every ``/ws/lobby`` connection hashes to one process (the id is ``lobby``), which therefore holds
every queue; should it stop, the next process the proxy picks takes over, and the people waiting queue again.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import math
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from racko.errors import RackoError
from racko.play.session import bots_for
from racko.play.text import record_names
from racko.record import GameRecord
from racko.rules import VARIANTS, variant
from racko.web.clock import DEFAULT_PRESET, preset_named
from racko.web.core import Refusal
from racko.web.players import FINISHERS_SHARE, Player, Players, online_in, subject_of
from racko.web.ratings import Ratings
from racko.web.store import Rows, SchemaPart
from racko.web.table import (
    Asker,
    BotAccountSeat,
    Consent,
    LevelSeat,
    PersonSeat,
    SeatRequest,
    TableNews,
    TableRequest,
    TableRoom,
    clock_of,
)

FILL_SECONDS = 20.0
"""How long a player waits in a queue before computer players may fill the empty seats."""
MAX_QUEUES = 3
MAX_TABLES = 5
POLL_SECONDS = 1.0
COALESCE_SECONDS = 0.02
"""Changes that come together are sent together: a burst of them is one lobby frame."""
LISTED = 50
"""Lines of each list the lobby shows."""


SCHEMA = SchemaPart.of_room("lobby", kept_by_table=("racko_listings",))
"""The lobby's lines: each public table's listing, kept by the process that plays the table, read by every process."""


@dataclass(frozen=True)
class QueueKey:
    """What a player asks quick play for: a variant, a number of players (None: any), rated or not, and whether a
    2-player game follows the 2-player rule (a Rack-O needs a run of three: on unless asked otherwise)."""

    variant: str
    players: int | None
    rated: bool
    two_player_rule: bool = True
    clock: str = DEFAULT_PRESET
    """The speed (racko.web.clock), real time or turn-based: quick play always has a clock, so that nobody waits for
    ever."""
    finishers: bool = False
    """Only with players who finish most of their games (racko.web.players.finishing)."""
    bots_welcome: bool = False
    """Bot accounts may be seated with this player (docs/BOTS.md): off unless the person asks; a bot's own seek
    always has it.  Not part of :meth:`fits`: a group may hold a bot only if every person in it welcomes bots."""

    def name(self) -> str:
        rule = "" if self.two_player_rule else ":no-run"
        only = ":finishers" if self.finishers else ""
        bots = ":bots" if self.bots_welcome else ""
        rated = "rated" if self.rated else "casual"
        return f"{self.variant}:{self.players or 'any'}:{rated}{rule}:{self.clock}{only}{bots}"

    def fits(self, other: QueueKey, players: int) -> bool:
        """Whether this player's wish and ``other``'s make one game of ``players`` players."""
        rule = players != 2 or self.two_player_rule == other.two_player_rule
        same = self.rated == other.rated and self.clock == other.clock and self.finishers == other.finishers
        return self.variant == other.variant and same and rule


@dataclass
class Waiting:
    player: Player
    key: QueueKey
    since: float = field(default_factory=time.monotonic)
    address: str | None = None
    """Where the player asked from: a rated game never seats two people of one network address together."""
    network: str | None = None
    """That address's mark (racko.web.addresses), compared with the others waiting."""
    bot: bool = False
    """A bot account's seek (the Bot API's ``POST /api/bot/seek``): seated as a bot account, only with people whose
    wish welcomes bots."""


@dataclass(eq=False)
class LobbyConnection:
    player: Player | None
    send_text: Callable[[str], Awaitable[None]]
    hidden: set[str] = field(default_factory=set)
    """The players whose names this person hid (read when the connection opens)."""
    address: str | None = None
    """The client address the connection comes from."""

    async def send(self, frame: dict[str, Any]) -> None:
        """A frame to this connection; one that is gone is left to close on its own."""
        with contextlib.suppress(Exception):
            await self.send_text(json.dumps(frame))


class Lobby:
    """Quick play and the lobby of one process (behind a proxy: the process every lobby connection reaches)."""

    def __init__(
        self, hub: TableRoom, ratings: Ratings, *, fill_seconds: float = FILL_SECONDS, quick_target: int | None = None
    ) -> None:
        self.hub = hub
        self.ratings = ratings
        """The finished games a rematch is asked for."""
        self.players: Players = hub.players
        self.fill_seconds = fill_seconds
        self.quick_target = quick_target
        """The target score of quick play's tables (None: the variant's own); a test's games end sooner."""
        self.connections: list[LobbyConnection] = []
        self.waiting: list[Waiting] = []
        self.view: dict[str, Any] = {"open": [], "playing": [], "online": [], "online_count": 0}
        self.rematches: dict[str, dict[str, Any]] = {}
        """A finished game's rematch table, once asked for (so that a second click, or the other player's, finds
        it)."""
        self.seating_bots: Callable[[list[str]], Awaitable[bool]] | None = None
        """Asked before a table seats bot accounts from quick play (their ids), whether they may be seated: the bots
        room takes their seeks out of the store, where every process sees them (docs/BOTS.md); False: another
        process seated one first, or one plays as many games as it may, and none of them is seated here."""
        self._changed = asyncio.Event()
        self._listing = asyncio.Lock()
        """Held while a table's line is written, so that the lines are written in the order their changes came."""
        hub.tables_changed.subscribe(self.table_changed)

    # --- the lines of the public tables -------------------------------------------------------------

    async def table_changed(self, news: TableNews) -> None:
        """Keep a public table's line in the lobby up to date (in the database, so that every process's lobby sees
        it), and look again here.  A game whose people have all left is no game to watch: its line goes until one
        of them is back."""
        setup, table_id, over = news.setup, news.table_id, news.over
        if not setup.public:
            return
        open_seats = sum(1 for spec in setup.seats if spec.free)
        if open_seats == 0 and not over and not news.people_here:

            def write(rows: Rows) -> None:
                rows("DELETE FROM racko_listings WHERE table_id = ?", (table_id,))

        else:
            rules = setup.rules
            listing = {
                "table": table_id,
                "variant": rules.variant,
                "players": rules.players,
                "target": rules.target,
                "rated": setup.rated,
                "seats": [
                    {"name": spec.name if spec.joined or spec.bot else None, "bot": spec.bot} for spec in setup.seats
                ],
                "open_seats": open_seats,
                "over": over,
            }
            text = json.dumps(listing)

            def write(rows: Rows) -> None:
                rows(
                    "INSERT INTO racko_listings (table_id, listing, open_seats, over, updated) VALUES (?, ?, ?, ?, ?) "
                    "ON CONFLICT (table_id) DO UPDATE SET listing = excluded.listing, "
                    "open_seats = excluded.open_seats, over = excluded.over, updated = excluded.updated",
                    (table_id, text, open_seats, int(over), time.time()),
                )

        # In the order the changes came: two people leaving at once must not have the first one's line (someone
        # still here) written after the second one's removal.
        async with self._listing:
            await asyncio.to_thread(self.players.store.run, write)
        self._changed.set()

    # --- connections ----------------------------------------------------------------------------------

    async def join(self, connection: LobbyConnection) -> None:
        if connection.player is not None:
            connection.hidden = await asyncio.to_thread(self.players.hidden_by, connection.player.id)
        self.connections.append(connection)
        await self._send_lobby(connection)
        await self._send_queues(connection)

    def leave(self, connection: LobbyConnection) -> None:
        """A lobby connection closed: a person who has no other lobby open stops waiting (nobody is seated at a
        table they have left)."""
        if connection in self.connections:
            self.connections.remove(connection)
        player = connection.player
        if player is not None and not any(c.player is not None and c.player.id == player.id for c in self.connections):
            self.waiting = [w for w in self.waiting if w.player.id != player.id]
            self._changed.set()

    async def handle(self, connection: LobbyConnection, frame: dict[str, Any]) -> None:
        kind = frame["type"]
        player = connection.player
        if kind in ("quick", "cancel", "fill") and player is None:
            raise Refusal("no-player", "Pick a name first: quick play seats players.")
        if kind == "quick" and player is not None:
            await self.quick(player, _queue_key(frame), connection.address)
        elif kind == "cancel" and player is not None:
            key = _queue_key(frame) if frame.get("variant") is not None else None
            self.waiting = [w for w in self.waiting if not (w.player.id == player.id and key in (None, w.key))]
            await self._queues_changed(player)
        elif kind == "fill" and player is not None:
            await self.fill(player, _queue_key(frame), frame.get("bot"))
        else:
            raise Refusal("bad-frame", f"Unknown frame type {kind[:30]!r}.")

    # --- quick play -----------------------------------------------------------------------------------

    async def quick(self, player: Player, key: QueueKey, address: str | None = None) -> None:
        mine = [w for w in self.waiting if w.player.id == player.id]
        if any(w.key == key for w in mine):
            return  # waiting already
        if len(mine) >= MAX_QUEUES:
            raise Refusal("too-many", f"You can wait for at most {MAX_QUEUES} kinds of game at once.")
        if await asyncio.to_thread(self.players.unfinished, player.id) >= MAX_TABLES:
            raise Refusal("too-many", f"You are at {MAX_TABLES} unfinished tables already: finish one first.")
        await self._may_wait(player, key)
        network = await asyncio.to_thread(self.hub.marks.mark, address) if key.rated else None
        self.waiting.append(Waiting(player, key, address=address, network=network))
        if not await self._match(key):
            await self._queues_changed(player)

    async def _may_wait(self, player: Player, key: QueueKey) -> None:
        """Refuse the wish of a repeat leaver who must wait a while (said with the minutes left), and a wish for
        finishers only from a player who is not one (said with their share and the threshold)."""
        finishing = await asyncio.to_thread(self.players.finishing, player.id)
        wait = finishing.wait_seconds(time.time())
        if wait > 0:
            minutes = max(1, math.ceil(wait / 60))
            left = len(finishing.recent_leaves)
            raise Refusal(
                "leaver-wait",
                f"You left {left} games in the last day: quick play seats you again in {minutes} min.",
                left=left,
                minutes=minutes,
            )
        if key.finishers and not finishing.finisher:
            share = round(100 * (finishing.share or 0.0))
            threshold = round(100 * FINISHERS_SHARE)
            raise Refusal(
                "not-a-finisher",
                f"This game is for players who finish {threshold}% of their games; you finished {share}%.",
                share=share,
                threshold=threshold,
            )

    def _company(self, first: list[Waiting], key: QueueKey, players: int) -> list[Waiting]:
        """``first``, then the people waiting longest for a game that fits, until there are ``players``: each person
        once, and in a rated game nobody from a network address one of them plays from (one person in two
        browsers could otherwise rate themselves), unless the operator rates those."""
        chosen = list(first)
        separate = key.rated and not self.hub.rate_shared_addresses
        for waiting in sorted(self.waiting, key=lambda w: w.since):
            if len(chosen) >= players:
                break
            if not (waiting.key.fits(key, players) and waiting.key.players in (players, None)):
                continue
            if any(other.player.id == waiting.player.id for other in chosen):
                continue
            if not _bots_may_sit_with(chosen, waiting):  # nobody who did not welcome bots meets one
                continue
            if separate and waiting.network is not None and any(o.network == waiting.network for o in chosen):
                continue
            chosen.append(waiting)
        return chosen

    async def _match(self, key: QueueKey) -> bool:
        """Seat together the people waiting for a game that enough of them want, with the one who just asked;
        whether anybody was seated."""
        for players in VARIANTS[key.variant].player_counts:
            if key.players not in (players, None):
                continue
            chosen = self._company([], key, players)
            if len(chosen) >= players:
                await self._seat(key, players, chosen, [])
                return True
        return False

    async def fill(self, player: Player, key: QueueKey, bot: Any) -> None:
        """Fill the empty seats of the player's game with computer players of the ``bot`` level: the people waiting
        for the same game come along."""
        waiting = next((w for w in self.waiting if w.player.id == player.id and w.key == key), None)
        if waiting is None:
            raise Refusal("not-waiting", "You are not waiting for that game.")
        if time.monotonic() - waiting.since < self.fill_seconds:
            raise Refusal("too-soon", f"Wait {self.fill_seconds:g} seconds for people first.")
        levels = bots_for(key.variant)
        if bot not in levels:
            raise Refusal("bad-frame", f"Choose a computer player: {', '.join(levels)}.")
        players = key.players or min(VARIANTS[key.variant].player_counts)
        company = self._company([waiting], key, players)
        await self._seat(key, players, company, [str(bot)] * (players - len(company)))

    async def bot_seeks(self, bot: Player, wish: dict[str, Any]) -> dict[str, Any]:
        """A bot account's seek (the Bot API, docs/BOTS.md): quick play's wish of a person, always welcoming bots;
        seated with the people who welcome bots and the other bots seeking.  The bots room counts the bot's games
        (its own limit, not :data:`MAX_TABLES`).  A :class:`Refusal` says what is wrong."""
        key = _queue_key({**wish, "bots_welcome": True, "finishers": False})
        mine = [w for w in self.waiting if w.player.id == bot.id]
        if not any(w.key == key for w in mine):
            if len(mine) >= MAX_QUEUES:
                raise Refusal("too-many", f"A bot seeks at most {MAX_QUEUES} kinds of game at once.")
            seek = Waiting(bot, key, bot=True)
            self.waiting.append(seek)
            await self._match(key)
            self._changed.set()
            if all(other is not seek for other in self.waiting):
                return {"seek": key.name(), "seated": True}
        return {"seek": key.name(), "seated": False}

    @staticmethod
    def bot_wish(wish: dict[str, Any]) -> str:
        """The name of a bot's seek (as :meth:`bot_seeks` answers it), or a :class:`Refusal` saying what is wrong."""
        return _queue_key({**wish, "bots_welcome": True, "finishers": False}).name()

    def bot_stops(self, bot_id: str) -> int:
        """A bot account's seeks end (it asked, or its last event stream closed); how many there were."""
        before = len(self.waiting)
        self.waiting = [w for w in self.waiting if not (w.bot and w.player.id == bot_id)]
        self._changed.set()
        return before - len(self.waiting)

    def forget(self, player_id: str) -> None:
        """A player was forgotten: out of every queue, and their lobby connections are a guest's from now on."""
        self.waiting = [w for w in self.waiting if w.player.id != player_id]
        for connection in self.connections:
            if connection.player is not None and connection.player.id == player_id:
                connection.player = None
        self._changed.set()

    async def _seat(self, key: QueueKey, players: int, company: list[Waiting], bots: list[str]) -> None:
        """Make the table (people first, then computer players), take everyone seated out of every queue, tell them.
        A player forgotten meanwhile (perhaps through another process) is not seated: the others wait on."""
        known = await asyncio.to_thread(self.players.existing, [w.player.id for w in company])
        forgotten = {w.player.id for w in company} - known
        if forgotten:
            self.waiting = [w for w in self.waiting if w.player.id not in forgotten]
            self._changed.set()
            return
        accounts = [w.player.id for w in company if w.bot]
        if accounts and self.seating_bots is not None and not await self.seating_bots(accounts):
            self.waiting = [w for w in self.waiting if not (w.bot and w.player.id in accounts)]
            self._changed.set()
            return
        people = [w.player for w in company]
        variant_name = key.variant
        options: dict[str, Any] = {"two_player_rule": key.two_player_rule} if players == 2 else {}
        if self.quick_target is not None:
            options["target"] = self.quick_target
        # A bot account sits by its seek's consent (bound to it, marked as a bot: docs/BOTS.md).
        seats: list[SeatRequest] = [
            BotAccountSeat(w.player, Consent.SEEK) if w.bot else PersonSeat(player=w.player, address=w.address)
            for w in company
        ]
        request = TableRequest(
            variant(variant_name).rules(players, **options),
            (*seats, *(LevelSeat(level) for level in bots)),
            Asker.of_room("lobby"),
            public=True,
            rated=key.rated,
            clock=key.clock,
        )
        # Out of every queue before the table is made: whoever asks meanwhile is not matched with them again.
        seated = {player.id for player in people}
        taken = [w for w in self.waiting if w.player.id in seated]
        self.waiting = [w for w in self.waiting if w.player.id not in seated]
        try:
            links = await self.hub.create(request)
        except Exception:
            self.waiting = taken + self.waiting  # back in their queues, first in line
            raise
        for seat, player in enumerate(people):
            frame = {"type": "seated", "table": links["table"], "seat": seat, "variant": variant_name}
            for connection in [c for c in self.connections if c.player is not None and c.player.id == player.id]:
                await connection.send(frame)
                await self._send_queues(connection)
        self._changed.set()

    async def _queues_changed(self, player: Player) -> None:
        for connection in [c for c in self.connections if c.player is not None and c.player.id == player.id]:
            await self._send_queues(connection)
        self._changed.set()

    async def _send_queues(self, connection: LobbyConnection) -> None:
        if connection.player is None:
            return
        now = time.monotonic()
        mine = [
            {
                "variant": w.key.variant,
                "players": w.key.players,
                "rated": w.key.rated,
                "two_player_rule": w.key.two_player_rule,
                "clock": w.key.clock,
                "finishers": w.key.finishers,
                "bots_welcome": w.key.bots_welcome,
                "waited": round(now - w.since, 1),
                "can_fill": now - w.since >= self.fill_seconds,
                "waiting": sum(1 for other in self.waiting if other.key == w.key),
            }
            for w in self.waiting
            if w.player.id == connection.player.id
        ]
        await connection.send({"type": "queued", "queues": mine, "fill_seconds": self.fill_seconds})

    # --- rematches -----------------------------------------------------------------------------------

    async def rematch(self, player: Player, game_id: str, address: str | None = None) -> dict[str, Any]:
        """A new table for the people and computer levels of a finished game, asked for by one who played it: the
        same rules and seats, rated if it was, each player's seat bound to them (it opens from their lobby, where
        they are told); a guest's seat gets a link.  The same table again if asked again (in this process)."""
        found = await asyncio.to_thread(self.ratings.game_seats, game_id)
        if found is None:
            raise Refusal("not-found", "There is no such finished game.")
        text, rated, subjects = found
        if subject_of(player.id) not in subjects:
            raise Refusal("not-yours", "Only those who played a game can ask for its rematch.")
        made = self.rematches.get(game_id)
        if made is not None:
            return made
        if await asyncio.to_thread(self.players.unfinished, player.id) >= MAX_TABLES:
            raise Refusal(
                "too-many-tables", f"You are at {MAX_TABLES} unfinished tables already: finish one first.", status=409
            )
        record = GameRecord.loads(text)
        rules = record.rules
        names = record_names(record.players, rules.players)
        seated: list[Player | None] = []
        seats: list[SeatRequest] = []
        for index, subject in enumerate(subjects):
            if subject.startswith("bot:"):
                seats.append(LevelSeat(subject[4:]))
                seated.append(None)
                continue
            # A player (if not forgotten since) or a guest, who gets a link.  A bot account met a person at a
            # rated table by its own consent, once: a rematch asks it again, so it is not seated here (the seat
            # is a guest's, with a link).
            sitting = await asyncio.to_thread(self.players.find, subject[2:]) if subject.startswith("p:") else None
            guest = names[index]
            if sitting is not None and await asyncio.to_thread(self.players.is_bot, sitting.id):
                sitting, guest = None, ""
            seated.append(sitting)
            asked_from = address if sitting is not None and sitting.id == player.id else None
            seats.append(PersonSeat(guest if sitting is None else "", sitting, address=asked_from))
        request = TableRequest(rules, tuple(seats), Asker.page(player), rated=rated, clock=clock_of({}, rated))
        links = await self.hub.create(request)
        guests = [
            {"seat": index, "token": seat["token"]}
            for index, seat in enumerate(links["seats"])
            if isinstance(seats[index], PersonSeat) and seated[index] is None
        ]
        made = {"table": links["table"], "guests": guests}
        self.rematches[game_id] = made
        frame = {"type": "invited", "table": links["table"], "by": player.name, "variant": rules.variant}
        invited = {other.id for other in seated if other is not None and other.id != player.id}
        for connection in [c for c in self.connections if c.player is not None and c.player.id in invited]:
            await connection.send(frame)
        return made

    # --- the lobby's lines ------------------------------------------------------------------------------

    async def run(self) -> None:
        """For the server's life: look again whenever something changed here, and every second for elsewhere."""
        waited = 0.0
        while True:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._changed.wait(), POLL_SECONDS)
            await asyncio.sleep(COALESCE_SECONDS)
            self._changed.clear()
            try:
                view = await asyncio.to_thread(self.players.store.read, _lobby_rows)
            except Exception:  # the database is away a moment: the lobby stays as it was
                continue
            view["queues"] = self._queue_counts()
            if view != self.view:
                change = lobby_change(self.view, view)
                self.view = view
                await self._broadcast(change)
            waited += POLL_SECONDS
            if waited >= self.fill_seconds / 4:  # the waiting times (and when computer players may fill) go on
                waited = 0.0
                for connection in list(self.connections):
                    if connection.player is not None and any(w.player.id == connection.player.id for w in self.waiting):
                        await self._send_queues(connection)

    def _queue_counts(self) -> list[dict[str, Any]]:
        """The games people wait for in quick play, with how many wait for each (no names: a wish is not public)."""
        counts: dict[QueueKey, int] = {}
        for waiting in self.waiting:
            counts[waiting.key] = counts.get(waiting.key, 0) + 1
        return [
            {
                "variant": key.variant,
                "players": key.players,
                "rated": key.rated,
                "two_player_rule": key.two_player_rule,
                "clock": key.clock,
                "finishers": key.finishers,
                "bots_welcome": key.bots_welcome,
                "waiting": count,
            }
            for key, count in sorted(counts.items(), key=lambda item: item[0].name())
        ]

    def _text_for(self, connection: LobbyConnection, frame: dict[str, Any], shared: str) -> str:
        """A lobby frame for this connection: the shared text, unless it names someone this person hid."""
        people = frame["online"] if frame["type"] == "lobby" else frame["online"]["put"]
        if not connection.hidden or not any(person["id"] in connection.hidden for person in people):
            return shared
        hidden = [
            {**person, "name": None} if person["id"] in connection.hidden else person  # "a player", to them only
            for person in people
        ]
        if frame["type"] == "lobby":
            return json.dumps({**frame, "online": hidden})
        return json.dumps({**frame, "online": {**frame["online"], "put": hidden}})

    async def _send_lobby(self, connection: LobbyConnection) -> None:
        """The whole lobby, to a connection that just opened."""
        frame = {"type": "lobby", **self.view}
        with contextlib.suppress(Exception):
            await connection.send_text(self._text_for(connection, frame, json.dumps(frame)))

    async def _broadcast(self, change: dict[str, Any]) -> None:
        """What changed in the lobby, to every connection at once (encoded once; a slow one holds up nobody)."""
        shared = json.dumps(change)
        connections = list(self.connections)
        await asyncio.gather(
            *(connection.send_text(self._text_for(connection, change, shared)) for connection in connections),
            return_exceptions=True,
        )


LINE_KEYS = {"open": "table", "playing": "table", "online": "id"}
"""The lobby's lists, each with the field that names a line."""


def lobby_change(before: dict[str, Any], after: dict[str, Any]) -> dict[str, Any]:
    """The ``lobby-change`` frame from one lobby to the next: per list the lines new or changed (``put``) and the
    names of those gone (``drop``); the counts whole.  A change is a line or two where the whole lobby is a hundred,
    to each of hundreds of connections."""
    change: dict[str, Any] = {"type": "lobby-change"}
    for name, key in LINE_KEYS.items():
        old = {line[key]: line for line in before.get(name, [])}
        new = {line[key]: line for line in after[name]}
        change[name] = {
            "put": [line for line in after[name] if old.get(line[key]) != line],
            "drop": [name_of for name_of in old if name_of not in new],
        }
    change["online_count"] = after["online_count"]
    change["queues"] = after["queues"]
    return change


def _queue_key(frame: dict[str, Any]) -> QueueKey:
    name = frame.get("variant")
    try:
        chosen = variant(str(name))
    except RackoError:
        raise Refusal("bad-frame", f"There is no variant {str(name)[:30]!r}.") from None
    players = frame.get("players")
    if players == "any" or players is None:
        count = None
    elif isinstance(players, int) and not isinstance(players, bool) and players in chosen.player_counts:
        count = players
    else:
        counts = ", ".join(str(count) for count in chosen.player_counts)
        raise Refusal("bad-frame", f"{chosen.title} is played by {counts} players, or any of those.")
    clock = frame.get("clock", DEFAULT_PRESET)
    try:
        preset_named(clock, allow_none=False, turn_based=True)
    except ValueError as error:
        raise Refusal("bad-frame", str(error)) from None
    return QueueKey(
        chosen.name,
        count,
        frame.get("rated") is True,
        frame.get("two_player_rule") is not False,
        str(clock),
        frame.get("finishers") is True,
        frame.get("bots_welcome") is True,
    )


def _bots_may_sit_with(chosen: list[Waiting], waiting: Waiting) -> bool:
    """Whether ``waiting`` may join ``chosen``: a bot's seek only where every person chosen welcomes bots, a person
    who does not welcome them only where no bot is chosen."""
    if waiting.bot:
        return all(other.bot or other.key.bots_welcome for other in chosen)
    return waiting.key.bots_welcome or not any(other.bot for other in chosen)


def _listings(rows: Rows, seats: str) -> list[dict[str, Any]]:
    """The newest lines of the lobby's listings whose seats are as ``seats`` says; a line that is not a listing (a
    damaged row) is left out, alone: the lobby goes on with the others."""
    found = []
    for text, updated in rows(
        f"SELECT listing, updated FROM racko_listings WHERE over = 0 AND {seats} ORDER BY updated DESC LIMIT ?",
        (LISTED,),
    ):
        try:
            line = json.loads(text)
            if isinstance(line, dict) and isinstance(line.get("table"), str):
                found.append({**line, "since": round(float(updated), 3)})
        except (ValueError, TypeError):
            continue
    return found


def _lobby_rows(rows: Rows) -> dict[str, Any]:
    """The lobby's lines as the database has them: public tables with seats to take, public games being played,
    the players seen lately."""
    waiting = _listings(rows, "open_seats > 0")
    playing = _listings(rows, "open_seats = 0")
    online, count = online_in(rows, LISTED)
    return {"open": waiting, "playing": playing, "online": online, "online_count": count}
