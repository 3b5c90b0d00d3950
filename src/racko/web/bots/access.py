"""Who may use the Bot API and how much: a bot account's token (never a page's cookie), the operator's limits per
token (docs/BOTS.md), and the refusal every Bot API route answers with.

The limits hold across server processes: they are kept in the store, and each process asks it as seldom as it can,
so that a move costs no database round trip of its own.

- **The token** is looked up once and then known to the process (:class:`BotLimits.known`), checked again against the
  store every :data:`~racko.web.bots.api.POLL_SECONDS` by the room's keeper: a token revoked (or replaced by ``racko
  admin bot add``) anywhere stops working everywhere within a second, and its streams end.
- **Failed token checks** are counted per client address in the store (:data:`FAILED_CHECKS_PER_MINUTE`, a bucket per
  address): beyond them the address is answered ``429`` before any token it sends is looked up.
- **Requests per token** are a token bucket per bot in the store (``racko_bot_budgets``: as full as a minute's worth
  at first, refilled evenly); a process takes :data:`GRANT_SECONDS` of the bot's rate from it at once, and spends it
  in memory, so the store is asked about once in that many requests and a bot on three processes never gets more
  than the bucket holds.  Refused: ``429 slow-down`` with ``Retry-After``, before the request does anything.
- **Games at once**, **open challenges** per bot and per challenger, and **event streams** per token are counted in the
  store where a challenge, a seek or a stream is made (:mod:`.challenges`, :mod:`.api`)."""

from __future__ import annotations

import asyncio
import json
import math
import time
from collections.abc import Callable
from typing import Any

from starlette.requests import Request

from racko.web.core import BODY_LIMIT, Refusal, TooBig, client_address, read_body
from racko.web.players import COOKIE, Player, Players, key_hash
from racko.web.store import Rows

REQUESTS_PER_MINUTE = 600
"""Requests a minute a bot's token may make by default (every route: moves, streams opened, challenges, seeks)."""
GAMES_AT_ONCE = 8
"""Games not over a bot may sit at by default before a challenge or a seek for another is refused."""
EVENT_STREAMS = 2
"""Event streams one token may hold open at once, across every process: a newer one ends the oldest."""
OPEN_CHALLENGES = 20
"""Challenges that may wait for one bot's answer at once, by default (from everybody together)."""
CHALLENGES_PER_CHALLENGER = 3
"""Challenges one challenger (a person's page or a bot) may have waiting at once."""
FAILED_CHECKS_PER_MINUTE = 20
"""Tokens that are no bot's (or revoked) one client address may send a minute (a burst of that many, then that
rate); beyond, its requests are refused ``429`` before a token is looked up."""
GRANT_SECONDS = 2.0
"""A process takes this many seconds of a bot's rate from the store's bucket at once (at most what is left)."""
LOOKUP_CHUNK = 400
"""Token hashes checked against the store in one statement."""
CLOCK_SLACK = 5.0
"""Seconds two processes' clocks may differ; a stamp further ahead than this means the clock was set back."""
LONGEST_WAIT = 60.0 + CLOCK_SLACK
"""A bucket refills at least one request a minute: a remembered wait further ahead means the clock was set back."""


async def posted_object(
    request: Request, too_big: str, not_json: str, not_object: str, empty: bytes | None = None
) -> dict[str, Any]:
    """The JSON object a bot posted (``empty``: what an empty body stands for; none: it is no JSON), or a
    :class:`Refusal` with these sentences: ``413 too-big`` over :data:`BODY_LIMIT` (before it is read),
    ``400 bad-frame`` for what is no JSON, or no object."""
    try:
        raw = await read_body(request, BODY_LIMIT)
    except TooBig:
        raise Refusal("too-big", too_big) from None
    try:
        body = json.loads(raw if raw or empty is None else empty)
    except (ValueError, RecursionError):
        raise Refusal("bad-frame", not_json) from None
    if not isinstance(body, dict):
        raise Refusal("bad-frame", not_object)
    return body


def locked(rows: Rows, table: str, key: str, value: str, full: float, now: float) -> tuple[float, float]:
    """A bucket's row (``tokens``, ``stamp``), made full if missing, and held by this transaction until it ends (an
    update that changes nothing takes PostgreSQL's row lock; SQLite runs one writer at a time anyway)."""
    rows(
        f"INSERT INTO {table} ({key}, tokens, stamp) VALUES (?, ?, ?) ON CONFLICT ({key}) DO NOTHING",
        (value, full, now),
    )
    rows(f"UPDATE {table} SET tokens = tokens WHERE {key} = ?", (value,))
    tokens, stamp = rows(f"SELECT tokens, stamp FROM {table} WHERE {key} = ?", (value,))[0]
    return float(tokens), float(stamp)


def refilled(tokens: float, stamp: float, now: float, full: float, per_second: float) -> float:
    return min(full, tokens + max(0.0, now - stamp) * per_second)


