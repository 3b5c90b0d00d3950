"""Fuzzing High-Low Rack-O: 10,200 turn-capped hands of random legal play for 3, 4 and 5 players, with and without
the run bonus, with the shuffle and the flip refill; then whole games to the target.

Half the hands are played with uniformly random legal moves, half epsilon-greedy with a simple bucket policy (so
that hands also end in Rack-O, High and Low, and the run bonus is really earned).  Every hand must end without an
error, keep every card in exactly one place, and score exactly as ``racko.highlow.scoring.row_score`` says.
"""

from __future__ import annotations

import random
from collections import Counter
from itertools import pairwise

import pytest

import racko
from racko import Match
from racko.highlow import HighLowRound
from racko.highlow.cards import SWAP, WILD
from racko.highlow.scoring import HIGH, best_prefix, doubles, in_order_prefix, row_score
from test_highlow import conservation, greedy  # the same policy and card count as the unit tests

pytestmark = pytest.mark.slow

HANDS = 10_200
"""Hand i: 3 + i % 3 players, the run bonus on in every other block of three, dealt by seat i % players."""
TURN_CAP = 120
"""Placements per hand (24 to 40 rounds of play); greedy hands mostly end in Rack-O well before it."""
LONG_CAP = 400
"""Every 25th hand: long enough for the stock to run out (it holds 62 to 82 cards, one drawn a round of play)."""
EPSILON = 0.2
"""In greedy hands, the share of moves that are random instead of the policy's."""
GAMES = 150


def highlow(players: int, **options: object) -> racko.Rules:
    return racko.variant("highlow").rules(players, **options)


def check_result(round_: HighLowRound, stats: Counter[str]) -> None:
    assert round_.over and round_.to_act is None and round_.held is None
    assert round_.legal_actions() == [] and not any(round_.legal_mask())
    conservation(round_)
    rules = round_.rules
    result = round_.result
    assert result is not None
    players = rules.players
    assert result.racks == tuple(round_.rack(seat) for seat in range(players))
    if any(SWAP in row for row in result.racks):
        # Only when the hand ended before every Swap dealt into a row was resolved (a Rack-O at the deal, or by a
        # starting swap); the winner's row never holds one.
        assert result.turns == 0 and result.winner is not None and SWAP not in result.racks[result.winner]
        stats["hand over with a Swap left in a row"] += 1
    assert result.turns == round_.turns
    whats = [event.kind for event in round_.log]
    assert whats.count("racko") + whats.count("capped") == 1
    assert whats[-1] == "round-ended" and round_.log[-1].result == result  # type: ignore[union-attr]
    whats.pop()
    for seat, row in enumerate(result.racks):
        winner = seat == result.winner
        assert result.scores[seat] == row_score(row, winner=winner, with_run_bonus=rules.bonus), (seat, row)
        if not winner:
            assert result.ordered[seat] == best_prefix(row)
            assert result.doubles[seat] == doubles(row)
    if result.winner is None:
        assert result.capped and whats[-1] == "capped"
        assert rules.turn_cap is not None and rules.turn_cap <= result.turns < rules.turn_cap + players
        assert result.bonus == 0 and result.direction == 0
        stats["capped"] += 1
    else:
        row = result.racks[result.winner]
        assert not result.capped and whats[-1] == "racko" and round_.log[-2].seat == result.winner  # type: ignore[union-attr]
        assert in_order_prefix(row, result.direction) == racko.RACK_SIZE
        assert result.ordered[result.winner] == racko.RACK_SIZE
        assert result.bonus == (0 if result.run < 3 else {3: 25, 4: 35, 5: 40}.get(result.run, 50))
        assert result.bonus == 0 or rules.bonus
        stats["Rack-O"] += 1
        stats["High Rack-O" if result.direction == HIGH else "Low Rack-O"] += 1
        stats["Rack-O from the deal"] += result.turns == 0
        stats["Rack-O by a swap"] += whats[-2] == "swapped"
        stats["Rack-O with a Wild"] += WILD in row
        stats[f"run bonus {result.bonus}"] += result.bonus > 0
        stats["run bonus"] += result.bonus > 0
    stats["stock ran out"] += "refilled" in whats
    stats["Swap at the deal"] += "swap-discarded" in whats
    stats["Swap drawn in play"] += any(event.kind == "drew" and event.card == SWAP for event in round_.log)
    stats["Wild double"] += any(a != WILD and b == WILD for row in result.racks for a, b in pairwise(row))


