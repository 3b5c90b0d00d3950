"""Plain-text renderings shared by every text front end: racks, rows, the round's end, the score sheet."""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass

from racko.events import Exchanged
from racko.highlow import HIGHEST, SWAP, WILD, CardPlaced, CardsSwapped, HighLowResult, card_name
from racko.highlow.scoring import RUN_BONUS, best_prefix
from racko.observation import RoundResult
from racko.rules import BONUS_FOR_RUN, POINTS_PER_CARD, RACK_SIZE, RACKO_SCORE, SLOT_LABELS, Rules, variant
from racko.scoring import ordered_prefix

AnyResult = RoundResult | HighLowResult


_JOINERS = frozenset({"\u200c", "\u200d"} | {chr(code) for code in range(0xE0020, 0xE0080)})
"""Format characters that only join or shape what they stand in: the zero-width (non-)joiner of emoji sequences and
scripts such as Persian, and the tag characters of flags such as Scotland's.  Every other format character (the
bidirectional overrides, embeddings, isolates and marks, invisible spaces) can disguise a name."""


def plain_name(name: str, limit: int = 40) -> str:
    """A player's name as plain text, safe to show anywhere: control characters (a terminal's escape sequences),
    lone surrogates and format characters that could disguise it (bidirectional overrides and isolates, invisible
    spaces) become "?"; joiners and variation selectors stay, so that emoji sequences and scripts are intact.  It
    is cut to ``limit`` characters."""
    cleaned = "".join(
        "?" if unicodedata.category(character) in ("Cc", "Cf", "Cs") and character not in _JOINERS else character
        for character in name
    )
    return cleaned.strip()[:limit] or "?"


def record_names(players: Sequence[str] | None, count: int) -> list[str]:
    """The players' names as a record gives them (``players``), safe to show; "seat N" where it names nobody, and
    "(seat N)" after a name that two seats share, so that every seat is told apart."""
    names = [plain_name(name) for name in players] if players else [f"seat {seat + 1}" for seat in range(count)]
    return [f"{name} (seat {seat + 1})" if names.count(name) > 1 else name for seat, name in enumerate(names)]


def card_words(card: int) -> str:
    """A card as a sentence says it: its number, or the Wild or the Swap (High-Low)."""
    return {WILD: "the Wild", SWAP: "a Swap card"}.get(card, str(card))


def rack_lines(cards: Sequence[int | None], indent: str = "  ") -> list[str]:
    """A rack as two aligned lines: the slot labels 5 to 50, and the cards (``?`` where unknown)."""
    labels = " ".join(f"{label:>3}" for label in SLOT_LABELS)
    values = " ".join(f"{card:>3}" if card is not None else "  ?" for card in cards)
    return [f"{indent}slot {labels}", f"{indent}card {values}"]


def row_line(cards: Sequence[int], indent: str = "  ") -> str:
    """A High-Low row, left end first (W = Wild)."""
    return indent + " ".join(f"{card_name(card):>3}" for card in cards)


def side_names(rules: Rules, names: Sequence[str]) -> list[str]:
    """Names of the scoring sides: the players, or the two teams in Partners."""
    if rules.teams is None:
        return list(names)
    return [" & ".join(names[seat] for seat in team) for team in rules.teams]


def scores_line(rules: Rules, names: Sequence[str], seat_totals: Sequence[int], separator: str = ", ") -> str:
    """Each side's total, name then points ("You: 75, easy 2: 30"): the colon keeps a name ending in a number
    apart from the score."""
    sides = zip(side_names(rules, names), rules.side_totals(seat_totals), strict=True)
    return separator.join(f"{side}: {total}" for side, total in sides)


