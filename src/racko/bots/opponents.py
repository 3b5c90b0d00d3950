"""The opponent met, as a mixture of styles of player: ``master``'s one model of how the other seat plays (2 players).

Three styles, each a rule for what to take and where to put a card, softened into chances:

- **gap** (``hard`` and ``medium``, :mod:`racko.bots.gaps`): what a card gains is the draws of the gap model it saves;
- **band** and **sequence** (:mod:`racko.bots.styles`): what the band rule gains, and how much the low-end-first rule
  wants the card in a slot.

A style takes the top discard with a chance logistic in what it gains (less a margin, over a spread), puts a card
into a slot by a softmax over what each slot gains, and with a small chance (its floor) makes any legal choice.  Each
style's numbers were fitted by maximum likelihood on arena logs where the racks are known (``racko fit-opponents``,
:mod:`racko.tools.strength`), and ship as data (``data/opponents.json``, read with the standard library).

:class:`StyleBelief` holds how likely each style is for the opponent of one match: it starts from the fitted shares,
the C kernel's ``posterior`` weighs each guess of the hidden rack by the mixture's likelihood of the turns watched and
returns each style's chance given them, and a turn that leaves the window of turns weighed leaves its evidence in the
belief (:meth:`StyleBelief.fold`), as does a round that ends (:meth:`StyleBelief.new_round`).  The guess of the hidden
rack, the denial and the races all deal with the opponent through it.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from functools import cache
from importlib import resources

from racko.errors import RackoError

GAP, BAND, SEQUENCE = 0, 1, 2
"""The kernel's numbers for the styles."""
KINDS = {"gap": GAP, "band": BAND, "sequence": SEQUENCE}

RULES = {False: "no_two_player_rule", True: "two_player_rule"}
"""The fitted numbers' keys: the styles play differently when a rack needs a run of three."""

DATA = "opponents.json"

__all__ = ["BAND", "GAP", "SEQUENCE", "Style", "StyleBelief", "fitted_styles", "load_styles"]


@dataclass(frozen=True)
class Style:
    """One style of player and how it is taken to play: ``take_spread`` and ``take_margin`` shape its chance to take
    the top discard, ``place_spread`` its choice of slot, ``floor`` the share of a choice made at random; ``shape`` is
    band's width or sequence's tolerance (unused by gap)."""

    name: str
    take_spread: float
    place_spread: float
    take_margin: float
    floor: float
    shape: float = 0.0
    share: float = 1.0
    """How likely a new opponent is to play this style, before any turn is seen."""

    @property
    def kind(self) -> int:
        return KINDS[self.name]

    def kernel_row(self, weight: float) -> tuple[int, float, float, float, float, float, float]:
        """The style as the kernel takes it, with ``weight`` its chance."""
        return (self.kind, weight, self.take_spread, self.place_spread, self.take_margin, self.floor, self.shape)

    def to_json(self) -> dict[str, object]:
        return {
            "name": self.name,
            "take_spread": round(self.take_spread, 4),
            "place_spread": round(self.place_spread, 4),
            "take_margin": round(self.take_margin, 4),
            "floor": round(self.floor, 6),
            "shape": round(self.shape, 4),
            "share": round(self.share, 4),
        }


def load_styles(document: object) -> dict[bool, tuple[Style, ...]]:
    """The styles of a document like ``data/opponents.json``, per 2-player rule; a clear error for a bad one."""
    if not isinstance(document, dict):
        raise RackoError("The opponent styles file holds an object.")
    result: dict[bool, tuple[Style, ...]] = {}
    for rule, key in RULES.items():
        rows = document.get(key)
        if not isinstance(rows, list) or not rows:
            raise RackoError(f"The opponent styles file has no list of styles under {key!r}.")
        styles = []
        for row in rows:
            try:
                style = Style(
                    name=str(row["name"]),
                    take_spread=float(row["take_spread"]),
                    place_spread=float(row["place_spread"]),
                    take_margin=float(row["take_margin"]),
                    floor=float(row["floor"]),
                    shape=float(row.get("shape", 0.0)),
                    share=float(row.get("share", 1.0)),
                )
            except (KeyError, TypeError, ValueError) as error:
                raise RackoError(f"A style under {key!r} is incomplete or not a number: {error}.") from None
            if style.name not in KINDS:
                raise RackoError(f"Unknown style {style.name!r}; known: {', '.join(KINDS)}.")
            if not (style.take_spread > 0 and style.place_spread > 0 and 0 <= style.floor < 1 and style.share >= 0):
                raise RackoError(f"The style {style.name!r} under {key!r} has a number out of range.")
            styles.append(style)
        result[rule] = tuple(styles)
    return result


@cache
def fitted_styles(two_player_rule: bool) -> tuple[Style, ...]:
    """The styles as fitted (``data/opponents.json``), for rounds with or without the 2-player rule."""
    text = resources.files("racko.bots").joinpath("data", DATA).read_text(encoding="utf-8")
    return load_styles(json.loads(text))[two_player_rule]


@dataclass
class StyleBelief:
    """How likely each style is for the opponent of one match (the chances add up to 1)."""

    styles: tuple[Style, ...]
    chances: list[float] = field(default_factory=list)
    round_number: int = -1
    last: list[float] | None = None
    """The chance of each style given the turns weighed at the last decision (the window's evidence added)."""

    def __post_init__(self) -> None:
        if not self.chances:
            total = sum(style.share for style in self.styles) or 1.0
            self.chances = [style.share / total for style in self.styles]

    def kernel_rows(self) -> list[tuple[int, float, float, float, float, float, float]]:
        """The styles with their chances, as the kernel's ``posterior`` takes them."""
        return [style.kernel_row(chance) for style, chance in zip(self.styles, self.chances, strict=True)]

    def new_round(self, round_number: int) -> None:
        """A new round: what the last decision of the round before knew becomes the belief."""
        if round_number != self.round_number:
            if self.last is not None:
                self.chances = _normalised(self.last)
            self.last = None
            self.round_number = round_number

    def fold(self, likelihoods: list[float]) -> None:
        """A turn left the window weighed: its likelihood under each style (averaged over the guesses of the rack)
        stays in the belief."""
        self.chances = _normalised(
            [chance * max(value, 1e-300) for chance, value in zip(self.chances, likelihoods, strict=True)]
        )

    def seen(self, chances: list[float]) -> None:
        """The chance of each style given the turns in the window, from the kernel's posterior."""
        self.last = list(chances)

    def current(self) -> list[float]:
        """The chance of each style now: given the window's turns when the kernel has weighed them."""
        return _normalised(self.last) if self.last is not None else list(self.chances)

    def named(self) -> dict[str, float]:
        return {style.name: round(chance, 4) for style, chance in zip(self.styles, self.current(), strict=True)}


def _normalised(values: list[float]) -> list[float]:
    total = math.fsum(values)
    if not total > 0:
        return [1 / len(values)] * len(values)
    return [value / total for value in values]
