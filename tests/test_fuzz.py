"""Fuzzing both families: tens of thousands of turn-capped rounds of random legal play in every case of
:data:`helpers.CASES`, and whole games to the target.

Classic family, per case, 10,000 rounds: half with uniformly random legal moves, half epsilon-greedy with the
``easy`` bucket bot (so that rounds also end in Rack-O, and in Bonus Rack-O players reach the call-or-wait
decision, wait, and call later).  Half the rounds refill the stock by flipping the discard pile, half by
shuffling it.  High-Low, 10,200 hands over its three cases, with and without the run bonus, with both refills,
half random and half epsilon-greedy with the unit tests' bucket policy.  Every round must end without an error,
keep every card in exactly one place (:func:`helpers.check_conservation`) and score exactly as the family's
scoring module says.
"""

from __future__ import annotations

import random
from collections import Counter
from itertools import pairwise

import pytest

import racko
from helpers import CASES, HIGHLOW_CASES, case_rules, check_conservation
from racko import (
    CallRacko,
    DrawFromStock,
    Match,
    Phase,
    Round,
    TakeDiscard,
    Wait,
)
from racko.bots import Bot, create
from racko.highlow import HighLowRound
from racko.highlow.cards import SWAP, WILD
from racko.highlow.scoring import HIGH, best_prefix, doubles, in_order_prefix, row_score
from test_highlow import conservation, greedy  # the unit tests' bucket policy and card count

pytestmark = pytest.mark.slow

ROUNDS_PER_VARIANT = 10_000
MATCHES_PER_VARIANT = 40
TURN_CAP = 60
EPSILON = 0.2
"""In greedy rounds, the share of moves that are random instead of the bot's."""
WAIT_CHANCE = 0.3
"""In greedy rounds, how often a player who may call Rack-O at the end of a turn waits instead."""


def choose(
    game: Round | Match, rng: random.Random, bot: Bot | None, legal: list[racko.Action], phase: Phase
) -> racko.Action:
    """A uniformly random legal move, or (with a bot) an epsilon-greedy one."""
    seat = game.to_act
    assert seat is not None
    if bot is None or rng.random() < EPSILON:
        return rng.choice(legal)
    if phase is Phase.DECLARE and rng.random() < WAIT_CHANCE:
        return Wait(seat)
    return bot.act(game.observation(seat))


def check_result(round_: Round) -> racko.RoundResult:
    """The round is over and scored exactly as racko.scoring says."""
    rules = round_.rules
    result = round_.result
    assert round_.over and result is not None and round_.to_act is None
    check_conservation(round_)
    racks = tuple(round_.rack(seat) for seat in range(rules.players))
    assert result.racks == racks
    assert result.turns == round_.turns <= TURN_CAP
    winner = result.winner
    for seat, rack in enumerate(racks):
        if seat == winner:
            assert racko.qualifies_for_racko(rack, rules)
            assert result.scores[seat] == racko.racko_score(rack, rules)
            assert result.ordered[seat] == racko.RACK_SIZE
        else:
            assert result.scores[seat] == racko.prefix_score(rack)
            assert result.ordered[seat] == racko.ordered_prefix(rack)
    if winner is None:
        assert result.capped and result.turns == TURN_CAP
        assert result.run == 0 and result.bonus == 0
    else:
        assert not result.capped
        assert result.run == racko.longest_run(racks[winner])
        assert result.bonus == (racko.run_bonus(result.run) if rules.bonus else 0)
        assert result.scores[winner] == 75 + result.bonus
        if rules.two_player_rule:
            assert result.run >= 3
    return result


