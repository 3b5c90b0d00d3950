"""How a table is asked for: one typed, frozen :class:`TableRequest` through which every way of making a table goes
(the start page's form, quick play, a rematch, an accepted challenge, the bot ladder, a tournament, a bot's own
table through the Bot API), checked once, here.

**A bot account sits at a table only by its own consent** (docs/BOTS.md): its seat (:class:`BotAccountSeat`) names
the consent that seats it, and the request names who asks (:class:`Asker`): a bot's own token seats that bot only;
an accepted challenge, a seek, the ladder and a tournament are the server's own rooms, which hold the bot's consent.
A page (a person, with a cookie or none) seats no bot account: the start page's ``bot-account:NAME`` is refused with
the reason.  No path can forget it: a bot account's seat cannot be written without its consent."""

from __future__ import annotations

import enum
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any

from racko import bots
from racko.errors import RackoError
from racko.play.session import bots_for
from racko.play.text import plain_name
from racko.rules import Rules, variant
from racko.web.clock import ALL_PRESETS, NO_CLOCK
from racko.web.core import Refusal
from racko.web.players import Player

NAME_LENGTH = 24
ME, PERSON, BOT_ACCOUNT = "me", "person", "bot-account:"
"""The start page's words for a seat: the maker's own, a person's (a link), a bot account's (``bot-account:NAME``);
any other is a computer level."""


class Consent(enum.Enum):
    """How a bot account agreed to sit at a table."""

    TOKEN = "token"
    """It asked for the table itself, with its token (the Bot API's ``POST /api/bot/tables``)."""
    CHALLENGE = "challenge"
    """It accepted a challenge naming this game."""
    SEEK = "seek"
    """Its seek in quick play met the others."""
    LADDER = "ladder"
    """It is online while the operator runs the bot ladder (its event stream open: docs/BOTS.md)."""
    TOURNAMENT = "tournament"
    """It joined a tournament that pairs it."""


class AskerKind(enum.Enum):
    PAGE = "page"
    """A person through a page (a cookie or none): the start page's form, a rematch."""
    BOT = "bot"
    """A bot account through the Bot API, with its token."""
    ROOM = "room"
    """One of the server's rooms, holding the consents of the bot accounts it seats (quick play, challenges, the
    ladder, tournaments)."""


@dataclass(frozen=True)
class Asker:
    """Who asks for a table: a page's person (``player`` if they have one), a bot (its account), or a room (its
    name, such as ``lobby``)."""

    kind: AskerKind
    player: Player | None = None
    room: str = ""

    @classmethod
    def page(cls, player: Player | None = None) -> Asker:
        return cls(AskerKind.PAGE, player)

    @classmethod
    def bot(cls, account: Player) -> Asker:
        return cls(AskerKind.BOT, account)

    @classmethod
    def of_room(cls, room: str) -> Asker:
        return cls(AskerKind.ROOM, room=room)


@dataclass(frozen=True)
class PersonSeat:
    """A person's seat: a link to it is made.  ``player``: the player seated there (it opens without the link and
    has joined under the player's name); ``me``: the asker's own seat (joined at once); ``name``: the name the start
    page gave a guest's seat (``Player N`` without one); ``address``: where its player asked from (a rated table
    notes the network)."""

    name: str = ""
    player: Player | None = None
    me: bool = False
    address: str | None = None


@dataclass(frozen=True)
class LevelSeat:
    """One of racko's computer players, by level (``easy`` …)."""

    level: str


@dataclass(frozen=True)
class BotAccountSeat:
    """A bot account's seat (a program playing through the Bot API), seated by its ``consent``."""

    account: Player
    consent: Consent


SeatRequest = PersonSeat | LevelSeat | BotAccountSeat


@dataclass(frozen=True)
class TableRequest:
    """A table as asked for: its rules, who sits in each seat, whether the lobby lists it (``public``), whether its
    games are rated, its clock (a preset's name, ``None``: no clock), and who asks.  Checked when made: a
    :class:`Refusal` (``bad-form``, ``no-consent``) says what is wrong."""

    rules: Rules
    seats: tuple[SeatRequest, ...]
    asker: Asker
    public: bool = False
    rated: bool = False
    clock: str | None = None
    table_id: str | None = None
    """The id its maker chose (a tournament's game, made again under the same id if its maker stopped before it
    knew); ``None``: a new one."""

    def __post_init__(self) -> None:
        rules = self.rules
        if len(self.seats) != rules.players:
            raise Refusal("bad-form", f"Say who sits in each of the {rules.players} seats.")
        if sum(isinstance(seat, PersonSeat) and seat.me for seat in self.seats) > 1:
            raise Refusal("bad-form", "You can sit in one seat only.")
        playing = bots_for(rules.variant)
        for index, seat in enumerate(self.seats):
            if isinstance(seat, LevelSeat) and seat.level not in playing:
                title = variant(rules.variant).title
                if seat.level in bots.available():
                    raise Refusal(
                        "bad-form", f"The {seat.level} bot does not play {title}; choose from {', '.join(playing)}."
                    )
                raise Refusal(
                    "bad-form", f"Seat {index + 1}: choose me, a person, or a computer player ({', '.join(playing)})."
                )
            if isinstance(seat, BotAccountSeat):
                self._check_consent(seat)
        accounts = [seat.account.id for seat in self.seats if isinstance(seat, BotAccountSeat)]
        if len(set(accounts)) != len(accounts):
            raise Refusal("bad-form", "A bot account can sit in one seat only.")
        if all(isinstance(seat, LevelSeat) for seat in self.seats):
            raise Refusal("bad-form", "At least one seat is for a person.")
        if self.clock is not None and self.clock not in ALL_PRESETS:
            raise Refusal("bad-form", f"A clock is one of {', '.join([*ALL_PRESETS, NO_CLOCK])}.")
        if self.rated and self.clock is None:
            raise Refusal("bad-form", f"A clock is one of {', '.join(ALL_PRESETS)} (a rated game always has a clock).")

    def _check_consent(self, seat: BotAccountSeat) -> None:
        asker = self.asker
        if seat.consent is Consent.TOKEN:
            if asker.kind is AskerKind.BOT and asker.player is not None and asker.player.id == seat.account.id:
                return
        elif asker.kind is AskerKind.ROOM:
            return  # the room that seats it holds its consent: the challenge it accepted, its seek, the ladder …
        raise Refusal(
            "no-consent",
            f"{seat.account.name} is a bot account: it sits at a table only by its own consent. Challenge it "
            f"(/challenge/{seat.account.name}), or meet it in quick play with “bots welcome”.",
        )

    def who(self, index: int) -> str:
        """How the start page's form says seat ``index`` (the ``who`` of the answer's seats)."""
        seat = self.seats[index]
        if isinstance(seat, LevelSeat):
            return seat.level
        if isinstance(seat, BotAccountSeat):
            return BOT_ACCOUNT + seat.account.name
        return ME if seat.me else PERSON

    @property
    def bot_accounts(self) -> list[Player]:
        return [seat.account for seat in self.seats if isinstance(seat, BotAccountSeat)]