def round_report(result: AnyResult, names: Sequence[str], number: int) -> list[str]:
    """The round's end: every rack, a bar where its order broke, and how each score was counted."""
    highlow = isinstance(result, HighLowResult)
    corner = "position" if highlow else "slot"
    width = max(len(corner), *(len(name) for name in names)) + 1
    headline = f"Round {number} is over"
    headline += f": {names[result.winner]} went Rack-O." if result.winner is not None else "."
    labels = [str(position) for position in range(1, RACK_SIZE + 1)] if highlow else [str(s) for s in SLOT_LABELS]
    header = f"{corner:<{width}}" + " ".join(f"{label:>3}" for label in labels)
    lines = [headline, header + "  points"]
    for seat, rack in enumerate(result.racks):
        cells = [f"{card_name(card):>3}" for card in rack]
        gaps = [" "] * (RACK_SIZE - 1)
        in_order = result.ordered[seat]
        if 1 <= in_order < RACK_SIZE:
            gaps[in_order - 1] = "|"  # the order breaks after the last card in order
        row = cells[0] + "".join(gap + cell for gap, cell in zip(gaps, cells[1:], strict=True))
        lines.append(f"{names[seat]:<{width}}{row}  {result.scores[seat]:>6}")
    lines.append("")
    points = " points" if highlow else ""  # High-Low's sentence ends on the bare number
    lines += [f"{names[seat]}: {result.explain(seat)}{points}" for seat in range(len(result.racks))]
    return lines


