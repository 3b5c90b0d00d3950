"""Rule options and the named variants of the classic Rack-O family.

A :class:`Rules` value holds every option of a game, fully resolved (no
"default" placeholders), so that a record states exactly what was played.
Variants are factories: ``variant("bonus").rules(players=3)`` gives the rules
of a 3-player Bonus Rack-O game as the sheets describe it.  See docs/RULES.md
for where each rule and each default comes from.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, ClassVar, Literal, TypeGuard

from racko.errors import RulesError

RACK_SIZE = 10
SLOT_LABELS: tuple[int, ...] = tuple(5 * (i + 1) for i in range(RACK_SIZE))
"""The numbers printed on a rack, slot index 0 (= slot 5) to 9 (= slot 50)."""

STANDARD_DECK_SIZE: dict[int, int] = {1: 40, 2: 40, 3: 50, 4: 60}
"""Cards used by player count (sheet 000, Set-up 1); 1 player is our solitaire research mode."""

BONUS_FOR_RUN: dict[int, int] = {3: 50, 4: 100, 5: 200, 6: 400}
"""Bonus Rack-O: extra points for the longest run (sheet 000 table; 6 or more counts as 6)."""

RACKO_SCORE = 75
POINTS_PER_CARD = 5

Refill = Literal["flip", "shuffle"]
REFILL_MODES: tuple[str, ...] = ("flip", "shuffle")


HIGHLOW_DECK_SIZE = 112
"""High-Low Rack-O's deck: two of each number 1-50, six Wild, six Swap (sheet 003)."""

MAX_DECK_SIZE = 1000
"""The largest research deck (a bound, so that a bad record cannot ask for a billion cards)."""


def is_whole(value: object) -> TypeGuard[int]:
    """A whole number, and not ``True``/``False`` (which Python counts as 1 and 0)."""
    return isinstance(value, int) and not isinstance(value, bool)


def slot_label(slot: int) -> int:
    """The number printed on the rack for slot index ``slot`` (0 -> 5, 9 -> 50)."""
    return SLOT_LABELS[slot]


