"""The bot ladder's pairing (racko.web.bots.pairings) driven by a simulated clock: 20 bots online for an hour beside
racko's three levels, games of 3 to 6 simulated minutes, a pairing every 5 simulated seconds.  Every bot plays, the
limits hold at every moment, and no pair meets much more often than the others."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field

import pytest

from racko.web.bots import Entrant, LadderLimits, pairings

HOUR = 3600.0
EVERY = 5.0


@dataclass
class Simulated:
    """The ladder's standing as the store would have it, kept by hand."""

    ratings: dict[str, int]
    games: list[tuple[float, float, str, str]] = field(default_factory=list)
    """(started, ends, a, b) of every game started."""
    most_at_once: Counter[str] = field(default_factory=Counter)


def simulate(limits: LadderLimits, seed: int, bots: int = 20) -> Simulated:
    rng = random.Random(seed)
    ratings = {f"p:bot{number}": rng.randrange(600, 1600) for number in range(bots)}
    ratings |= {"bot:easy": 494, "bot:medium": 1101, "bot:hard": 1210}
    world = Simulated(ratings)
    pairing_rng = random.Random(seed + 1)
    now = 0.0
    while now < HOUR:
        playing: Counter[str] = Counter()
        today: Counter[str] = Counter()
        met: Counter[frozenset[str]] = Counter()
        last: dict[str, str] = {}
        finished: dict[str, float] = {}
        for _started, ends, a, b in world.games:
            if ends <= now:
                finished[a], finished[b] = max(finished.get(a, 0.0), ends), max(finished.get(b, 0.0), ends)
            today.update((a, b))
            met[frozenset((a, b))] += 1
            last[a], last[b] = b, a
            if ends > now:
                playing.update((a, b))
        for subject, count in playing.items():
            world.most_at_once[subject] = max(world.most_at_once[subject], count)
        entrants = [
            Entrant(subject, rating, playing[subject], today[subject], now - finished.get(subject, -HOUR))
            for subject, rating in ratings.items()
        ]
        for a, b in pairings(entrants, met, last, limits, pairing_rng):
            world.games.append((now, now + rng.uniform(180, 360), a, b))
        now += EVERY
    return world


def pair_counts(world: Simulated) -> Counter[frozenset[str]]:
    return Counter(frozenset((a, b)) for _, _, a, b in world.games)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_twenty_bots_for_an_hour_all_play_within_the_limits_and_fairly(seed: int) -> None:
    world = simulate(LadderLimits(games_per_day=100, games_at_once=1), seed)
    played = Counter(subject for _, _, a, b in world.games for subject in (a, b))
    bots = [subject for subject in world.ratings if subject.startswith("p:")]
    # Every bot plays, and about as often as the others: an hour of 3-6 minute games is 10 to 20 games each.
    assert all(played[bot] >= 9 for bot in bots), played
    assert max(played[bot] for bot in bots) - min(played[bot] for bot in bots) <= 4, played
    assert max(world.most_at_once.values()) == 1  # games at once, per entrant
    assert not any(a.startswith("bot:") and b.startswith("bot:") for _, _, a, b in world.games)  # no level-level
    # Fairness: the pairs that may meet (any but two levels) are 20*19/2 + 20*3 = 250; the most often any pair
    # meets is at most twice the mean over them, plus one, and most bots meet many others.
    counts = pair_counts(world)
    possible = len(bots) * (len(bots) - 1) // 2 + len(bots) * 3
    mean = sum(counts.values()) / possible
    assert max(counts.values()) <= 2 * mean + 1, (max(counts.values()), mean)
    opponents = {bot: {other for pair in counts if bot in pair for other in pair if other != bot} for bot in bots}
    assert min(len(found) for found in opponents.values()) >= 6, opponents
    assert all(played[f"bot:{level}"] >= 1 for level in ("easy", "medium", "hard"))  # the anchors play too


def test_the_limits_a_day_and_at_once_hold() -> None:
    world = simulate(LadderLimits(games_per_day=6, games_at_once=2), seed=4)
    played = Counter(subject for _, _, a, b in world.games for subject in (a, b))
    assert set(played) == set(world.ratings)
    assert max(played.values()) <= 6
    assert sorted(set(played[subject] for subject in world.ratings if subject.startswith("p:"))) == [6]
    assert max(world.most_at_once.values()) == 2
    counts = pair_counts(world)
    assert max(counts.values()) <= 2  # 6 games each among 22 possible partners: hardly a pair twice


def test_the_pairing_is_fixed_by_its_seed_and_ready_pairs_only_those_with_room() -> None:
    limits = LadderLimits(games_per_day=3, games_at_once=1)
    entrants = [
        Entrant("p:a", 1000, 0, 0),
        Entrant("p:b", 1010, 0, 0),
        Entrant("p:busy", 1000, 1, 0),  # a game under way
        Entrant("p:done", 1000, 0, 3),  # its games of the day played
        Entrant("bot:easy", 500, 0, 0),
        Entrant("bot:hard", 1200, 0, 0),
    ]
    first = pairings(entrants, {}, {}, limits, random.Random(7))
    assert first == pairings(entrants, {}, {}, limits, random.Random(7))
    seated = [subject for pair in first for subject in pair]
    assert sorted(seated) == sorted(set(seated))  # one game each
    assert "p:busy" not in seated and "p:done" not in seated
    assert {frozenset(pair) for pair in first} != {frozenset(("bot:easy", "bot:hard"))}
    assert all(not (a.startswith("bot:") and b.startswith("bot:")) for a, b in first)
    # Two bots who have met often are not seated together again while a fresh partner is free.
    met = {frozenset(("p:a", "p:b")): 3}
    for seed in range(20):
        for pair in pairings(entrants[:2] + entrants[4:], met, {}, limits, random.Random(seed)):
            assert frozenset(pair) != frozenset(("p:a", "p:b"))