def play_round(round_: Round, rng: random.Random, bot: Bot | None, stats: Counter[str]) -> None:
    rules = round_.rules
    in_racks = racko.RACK_SIZE * rules.players
    stock_size = round_.stock_size
    steps = 0
    while True:
        seat = round_.to_act
        if seat is None:
            break
        phase = round_.phase
        legal = round_.legal_actions()
        action = choose(round_, rng, bot, legal, phase)
        assert action in legal, f"{action} is not among the legal actions {legal}"
        if steps % 16 == 0:  # a cheap spot check of can() against the legal actions, over the action space
            probe = racko.action_from_index(seat, rng.randrange(racko.ACTION_SPACE_SIZE))
            assert round_.can(probe) == (probe in legal)
        if phase is Phase.DECLARE:
            stats["declare"] += 1
        if isinstance(action, Wait):
            stats["wait"] += 1
        elif isinstance(action, CallRacko):
            stats["call at the start of a turn" if phase is Phase.PICK else "call at the end of a turn"] += 1
        elif isinstance(action, TakeDiscard):
            stats["take"] += 1
        elif isinstance(action, DrawFromStock):
            stats["draw"] += 1
        round_.apply(action)
        steps += 1
        # Cheap conservation: every card is somewhere (the full check runs at the end of the round).
        held = 0 if round_.held is None else 1
        assert in_racks + round_.stock_size + len(round_.discard_pile) + held == rules.deck_size
        if round_.stock_size > stock_size:
            stats[f"refill ({rules.refill})"] += 1
        stock_size = round_.stock_size
    result = check_result(round_)
    if result.winner is None:
        stats["capped"] += 1
    else:
        stats["racko"] += 1
        stats["racko at the deal" if result.turns == 0 else "racko in play"] += 1
        if result.bonus:
            stats["bonus scored"] += 1
        if result.run < 3:
            stats["racko without a run of three"] += 1
    with pytest.raises(racko.RoundOverError):
        round_.apply(DrawFromStock(0))


@pytest.mark.parametrize("name", list(CASES))
def test_ten_thousand_random_rounds(name: str) -> None:
    if name in HIGHLOW_CASES:
        highlow_hands(name)
        return
    rules = {refill: case_rules(name, refill=refill, turn_cap=TURN_CAP) for refill in ("flip", "shuffle")}
    players = rules["flip"].players
    rng = random.Random(f"fuzz:{name}")
    bot = create("easy", seed=1)
    stats: Counter[str] = Counter()
    for number in range(ROUNDS_PER_VARIANT):
        refill = "shuffle" if number % 2 else "flip"
        greedy = number % 4 >= 2
        round_ = Round.deal(rules[refill], seed=number, dealer=number % players)
        try:
            play_round(round_, rng, bot if greedy else None, stats)
        except Exception as error:  # say which round, so that it can be played again
            raise AssertionError(f"round {number} ({refill}, {'greedy' if greedy else 'random'}): {error!r}") from error
        stats["rounds"] += 1
    print(name, dict(stats))
    assert stats["rounds"] >= 10_000
    assert stats["racko"] > 0, "some rounds end in Rack-O"
    assert stats["capped"] > 0, "some rounds reach the turn cap"
    assert stats["refill (flip)"] > 0 and stats["refill (shuffle)"] > 0, "the stock runs out and is refilled"
    assert stats["take"] > 0 and stats["draw"] > 0
    if rules["flip"].auto_racko:
        assert stats["declare"] == stats["wait"] == 0
        assert stats["call at the start of a turn"] == stats["call at the end of a turn"] == 0
    else:
        assert stats["declare"] > 0 and stats["wait"] > 0, "Bonus players may choose to wait"
        assert stats["call at the end of a turn"] > 0 and stats["call at the start of a turn"] > 0
        assert stats["bonus scored"] > 0
    if rules["flip"].two_player_rule:
        assert stats["racko without a run of three"] == 0
    elif players == 2:
        assert stats["racko without a run of three"] > 0


def check_match(match: Match) -> None:
    rules = match.rules
    outcome = match.outcome
    assert match.over and outcome is not None
    totals = [0] * rules.players
    for number, round_ in enumerate(match.rounds):
        assert round_.totals == tuple(totals)
        assert round_.dealer == (match.first_dealer + number) % rules.players
        result = check_result(round_)
        totals = [total + score for total, score in zip(totals, result.scores, strict=True)]
        sides = [0] * rules.sides
        for seat, total in enumerate(totals):
            sides[rules.side_of(seat)] += total
        best = max(sides)
        decided = best >= rules.target and sides.count(best) == 1
        assert decided == (number == len(match.rounds) - 1), "the game ends at the first round with a winner"
    assert tuple(totals) == tuple(match.seat_totals)
    assert tuple(sides) == match.totals == outcome.totals
    assert outcome.rounds == len(match.rounds)
    assert sides[outcome.winner] == max(sides) >= rules.target
    assert outcome.seats == tuple(seat for seat in range(rules.players) if rules.side_of(seat) == outcome.winner)
    assert match.first_dealer == match.cut.index(min(match.cut))
    with pytest.raises(racko.RoundOverError):
        match.apply(DrawFromStock(0))


