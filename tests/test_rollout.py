"""The rollout kernel of ``expert``: the C kernel and the Python reference agree; the estimates mean what they say."""

from __future__ import annotations

import random

import pytest

import racko
from racko import bots
from racko.bots import rollout
from racko.bots.gaps import PLAIN, GapModel, RackValuer, counts_below
from racko.bots.rollout import Candidate, World, estimate, estimate_python

ORDERED = (2, 5, 9, 13, 17, 21, 25, 29, 33, 37)
MODELS = (PLAIN, GapModel(slack=-1.5), GapModel(slack=-1.0, power=1.3), GapModel(edge=0.8), GapModel(power=0.7))


def _random_case(rng: random.Random, trial: int) -> tuple[World, list[Candidate]]:
    deck = list(range(1, 41))
    rng.shuffle(deck)
    rack, top, may_come = tuple(deck[:10]), deck[10], tuple(sorted(deck[11:]))
    world = World(
        deck_size=40,
        may_come=may_come,
        known_order=tuple(rng.sample(may_come, 4)) if trial % 3 == 0 else (),
        needs_run=trial % 2 == 0,
        opponents=trial % 4,
        model=MODELS[trial % len(MODELS)],
        weighs_draw=trial % 3 == 1,
        denial=tuple(rng.random() for _ in range(41)) if trial % 2 else (),
    )
    candidates = [Candidate(rack, top), Candidate(rack, top, draws_first=True), Candidate(rack, 0)]
    for slot in (0, 4, 9):
        candidates.append(Candidate((*rack[:slot], top, *rack[slot + 1 :]), rack[slot]))
    return world, candidates


def test_the_compiled_kernel_was_built() -> None:
    # The README's install compiles it; without it expert falls back to the (much slower) reference.
    assert rollout.kernel_available()


def test_the_kernel_and_the_reference_give_the_same_estimates() -> None:
    rng = random.Random(2024)
    for trial in range(40):
        world, candidates = _random_case(rng, trial)
        fast = estimate(world, candidates, rollouts=4, seed=trial, cap=30)
        assert fast == estimate_python(world, candidates, rollouts=4, seed=trial, cap=30)


def test_a_seed_fixes_the_estimates_and_another_seed_changes_them() -> None:
    world, candidates = _random_case(random.Random(7), 1)
    first = estimate(world, candidates, rollouts=8, seed=11)
    assert first == estimate(world, candidates, rollouts=8, seed=11)
    assert first != estimate(world, candidates, rollouts=8, seed=12)


def test_a_qualifying_rack_needs_this_turn_only_and_its_discard_costs_nothing() -> None:
    may_come = tuple(card for card in range(1, 41) if card not in ORDERED and card != 40)
    world = World(40, may_come, denial=tuple([5.0] * 41))
    assert estimate(world, [Candidate(ORDERED, 40)], rollouts=3, seed=1) == [1.0]


def test_a_known_next_card_that_completes_the_rack_is_one_turn_away() -> None:
    rack = (2, 5, 9, 13, 17, 40, 25, 29, 33, 37)  # 21 in slot 30 would finish it
    may_come = tuple(card for card in range(1, 41) if card not in rack and card != 1)
    world = World(40, may_come, known_order=(21, 22))
    assert estimate(world, [Candidate(rack, 1, draws_first=True)], rollouts=5, seed=3) == [1.0]
    # Unknown order: usually later, never sooner.
    unknown = estimate(World(40, may_come), [Candidate(rack, 1, draws_first=True)], rollouts=20, seed=3)[0]
    assert unknown > 1.0


def test_the_denial_cost_of_the_discard_is_added() -> None:
    rack = (2, 5, 9, 13, 17, 40, 25, 29, 33, 37)
    may_come = tuple(card for card in range(1, 41) if card not in rack and card not in (1, 3))
    plain = World(40, may_come)
    costly = World(40, may_come, denial=tuple(2.0 if card == 3 else 0.0 for card in range(41)))
    keep_three, keep_one = Candidate(rack, 1), Candidate(rack, 3)
    a, b = estimate(plain, [keep_three, keep_one], rollouts=10, seed=5)
    c, d = estimate(costly, [keep_three, keep_one], rollouts=10, seed=5)
    assert (c, d) == (a, b + 2.0)