@dataclass(frozen=True, slots=True)
class Rules:
    """Every option of a classic-family game.  Build it with :func:`variant` or :meth:`Rules.create`."""

    players: int
    deck_size: int
    two_player_rule: bool
    variant: str = "classic"
    bonus: bool = False
    auto_racko: bool = True
    partners: bool = False
    refill: Refill = "flip"
    target: int = 500
    turn_cap: int | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.variant, str) or self.variant not in VARIANTS:
            raise RulesError(f"Unknown variant {self.variant!r}; known: {', '.join(VARIANTS)}.")
        VARIANTS[self.variant].check_players(self)
        minimum = RACK_SIZE * self.players + 2
        if not is_whole(self.deck_size) or self.deck_size < minimum:
            raise RulesError(
                f"A deck of {self.deck_size!r} cards is too small for {self.players} players: "
                f"it needs at least {minimum} (ten per rack, one to turn up, one to draw)."
            )
        if self.deck_size > MAX_DECK_SIZE:
            raise RulesError(f"A deck of {self.deck_size} cards is too large: at most {MAX_DECK_SIZE}.")
        if self.refill not in REFILL_MODES:
            raise RulesError(f"Unknown refill rule {self.refill!r}: use 'flip' or 'shuffle'.")
        if self.partners and self.players != 4:
            raise RulesError("Partners Rack-O is played by exactly four players, two against two.")
        if not is_whole(self.target) or self.target < 1:
            raise RulesError(f"The target score must be a positive whole number, not {self.target!r}.")
        if self.turn_cap is not None and (not is_whole(self.turn_cap) or self.turn_cap < 1):
            raise RulesError(f"The turn cap must be a positive whole number, not {self.turn_cap!r}.")
        for name in ("two_player_rule", "bonus", "auto_racko", "partners"):
            if not isinstance(getattr(self, name), bool):
                raise RulesError(f"The option {name} must be true or false.")

    @classmethod
    def create(cls, variant_name: str = "classic", players: int = 2, **options: Any) -> Rules:
        """The rules of a named variant for ``players`` players, with options changed."""
        return variant(variant_name).rules(players, **options)

    @property
    def teams(self) -> tuple[tuple[int, ...], ...] | None:
        """Partners sit opposite: seats 0+2 and 1+3.  ``None`` when every player plays alone."""
        return ((0, 2), (1, 3)) if self.partners else None

    def side_of(self, seat: int) -> int:
        """The scoring side of a seat: its team in Partners, else the seat itself."""
        return seat % 2 if self.partners else seat

    def side_totals(self, seat_totals: Sequence[int]) -> tuple[int, ...]:
        """Totals per scoring side: per team in Partners (partners' scores are added), else per seat."""
        sides = [0] * self.sides
        for seat, total in enumerate(seat_totals):
            sides[self.side_of(seat)] += total
        return tuple(sides)

    @property
    def sides(self) -> int:
        """How many scoring sides there are (teams or players)."""
        return 2 if self.partners else self.players

    def replace(self, **changes: Any) -> Rules:
        """A copy with some options changed (validated like a new value)."""
        return dataclasses.replace(self, **changes)

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    @classmethod
    def from_dict(cls, data: Any) -> Rules:
        """Rules from a record's ``rules`` object; raises :class:`RulesError` with the reason."""
        if not isinstance(data, dict):
            raise RulesError("The rules must be a JSON object.")
        names = {field.name for field in dataclasses.fields(cls)}
        unknown = sorted(set(data) - names)
        if unknown:
            raise RulesError(f"Unknown rule option(s): {', '.join(unknown)}.")
        missing = sorted(name for name in ("players", "deck_size", "two_player_rule") if name not in data)
        if missing:
            raise RulesError(f"The rules lack the option(s): {', '.join(missing)}.")
        name = data.get("variant", "classic")
        if not isinstance(name, str):
            raise RulesError(f"Unknown variant {name!r}; known: {', '.join(VARIANTS)}.")
        try:
            return cls(**{**data, "variant": variant(name).name})  # a hand-written record may say "High-Low"
        except TypeError as error:  # e.g. a list where a number belongs
            raise RulesError(f"Bad rule options: {error}.") from None


class Variant:
    """A named way to play, with the sheets it comes from.  Subclasses are registered by name."""

    name: ClassVar[str] = "classic"
    title: ClassVar[str] = "Classic Rack-O"
    description: ClassVar[str] = (
        "First to 500. Go Rack-O for 75; everyone else scores 5 a card up to the first break. "
        "With 2 players a Rack-O needs a run of three (the 2-player rule)."
    )
    sheets: ClassVar[tuple[str, ...]] = ("000", "001", "002", "004")
    player_counts: ClassVar[tuple[int, ...]] = (2, 3, 4)
    presets: ClassVar[Mapping[str, Any]] = MappingProxyType({})
    family: ClassVar[str] = "classic"
    """The engine that plays it (:mod:`racko.families`): ``classic`` or ``highlow``."""

    @classmethod
    def check_players(cls, rules: Rules) -> None:
        """Refuse rules this family cannot play (1 player is the classic family's solitaire research mode)."""
        if not is_whole(rules.players) or not 1 <= rules.players <= 4:
            raise RulesError(f"Classic Rack-O is played by 1 to 4 players, not {rules.players!r}.")

    @classmethod
    def rules(cls, players: int | None = None, **options: Any) -> Rules:
        """Resolved rules for ``players`` players; ``options`` override the variant's defaults."""
        count = players if players is not None else cls.player_counts[0]
        if count not in cls.player_counts and not (count == 1 and cls.name == "classic"):
            counts = ", ".join(str(n) for n in cls.player_counts)
            raise RulesError(f"{cls.title} is played by {counts} players, not {count}.")
        settings: dict[str, Any] = {
            "variant": cls.name,
            "players": count,
            "deck_size": STANDARD_DECK_SIZE.get(count, 40),
            "two_player_rule": count == 2,
        }
        settings.update(cls.presets)
        settings.update(options)
        if settings["variant"] != cls.name:
            raise RulesError("The variant is chosen by the factory, not by an option.")
        return Rules(**settings)


