"""Challenges to bot accounts (docs/BOTS.md): a person (from the bot's challenge page) or another bot asks a bot for a
game of given settings; the bot, told on its event stream, accepts or declines within :data:`CHALLENGE_SECONDS`, or
the challenge expires.  An accepted challenge makes the table through the table room's own way of making one
(:meth:`TableRoom.create` with a :class:`TableRequest`, as ``POST /api/tables`` makes one) and both sides are told.

A challenge is kept in the store (``racko_challenges``), so any server process serves it: the one that took it, the
one the bot's answer reaches, the one its challenger's page asks.  Each change is one transaction that changes the
challenge only from the state it must be in (a compare-and-set on its row): accepting, declining, withdrawing and
expiring take turns, so exactly one of them ends it and the others are refused (``409 not-open``, with the state it
ended in).  An accept first marks it ``accepting`` (its table being made; counted among the bot's games), then
``accepted`` with the table.  What the bot and a challenging bot are told is written with the change
(:func:`~racko.web.bots.api.publish`), for whichever process has their event stream.

The limits are counted in the same transaction (the bot's account row held meanwhile): games at once, challenges
waiting for the bot (:data:`~racko.web.bots.access.OPEN_CHALLENGES`) and for the challenger
(:data:`~racko.web.bots.access.CHALLENGES_PER_CHALLENGER`)."""

from __future__ import annotations

import asyncio
import json
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from racko.errors import RackoError
from racko.play.session import bots_for
from racko.rules import variant
from racko.web.bots.access import BotLimits
from racko.web.bots.api import BotEvents, Poller, listening_in, publish
from racko.web.clock import ALL_PRESETS, NO_CLOCK
from racko.web.core import Refusal
from racko.web.players import Player
from racko.web.store import Rows
from racko.web.table import (
    Asker,
    BotAccountSeat,
    Consent,
    LevelSeat,
    PersonSeat,
    SeatRequest,
    TableRequest,
    TableRoom,
    rules_of,
)

CHALLENGE_SECONDS = 60.0
"""How long a challenge waits for the bot's answer before it expires."""
KEPT_SECONDS = 600.0
"""How long an ended challenge can still be asked about (its challenger's page learns how it ended)."""
MAKING_SECONDS = 120.0
"""An accepted challenge whose table is still not made after this long failed (its process stopped meanwhile)."""
DECLINE_REASONS = ("generic", "later", "variant", "players", "clock", "rated", "casual")
"""Why a bot declines, one of these words (each said in the challenger's language on their page)."""
PERSON, BOT_ACCOUNT = "person", "bot-account:"
"""A seat beyond the challenger's and the bot's for a person (a link for the challenger to send); a bot account there
is refused (it sits only by its own consent: challenge it too)."""
OPEN, ACCEPTING, ACCEPTED, DECLINED, EXPIRED, WITHDRAWN, FAILED = (
    "open",
    "accepting",
    "accepted",
    "declined",
    "expired",
    "withdrawn",
    "failed",
)
COLUMNS = (
    "c.challenge_id, c.challenger_id, COALESCE(pc.name, ''), c.challenger_is_bot, c.bot_id, COALESCE(pb.name, ''), "
    "c.settings, c.made, c.address, c.state, c.reason, c.table_id, c.ended, c.guests FROM racko_challenges c "
    "LEFT JOIN racko_players pc ON pc.id = c.challenger_id LEFT JOIN racko_players pb ON pb.id = c.bot_id"
)
"""A challenge's row with both names (a player being forgotten has none: the challenges' rows keep no foreign key,
so that forgetting can withdraw them and tell the other side before they go, :func:`forget_challenges`)."""
Told = list[tuple[str, str, dict[str, Any]]]
"""Events published in a transaction: ``(event_id, player_id, event)``, told here once it committed."""