@pytest.mark.parametrize(
    ("world", "candidates", "message"),
    [
        (World(40, (1, 2, 3), known_order=(4,)), [Candidate(ORDERED, 1)], "known stock order"),
        (World(40, (1, 2, 3), denial=(0.0,)), [Candidate(ORDERED, 1)], "Denial costs"),
        (World(40, (1, 2, 3)), [Candidate(ORDERED[:9], 1)], "holds 10 cards"),
        (World(40, (1, 2, 41)), [Candidate(ORDERED, 1)], "not a card of the deck"),
        (World(40, (1, 2, 3)), [Candidate(ORDERED, 45)], "not a card of the deck"),
        (World(40, (1, 1, 2, 3)), [Candidate(ORDERED, 1)], "each card once at most"),
        (World(40, (1, 2, 3), known_order=(1,) * 500), [Candidate(ORDERED, 1)], "each card once at most"),
    ],
)
def test_bad_input_is_refused_with_the_reason(world: World, candidates: list[Candidate], message: str) -> None:
    for implementation in (estimate, estimate_python):
        with pytest.raises(racko.RackoError, match=message):
            implementation(world, candidates, rollouts=2, seed=0)
    with pytest.raises(racko.RackoError, match="at least one play-out"):
        estimate(World(40, (1, 2, 3)), [Candidate(ORDERED, 1)], rollouts=0, seed=0)


def test_expert_decides_from_its_own_view_only() -> None:
    """Two deals that look the same to seat 0 (its rack, the discard) but differ in the other rack and the
    stock's order get the same move from an expert with the same seed."""
    mine = [31, 4, 22, 8, 35, 14, 27, 1, 39, 18]
    rest = [card for card in range(1, 41) if card not in mine and card != 20]
    rng = random.Random(9)
    choices = set()
    for _ in range(4):
        rng.shuffle(rest)
        deck = racko.round.arrange_deck([mine, rest[:10]], 1, 20, rest[10:], deck_size=40)
        round_ = racko.Round(racko.variant("classic").rules(2, two_player_rule=False), deck, dealer=1)
        expert = bots.create("expert", seed=3)
        first = expert.act(round_.observation(0))
        round_.apply(first)
        choices.add((first, expert.act(round_.observation(0)) if round_.to_act == 0 else None))
    picks = {pick for pick, _ in choices}
    assert len(picks) == 1  # the same pick every time; what it then holds may differ (a drawn card)


def test_without_the_kernel_expert_makes_the_same_moves(monkeypatch: pytest.MonkeyPatch) -> None:
    rules = racko.variant("classic").rules(2, two_player_rule=False)

    def moves() -> list[racko.Action]:
        round_ = racko.Round.deal(rules, seed=8)
        seats = [bots.create("expert", seed=1), bots.create("easy")]
        played = []
        for _ in range(12):
            seat = round_.to_act
            if seat is None:
                break
            action = seats[seat].act(round_.observation(seat))
            round_.apply(action)
            played.append(action)
        return played

    compiled = moves()
    monkeypatch.setattr(rollout, "_kernel", None)
    assert not rollout.kernel_available()
    assert moves() == compiled


def test_the_kernel_itself_refuses_cards_named_twice_instead_of_overrunning_its_memory() -> None:
    from racko.bots import rollout

    kernel = rollout._kernel
    assert kernel is not None
    for may_come, known in (((1, 2, 3) * 400, ()), ((1, 2, 3), (1,) * 2000)):
        with pytest.raises(ValueError, match=r"twice|more cards"):
            kernel.estimate(40, may_come, known, False, 1, 0.0, 1.0, 1.0, False, (), [(ORDERED, 1, False)], 2, 0, 60)


def test_the_play_outs_price_a_draw_as_hard_does() -> None:
    # weighs_draw's split at each slot finds the same average as trying every placement in full.
    rng = random.Random(5)
    for trial in range(30):
        deck = list(range(1, 41))
        rng.shuffle(deck)
        rack, stock = deck[:10], deck[10 : 10 + rng.randrange(0, 30)]
        valuer = RackValuer(counts_below(stock, 40), model=MODELS[trial % len(MODELS)])
        now = valuer.cost(rack)
        assert rollout._draw_cost(valuer, rack, stock, now) == pytest.approx(valuer.draw_cost(rack, stock, now))