def rules_of(form: dict[str, Any], players_key: str = "players") -> Rules:
    """The rules a form (or a challenge, a wish) asks for: ``variant``, ``players`` (the variant's fewest unless
    said), ``target``, ``refill`` and ``two_player_rule`` (2 players only); a ``bad-form`` refusal says what is
    wrong."""
    try:
        chosen = variant(str(form.get("variant", "classic")))
        players = form.get(players_key, chosen.player_counts[0])
        if not isinstance(players, int) or isinstance(players, bool) or players not in chosen.player_counts:
            counts = ", ".join(str(count) for count in chosen.player_counts)
            raise Refusal("bad-form", f"{chosen.title} is played by {counts} players.")
        options: dict[str, Any] = {}
        for key in ("target", "refill", "two_player_rule"):
            if form.get(key) is not None:
                options[key] = form[key]
        if players != 2:
            options.pop("two_player_rule", None)
        return chosen.rules(players, **options)
    except Refusal:
        raise
    except (RackoError, TypeError, ValueError) as error:
        raise Refusal("bad-form", str(error)) from None


def clock_of(form: dict[str, Any], rated: bool) -> str | None:
    """The preset a new table's form chose (``clock``): a friends' casual table may have none (its default), a rated
    table always has one (``normal`` unless chosen); a ``bad-form`` refusal says what is wrong."""
    chosen = form.get("clock")
    if chosen is None:
        return "normal" if rated else None
    if chosen == NO_CLOCK and not rated:
        return None
    if isinstance(chosen, str) and chosen in ALL_PRESETS:
        return chosen
    choices = list(ALL_PRESETS) if rated else [*ALL_PRESETS, NO_CLOCK]
    extra = " (a rated game always has a clock)" if rated and chosen == NO_CLOCK else ""
    raise Refusal("bad-form", f"A clock is one of {', '.join(choices)}{extra}.")


def person_name(given: object, index: int) -> str:
    """A guest's seat's name as the start page gave it, made plain and short (``Player N`` without one)."""
    if isinstance(given, str) and given.strip():
        return plain_name(given)[:NAME_LENGTH].strip() or f"Player {index + 1}"
    return f"Player {index + 1}"


async def request_of_form(
    form: Any,
    asker: Asker,
    address: str | None,
    bot_named: Callable[[str], Awaitable[Player | None]],
) -> TableRequest:
    """The request the start page's form (``POST /api/tables``) or a bot's own (``POST /api/bot/tables``) makes:
    ``seats`` says who sits in each (``me``: the asker, ``person``: a link, a computer level, ``bot-account:NAME``),
    ``names`` the guests' names.  ``me`` is the asker's own seat: a page's player's (bound to them, noted from
    ``address``), or the bot's (seated by its token); ``bot_named`` finds a bot account by name."""
    if not isinstance(form, dict):
        raise Refusal("bad-form", "The table's settings are a JSON object.")
    rules = rules_of(form)
    rated = form.get("rated") is True
    clock = clock_of(form, rated)
    who = form.get("seats")
    if not isinstance(who, list) or len(who) != rules.players or not all(isinstance(part, str) for part in who):
        raise Refusal("bad-form", f"Say who sits in each of the {rules.players} seats.")
    given = form.get("names")
    names: Sequence[Any] = given if isinstance(given, list) else []
    seats: list[SeatRequest] = []
    for index, part in enumerate(who):
        name = names[index] if index < len(names) else ""
        if part == ME and asker.kind is AskerKind.BOT and asker.player is not None:
            seats.append(BotAccountSeat(asker.player, Consent.TOKEN))
        elif part == ME:
            maker = asker.player
            seats.append(PersonSeat(person_name(name, index), maker, me=True, address=address if maker else None))
        elif part == PERSON:
            seats.append(PersonSeat(person_name(name, index)))
        elif part.startswith(BOT_ACCOUNT):
            account_name = part[len(BOT_ACCOUNT) :]
            account = await bot_named(account_name)
            if account is None:
                raise Refusal("bad-form", f"Seat {index + 1}: there is no bot account {account_name[:30]!r}.")
            seats.append(BotAccountSeat(account, Consent.TOKEN))  # refused unless the asker is that bot
        else:
            seats.append(LevelSeat(part))
    return TableRequest(rules, tuple(seats), asker, public=form.get("public") is True, rated=rated, clock=clock)
