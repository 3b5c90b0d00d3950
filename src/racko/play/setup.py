"""Setting up a game for people: the rules and who sits where, from what a player chose."""

from __future__ import annotations

from collections.abc import Sequence

from racko import bots
from racko.errors import RackoError
from racko.play.session import PlaySession, SeatSpec, bots_for, default_opponent
from racko.play.text import plain_name, scores_line
from racko.rules import Rules, variant

HUMAN = "human"
"""The seat choice for a person (hot-seat play at one screen)."""
DEFAULT_NAME = "You"


def build_setup(
    variant_name: str,
    players: int | None,
    opponents: list[str],
    your_name: str,
    two_player_rule: bool | None = None,
    target: int | None = None,
    refill: str | None = None,
    names: Sequence[str] = (),
) -> tuple[Rules, list[SeatSpec]]:
    """The rules and seats of a new game: you in seat 0, then ``opponents`` (bots, or ``human`` for hot-seat).

    ``names`` names the people in seat order, you first (it overrides ``your_name``); a blank one, or one not given,
    keeps the default ("You", or "Player N" when several people share the screen).  Bots are named by their level.
    """
    given = [plain_name(name) if name.strip() else "" for name in names]
    your_name = given[0] if given and given[0] else plain_name(your_name)
    chosen = variant(variant_name)
    count = players if players is not None else max(chosen.player_counts[0], 1 + len(opponents))
    check_seat_count(chosen.title, chosen.player_counts, count, len(opponents), count - 1, "other seats")
    options: dict[str, object] = {}
    if two_player_rule is not None:
        options["two_player_rule"] = two_player_rule
    if target is not None:
        options["target"] = target
    if refill is not None:
        options["refill"] = refill
    rules = chosen.rules(count, **options)
    others = opponents or [default_opponent(chosen.name)]
    others = (others * count)[: count - 1]
    playing = bots_for(chosen.name)
    for name in others:
        if name != HUMAN and name not in bots.available():
            raise RackoError(f"Unknown bot {name!r}; available: {', '.join(bots.available())}, or human.")
        if name != HUMAN and name not in playing:
            raise RackoError(f"The {name} bot does not play {chosen.title}; choose from {', '.join(playing)}.")
    people = 1 + others.count(HUMAN)
    if len(given) > people:
        raise RackoError(f"{len(given)} names were given for {people} {'person' if people == 1 else 'people'}.")
    if HUMAN in others and your_name == DEFAULT_NAME:
        your_name = "Player 1"  # "Pass the screen to You" says nothing when several people share it
    # The people's names by seat: given in seat order, else "Player N".
    named = iter(given[1:])
    people_names = {
        seat: next(named, "") or f"Player {seat}" for seat, name in enumerate(others, start=2) if name == HUMAN
    }
    everyone = [your_name, *people_names.values()]
    twice = sorted({name for name in everyone if everyone.count(name) > 1})
    if twice:
        raise RackoError(f"Two people at the table are named {twice[0]}: give each a name of their own.")
    seats = [SeatSpec(your_name)]
    for index, name in enumerate(others, start=2):
        if name == HUMAN:
            seats.append(SeatSpec(people_names[index]))
        elif others.count(name) > 1 or name == your_name or name in people_names.values():
            seats.append(SeatSpec(f"{name} {index}", name))  # "medium 2", "medium 3": the seat tells them apart
        else:
            seats.append(SeatSpec(name, name))
    return rules, seats


def check_seat_count(
    title: str, player_counts: tuple[int, ...], players: int, named: int, wanted: int, what: str
) -> None:
    """Refuse a player count the variant is not played by (1 is ``racko solo``'s), and a list of bots that names
    neither one bot for every seat nor exactly one per seat."""
    if players not in player_counts:
        counts = ", ".join(str(count) for count in player_counts)
        raise RackoError(f"{title} is played by {counts} players, not {players}.")
    if named not in (0, 1, wanted):
        raise RackoError(f"{named} bots were named for {wanted} {what}: name one for all of them, or one for each.")


def describe_save(session: PlaySession) -> str:
    """A saved game in a line, to ask whether to resume it: the variant, the scores and the round."""
    rules = session.rules
    scores = scores_line(rules, session.names, session.match.seat_totals)
    return f"{variant(rules.variant).title}, round {len(session.match.rounds)}: {scores}"


def describe_setup(rules: Rules, seats: Sequence[SeatSpec]) -> str:
    """A new game in a line, to say what starting it means: the variant and who sits at the table."""
    return f"{variant(rules.variant).title}, {rules.players} players: {', '.join(seat.name for seat in seats)}"
