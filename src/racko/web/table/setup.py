"""A table's set-up, typed: what does not follow from its journal (the rules and seed, who sits in each seat, the
clock, and how the people left the game or ended it), as a frozen :class:`Setup` that mypy checks everywhere it is
read, and that the store keeps as JSON (:meth:`Setup.to_json`, :meth:`Setup.of_json`, the same JSON as before the
set-up was typed: a table made then opens now)."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from racko.errors import RackoError
from racko.rules import Rules

RESIGNED, LEFT, AWAY = "resigned", "left", "away"
"""How a seat's person left the game (``Left.how``): resigned, left the table, or handed over while away."""
ABORTED, AGREED, DESERTED, LIMIT = "aborted", "agreed", "deserted", "limit"
"""How a game ended early (``Ended.how``): aborted (no rating, no history), by agreement, because no person was left
playing, or at the turn limit of a table with a bot account."""


class SetupError(RackoError, ValueError):
    """A stored set-up that is no table's (the table is set aside with the reason)."""


@dataclass(frozen=True)
class Left:
    """How a seat's person left the game: ``how`` (:data:`RESIGNED`, :data:`LEFT`, :data:`AWAY`), after how many
    actions of the journal, and when (the server's time)."""

    how: str
    after: int
    at: float

    def json(self) -> dict[str, Any]:
        return {"how": self.how, "after": self.after, "at": self.at}


@dataclass(frozen=True)
class Back:
    """A gone seat's person said they are back: after ``count`` actions of the journal, at ``at``."""

    count: int
    at: float


@dataclass(frozen=True)
class SeatSetup:
    """One seat: its name, the computer level that plays it (a level's seat, or a person's whose person left), the
    hash of its link's token, whether a person has taken it, the player bound to it, whether that player is a bot
    account, the networks its person played from (a rated table), and how its person left or came back."""

    name: str
    bot: str | None = None
    token: str | None = None
    joined: bool = False
    player: str | None = None
    bot_account: bool = False
    networks: tuple[str, ...] = ()
    left: Left | None = None
    back: Back | None = None
    forgotten: bool = False

    @property
    def free(self) -> bool:
        """A person's seat nobody has taken yet: no computer player, no name given, no player bound."""
        return self.bot is None and not self.joined and not self.player

    @property
    def person(self) -> bool:
        """A seat a person (or a bot account) plays now: no computer level plays it."""
        return self.bot is None

    def json(self) -> dict[str, Any]:
        seat: dict[str, Any] = {
            "name": self.name,
            "bot": self.bot,
            "token": self.token,
            "joined": self.joined,
            "player": self.player,
        }
        if self.bot_account:
            seat["account"] = "bot"
        if self.networks:
            seat["networks"] = list(self.networks)
        if self.left is not None:
            seat["left"] = self.left.json()
        if self.back is not None:
            seat["back"] = [self.back.count, self.back.at]
        if self.forgotten:
            seat["forgotten"] = True
        return seat


@dataclass(frozen=True)
class Offer:
    """A standing offer to end the game: by which seat, the seats that accepted, when."""

    by: int
    yes: tuple[int, ...]
    at: float

    def json(self) -> dict[str, Any]:
        return {"by": self.by, "yes": list(self.yes), "at": self.at}


@dataclass(frozen=True)
class Declined:
    """The last offer declined (or withdrawn): whose it was, after how many actions (they may offer again once the
    table moved on)."""

    by: int
    after: int


@dataclass(frozen=True)
class Ended:
    """How a game ended early: ``how`` (:data:`ABORTED`, :data:`AGREED`, :data:`DESERTED`, :data:`LIMIT`), by which
    seat (``None``: the server), after how many actions, when."""

    how: str
    by: int | None
    after: int
    at: float

    def json(self) -> dict[str, Any]:
        return {"how": self.how, "by": self.by, "after": self.after, "at": self.at}