def score_table(rules: Rules, names: Sequence[str], results: Sequence[AnyResult], width: int = 74) -> list[str]:
    """The running score sheet sideways, a column per round, so it stays a few lines however long the game.

    When the rounds do not fit across ``width``, the earliest are added up in one column ("1-6").
    """
    sides = side_names(rules, names)
    name_width = max(len("Round"), *(len(side) for side in sides)) + 1
    columns: list[tuple[str, list[int]]] = []
    for number, result in enumerate(results, start=1):
        points = [0] * len(sides)
        for seat, score in enumerate(result.scores):
            points[rules.side_of(seat)] += score
        columns.append((str(number), points))
    totals = [sum(points[side] for _, points in columns) for side in range(len(sides))]
    room = max(2, (width - name_width - 7) // 5)
    if len(columns) > room:
        merged = len(columns) - room + 1
        earlier = [sum(column[1][side] for column in columns[:merged]) for side in range(len(sides))]
        columns = [(f"1-{merged}", earlier), *columns[merged:]]
    lines = [f"{'Round':<{name_width}}" + "".join(f"{label:>5}" for label, _ in columns) + f"{'Total':>7}"]
    for side, name in enumerate(sides):
        row = "".join(f"{points[side]:>5}" for _, points in columns)
        lines.append(f"{name:<{name_width}}{row}{totals[side]:>7}")
    return lines


def rules_summary(rules: Rules) -> list[str]:
    """The rules of the game being played, in short, with its scoring (docs/RULES.md has them in full): a line per
    paragraph, a blank line between two, for the front end to wrap at its own width (wrapped here as well, a
    paragraph would be broken twice wherever the two widths differ)."""
    chosen = variant(rules.variant)
    paragraphs = [f"{chosen.title}: {rules.players} players, first to {rules.target}."]
    if chosen.family == "highlow":
        paragraphs += [
            "Every row is face up. The drawer puts the card drawn in place of any card of the row; the card taken "
            "out passes to the player on the right, who must place it the same way; the last one is discarded. "
            "A Swap card lets every player swap two cards of their row. A Wild is any number you like.",
            "Go Rack-O with your row in order, low to high or high to low (equal neighbours count as in order).",
            f"Scoring: Rack-O {RACKO_SCORE}; everyone else {POINTS_PER_CARD} a card in order from the left end; "
            f"{POINTS_PER_CARD} for every double (two identical numbers side by side, or a number followed by a "
            "Wild).",
        ]
        if rules.bonus:
            bonuses = ", ".join(f"{length}: {points}" for length, points in RUN_BONUS.items())
            paragraphs.append(f"Run bonus for the winner's longest run ({bonuses}; 7 or more counts as 6).")
    else:
        paragraphs.append(
            "Take the top discard or draw from the stock, and put the card in a slot: the card there is "
            "discarded (a card you drew may be discarded instead). Get your rack in order, lowest in slot 5, "
            "highest in slot 50."
        )
        if rules.two_player_rule:
            paragraphs.append(
                "With two players a rack in order is not enough: it needs a run of three consecutive numbers in "
                "neighbouring slots, like 28, 29, 30 (the 2-player rule). A sorted rack without one plays on."
            )
        if rules.partners:
            paragraphs.append("Partners sit opposite each other; their scores are added up.")
        paragraphs.append(
            f"Scoring: Rack-O {RACKO_SCORE}; everyone else {POINTS_PER_CARD} a card in order from slot 5 up to "
            "the first break."
        )
        if rules.bonus:
            bonuses = ", ".join(f"{length}: {points}" for length, points in BONUS_FOR_RUN.items())
            paragraphs.append(
                f"Bonus for the longest run when you go Rack-O ({bonuses}; 6 or more counts as 6). Going Rack-O "
                "is your choice: you may wait for a longer run, at the risk of someone going out first."
            )
    lines: list[str] = []
    for paragraph in paragraphs:
        lines += [paragraph, ""]
    return lines[:-1]


RUN_NEEDED = 3
"""The shortest run that counts: the 2-player rule's run of three, and the shortest run Bonus Rack-O pays for."""


@dataclass(frozen=True)
class RackMarks:
    """What a seat's own rack or row says at a glance, as scored: the start in order, the break, the runs."""

    in_order: int
    """Cards in order from slot 5 (High-Low: from the left end, in the better direction): they score now."""
    broken_at: int | None
    """The first slot (index) out of order, ``None`` when all ten are in order."""
    run: frozenset[int]
    """Slots (indices) in a run of three or more consecutive numbers, where the rules count runs (the 2-player rule,
    Bonus Rack-O); empty elsewhere."""


def rack_marks(rules: Rules, rack: Sequence[int]) -> RackMarks:
    """The marks of a rack (classic family) or a row (High-Low) under these rules."""
    if variant(rules.variant).family == "highlow":
        in_order, run = best_prefix(rack), frozenset[int]()
    else:
        in_order = ordered_prefix(rack)
        run = run_slots(rack) if rules.two_player_rule or rules.bonus else frozenset()
    return RackMarks(in_order, in_order if in_order < len(rack) else None, run)


def run_slots(rack: Sequence[int], length: int = RUN_NEEDED) -> frozenset[int]:
    """The slots (indices) in runs of at least ``length`` consecutive rising numbers in neighbouring slots.

    >>> sorted(run_slots([2, 9, 15, 20, 28, 29, 30, 33, 38, 40]))
    [4, 5, 6]
    """
    slots: set[int] = set()
    start = 0
    for index in range(1, len(rack) + 1):
        if index == len(rack) or rack[index] != rack[index - 1] + 1:
            if index - start >= length:
                slots.update(range(start, index))
            start = index
    return frozenset(slots)


def last_placed(log: Sequence[object], seat: int) -> frozenset[int]:
    """The slots or positions (indices) the seat's last placement in this log changed: one, or two for a swap.

    The rules' replacement of a Swap at the deal (High-Low) is no placement of the player's.
    """
    for event in reversed(log):
        if isinstance(event, CardPlaced) and event.removed is None:
            continue
        if isinstance(event, Exchanged | CardPlaced | CardsSwapped) and event.seat == seat:
            if isinstance(event, Exchanged):
                return frozenset([event.slot])
            if isinstance(event, CardPlaced):
                return frozenset([event.position])
            return frozenset([event.first, event.second])
    return frozenset()


def highest_card(rules: Rules) -> int:
    """The highest number on the cards of these rules' deck (a card scale runs from 1 to it)."""
    return HIGHEST if variant(rules.variant).family == "highlow" else rules.deck_size
