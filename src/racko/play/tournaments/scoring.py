"""A tournament's points and standings, from its games (docs/TOURNAMENTS.md, "Points" and "Tie-breaks").

A table's *sides* are its seats, or in Partners its two teams.  A side's points in a game count the sides it finished
ahead of: one for each side placed below it, half for each side placed level with it (so at two seats a win is 1 and a
loss 0, as in chess; at four seats the first place is 3).  An arena counts twice that (lichess's 2 for a win) and
doubles a game's points while a side is *on fire*: after two outright wins in a row, until a game it does not win.
A Swiss bye scores half the points of a first place, what an average game gives: sitting out neither helps nor harms.

Tie-breaks: a Swiss of two sides orders equal points by Buchholz (the sum of the opponents' points), then
Sonneborn-Berger (each opponent's points times what one scored against it), then outright wins; of three to five
sides by the sum of the opponents' points, then the placings (more first places, then more second places, ...).  An
arena orders equal points by outright wins.  Last of all, whoever joined first.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

SWISS, ARENA = "swiss", "arena"


@dataclass(frozen=True)
class Game:
    """One game of the tournament as scoring sees it: who sat on each side, and where each side finished."""

    sides: tuple[str | None, ...]
    """Each side's entrant (a person, a bot account, one of racko's levels, or a Partners team); ``None``: a side
    racko's computer player filled, which is nobody's in the tournament."""
    places: tuple[int, ...] | None = None
    """Each side's place, 1 the best, equal places shared; ``None`` while the game is played (or for a bye)."""
    bye: bool = False
    """A Swiss bye: ``sides`` is the one entrant who sat out the round."""
    void: bool = False
    """An aborted game: it counts for nothing (at a Swiss, its sides did meet)."""

    @property
    def finished(self) -> bool:
        return self.places is not None or self.void


def pair_points(places: Sequence[int], side: int) -> float:
    """A side's points in a finished game: one per side placed below it, half per side placed level with it."""
    mine = places[side]
    return sum(
        1.0 if mine < other else 0.5 if mine == other else 0.0 for index, other in enumerate(places) if index != side
    )


def arena_points(places: Sequence[int], side: int, fire: bool) -> int:
    """A side's arena points for a game: twice its pair points (2 for a win at two seats, as lichess gives), doubled
    while it is on fire."""
    base = round(2 * pair_points(places, side))
    return 2 * base if fire else base


def bye_points(sides: int) -> float:
    """What a Swiss bye scores at tables of ``sides`` sides: half a first place's points."""
    return (sides - 1) / 2


def won_outright(places: Sequence[int], side: int) -> bool:
    return places[side] == 1 and sum(place == 1 for place in places) == 1


@dataclass(frozen=True)
class Standing:
    """One entrant's line in the standings."""

    entrant: str
    points: float
    games: int
    """Finished games played (a bye is not one)."""
    byes: int = 0
    wins: int = 0
    """Outright first places."""
    placings: tuple[int, ...] = ()
    """How often it finished first, second, ... (shared places counted at the better one)."""
    opponents_points: float = 0.0
    """Buchholz: the final points of every side it met, summed over its games."""
    sonneborn_berger: float = 0.0
    """For each side it met: that side's final points times what it scored against it (1, ½ or 0)."""
    streak: int = 0
    """An arena's outright wins in a row, up to its last game."""
    fire: bool = False
    """An arena's: its next game's points are doubled."""


def game_points(kind: str, games: Sequence[Game], sides: int) -> list[tuple[float, ...] | None]:
    """What each game gave each of its sides, in the order of ``games`` (the order they finished: an arena's fire
    follows it); ``None`` for a game not finished.  A Swiss bye gives :func:`bye_points`, an arena's nothing."""
    streaks: dict[str, int] = {}
    given: list[tuple[float, ...] | None] = []
    for game in games:
        if game.bye:
            given.append((bye_points(sides) if kind == SWISS else 0.0,))
            continue
        if game.places is None:
            given.append(None if not game.void else tuple(0.0 for _ in game.sides))
            continue
        points: list[float] = []
        for side, entrant in enumerate(game.sides):
            if kind != ARENA:
                points.append(pair_points(game.places, side))
                continue
            streak = streaks.get(entrant, 0) if entrant is not None else 0
            points.append(float(arena_points(game.places, side, streak >= 2)))
            if entrant is not None:
                streaks[entrant] = streak + 1 if won_outright(game.places, side) else 0
        given.append(tuple(points))
    return given


def totals(kind: str, entrants: Sequence[str], games: Sequence[Game], sides: int) -> dict[str, float]:
    """Each entrant's points alone (what an arena seats by, without the tie-breaks' work)."""
    points = dict.fromkeys(entrants, 0.0)
    for game, given in zip(games, game_points(kind, games, sides), strict=True):
        if given is None:
            continue
        for side, entrant in enumerate(game.sides):
            if entrant in points:
                points[entrant] += given[side]
    return points


def standings(kind: str, entrants: Sequence[str], games: Sequence[Game], sides: int) -> list[Standing]:
    """Every entrant's standing, best first: ``entrants`` in the order they joined (the last tie-break), ``games`` in
    the order they finished (an arena's streaks follow it)."""
    joined = {entrant: index for index, entrant in enumerate(entrants)}
    points = dict.fromkeys(entrants, 0.0)
    played = dict.fromkeys(entrants, 0)
    byes = dict.fromkeys(entrants, 0)
    wins = dict.fromkeys(entrants, 0)
    streaks = dict.fromkeys(entrants, 0)
    placings = {entrant: [0] * sides for entrant in entrants}
    for game, given in zip(games, game_points(kind, games, sides), strict=True):
        if given is None:
            continue
        if game.bye:
            if game.sides[0] in points:
                byes[game.sides[0]] += 1
                points[game.sides[0]] += given[0]
            continue
        for side, entrant in enumerate(game.sides):
            if entrant not in points:
                continue
            points[entrant] += given[side]
            played[entrant] += 1
            if game.places is None:
                continue  # void: they met, nobody scored
            place = game.places[side]
            if 1 <= place <= sides:
                placings[entrant][place - 1] += 1
            outright = won_outright(game.places, side)
            wins[entrant] += outright
            streaks[entrant] = streaks[entrant] + 1 if outright else 0
    opponents = dict.fromkeys(entrants, 0.0)
    berger = dict.fromkeys(entrants, 0.0)
    for game in games:
        if game.bye or game.places is None:
            continue
        for side, entrant in enumerate(game.sides):
            if entrant not in points:
                continue
            for other, rival in enumerate(game.sides):
                if other == side or rival is None or rival not in points:
                    continue
                opponents[entrant] += points[rival]
                berger[entrant] += pair_points((game.places[side], game.places[other]), 0) * points[rival]
    lines = [
        Standing(
            entrant,
            points[entrant],
            played[entrant],
            byes[entrant],
            wins[entrant],
            tuple(placings[entrant]),
            opponents[entrant],
            berger[entrant],
            streaks[entrant],
            kind == ARENA and streaks[entrant] >= 2,
        )
        for entrant in entrants
    ]
    lines.sort(key=lambda line: _order(kind, sides, line, joined[line.entrant]))
    return lines


def _order(kind: str, sides: int, line: Standing, joined: int) -> tuple[float | int, ...]:
    if kind == ARENA:
        return (-line.points, -line.wins, joined)
    if sides == 2:
        return (-line.points, -line.opponents_points, -line.sonneborn_berger, -line.wins, joined)
    return (-line.points, -line.opponents_points, *(-count for count in line.placings), joined)