@dataclass(frozen=True)
class Setup:
    """A table's set-up: rules, seed, seats, which game at the table this is, whether the lobby lists it, whether it
    is rated (and why not, when it was meant to be), its clock (a preset's name; ``None``: none) and when the clock
    started (every person seated), a standing offer to end, the last one declined, how the game ended early, and the
    turn-based turn whose seat was reminded."""

    rules: Rules
    seed: int
    seats: tuple[SeatSetup, ...]
    game: int = 1
    public: bool = False
    rated: bool = False
    casual_because: str | None = None
    clock: str | None = None
    clock_from: float | None = None
    offer: Offer | None = None
    declined: Declined | None = None
    ended: Ended | None = None
    reminded: tuple[int, float] | None = None

    def changed(self, **changes: Any) -> Setup:
        return dataclasses.replace(self, **changes)

    def with_seat(self, seat: int, **changes: Any) -> Setup:
        """The set-up with one seat changed."""
        seats = list(self.seats)
        seats[seat] = dataclasses.replace(seats[seat], **changes)
        return dataclasses.replace(self, seats=tuple(seats))

    @property
    def aborted(self) -> bool:
        """Whether the game was aborted (over, with no rating and no history)."""
        return self.ended is not None and self.ended.how == ABORTED

    @property
    def names(self) -> list[str]:
        return [seat.name for seat in self.seats]

    @property
    def variant(self) -> str:
        return self.rules.variant

    @property
    def counts(self) -> bool:
        """Whether the table's games count in a player's record of finishing: rated, or public (quick play, the
        lobby); a friends' casual table never (racko.web.players.finishing)."""
        return self.rated or self.public

    def seat_of_player(self, player_id: str) -> int | None:
        """The seat a person plays bound to this player, if any."""
        for index, seat in enumerate(self.seats):
            if seat.player == player_id and seat.bot is None:
                return index
        return None

    def json(self) -> dict[str, Any]:
        """As the store keeps it (the JSON of before the set-up was typed)."""
        data: dict[str, Any] = {
            "rules": self.rules.to_dict(),
            "seed": self.seed,
            "game": self.game,
            "public": self.public,
            "rated": self.rated,
            "clock": self.clock,
            "clock_from": self.clock_from,
            "seats": [seat.json() for seat in self.seats],
        }
        if self.casual_because is not None:
            data["casual_because"] = self.casual_because
        if self.offer is not None:
            data["offer"] = self.offer.json()
        if self.declined is not None:
            data["declined"] = {"by": self.declined.by, "after": self.declined.after}
        if self.ended is not None:
            data["ended"] = self.ended.json()
        if self.reminded is not None:
            data["reminded"] = [self.reminded[0], self.reminded[1]]
        return data

    @classmethod
    def of_json(cls, data: Any) -> Setup:
        """A stored set-up; :class:`SetupError` with the reason if it is none."""
        try:
            if not isinstance(data, Mapping):
                raise TypeError("not an object")
            seats = tuple(_seat_of(seat) for seat in data["seats"])
            offer, declined, ended = data.get("offer"), data.get("declined"), data.get("ended")
            reminded = data.get("reminded")
            return cls(
                rules=Rules.from_dict(data["rules"]),
                seed=int(data["seed"]),
                seats=seats,
                game=int(data.get("game", 1)),
                public=data.get("public") is True,
                rated=bool(data.get("rated")),
                casual_because=_text(data.get("casual_because")),
                clock=_text(data.get("clock")),
                clock_from=_number(data.get("clock_from")),
                offer=Offer(int(offer["by"]), tuple(int(seat) for seat in offer["yes"]), float(offer["at"]))
                if isinstance(offer, Mapping)
                else None,
                declined=Declined(int(declined["by"]), int(declined["after"]))
                if isinstance(declined, Mapping)
                else None,
                ended=_ended_of(ended) if isinstance(ended, Mapping) else None,
                reminded=(int(reminded[0]), float(reminded[1])) if isinstance(reminded, list) else None,
            )
        except (RackoError, KeyError, TypeError, ValueError, IndexError) as error:
            raise SetupError(f"its set-up is not a game ({str(error)[:200] or type(error).__name__})") from None


def _seat_of(data: Any) -> SeatSetup:
    if not isinstance(data, Mapping):
        raise TypeError("a seat is not an object")
    left, back = data.get("left"), data.get("back")
    networks = data.get("networks") or []
    return SeatSetup(
        name=str(data["name"]),
        bot=_text(data.get("bot")),
        token=_text(data.get("token")),
        joined=bool(data.get("joined")),
        player=_text(data.get("player")),
        bot_account=data.get("account") == "bot",
        networks=tuple(str(mark) for mark in networks),
        left=Left(str(left["how"]), int(left["after"]), float(left["at"])) if isinstance(left, Mapping) else None,
        back=Back(int(back[0]), float(back[1])) if isinstance(back, list) and len(back) == 2 else None,
        forgotten=data.get("forgotten") is True,
    )


def _ended_of(data: Mapping[str, Any]) -> Ended:
    by = data.get("by")
    return Ended(str(data["how"]), int(by) if by is not None else None, int(data.get("after", 0)), float(data["at"]))


def _text(value: Any) -> str | None:
    return None if value is None else str(value)


def _number(value: Any) -> float | None:
    return None if value is None else float(value)
