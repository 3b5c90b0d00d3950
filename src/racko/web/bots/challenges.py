"""Challenges to bot accounts (docs/BOTS.md): a person (from the bot's challenge page) or another bot asks a bot for a
game of given settings; the bot, told on its event stream, accepts or declines within :data:`CHALLENGE_SECONDS`, or
the challenge expires.  An accepted challenge makes the table through the table room's own way of making one
(:meth:`TableRoom.create`, as ``POST /api/tables`` does) and both sides are told.

A challenge lives in this process's memory only: it is short-lived (a minute at most), and what matters (the table
an accepted one made) is kept by the table room before anybody is told.  A server that restarts forgets the open
challenges; their challengers are told the challenge is gone (404), as after an expiry.

Each challenge changes under a lock of its own: accepting, declining, withdrawing and expiring take turns, so exactly
one of them ends it and the others are refused (``409 not-open``, with the state it ended in)."""

from __future__ import annotations

import asyncio
import contextlib
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from racko.errors import RackoError
from racko.play.session import bots_for
from racko.rules import variant
from racko.web.bots.access import BotLimits
from racko.web.clock import ALL_PRESETS, NO_CLOCK
from racko.web.core import Refusal
from racko.web.players import Player
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
SWEEP_SECONDS = 1.0
"""How often expired challenges are looked for (each one is also found expired whenever it is asked about)."""
KEPT_SECONDS = 600.0
"""How long an ended challenge can still be asked about (its challenger's page learns how it ended)."""
OPEN_AT_ONCE = 3
"""Challenges one challenger may have waiting at once (a person's page, or a bot, cannot flood a bot with them)."""
DECLINE_REASONS = ("generic", "later", "variant", "players", "clock", "rated", "casual")
"""Why a bot declines, one of these words (each said in the challenger's language on their page)."""
PERSON, BOT_ACCOUNT = "person", "bot-account:"
"""A seat beyond the challenger's and the bot's for a person (a link for the challenger to send); a bot account there
is refused (it sits only by its own consent: challenge it too)."""
OPEN, ACCEPTED, DECLINED, EXPIRED, WITHDRAWN, FAILED = "open", "accepted", "declined", "expired", "withdrawn", "failed"


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
    lock: asyncio.Lock = field(default_factory=asyncio.Lock, repr=False)

    def expires(self) -> float:
        return self.made + CHALLENGE_SECONDS

    def status(self, now: float, challenger: bool = False) -> dict[str, Any]:
        """How it stands, as the bot is shown it; ``challenger``: as its challenger is, with the links of the seats
        of the people they invite (a seat's link is for whoever it is sent to, never the bot)."""
        more = {"guests": self.guests} if challenger else {}
        return more | {
            "id": self.id,
            "state": self.state,
            "reason": self.reason,
            "table": self.table,
            "bot": self.bot.name,
            "from": self.challenger.name,
            "expires_in": round(max(0.0, self.expires() - now), 1) if self.state == OPEN else None,
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


class Challenges:
    """The challenges of this process: made, told to the bot, answered or expired, and the table made."""

    def __init__(self, hub: TableRoom, events: Any, limits: BotLimits, now: Callable[[], float] | None = None) -> None:
        self.hub = hub
        self.events = events
        """The bots room's :class:`BotEvents`: who listens, and telling them."""
        self.limits = limits
        self.now = now or hub.now
        self.challenges: dict[str, Challenge] = {}
        events.on_open.append(self._tell_open_ones)

    async def make(
        self,
        challenger: Player,
        challenger_is_bot: bool,
        bot_name: str,
        body: dict[str, Any],
        address: str | None = None,
    ) -> Challenge:
        """A new challenge to the bot named ``bot_name``, told on its event stream; refused when there is no such
        bot, it is the challenger, it is not listening, it (or a challenging bot) plays as many games as it may, or
        the challenger has :data:`OPEN_AT_ONCE` challenges waiting already."""
        settings = challenge_settings(body)
        bot = await asyncio.to_thread(self.hub.players.bot_named, bot_name[:40])
        if bot is None:
            raise Refusal("no-bot", f"There is no bot account {bot_name[:30]!r}.")
        if bot.id == challenger.id:
            raise Refusal("bad-challenge", "A bot cannot challenge itself.")
        if not self.events.listening(bot.id):
            raise Refusal("bot-offline", f"{bot.name} is not connected: a bot is challenged while it listens.")
        await self.limits.may_start_a_game(bot)
        if challenger_is_bot:
            await self.limits.may_start_a_game(challenger)
        self.sweep()
        waiting = sum(1 for c in self.challenges.values() if c.challenger.id == challenger.id and c.state == OPEN)
        if waiting >= OPEN_AT_ONCE:
            raise Refusal("too-many-challenges", f"At most {OPEN_AT_ONCE} challenges wait for an answer at once: wait.")
        challenge = Challenge(
            "c" + secrets.token_urlsafe(12), challenger, challenger_is_bot, bot, settings, self.now(), address
        )
        self.challenges[challenge.id] = challenge
        self.events.tell(bot.id, challenge.event(self.now()))
        return challenge

    def find(self, challenge_id: str) -> Challenge:
        challenge = self.challenges.get(challenge_id[:40])
        if challenge is None:
            raise Refusal("no-challenge", "There is no such challenge (it ended long ago, or never was).")
        self._expire_if_due(challenge)
        return challenge

    async def accept(self, challenge_id: str, bot: Player) -> Challenge:
        """The challenged bot accepts: the table is made (the challenger first, the bot second, the computer
        players after), then both are told.  A table that cannot be made ends the challenge as ``failed``."""
        challenge = self._answerable(challenge_id, bot)
        async with challenge.lock:
            self._still_open(challenge)
            await self.limits.may_start_a_game(bot)
            if challenge.challenger_is_bot:
                await self.limits.may_start_a_game(challenge.challenger)
            try:
                challenge.table = await self._make_table(challenge)
            except Refusal as error:
                self._end(challenge, FAILED, str(error))
                raise Refusal("bad-challenge", f"The table could not be made: {error}") from None
            except Exception:  # the database refused the table: the challenge stays open, to be accepted again
                raise Refusal("not-saved", "The table could not be kept: try again.") from None
            self._end(challenge, ACCEPTED, None)
            return challenge

    async def decline(self, challenge_id: str, bot: Player, reason: Any) -> Challenge:
        """The challenged bot declines, with one of :data:`DECLINE_REASONS`."""
        reason = "generic" if reason is None else reason
        if reason not in DECLINE_REASONS:
            raise Refusal("bad-reason", f"A reason is one of {', '.join(DECLINE_REASONS)}.")
        challenge = self._answerable(challenge_id, bot)
        async with challenge.lock:
            self._still_open(challenge)
            self._end(challenge, DECLINED, str(reason))
            return challenge

    async def withdraw(self, challenge_id: str, challenger: Player) -> Challenge:
        """The challenger takes the challenge back before it is answered."""
        challenge = self.find(challenge_id)
        if challenge.challenger.id != challenger.id:
            raise Refusal("not-yours", "Only its challenger can withdraw a challenge.")
        async with challenge.lock:
            self._still_open(challenge)
            self._end(challenge, WITHDRAWN, None)
            return challenge

    def sweep(self) -> None:
        """Expire the challenges whose time ran out (each told), and forget those ended long ago."""
        now = self.now()
        for challenge in list(self.challenges.values()):
            self._expire_if_due(challenge)
            if challenge.ended is not None and now - challenge.ended > KEPT_SECONDS:
                del self.challenges[challenge.id]

    async def forget(self, player_id: str) -> None:
        """A player forgotten: their open challenges (made or received) are withdrawn, the other side told, and no
        challenge naming them is kept here any more (Forget me reaches every copy of a name)."""
        for challenge in list(self.challenges.values()):
            if player_id not in (challenge.challenger.id, challenge.bot.id):
                continue
            async with challenge.lock:
                if challenge.state == OPEN:
                    self._end(challenge, WITHDRAWN, None)
                self.challenges.pop(challenge.id, None)

    async def run(self) -> None:
        """For the server's life: expired challenges are told as they expire."""
        while True:
            await asyncio.sleep(SWEEP_SECONDS)
            with contextlib.suppress(Exception):
                self.sweep()

    # --- inside -----------------------------------------------------------------------------------------

    def _answerable(self, challenge_id: str, bot: Player) -> Challenge:
        challenge = self.find(challenge_id)
        if challenge.bot.id != bot.id:
            raise Refusal("not-yours", "Only the challenged bot answers a challenge.")
        return challenge

    def _still_open(self, challenge: Challenge) -> None:
        """Under the challenge's lock: a 409 ``not-open`` unless nothing has ended it yet."""
        self._expire_if_due(challenge, held=True)
        if challenge.state != OPEN:
            raise Refusal("not-open", f"This challenge is {challenge.state} already.")

    def _expire_if_due(self, challenge: Challenge, held: bool = False) -> None:
        """Expire an open challenge whose time ran out; ``held``: by the change that holds its lock.  Never while
        another change holds it: an accept that began in time ends as accepted (its table is being made)."""
        if challenge.state == OPEN and (held or not challenge.lock.locked()) and self.now() >= challenge.expires():
            self._end(challenge, EXPIRED, None)

    def _end(self, challenge: Challenge, state: str, reason: str | None) -> None:
        """End it, and tell the bot (when it did not end it itself) and a challenging bot how; a person's page
        asks."""
        challenge.state, challenge.reason, challenge.ended = state, reason, self.now()
        told = {"id": challenge.id, "state": state, "reason": reason, "table": challenge.table}
        if state in (EXPIRED, WITHDRAWN):  # an answer of the bot's own is not told back to it
            self.events.tell(challenge.bot.id, {"type": "challengeCanceled", **told})
        if challenge.challenger_is_bot:
            kind = {ACCEPTED: "challengeAccepted", DECLINED: "challengeDeclined"}.get(state, "challengeCanceled")
            self.events.tell(challenge.challenger.id, {"type": kind, **told})

    async def _make_table(self, challenge: Challenge) -> str:
        """The table, made through the table room's one way of making tables: the challenger's seat bound to them
        (a person's page opens it without a link; a challenging bot sits by the challenge it made), the bot's by
        the challenge it accepted, then the other seats (a person's seat has a link, kept for the challenger)."""
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
        challenge.guests = [
            {"seat": seat["seat"], "token": seat["token"]} for seat in links["seats"][2:] if seat["token"] is not None
        ]
        return str(links["table"])

    async def _tell_open_ones(self, bot: Player, tell: Callable[[dict[str, Any]], None]) -> None:
        """A bot's event stream opened: the challenges still open for it, told on that stream."""
        now = self.now()
        for challenge in list(self.challenges.values()):
            self._expire_if_due(challenge)
            if challenge.bot.id == bot.id and challenge.state == OPEN:
                tell(challenge.event(now))
