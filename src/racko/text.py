"""Plain-text rendering shared by the command-line tools (apps layer)."""

from __future__ import annotations

from collections.abc import Sequence

from racko.highlow import HighLowResult
from racko.highlow_scoring import card_name
from racko.observation import RoundResult
from racko.rules import SLOT_LABELS, Rules


def rack_lines(cards: Sequence[int | None], indent: str = "  ") -> list[str]:
    """A rack as two aligned lines: the slot labels 5 to 50, and the cards (``?`` where unknown)."""
    labels = " ".join(f"{label:>3}" for label in SLOT_LABELS)
    values = " ".join(f"{card:>3}" if card is not None else "  ?" for card in cards)
    return [f"{indent}slot {labels}", f"{indent}card {values}"]


def row_line(cards: Sequence[int], indent: str = "  ") -> str:
    """A High-Low row, left end first (W = Wild)."""
    return indent + " ".join(f"{card_name(card):>3}" for card in cards)


def round_summary(result: RoundResult | HighLowResult, names: Sequence[str]) -> list[str]:
    """Every rack (or row) revealed, with how each score was counted."""
    lines = []
    for seat, rack in enumerate(result.racks):
        lines.append(f"{names[seat]}: {result.scores[seat]} points ({result.explain(seat)})")
        if isinstance(result, HighLowResult):
            lines.append(row_line(rack))
        else:
            lines.extend(rack_lines(rack))
    return lines


def side_names(rules: Rules, names: Sequence[str]) -> list[str]:
    """Names of the scoring sides: the players, or the two teams in Partners."""
    if rules.teams is None:
        return list(names)
    return [" & ".join(names[seat] for seat in team) for team in rules.teams]


def score_sheet(rules: Rules, names: Sequence[str], results: Sequence[RoundResult | HighLowResult]) -> list[str]:
    """The running score sheet: each round's points per side, and the totals."""
    sides = side_names(rules, names)
    width = max(8, *(len(side) for side in sides))
    lines = ["Round  " + " ".join(f"{side:>{width}}" for side in sides)]
    totals = [0] * len(sides)
    for number, result in enumerate(results, start=1):
        points = [0] * len(sides)
        for seat, score in enumerate(result.scores):
            points[rules.side_of(seat)] += score
        totals = [total + point for total, point in zip(totals, points, strict=True)]
        lines.append(f"{number:>5}  " + " ".join(f"{point:>{width}}" for point in points))
    lines.append("Total  " + " ".join(f"{total:>{width}}" for total in totals))
    return lines