@dataclass
class Challenge:
    """One challenge: who asks (a person or a bot), which bot, the game's settings, and how it stands."""

    id: str
    challenger: Player
    challenger_is_bot: bool
    bot: Player
    settings: dict[str, Any]
    """variant, players, seats (who sits in the seats after the challenger's and the bot's: a computer level or
    ``person``, as the start page's form says them), target, clock, rated, two_player_rule."""
    made: float
    address: str | None = None
    state: str = OPEN
    reason: str | None = None
    table: str | None = None
    ended: float | None = None
    guests: list[dict[str, Any]] = field(default_factory=list)
    """The links of the ``person`` seats of the table made (``{"seat", "token"}``): for the challenger alone."""

    @classmethod
    def of_row(cls, row: tuple[Any, ...]) -> Challenge:
        (challenge_id, challenger_id, challenger_name, challenger_is_bot, bot_id, bot_name, settings, made, address) = (
            row[:9]
        )
        state, reason, table, ended, guests = row[9:]
        return cls(
            str(challenge_id),
            Player(str(challenger_id), str(challenger_name)),
            bool(challenger_is_bot),
            Player(str(bot_id), str(bot_name)),
            json.loads(settings),
            float(made),
            None if address is None else str(address),
            str(state),
            None if reason is None else str(reason),
            None if table is None else str(table),
            None if ended is None else float(ended),
            json.loads(guests),
        )

    def expires(self) -> float:
        return self.made + CHALLENGE_SECONDS

    def status(self, now: float, challenger: bool = False) -> dict[str, Any]:
        """How it stands, as the bot is shown it; ``challenger``: as its challenger is, with the links of the seats
        of the people they invite (a seat's link is for whoever it is sent to, never the bot).  One being accepted
        is still ``open`` to them until its table is made."""
        more = {"guests": self.guests} if challenger else {}
        shown = OPEN if self.state == ACCEPTING else self.state
        return more | {
            "id": self.id,
            "state": shown,
            "reason": self.reason,
            "table": self.table,
            "bot": self.bot.name,
            "from": self.challenger.name,
            "expires_in": round(max(0.0, self.expires() - now), 1) if shown == OPEN else None,
            **self.settings,
        }

    def event(self, now: float) -> dict[str, Any]:
        """The ``challenge`` event on the challenged bot's stream."""
        return {
            "type": "challenge",
            "id": self.id,
            "from": {"name": self.challenger.name, "id": self.challenger.id, "bot": self.challenger_is_bot},
            "expires_in": round(max(0.0, self.expires() - now), 1),
            **self.settings,
        }


def challenge_settings(body: dict[str, Any]) -> dict[str, Any]:
    """A challenge's settings from its request, checked as a new table's form is (a 400 ``bad-challenge`` says what
    is wrong): the variant, the number of players (2 unless said), the computer levels of the seats beyond the
    challenger's and the bot's, the target score, the clock (a rated game always has one), rated or not, and
    whether a 2-player Rack-O needs a run of three."""
    try:
        chosen = variant(str(body.get("variant", "classic")))
    except RackoError:
        raise Refusal("bad-challenge", f"There is no variant {str(body.get('variant'))[:30]!r}.") from None
    players = body.get("players", 2)
    if not isinstance(players, int) or isinstance(players, bool) or players not in chosen.player_counts:
        counts = ", ".join(str(count) for count in chosen.player_counts)
        raise Refusal("bad-challenge", f"{chosen.title} is played by {counts} players.")
    levels = body.get("seats", [])
    playing = bots_for(chosen.name)
    fits = (PERSON, *playing)
    if isinstance(levels, list) and any(isinstance(level, str) and level.startswith(BOT_ACCOUNT) for level in levels):
        raise Refusal(
            "no-consent",
            "seats: a bot account sits at a table only by its own consent: challenge each bot on its own, or meet "
            "them in quick play.",
        )
    if not isinstance(levels, list) or len(levels) != players - 2 or not all(level in fits for level in levels):
        raise Refusal(
            "bad-challenge",
            f"seats: who sits in the {players - 2} other seats, each {PERSON} or one of {', '.join(playing)}.",
        )
    rated = body.get("rated") is True
    clock = body.get("clock", "normal" if rated else NO_CLOCK)
    if clock not in ALL_PRESETS and not (clock == NO_CLOCK and not rated):
        choices = list(ALL_PRESETS) if rated else [*ALL_PRESETS, NO_CLOCK]
        raise Refusal("bad-challenge", f"A clock is one of {', '.join(choices)}.")
    target = body.get("target")
    options: dict[str, Any] = {}
    if target is not None:
        options["target"] = target
    if players == 2 and body.get("two_player_rule") is False:
        options["two_player_rule"] = False
    try:
        rules = chosen.rules(players, **options)
    except (RackoError, TypeError, ValueError) as error:
        raise Refusal("bad-challenge", str(error)) from None
    return {
        "variant": chosen.name,
        "players": players,
        "seats": list(levels),
        "target": rules.target,
        "clock": clock,
        "rated": rated,
        "two_player_rule": rules.two_player_rule,
    }