def settled(now: float, stamp: float) -> float:
    """The time a bucket is refilled to: never before its stamp (another process's clock a little ahead counts
    nothing twice), unless the stamp is further ahead than clocks drift apart: then this clock was set back, and the
    bucket fills from now on rather than stay empty until the clock is back where it was."""
    return max(now, stamp) if stamp - now <= CLOCK_SLACK else now


class BotLimits:
    """The operator's limits on each bot's token, held across processes through the store: requests a minute,
    failed token checks per address, games at once, event streams, open challenges."""

    def __init__(
        self,
        players: Players,
        requests_per_minute: int = REQUESTS_PER_MINUTE,
        games_at_once: int = GAMES_AT_ONCE,
        now: Callable[[], float] = time.time,
        *,
        event_streams: int = EVENT_STREAMS,
        open_challenges: int = OPEN_CHALLENGES,
        challenges_per_challenger: int = CHALLENGES_PER_CHALLENGER,
        failed_checks_per_minute: int = FAILED_CHECKS_PER_MINUTE,
    ) -> None:
        self.players = players
        self.store = players.store
        self.requests_per_minute = requests_per_minute
        self.games_at_once = games_at_once
        self.event_streams = event_streams
        self.open_challenges = open_challenges
        self.challenges_per_challenger = challenges_per_challenger
        self.failed_checks_per_minute = failed_checks_per_minute
        self.now = now
        """The clock the buckets fill by (the server's, shared by its processes; a test moves it by hand)."""
        self.known: dict[str, Player] = {}
        """The bots of the tokens this process has seen, by the token's hash (checked again by the keeper)."""
        self.granted: dict[str, int] = {}
        """Requests each bot may still make through this process, taken from its bucket in the store."""
        self.slowed: dict[str, float] = {}
        """Until when a bot's bucket is known to be empty (refused here without asking the store)."""
        self.barred: dict[str, float] = {}
        """Until when a client address is known to have no failed check left."""
        self.active: set[str] = set()
        """The bots that made a request since the keeper last noted them seen."""

    # --- tokens ---------------------------------------------------------------------------------------

    async def identify(self, token: str, address: str | None) -> Player:
        """The bot whose token this is: known here, or looked up in the store (counted against the address's failed
        checks when it is no bot's); ``401 bad-token`` or ``429 too-many-bad-tokens``."""
        hashed = key_hash(token)
        bot = self.known.get(hashed)
        if bot is not None:
            return bot
        where = address or "?"
        now = self.now()
        if 0 < self.barred.get(where, 0.0) - now <= LONGEST_WAIT:  # further: the clock was set back
            raise self._barred(self.barred[where] - now)
        found, wait, checked = await asyncio.to_thread(self._look_up, hashed if len(token) <= 100 else "", where)
        if found is not None:
            self.known[hashed] = found
            return found
        if wait > 0:
            self.barred[where] = now + wait
            if not checked:
                raise self._barred(wait)
        raise Refusal("bad-token", "This token is no bot account's (or it was revoked).")

    def _barred(self, wait: float) -> Refusal:
        return Refusal(
            "too-many-bad-tokens",
            f"This address sent more than {self.failed_checks_per_minute} tokens a minute that are no bot's: wait, "
            "then try again.",
            retry_after=max(1, math.ceil(wait)),
        )

    def _look_up(self, hashed: str, address: str) -> tuple[Player | None, float, bool]:
        """In one transaction: the address's failed checks, then the token (unless none is left); a failure is
        counted.  The bot or None, how long the address must wait before its next check (0: none), and whether the
        token was checked."""
        full = float(self.failed_checks_per_minute)
        per_second = full / 60.0

        def work(rows: Rows) -> tuple[Player | None, float, bool]:
            now = self.now()
            tokens, stamp = locked(rows, "racko_bot_failures", "address", address, full, now)
            now = settled(self.now(), stamp)  # read under the lock
            tokens = refilled(tokens, stamp, now, full, per_second)
            if tokens < 1:
                rows("UPDATE racko_bot_failures SET tokens = ?, stamp = ? WHERE address = ?", (tokens, now, address))
                return None, (1 - tokens) / per_second, False
            found = rows(
                "SELECT p.id, p.name FROM racko_bot_accounts b JOIN racko_players p ON p.id = b.player_id "
                "WHERE b.token_hash = ?",
                (hashed,),
            )
            if not found:
                tokens -= 1
            rows("UPDATE racko_bot_failures SET tokens = ?, stamp = ? WHERE address = ?", (tokens, now, address))
            if found:
                return Player(str(found[0][0]), str(found[0][1])), 0.0, True
            return None, (1 - tokens) / per_second if tokens < 1 else 0.0, True

        return self.store.run(work, durable=False)

    def still_valid(self, rows: Rows, hashes: set[str]) -> dict[str, Player]:
        """Of ``hashes``, those that are a bot's token now, with the bot (read in the keeper's transaction)."""
        valid: dict[str, Player] = {}
        listed = sorted(hashes)
        for start in range(0, len(listed), LOOKUP_CHUNK):
            chunk = listed[start : start + LOOKUP_CHUNK]
            marks = ", ".join("?" for _ in chunk)
            for hashed, player_id, name in rows(
                "SELECT b.token_hash, p.id, p.name FROM racko_bot_accounts b JOIN racko_players p "
                f"ON p.id = b.player_id WHERE b.token_hash IN ({marks})",
                tuple(chunk),
            ):
                valid[str(hashed)] = Player(str(player_id), str(name))
        return valid

    def checked(self, valid: dict[str, Player]) -> None:
        """The keeper's answer: the known tokens that are no longer a bot's are forgotten (their next request is
        refused), a renamed bot is known by its new name."""
        self.known = {hashed: valid[hashed] for hashed in self.known if hashed in valid}
        ids = {bot.id for bot in self.known.values()}
        self.granted = {bot_id: left for bot_id, left in self.granted.items() if bot_id in ids}

    # --- requests a minute --------------------------------------------------------------------------------

    async def take(self, bot: Player) -> None:
        """One request of ``bot``'s; a 429 ``slow-down`` once it goes faster than the operator allows (across every
        process: the bucket is the store's)."""
        self.active.add(bot.id)
        if self.granted.get(bot.id, 0) > 0:
            self.granted[bot.id] -= 1
            return
        now = self.now()
        if 0 < self.slowed.get(bot.id, 0.0) - now <= LONGEST_WAIT:  # further: the clock was set back
            raise self._slow_down(self.slowed[bot.id] - now)
        granted, wait = await asyncio.to_thread(self._grant, bot.id)
        if granted < 1:
            self.slowed[bot.id] = now + wait
            raise self._slow_down(wait)
        self.granted[bot.id] = self.granted.get(bot.id, 0) + granted - 1

    def _slow_down(self, wait: float) -> Refusal:
        return Refusal(
            "slow-down",
            f"This bot made more than {self.requests_per_minute} requests a minute: wait, then try again.",
            retry_after=max(1, math.ceil(wait)),
        )

    def _grant(self, bot_id: str) -> tuple[int, float]:
        """Take up to :data:`GRANT_SECONDS` of the bot's rate from its bucket in the store: how many, and (none left)
        how long until there is one."""
        full = float(self.requests_per_minute)
        per_second = full / 60.0
        wanted = max(1, min(int(full), round(per_second * GRANT_SECONDS)))

        def work(rows: Rows) -> tuple[int, float]:
            now = self.now()
            tokens, stamp = locked(rows, "racko_bot_budgets", "player_id", bot_id, full, now)
            now = settled(self.now(), stamp)  # read under the lock
            tokens = refilled(tokens, stamp, now, full, per_second)
            granted = min(wanted, int(tokens))
            tokens -= granted
            rows("UPDATE racko_bot_budgets SET tokens = ?, stamp = ? WHERE player_id = ?", (tokens, now, bot_id))
            return granted, 0.0 if granted else (1 - tokens) / per_second

        return self.store.run(work, durable=False)

    # --- games at once --------------------------------------------------------------------------------

    def games_of(self, rows: Rows, bot_id: str) -> int:
        """The games not over where the bot sits, and those being made for it (an accepted challenge whose table
        is not made yet), read in the caller's transaction."""
        seated = rows("SELECT COUNT(*) FROM racko_seats WHERE player_id = ? AND over = 0", (bot_id,))
        making = rows(
            "SELECT COUNT(*) FROM racko_challenges WHERE state = 'accepting' AND (bot_id = ? OR "
            "(challenger_id = ? AND challenger_is_bot = 1))",
            (bot_id, bot_id),
        )
        return int(seated[0][0]) + int(making[0][0])

    def too_many_games(self, bot: Player, playing: int) -> Refusal:
        return Refusal(
            "too-many-games",
            f"{bot.name} plays {playing} games already, as many at once as this server lets a bot play: finish one "
            "first.",
        )

    async def may_start_a_game(self, bot: Player) -> None:
        """A 429 ``too-many-games`` if ``bot`` sits at as many games not over as it may."""
        playing = await asyncio.to_thread(self.store.read, lambda rows: self.games_of(rows, bot.id))
        if playing >= self.games_at_once:
            raise self.too_many_games(bot, playing)


async def bot_of(request: Request, players: Players, limits: BotLimits) -> Player:
    """The bot account of the request's token, with the request counted against its limit; a page's cookie, no
    token or a token that is no bot's is refused (and counted against the client's address)."""
    if COOKIE in request.cookies:
        raise Refusal("cookie", "The Bot API takes a bot's token, never a page's cookie.")
    scheme, _, token = request.headers.get("authorization", "").partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise Refusal("no-token", "Send the bot's token: Authorization: Bearer TOKEN.")
    bot = await limits.identify(token.strip(), client_address(request))
    await limits.take(bot)
    return bot
