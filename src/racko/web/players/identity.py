"""A player who stays, without an account or an e-mail address: a name, and a random key in a cookie.

On the first visit a person picks a name; the server makes a player (a public id, the name) and a key of 192 random
bits, which only the person's browser holds (an HttpOnly, SameSite=Lax cookie, Secure over https) and which the
database keeps hashed.  A "use on another device" code moves the identity: one use, ten minutes, and the other
device gets a key of its own.  Seats a player takes are bound to them, so their seat opens without its link.
Forgetting a player removes them from every copy the server keeps (:meth:`Players.forget`); the games other people
played with them stay, with the seat called "a forgotten player" (docs/PRIVACY.md says what is kept and why).

Every method here blocks on the database: the routes call them in a worker thread.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import math
import secrets
import time
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from racko.play.text import plain_name
from racko.web.players.finishing import Finishing, finishing_of
from racko.web.store import Rows, SchemaPart, TableStore, new_id

COOKIE = "racko_player"
KEY_BYTES = 24
"""A player's key: 192 random bits."""
BOT_TOKEN_BYTES = 24
"""A bot account's token (docs/BOTS.md): 192 random bits, kept hashed like a player's key, shown once."""
BOT_MARK = " (bot)"
"""What follows a bot account's name wherever it sits at a table (the seat's name: the table, the lobby, the games
and records), so that nobody takes it for a person."""
TRANSFER_SECONDS = 600.0
"""How long a "use on another device" code works (once)."""
NAME_LENGTH = 24
FORGOTTEN = "a forgotten player"
"""The name of a forgotten player's seat, wherever one was kept (the pages say it in their own language)."""
FORGOTTEN_SUBJECT = "forgotten"
"""How the histories name a forgotten player's seat."""
COOKIE_DAYS = 400
SEEN_EVERY = 60.0
"""Seconds between two notes that a player was seen (a request)."""
PAGES_EVERY = 10.0
"""Seconds between two notes that the players with a page open in this process are still there."""
TURNS_EVERY = 0.2
"""Seconds within which whose move it is at a table reaches its players' lists (every table's in one write)."""
ONLINE_SECONDS = 3 * PAGES_EVERY
"""A player whose page was open this recently is online (the lobby lists them; a new name may not look like theirs):
a page open in any process is noted again well before that, and a page closed counts at once."""

log = logging.getLogger("racko.serve")

SCHEMA = SchemaPart.of_room("players", kept_by_table=("racko_seats", "racko_forgotten_seats", "racko_turns"))
"""The players' tables: who they are, their keys and transfer codes, the seats bound to them (with who sits at those
tables, for their lobby), the names they hid, and the seats of forgotten players whose table has not been rewritten
yet (a table and a seat, no player).  Version 6 added whose move it is at each table with a player's seat and
until when (``racko_turns``: a player's list shows "your move" first, with the time left)."""


def key_hash(key: str) -> str:
    return hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()


def clean_name(name: Any) -> str | None:
    """A name as people see it (plain text, the same filter as everywhere), or None if there is nothing to it."""
    if not isinstance(name, str) or not name.strip():
        return None
    clean = plain_name(name)[:NAME_LENGTH].strip()
    # a name says something: a letter, a digit or a symbol such as an emoji (not only marks put for hidden characters)
    if not any(character.isalnum() or unicodedata.category(character) == "So" for character in clean):
        return None
    return clean


def subject_of(player_id: str) -> str:
    """How ratings and games name a player (computer levels are ``bot:LEVEL``)."""
    return "p:" + player_id


@dataclass(frozen=True)
class Player:
    id: str
    name: str

    def to_json(self) -> dict[str, str]:
        return {"id": self.id, "name": self.name}


def names_in(rows: Rows, player_ids: list[str]) -> dict[str, str]:
    """The names of those of these players the server knows, by id, read in the caller's transaction (another
    room's, which keeps ids and asks the players room for names)."""
    if not player_ids:
        return {}
    marks = ", ".join("?" for _ in player_ids)
    found = rows(f"SELECT id, name FROM racko_players WHERE id IN ({marks})", tuple(player_ids))
    return {str(player_id): str(name) for player_id, name in found}