def _hold(rows: Rows, *player_ids: str) -> None:
    """Hold the bot accounts' rows until the transaction ends (PostgreSQL's row locks, in a fixed order so that two
    transactions never wait on each other; SQLite runs one writer at a time): their limits are counted under it."""
    for player_id in sorted(set(player_ids)):
        rows("UPDATE racko_bot_accounts SET created = created WHERE player_id = ?", (player_id,))


def _ending(rows: Rows, challenge: Challenge, state: str, reason: str | None, quiet: str | None = None) -> Told:
    """What its end tells, published in the caller's transaction: the bot (when it did not end it itself) and a
    challenging bot, but for ``quiet`` (a player being forgotten, a bot whose token is revoked); a person's page
    asks."""
    told: Told = []
    said = {"id": challenge.id, "state": state, "reason": reason, "table": challenge.table}
    if state in (EXPIRED, WITHDRAWN) and quiet != challenge.bot.id:  # the bot's own answer is not told back to it
        event = {"type": "challengeCanceled", **said}
        told.append((publish(rows, challenge.bot.id, event), challenge.bot.id, event))
    if challenge.challenger_is_bot and quiet != challenge.challenger.id:
        kind = {ACCEPTED: "challengeAccepted", DECLINED: "challengeDeclined"}.get(state, "challengeCanceled")
        event = {"type": kind, **said}
        told.append((publish(rows, challenge.challenger.id, event), challenge.challenger.id, event))
    return told


def _end_in(
    rows: Rows,
    challenge: Challenge,
    states: tuple[str, ...],
    state: str,
    reason: str | None,
    now: float,
    quiet: str | None = None,
) -> Told | None:
    """Change the challenge from one of ``states`` to ``state`` (in the caller's transaction), and publish what it
    tells; None if it was in none of them (another change came first)."""
    marks = ", ".join("?" for _ in states)
    changed = rows(
        f"UPDATE racko_challenges SET state = ?, reason = ?, table_id = ?, ended = ?, guests = ?, changed = ? "
        f"WHERE challenge_id = ? AND state IN ({marks}) RETURNING challenge_id",
        (state, reason, challenge.table, now, json.dumps(challenge.guests), now, challenge.id, *states),
    )
    if not changed:
        return None
    return _ending(rows, challenge, state, reason, quiet)


def _read(rows: Rows, challenge_id: str) -> Challenge | None:
    found = rows(f"SELECT {COLUMNS} WHERE c.challenge_id = ?", (challenge_id,))
    return Challenge.of_row(found[0]) if found else None


def withdraw_every_one_of(rows: Rows, player_id: str, now: float) -> Told:
    """A player forgotten, or a bot's token revoked: each open challenge they made or received is withdrawn, the
    other side told (in the caller's transaction)."""
    told: Told = []
    for row in rows(
        f"SELECT {COLUMNS} WHERE (c.challenger_id = ? OR c.bot_id = ?) AND c.state = ?", (player_id, player_id, OPEN)
    ):
        challenge = Challenge.of_row(row)
        told += _end_in(rows, challenge, (OPEN,), WITHDRAWN, None, now, quiet=player_id) or []
    return told


