"""Who won a game, said once: each seat's place, as the ratings place them, the result line on every page, the
histories and every player's statistics read it (docs/PLAYING.md "Rated games: leaving costs").

A seat whose person left the game (gone at its end, resigned, left the table, handed over while away) is placed last,
whatever its computer player scored: a game left is a loss.  The others are placed by their totals among themselves
(Partners: by side, a side with a leaver last).  The winners are those placed first; when every side left, they
share the last place and nobody won."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from racko.match import Match
from racko.rules import Rules

if TYPE_CHECKING:
    from racko.web.table.table import Table


@dataclass(frozen=True)
class Standing:
    """A game's places: per seat its place (1: won), whether its person left the game, whether it is placed last
    for it (its side has a seat that left), and its total; the winning seats."""

    places: tuple[int, ...]
    left: tuple[bool, ...]
    last: tuple[bool, ...]
    totals: tuple[int, ...] = ()

    @property
    def winners(self) -> tuple[int, ...]:
        """The seats placed first among those whose side did not leave (none if every side left)."""
        return tuple(seat for seat, place in enumerate(self.places) if place == 1 and not self.last[seat])

    def won(self, seat: int) -> bool:
        return seat in self.winners


def sides_of(rules: Rules) -> list[list[int]]:
    """The seats that share a place: a team each in Partners, else each seat alone."""
    if rules.teams is not None:
        return [list(team) for team in rules.teams]
    return [[seat] for seat in range(rules.players)]


def standing(rules: Rules, totals: Sequence[int], left: Sequence[bool]) -> Standing:
    """The places of a game whose seats' totals are ``totals`` and whose people left it where ``left`` says."""
    sides = sides_of(rules)
    side_totals = [sum(totals[seat] for seat in side) for side in sides]
    away = {index for index, side in enumerate(sides) if any(left[seat] for seat in side)}
    staying = [index for index in range(len(sides)) if index not in away]
    places = [0] * rules.players
    last = [False] * rules.players
    for index, side in enumerate(sides):
        beaten_by = sum(side_totals[other] > side_totals[index] for other in staying)
        # A side that left is placed after every side that stayed, and never first (when every side left, none won).
        place = max(len(staying) + 1, 2) if index in away else 1 + beaten_by
        for seat in side:
            places[seat], last[seat] = place, index in away
    return Standing(tuple(places), tuple(bool(flag) for flag in left), tuple(last), tuple(totals))


def match_places(match: Match, left: Sequence[bool]) -> dict[int, int]:
    """Each seat's place in ``match`` (played to its end, or as it stands) given whose people left it: the places of
    :func:`standing`, for a game played outside a table (a tournament's game of racko's levels alone)."""
    return dict(enumerate(standing(match.rules, match.seat_totals, left).places))


def places_of(table: Table) -> Standing:
    """The places of the table's game as it stands: the seats' totals, those whose person left placed last (the
    seats' states say who left)."""
    seats = range(len(table.session.seats))
    return standing(table.setup.rules, table.session.match.seat_totals, [table.seats.left_the_game(s) for s in seats])