def bots_in(rows: Rows, player_ids: list[str]) -> set[str]:
    """Those of these players that are bot accounts, read in the caller's transaction (the ratings room keeps their
    ratings on a board of their own)."""
    if not player_ids:
        return set()
    marks = ", ".join("?" for _ in player_ids)
    found = rows(f"SELECT player_id FROM racko_bot_accounts WHERE player_id IN ({marks})", tuple(player_ids))
    return {str(player_id) for (player_id,) in found}


def games_under_way(rows: Rows, player_ids: list[str]) -> dict[str, int]:
    """How many tables whose game is not over each of these players sits at (0 for none), read in the caller's
    transaction (the bot ladder counts a bot's games at once)."""
    if not player_ids:
        return {}
    marks = ", ".join("?" for _ in player_ids)
    found = rows(
        f"SELECT player_id, COUNT(*) FROM racko_seats WHERE over = 0 AND player_id IN ({marks}) GROUP BY player_id",
        tuple(player_ids),
    )
    return {player_id: 0 for player_id in player_ids} | {str(player_id): int(count) for player_id, count in found}


def online_in(rows: Rows, limit: int) -> tuple[list[dict[str, Any]], int]:
    """The players seen within :data:`ONLINE_SECONDS`, the most recent first (at most ``limit``), a bot account's
    line with ``"bot": true``, and how many they are, read in the caller's transaction (the lobby's)."""
    since = time.time() - ONLINE_SECONDS
    online = [
        {"id": str(player_id), "name": str(name)} | ({"bot": True} if bot is not None else {})
        for player_id, name, bot in rows(
            "SELECT p.id, p.name, b.player_id FROM racko_players p LEFT JOIN racko_bot_accounts b "
            "ON b.player_id = p.id WHERE p.seen > ? ORDER BY p.seen DESC LIMIT ?",
            (since, limit),
        )
    ]
    return online, int(rows("SELECT count(*) FROM racko_players WHERE seen > ?", (since,))[0][0])