def test_ten_thousand_hands() -> None:
    stats: Counter[str] = Counter()
    for index in range(HANDS):
        players = 3 + index % 3
        bonus = (index // 3) % 2 == 1
        refill = "flip" if (index // 6) % 4 == 0 else "shuffle"
        cap = LONG_CAP if index % 25 == 0 else TURN_CAP
        rules = highlow(players, bonus=bonus, refill=refill, turn_cap=cap)
        round_ = HighLowRound.deal(rules, seed=index, dealer=index % players)
        assert round_.dealer == index % players
        rng = random.Random(index)
        epsilon = 1.0 if index % 2 == 0 else EPSILON
        every_step = index % 100 == 7
        while not round_.over:
            round_.apply(rng.choice(round_.legal_actions()) if rng.random() < epsilon else greedy(round_, rng))
            if every_step:
                conservation(round_)
            assert len(round_.actions) < 2000
        check_result(round_, stats)
        stats["bonus hands"] += bonus
    print(dict(sorted(stats.items())))
    assert stats["Rack-O"] + stats["capped"] == HANDS
    assert stats["Rack-O"] > HANDS // 3
    assert stats["High Rack-O"] > 500 and stats["Low Rack-O"] > 500
    assert stats["run bonus"] > 200
    assert sum(stats[f"run bonus {bonus}"] for bonus in (25, 35, 40, 50)) == stats["run bonus"]
    assert stats["run bonus 25"] > 0 and stats["run bonus 35"] > 0
    assert stats["stock ran out"] > 50
    assert stats["Swap at the deal"] > 1000 and stats["Swap drawn in play"] > 1000
    assert stats["Rack-O by a swap"] > 0 and stats["Rack-O with a Wild"] > 0
    assert stats["capped"] > 1000


def test_whole_games_to_the_target() -> None:
    ended = 0  # games that took more than one hand
    for index in range(GAMES):
        players = 3 + index % 3
        target = (200, 300, 500)[index % 3 if index % 2 else 1]
        rules = highlow(players, bonus=index % 4 < 2, target=target, turn_cap=150)
        match = Match(rules, seed=index)
        rng = random.Random(index)
        while not match.over:
            match.apply(greedy(match, rng) if rng.random() > EPSILON else rng.choice(match.legal_actions()))  # type: ignore[arg-type]
            assert len(match.actions) < 20_000
        outcome = match.outcome
        assert outcome is not None
        totals = [sum(result.scores[seat] for result in match.results) for seat in range(players)]
        assert tuple(totals) == match.totals == outcome.totals
        assert totals[outcome.winner] >= target and totals.count(max(totals)) == 1
        assert max(totals) == totals[outcome.winner]
        for previous, following in zip(match.rounds, match.rounds[1:], strict=False):
            result = previous.result
            assert result is not None
            anchor = result.winner if result.winner is not None else previous.dealer
            assert following.dealer == (anchor - 1) % players
        # The game ends after the first hand that leaves one total, alone at the top, at or past the target.
        running = [0] * players
        for number, result in enumerate(match.results, start=1):
            running = [total + score for total, score in zip(running, result.scores, strict=True)]
            decided = max(running) >= target and running.count(max(running)) == 1
            assert decided == (number == len(match.results))
        ended += len(match.results) > 1
    assert ended > GAMES // 2