@pytest.mark.parametrize("name", list(CASES))
def test_whole_games_to_the_target(name: str) -> None:
    if name in HIGHLOW_CASES:
        highlow_games(name)
        return
    rng = random.Random(f"fuzz-games:{name}")
    bot = create("easy", seed=2)
    rounds = 0
    for number in range(MATCHES_PER_VARIANT):
        rules = case_rules(name, refill="shuffle" if number % 2 else "flip", turn_cap=TURN_CAP)
        greedy = number % 4 >= 2
        match = Match(rules, seed=number)
        while not match.over:
            legal = match.legal_actions()
            action = choose(match, rng, bot if greedy else None, legal, match.round.phase)
            assert action in legal
            match.apply(action)
        check_match(match)
        rounds += len(match.rounds)
    assert rounds > MATCHES_PER_VARIANT


# --- High-Low ---------------------------------------------------------------------------------------------------

HIGHLOW_HANDS = 3_400
"""Per High-Low case (10,200 in all): hand i has the run bonus on in every other block of three hands, the flip
refill in one block of six in four, and every 25th a long cap so that the stock runs out."""
HIGHLOW_TURN_CAP = 120
"""Placements per hand (24 to 40 rounds of play); greedy hands mostly end in Rack-O well before it."""
HIGHLOW_LONG_CAP = 400
HIGHLOW_EPSILON = 0.2
"""In greedy hands, the share of moves that are random instead of the policy's."""
HIGHLOW_GAMES = 50


def check_highlow_result(round_: HighLowRound, stats: Counter[str]) -> None:
    """The hand is over and scored exactly as racko.highlow.scoring says."""
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


def highlow_hands(name: str) -> None:
    stats: Counter[str] = Counter()
    players = CASES[name][1]
    for index in range(HIGHLOW_HANDS):
        bonus = (index // 3) % 2 == 1
        refill = "flip" if (index // 6) % 4 == 0 else "shuffle"
        cap = HIGHLOW_LONG_CAP if index % 25 == 0 else HIGHLOW_TURN_CAP
        rules = case_rules(name, bonus=bonus, refill=refill, turn_cap=cap)
        round_ = HighLowRound.deal(rules, seed=index, dealer=index % players)
        assert round_.dealer == index % players
        rng = random.Random(f"{name}:{index}")
        epsilon = 1.0 if index % 2 == 0 else HIGHLOW_EPSILON
        every_step = index % 100 == 7
        while not round_.over:
            round_.apply(rng.choice(round_.legal_actions()) if rng.random() < epsilon else greedy(round_, rng))
            if every_step:
                conservation(round_)
            assert len(round_.actions) < 2000
        check_highlow_result(round_, stats)
        stats["bonus hands"] += bonus
    print(name, dict(sorted(stats.items())))
    assert stats["Rack-O"] + stats["capped"] == HIGHLOW_HANDS
    assert stats["Rack-O"] > HIGHLOW_HANDS // 3
    assert stats["High Rack-O"] > 150 and stats["Low Rack-O"] > 150
    assert stats["run bonus"] > 50
    assert sum(stats[f"run bonus {bonus}"] for bonus in (25, 35, 40, 50)) == stats["run bonus"]
    assert stats["stock ran out"] > 15
    assert stats["Swap at the deal"] > 300 and stats["Swap drawn in play"] > 300
    assert stats["Rack-O with a Wild"] > 0
    assert stats["capped"] > 300


def highlow_games(name: str) -> None:
    ended = 0  # games that took more than one hand
    players = CASES[name][1]
    for index in range(HIGHLOW_GAMES):
        target = (200, 300, 500)[index % 3 if index % 2 else 1]
        rules = case_rules(name, bonus=index % 4 < 2, target=target, turn_cap=150)
        match = Match(rules, seed=index)
        rng = random.Random(index)
        while not match.over:
            match.apply(greedy(match, rng) if rng.random() > HIGHLOW_EPSILON else rng.choice(match.legal_actions()))  # type: ignore[arg-type]
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
    assert ended > HIGHLOW_GAMES // 2