class Players:
    """The players the server knows, kept in its store (SQLite or PostgreSQL, the same SQL)."""

    def __init__(self, store: TableStore) -> None:
        self.store = store
        self.pages: dict[str, int] = {}
        """How many pages (sockets: the lobby, a table) each player has open in this process."""
        self.forgetting: list[Callable[[Rows, str], None]] = []
        """What another room does, in the transaction that forgets a player, to forget them too (their id)."""
        self._turns: dict[str, tuple[int | None, float | None]] = {}
        """Whose move it is at the tables whose turn changed since the last write (:meth:`list_turn`)."""
        self._turns_writer: asyncio.Task[None] | None = None
        self.revoking: list[Callable[[Rows, str], None]] = []
        """What the other rooms do, in the transaction that revokes a bot's token, with the bot's id (the bots room
        withdraws its challenges and ends its seeks)."""

    def identify(self, key: str | None) -> Player | None:
        """The player whose key this is (and they were seen now), or None."""
        if not key or len(key) > 100:
            return None

        found = self.store.read(
            lambda rows: rows(
                "SELECT players.id, players.name, players.seen FROM racko_player_keys AS keys JOIN racko_players "
                "AS players ON players.id = keys.player_id WHERE keys.key_hash = ?",
                (key_hash(key),),
            )
        )
        if not found:
            return None
        player_id, name, seen = found[0]
        now = time.time()
        if now - float(seen) > SEEN_EVERY:  # a write now and then, not one per request
            self.store.run(lambda rows: rows("UPDATE racko_players SET seen = ? WHERE id = ?", (now, player_id)))
        return Player(str(player_id), str(name))

    async def page_opened(self, player_id: str) -> None:
        """A page of the player's opened here: online at once, and for as long as one stays open."""
        first = player_id not in self.pages
        self.pages[player_id] = self.pages.get(player_id, 0) + 1
        if first:
            await self._note_seen([player_id], time.time())

    async def page_closed(self, player_id: str) -> None:
        """A page of the player's closed here; the last one: offline at once (a page of theirs open in another
        process says otherwise within :data:`PAGES_EVERY`)."""
        left = self.pages.get(player_id, 0) - 1
        if left > 0:
            self.pages[player_id] = left
            return
        self.pages.pop(player_id, None)
        await self._note_seen([player_id], time.time() - ONLINE_SECONDS)

    async def keep_pages_noted(self) -> None:
        """For the server's life: every :data:`PAGES_EVERY` seconds, the players with a page open here were seen."""
        while True:
            await asyncio.sleep(PAGES_EVERY)
            if self.pages:
                await self._note_seen(list(self.pages), time.time())

    async def _note_seen(self, player_ids: list[str], at: float) -> None:
        marks = ", ".join("?" * len(player_ids))
        try:
            await asyncio.to_thread(
                self.store.run,
                lambda rows: rows(f"UPDATE racko_players SET seen = ? WHERE id IN ({marks})", (at, *player_ids)),
            )
        except Exception as error:  # the database away a moment: who is online is noted again soon
            log.warning("could not note who is online: %s", error)

    def create(self, name: str) -> tuple[Player, str]:
        """A new player with this (clean) name; returns them and the key for their browser's cookie."""
        player = Player(new_id(), name)
        key = secrets.token_urlsafe(KEY_BYTES)
        now = time.time()

        def work(rows: Rows) -> None:
            rows("INSERT INTO racko_players (id, name, created, seen) VALUES (?, ?, ?, ?)", (player.id, name, now, now))
            rows(
                "INSERT INTO racko_player_keys (key_hash, player_id, created) VALUES (?, ?, ?)",
                (key_hash(key), player.id, now),
            )

        self.store.run(work)
        return player, key

    def rename(self, player_id: str, name: str) -> bool:
        """A player's new (clean) name, wherever it shows; False if there is no such player."""
        return bool(
            self.store.run(
                lambda rows: rows("UPDATE racko_players SET name = ? WHERE id = ? RETURNING id", (name, player_id))
            )
        )

    def forget(self, player_id: str) -> bool:
        """Remove the player from everything the server keeps, in one transaction: name, keys, transfer codes, the
        seats bound to them, the names others hid, and what the other rooms keep of them (:attr:`forgetting`: the
        ratings room's histories and ratings, where their seat in a finished game becomes :data:`FORGOTTEN`).
        Every table they were seated at gets a note naming the seat (not the player), which the process playing that
        table carries out within a second (:meth:`racko.web.table.TableRoom.forget_seats`: its set-up, the game on, the
        games filed there, the lobby's line, the other players' lists).  False if there is no such player."""

        def work(rows: Rows) -> bool:
            seats = rows("SELECT table_id, seat FROM racko_seats WHERE player_id = ?", (player_id,))
            gone = rows("DELETE FROM racko_players WHERE id = ? RETURNING id", (player_id,))  # keys, seats: cascade
            if not gone:
                return False
            rows("DELETE FROM racko_hidden WHERE hidden_id = ?", (player_id,))
            for table_id, seat in seats:
                rows(
                    "INSERT INTO racko_forgotten_seats (table_id, seat) VALUES (?, ?) ON CONFLICT DO NOTHING",
                    (table_id, seat),
                )
            for forget_there in self.forgetting:
                forget_there(rows, player_id)
            return True

        return self.store.run(work)

    def seats_to_forget(self) -> list[tuple[str, int]]:
        """The seats whose player was forgotten and whose table has not been rewritten yet: (table, seat)."""
        return [
            (str(table_id), int(seat))
            for table_id, seat in self.store.read(
                lambda rows: rows("SELECT table_id, seat FROM racko_forgotten_seats ORDER BY table_id, seat")
            )
        ]

    def seat_forgotten(self, table_id: str, seat: int) -> None:
        """The table of a forgotten seat was rewritten (or is gone): its note goes."""
        self.store.run(
            lambda rows: rows("DELETE FROM racko_forgotten_seats WHERE table_id = ? AND seat = ?", (table_id, seat))
        )

    def existing(self, player_ids: list[str]) -> set[str]:
        """Which of these players the server still knows (the others were forgotten)."""
        return set(self.store.read(lambda rows: names_in(rows, player_ids)))

    def online_names(self, except_player: str | None) -> list[str]:
        """The names of the players online now, but for ``except_player``'s."""
        since = time.time() - ONLINE_SECONDS
        found = self.store.read(
            lambda rows: rows(
                "SELECT DISTINCT name FROM racko_players WHERE id <> ? AND seen > ?", (except_player or "", since)
            )
        )
        return [str(name) for (name,) in found]

    def transfer_code(self, player_id: str) -> str:
        """A code that lets one other device become this player, once, within :data:`TRANSFER_SECONDS`."""
        code = secrets.token_urlsafe(KEY_BYTES)

        def work(rows: Rows) -> None:
            rows("DELETE FROM racko_transfers WHERE expires < ?", (time.time(),))
            rows(
                "INSERT INTO racko_transfers (code_hash, player_id, expires) VALUES (?, ?, ?)",
                (key_hash(code), player_id, time.time() + TRANSFER_SECONDS),
            )

        self.store.run(work)
        return code

    def claim(self, code: str) -> tuple[Player, str] | None:
        """This device becomes the player the code was made for (the code is used up); None if it is no code, used
        or too old."""
        if not isinstance(code, str) or not code or len(code) > 100:
            return None
        key = secrets.token_urlsafe(KEY_BYTES)

        def work(rows: Rows) -> Player | None:
            found = rows(
                "DELETE FROM racko_transfers WHERE code_hash = ? AND expires >= ? RETURNING player_id",
                (key_hash(code), time.time()),
            )
            if not found:
                return None
            named = rows("SELECT id, name FROM racko_players WHERE id = ?", (found[0][0],))
            if not named:
                return None
            rows(
                "INSERT INTO racko_player_keys (key_hash, player_id, created) VALUES (?, ?, ?)",
                (key_hash(key), named[0][0], time.time()),
            )
            return Player(str(named[0][0]), str(named[0][1]))

        player = self.store.run(work)
        return None if player is None else (player, key)

    def find(self, player_id: str) -> Player | None:
        found = self.store.read(lambda rows: rows("SELECT id, name FROM racko_players WHERE id = ?", (player_id,)))
        return Player(str(found[0][0]), str(found[0][1])) if found else None

    def bind(self, table_id: str, seat: int, player_id: str, variant: str, names: list[str]) -> None:
        """The seat is this player's: their browser opens it without the seat's link, and their lobby lists it
        (the variant and who sits at the table) until its game is over.  Refused by the database (an exception)
        if the player is not known (forgotten meanwhile)."""

        def work(rows: Rows) -> None:
            rows(
                "INSERT INTO racko_seats (table_id, seat, player_id, since, variant, names, over) "
                "VALUES (?, ?, ?, ?, ?, ?, 0) ON CONFLICT (table_id, seat) DO UPDATE SET player_id = "
                "excluded.player_id, since = excluded.since, variant = excluded.variant, over = 0",
                (table_id, seat, player_id, time.time(), variant, json.dumps(names)),
            )
            # who sits there, for everybody's line of the table (a name given after they sat down too)
            rows("UPDATE racko_seats SET names = ? WHERE table_id = ?", (json.dumps(names), table_id))

        self.store.run(work)

    def unbind(self, table_id: str, seat: int | None = None) -> None:
        """Undo :meth:`bind` for a seat (or every seat of a table) whose set-up could not be kept."""
        if seat is None:
            self.store.run(lambda rows: rows("DELETE FROM racko_seats WHERE table_id = ?", (table_id,)))
        else:
            self.store.run(
                lambda rows: rows("DELETE FROM racko_seats WHERE table_id = ? AND seat = ?", (table_id, seat))
            )

    def seat_names(self, table_id: str, names: list[str]) -> None:
        """Who sits at the table now, for the lines its players' lobbies show."""
        self.store.run(
            lambda rows: rows("UPDATE racko_seats SET names = ? WHERE table_id = ?", (json.dumps(names), table_id))
        )

    def table_over(self, table_id: str, over: bool) -> None:
        """A table's game ended (its seats leave their players' lobbies), or a next game began there."""
        self.store.run(lambda rows: rows("UPDATE racko_seats SET over = ? WHERE table_id = ?", (int(over), table_id)))

    def turn_at(self, table_id: str, seat: int | None, due: float | None) -> None:
        """Whose move it is at the table (``None``: a computer player's, or nobody's) and until when (``None``: no
        clock runs), for its players' lists (blocks; the tables list it through :meth:`list_turn`)."""
        self._write_turns({table_id: (seat, due)})

    async def list_turn(self, table_id: str, seat: int | None, due: float | None) -> None:
        """:meth:`turn_at` without a transaction of its own: noted now, written within :data:`TURNS_EVERY` with every
        table's turn of that moment, in one transaction that does not wait for the disk.  A move's own commit is
        the durable one; this list, read by a player's page, is one move behind at worst after a power cut (a
        transaction per move here, synced and in a worker thread, made every move at a table of players wait for
        the disk twice, and held the worker threads the moves' commits wait for)."""
        self._turns[table_id] = (seat, due)
        if self._turns_writer is None or self._turns_writer.done():
            self._turns_writer = asyncio.get_running_loop().create_task(self._write_turns_soon())

    async def _write_turns_soon(self) -> None:
        while self._turns:
            await asyncio.sleep(TURNS_EVERY)
            turns, self._turns = self._turns, {}
            try:
                await asyncio.to_thread(self._write_turns, turns, durable=False)
            except Exception as error:  # the lists are a convenience: the next turn writes them again
                log.warning("whose move it is at %d tables could not be listed: %s", len(turns), type(error).__name__)

    def _write_turns(self, turns: dict[str, tuple[int | None, float | None]], durable: bool = True) -> None:
        def work(rows: Rows) -> None:
            for table_id, (seat, due) in turns.items():
                rows(
                    "INSERT INTO racko_turns (table_id, to_act, due) VALUES (?, ?, ?) ON CONFLICT (table_id) "
                    "DO UPDATE SET to_act = excluded.to_act, due = excluded.due",
                    (table_id, seat, due),
                )

        self.store.run(work, durable=durable)

    def seats_of(self, player_id: str) -> list[dict[str, Any]]:
        """The player's seats at tables whose game is not over: table, seat, variant, names, whether it is their
        move (``your_move``) and its deadline (``due``, the server's time; ``None`` without a clock).  The tables
        where it is their move come first, the most pressing first; then the others, newest first."""
        found = [
            {
                "table": str(table_id),
                "seat": int(seat),
                "variant": str(variant),
                "names": json.loads(names),
                "your_move": to_act is not None and int(to_act) == int(seat),
                "due": None if due is None else float(due),
                "since": float(since),
            }
            for table_id, seat, variant, names, to_act, due, since in self.store.read(
                lambda rows: rows(
                    "SELECT s.table_id, s.seat, s.variant, s.names, t.to_act, t.due, s.since FROM racko_seats s "
                    "LEFT JOIN racko_turns t ON t.table_id = s.table_id "
                    "WHERE s.player_id = ? AND s.over = 0 ORDER BY s.since DESC LIMIT 50",
                    (player_id,),
                )
            )
        ]
        # Their move first, the nearest deadline first (no clock last of them); the others stay newest first.
        found.sort(
            key=lambda line: (not line["your_move"], line["due"] if line["your_move"] and line["due"] else math.inf)
        )
        for line in found:
            if not line["your_move"]:
                line["due"] = None  # another seat's deadline: not this player's time
            del line["since"]
        return found

    def finishing(self, player_id: str) -> Finishing:
        """The player's record of finishing the games that count (:mod:`.finishing`)."""
        now = time.time()
        return self.store.read(lambda rows: finishing_of(rows, player_id, now))

    def unfinished(self, player_id: str) -> int:
        """How many tables the player sits at whose game is not over."""
        found = self.store.read(
            lambda rows: rows("SELECT count(*) FROM racko_seats WHERE player_id = ? AND over = 0", (player_id,))
        )
        return int(found[0][0])

    def hide(self, player_id: str, other_id: str, hidden: bool) -> None:
        """Whether ``player_id`` sees ``other_id``'s name (hidden: "a player" in their own view, no one else's)."""

        def work(rows: Rows) -> None:
            if hidden:
                rows(
                    "INSERT INTO racko_hidden (player_id, hidden_id) VALUES (?, ?) ON CONFLICT DO NOTHING",
                    (player_id, other_id),
                )
            else:
                rows("DELETE FROM racko_hidden WHERE player_id = ? AND hidden_id = ?", (player_id, other_id))

        self.store.run(work)

    def hidden_by(self, player_id: str) -> set[str]:
        return {
            str(hidden)
            for (hidden,) in self.store.read(
                lambda rows: rows("SELECT hidden_id FROM racko_hidden WHERE player_id = ?", (player_id,))
            )
        }

    def everyone(self, limit: int = 1000) -> list[dict[str, Any]]:
        """The players, most recently seen first (for the operator); ``bot``: a bot account's."""
        return [
            {"id": player_id, "name": name, "created": created, "seen": seen, "bot": bot is not None}
            for player_id, name, created, seen, bot in self.store.read(
                lambda rows: rows(
                    "SELECT p.id, p.name, p.created, p.seen, b.player_id FROM racko_players p "
                    "LEFT JOIN racko_bot_accounts b ON b.player_id = p.id ORDER BY p.seen DESC LIMIT ?",
                    (limit,),
                )
            )
        ]

    # --- bot accounts (docs/BOTS.md): a player marked as a bot, who plays through the Bot API with a token ---------

    def add_bot(self, name: str) -> tuple[Player, str]:
        """A bot account of this (clean) name and a new token for it, shown once (kept hashed): a new bot, or the
        bot of that name again with a new token (its old token stops working).  ``ValueError`` if a person (or
        another player) has that name."""
        return self.add_bots([name])[0]

    def add_bots(self, names: Sequence[str]) -> list[tuple[Player, str]]:
        """:meth:`add_bot` for each of these names, in their order, in one transaction: all of them or, when one of
        the names is a person's (``ValueError``, naming it), none."""
        tokens = ["rb_" + secrets.token_urlsafe(BOT_TOKEN_BYTES) for _ in names]
        now = time.time()

        def work(rows: Rows) -> list[Player]:
            made = []
            for name, token in zip(names, tokens, strict=True):
                found = rows(
                    "SELECT p.id, b.player_id FROM racko_players p "
                    "LEFT JOIN racko_bot_accounts b ON b.player_id = p.id WHERE p.name = ?",
                    (name,),
                )
                if any(bot is None for _, bot in found):
                    raise ValueError(f"a player who is not a bot is called {name}")
                if found:
                    player_id = str(found[0][0])
                    rows(
                        "UPDATE racko_bot_accounts SET token_hash = ? WHERE player_id = ?", (key_hash(token), player_id)
                    )
                else:
                    player_id = new_id()
                    rows(
                        "INSERT INTO racko_players (id, name, created, seen) VALUES (?, ?, ?, ?)",
                        (player_id, name, now, 0),
                    )
                    rows(
                        "INSERT INTO racko_bot_accounts (player_id, token_hash, created) VALUES (?, ?, ?)",
                        (player_id, key_hash(token), now),
                    )
                made.append(Player(player_id, name))
            return made

        return list(zip(self.store.run(work), tokens, strict=True))

    def revoke_bot(self, name: str) -> bool:
        """The bot account of this name keeps its games but its token stops working, and what the other rooms keep
        for it ends (:attr:`revoking`: its challenges, its seeks); False if there is no such bot."""

        def work(rows: Rows) -> bool:
            revoked = rows(
                "UPDATE racko_bot_accounts SET token_hash = NULL WHERE player_id IN "
                "(SELECT id FROM racko_players WHERE name = ?) RETURNING player_id",
                (name,),
            )
            for (player_id,) in revoked:
                for revoke_there in self.revoking:
                    revoke_there(rows, str(player_id))
            return bool(revoked)

        return self.store.run(work)

    def bot_named(self, name: str) -> Player | None:
        """The bot account of this name (a person's seat at a new table may be offered to it), or None."""
        found = self.store.read(
            lambda rows: rows(
                "SELECT p.id, p.name FROM racko_bot_accounts b JOIN racko_players p ON p.id = b.player_id "
                "WHERE p.name = ?",
                (name,),
            )
        )
        return Player(str(found[0][0]), str(found[0][1])) if found else None

    def is_bot(self, player_id: str) -> bool:
        return bool(
            self.store.read(lambda rows: rows("SELECT 1 FROM racko_bot_accounts WHERE player_id = ?", (player_id,)))
        )