class BonusVariant(Variant):
    name = "bonus"
    title = "Bonus Rack-O"
    description = (
        "Rack-O with bonuses for the longest run: 3/4/5/6+ in a row add 50/100/200/400. "
        "Declaring is your choice, so you may wait for a longer run."
    )
    sheets = ("000", "002", "004")
    presets = MappingProxyType({"bonus": True, "auto_racko": False})


class PartnersVariant(Variant):
    name = "partners"
    title = "Partners Rack-O"
    description = "Four players, two against two, partners opposite; partners' scores are added. First team to 500."
    sheets = ("000", "002", "004")
    player_counts = (4,)
    presets = MappingProxyType({"partners": True})


class HighLowVariant(Variant):
    name = "highlow"
    title = "High-Low Rack-O"
    description = (
        "3-5 players, 112 cards with Wilds and Swaps, every row face up. Each card you replace passes to the "
        "player on your right. Go Rack-O in either direction; doubles score. First to 300."
    )
    sheets = ("003",)
    player_counts = (3, 4, 5)
    family = "highlow"
    presets = MappingProxyType(
        {"deck_size": HIGHLOW_DECK_SIZE, "two_player_rule": False, "refill": "shuffle", "target": 300}
    )

    @classmethod
    def check_players(cls, rules: Rules) -> None:
        if not is_whole(rules.players) or not 3 <= rules.players <= 5:
            raise RulesError(f"High-Low Rack-O is played by 3 to 5 players, not {rules.players!r}.")
        if rules.deck_size != HIGHLOW_DECK_SIZE:
            raise RulesError(f"High-Low Rack-O is played with its own {HIGHLOW_DECK_SIZE}-card deck.")
        if rules.two_player_rule or rules.partners or not rules.auto_racko:
            raise RulesError(
                "High-Low Rack-O has no 2-player rule, no partners, and a row in order always goes Rack-O at once."
            )


VARIANTS: dict[str, type[Variant]] = {cls.name: cls for cls in (Variant, BonusVariant, PartnersVariant, HighLowVariant)}


VARIANT_ALIASES: dict[str, str] = {
    "racko": "classic",
    "standard": "classic",
    "original": "classic",
    "basic": "classic",
    "bonusracko": "bonus",
    "partner": "partners",
    "team": "partners",
    "teams": "partners",
    "hilo": "highlow",
    "highandlow": "highlow",
}
"""Other names people write a variant by, reduced as :func:`variant` reduces them (no case, spaces or hyphens)."""


def _reduced(name: str) -> str:
    reduced = "".join(character for character in name.lower() if character.isalnum())
    for suffix in ("racko", "rack0"):
        if reduced.endswith(suffix) and len(reduced) > len(suffix):
            reduced = reduced[: -len(suffix)]
    return reduced


def variant(name: str) -> type[Variant]:
    """The variant named ``name`` as people write it: ``classic``, ``Bonus Rack-O``, ``partner``, ``High-Low``,
    ``hilo`` … (case, spaces, hyphens and a trailing "Rack-O" do not matter).  :attr:`Variant.name` is the
    canonical name records keep.

    >>> variant("High-Low Rack-O").name, variant("hilo").name, variant("Partner").name
    ('highlow', 'highlow', 'partners')
    """
    if isinstance(name, str):
        reduced = _reduced(name)
        found = VARIANTS.get(VARIANT_ALIASES.get(reduced, reduced))
        if found is not None:
            return found
    raise RulesError(f"Unknown variant {name!r}; known: {', '.join(VARIANTS)}.")