class Challenges:
    """The challenges, kept in the store: made, told to the bot, answered or expired, and the table made."""

    def __init__(
        self, hub: TableRoom, events: BotEvents, limits: BotLimits, now: Callable[[], float] | None = None
    ) -> None:
        self.hub = hub
        self.store = hub.store
        self.events = events
        """The bots room's :class:`BotEvents`: who listens, and telling them."""
        self.limits = limits
        self.now = now or hub.now
        events.on_open.append(self._tell_open_ones)
        events.pollers.append(Poller(self._due, self._expire_due))
        events.sweepers.append(self._sweep)

    async def _run(self, work: Callable[[Rows], Any]) -> Any:
        """``work`` in one transaction; what it published is told here once committed.  ``work`` answers
        ``(result, told)``."""
        result, told = await asyncio.to_thread(self.store.run, work)
        self.events.told_here(told)
        return result

    async def make(
        self,
        challenger: Player,
        challenger_is_bot: bool,
        bot_name: str,
        body: dict[str, Any],
        address: str | None = None,
    ) -> Challenge:
        """A new challenge to the bot named ``bot_name``, told on its event stream; refused when there is no such
        bot, it is the challenger, it is not listening (in any process), it (or a challenging bot) plays as many
        games as it may, it has as many challenges waiting as it may, or the challenger has."""
        settings = challenge_settings(body)
        bot = await asyncio.to_thread(self.hub.players.bot_named, bot_name[:40])
        if bot is None:
            raise Refusal("no-bot", f"There is no bot account {bot_name[:30]!r}.")
        if bot.id == challenger.id:
            raise Refusal("bad-challenge", "A bot cannot challenge itself.")
        limits = self.limits
        now = self.now()
        challenge = Challenge(
            "c" + secrets.token_urlsafe(12), challenger, challenger_is_bot, bot, settings, now, address
        )

        def work(rows: Rows) -> tuple[None, Told]:
            _hold(rows, bot.id, *([challenger.id] if challenger_is_bot else []))
            if not listening_in(rows, bot.id, time.time()):
                raise Refusal("bot-offline", f"{bot.name} is not connected: a bot is challenged while it listens.")
            for player in [bot, challenger] if challenger_is_bot else [bot]:
                playing = limits.games_of(rows, player.id)
                if playing >= limits.games_at_once:
                    raise limits.too_many_games(player, playing)
            since = now - CHALLENGE_SECONDS
            waiting = rows(
                "SELECT COUNT(*) FROM racko_challenges WHERE bot_id = ? AND state = ? AND made > ?",
                (bot.id, OPEN, since),
            )[0][0]
            if int(waiting) >= limits.open_challenges:
                raise Refusal(
                    "too-many-challenges",
                    f"{bot.name} has {limits.open_challenges} challenges waiting for its answer: try again in a "
                    "minute.",
                    retry_after=int(CHALLENGE_SECONDS),
                )
            asked = rows(
                "SELECT COUNT(*) FROM racko_challenges WHERE challenger_id = ? AND state = ? AND made > ?",
                (challenger.id, OPEN, since),
            )[0][0]
            if int(asked) >= limits.challenges_per_challenger:
                raise Refusal(
                    "too-many-challenges",
                    f"At most {limits.challenges_per_challenger} challenges wait for an answer at once: wait.",
                    retry_after=int(CHALLENGE_SECONDS),
                )
            rows(
                "INSERT INTO racko_challenges (challenge_id, challenger_id, challenger_is_bot, bot_id, settings, made, "
                "address, state, reason, table_id, ended, guests, changed) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, NULL, NULL, NULL, ?, ?)",
                (
                    challenge.id,
                    challenger.id,
                    int(challenger_is_bot),
                    bot.id,
                    json.dumps(settings),
                    now,
                    address,
                    OPEN,
                    "[]",
                    now,
                ),
            )
            event = challenge.event(now)
            return None, [(publish(rows, bot.id, event), bot.id, event)]

        await self._run(work)
        return challenge

    async def find(self, challenge_id: str) -> Challenge:
        """The challenge as it stands (one whose time ran out is expired now, and told); ``404 no-challenge``."""
        challenge = await asyncio.to_thread(self.store.read, lambda rows: _read(rows, challenge_id[:40]))
        if challenge is None:
            raise Refusal("no-challenge", "There is no such challenge (it ended long ago, or never was).")
        if challenge.state == OPEN and self.now() >= challenge.expires():
            return await self._expire(challenge)
        return challenge

    async def accept(self, challenge_id: str, bot: Player) -> Challenge:
        """The challenged bot accepts: marked ``accepting`` (if still open and in time, and within the limits), the
        table made (the challenger first, the bot second, the others after), then ``accepted`` and both told.  A
        table the table room refuses ends it as ``failed``; one the database refused leaves it open (``503``)."""
        challenge = await self._answerable(challenge_id, bot)
        limits = self.limits
        now = self.now()

        def work(rows: Rows) -> tuple[tuple[Challenge, bool], Told]:
            _hold(rows, challenge.bot.id, *([challenge.challenger.id] if challenge.challenger_is_bot else []))
            current = _read(rows, challenge.id)
            if current is None or current.state != OPEN or now >= current.expires():
                return (current or challenge, False), []
            for player in [current.bot, current.challenger] if current.challenger_is_bot else [current.bot]:
                playing = limits.games_of(rows, player.id)
                if playing >= limits.games_at_once:
                    raise limits.too_many_games(player, playing)
            rows(
                "UPDATE racko_challenges SET state = ?, changed = ? WHERE challenge_id = ? AND state = ?",
                (ACCEPTING, now, current.id, OPEN),
            )
            current.state = ACCEPTING
            return (current, True), []

        current: Challenge
        mine: bool
        current, mine = await self._run(work)
        if not mine:  # answered, expired or being accepted already
            if current.state == OPEN:  # in no time any more
                current = await self._expire(current)
            raise _not_open(current)
        try:
            current.table, current.guests = await self._make_table(current)
        except Refusal as error:
            if error.code != "not-saved":  # the table room refused the table: the challenge failed
                await self._change(current, (ACCEPTING,), FAILED, str(error))
                raise Refusal("bad-challenge", f"The table could not be made: {error}") from None
            await self._reopen(current)
            raise
        except Exception:  # the database refused the table: the challenge is open again, to be accepted again
            await self._reopen(current)
            raise Refusal("not-saved", "The table could not be kept: try again.") from None
        await self._change(current, (ACCEPTING,), ACCEPTED, None)
        return current

    async def _reopen(self, challenge: Challenge) -> None:
        """The database refused the accepted challenge's table: it is open again, to be accepted again."""
        await self._run(
            lambda rows: (
                rows(
                    "UPDATE racko_challenges SET state = ? WHERE challenge_id = ? AND state = ?",
                    (OPEN, challenge.id, ACCEPTING),
                ),
                [],
            )
        )

    async def decline(self, challenge_id: str, bot: Player, reason: Any) -> Challenge:
        """The challenged bot declines, with one of :data:`DECLINE_REASONS`."""
        reason = "generic" if reason is None else reason
        if reason not in DECLINE_REASONS:
            raise Refusal("bad-reason", f"A reason is one of {', '.join(DECLINE_REASONS)}.")
        challenge = await self._answerable(challenge_id, bot)
        return await self._answer(challenge, DECLINED, str(reason))

    async def withdraw(self, challenge_id: str, challenger: Player) -> Challenge:
        """The challenger takes the challenge back before it is answered."""
        challenge = await self.find(challenge_id)
        if challenge.challenger.id != challenger.id:
            raise Refusal("not-yours", "Only its challenger can withdraw a challenge.")
        return await self._answer(challenge, WITHDRAWN, None)

    async def forget(self, player_id: str) -> None:
        """A player forgotten: nothing left to do here (the players room's transaction withdrew their open challenges,
        told the other side and took every challenge naming them, :func:`forget_challenges`); the other side's
        stream here hears of it at the keeper's next look."""
        return None

    # --- inside -----------------------------------------------------------------------------------------

    async def _answerable(self, challenge_id: str, bot: Player) -> Challenge:
        challenge = await self.find(challenge_id)
        if challenge.bot.id != bot.id:
            raise Refusal("not-yours", "Only the challenged bot answers a challenge.")
        return challenge

    async def _answer(self, challenge: Challenge, state: str, reason: str | None) -> Challenge:
        """Decline or withdraw: only an open challenge in time; a 409 ``not-open`` with how it ended otherwise."""
        if self.now() >= challenge.expires() and challenge.state == OPEN:
            challenge = await self._expire(challenge)
        ended = await self._change(challenge, (OPEN,), state, reason)
        if ended is None:
            current = await asyncio.to_thread(self.store.read, lambda rows: _read(rows, challenge.id))
            raise _not_open(current or challenge)
        return ended

    async def _change(
        self, challenge: Challenge, states: tuple[str, ...], state: str, reason: str | None
    ) -> Challenge | None:
        """Move the challenge from one of ``states`` to ``state``, told; the challenge as it ended, or None if
        another change came first."""
        now = self.now()

        def work(rows: Rows) -> tuple[bool, Told]:
            told = _end_in(rows, challenge, states, state, reason, now)
            return told is not None, told or []

        if not await self._run(work):
            return None
        challenge.state, challenge.reason, challenge.ended = state, reason, now
        return challenge

    async def _expire(self, challenge: Challenge) -> Challenge:
        """An open challenge whose time ran out: expired (told), or as another change left it."""
        ended = await self._change(challenge, (OPEN,), EXPIRED, None)
        if ended is not None:
            return ended
        current = await asyncio.to_thread(self.store.read, lambda rows: _read(rows, challenge.id))
        return current or challenge

    def _due(self, rows: Rows) -> list[str]:
        """The keeper's read: the open challenges whose time ran out."""
        found = rows(
            "SELECT challenge_id FROM racko_challenges WHERE state = ? AND made <= ?",
            (OPEN, self.now() - CHALLENGE_SECONDS),
        )
        return [str(challenge_id) for (challenge_id,) in found]

    async def _expire_due(self, due: list[str]) -> None:
        for challenge_id in due:
            challenge = await asyncio.to_thread(self.store.read, lambda rows, found=challenge_id: _read(rows, found))
            if challenge is not None and challenge.state == OPEN:
                await self._change(challenge, (OPEN,), EXPIRED, None)

    def _sweep(self, rows: Rows, now: float) -> None:
        """At each heartbeat: the challenges ended long ago go; one whose table was never made failed."""
        rows("DELETE FROM racko_challenges WHERE ended IS NOT NULL AND ended < ?", (now - KEPT_SECONDS,))
        for row in rows(f"SELECT {COLUMNS} WHERE c.state = ? AND c.changed < ?", (ACCEPTING, now - MAKING_SECONDS)):
            _end_in(
                rows, Challenge.of_row(row), (ACCEPTING,), FAILED, "The server stopped while making the table.", now
            )

    async def _make_table(self, challenge: Challenge) -> tuple[str, list[dict[str, Any]]]:
        """The table, made through the table room's one way of making tables: the challenger's seat bound to them
        (a person's page opens it without a link; a challenging bot sits by the challenge it made), the bot's by
        the challenge it accepted, then the other seats (a person's seat has a link, kept for the challenger); the
        table's id and those links."""
        settings = challenge.settings
        first: SeatRequest = (
            BotAccountSeat(challenge.challenger, Consent.CHALLENGE)
            if challenge.challenger_is_bot
            else PersonSeat(player=challenge.challenger, address=challenge.address)
        )
        others: list[SeatRequest] = [PersonSeat() if seat == PERSON else LevelSeat(seat) for seat in settings["seats"]]
        request = TableRequest(
            rules_of(settings),
            (first, BotAccountSeat(challenge.bot, Consent.CHALLENGE), *others),
            Asker.of_room("challenges"),
            rated=settings["rated"],
            clock=None if settings["clock"] == NO_CLOCK else settings["clock"],
        )
        links = await self.hub.create(request)
        guests = [
            {"seat": seat["seat"], "token": seat["token"]} for seat in links["seats"][2:] if seat["token"] is not None
        ]
        return str(links["table"]), guests

    async def _tell_open_ones(self, bot: Player, tell: Callable[[dict[str, Any]], None]) -> None:
        """A bot's event stream opened: the challenges still open for it, told on that stream."""
        now = self.now()
        found = await asyncio.to_thread(
            self.store.read,
            lambda rows: rows(
                f"SELECT {COLUMNS} WHERE c.bot_id = ? AND c.state = ? AND c.made > ?",
                (bot.id, OPEN, now - CHALLENGE_SECONDS),
            ),
        )
        for row in found:
            tell(Challenge.of_row(row).event(now))


def _not_open(challenge: Challenge) -> Refusal:
    shown = OPEN if challenge.state == ACCEPTING else challenge.state
    if shown == OPEN:
        return Refusal("not-open", "This challenge is being accepted already.")
    return Refusal("not-open", f"This challenge is {shown} already.")


def forget_challenges(rows: Rows, player_id: str) -> None:
    """Part of forgetting a player (the players room's transaction): their open challenges withdrawn and the other
    side told, then every challenge naming them gone."""
    withdraw_every_one_of(rows, player_id, time.time())
    rows("DELETE FROM racko_challenges WHERE challenger_id = ? OR bot_id = ?", (player_id, player_id))
