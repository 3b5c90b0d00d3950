"""The sheets' examples and the rules of the classic family, one by one (see docs/RULES.md)."""

from __future__ import annotations

from typing import Any

import pytest

import racko
from racko import (
    CallRacko,
    Discard,
    DrawFromStock,
    Exchange,
    Match,
    Phase,
    Round,
    TakeDiscard,
    Wait,
)
from racko.match import match_winner
from racko.round import arrange_deck

FIGURE_3 = [3, 8, 12, 19, 26, 37, 22, 30, 33, 39]  # 37 in slot 30 is followed by 22 in slot 35
ORDERED_NO_RUN = [2, 5, 9, 13, 17, 21, 25, 29, 33, 37]
ORDERED_RUN_3 = [2, 5, 9, 13, 17, 28, 29, 30, 33, 37]


def down(start: int) -> list[int]:
    """Ten cards from ``start`` in falling order: a rack nowhere near Rack-O."""
    return list(range(start + 9, start - 1, -1))


def classic(players: int = 2, **options: object) -> racko.Rules:
    return racko.variant("classic").rules(players, **options)


def scripted_round(
    rules: racko.Rules, racks: list[list[int]], turned_up: int, stock: list[int] = (), dealer: int = 0
) -> Round:
    deck = arrange_deck(racks, dealer, turned_up, stock, deck_size=rules.deck_size)
    return Round(rules, deck, dealer)


def snapshot(round_: Round) -> tuple[object, ...]:
    players = round_.rules.players
    return (
        tuple(round_.rack(seat) for seat in range(players)),
        round_.stock(),
        round_.discard_pile,
        round_.held,
        round_.phase,
        round_.to_act,
        round_.turns,
        len(round_.log),
        len(round_.actions),
        tuple(round_.observation(seat) for seat in range(players)),
    )


# --- Scoring: the sheets' examples ------------------------------------------------------------


def test_figure_3_scores_30() -> None:
    assert racko.prefix_score(FIGURE_3) == 30


def test_slot_10_below_slot_5_scores_5_even_with_nine_in_order() -> None:
    rack = [30, 2, 4, 6, 9, 12, 15, 20, 25, 28]
    assert racko.is_ordered(rack[1:])
    assert racko.prefix_score(rack) == 5


def test_a_full_ordered_rack_without_racko_scores_50() -> None:
    assert racko.prefix_score(ORDERED_NO_RUN) == 50


def test_going_racko_scores_75() -> None:
    assert racko.racko_score(ORDERED_NO_RUN, classic(3)) == 75
    assert racko.racko_score(ORDERED_RUN_3, classic(2)) == 75  # no bonus outside Bonus Rack-O


@pytest.mark.parametrize(
    ("rack", "total"),
    [
        (ORDERED_NO_RUN, 75),
        (ORDERED_RUN_3, 125),
        ([2, 5, 9, 13, 27, 28, 29, 30, 33, 37], 175),
        ([2, 5, 9, 26, 27, 28, 29, 30, 33, 37], 275),
        ([2, 5, 25, 26, 27, 28, 29, 30, 33, 37], 475),
        ([2, 24, 25, 26, 27, 28, 29, 30, 33, 37], 475),  # seven counts as six
    ],
)
def test_bonus_table(rack: list[int], total: int) -> None:
    assert racko.racko_score(rack, racko.variant("bonus").rules(3)) == total


def test_only_the_longest_run_earns_a_bonus() -> None:
    rack = [2, 3, 4, 10, 11, 12, 13, 30, 33, 37]  # a 3-run and a 4-run
    assert racko.longest_run(rack) == 4
    assert racko.racko_score(rack, racko.variant("bonus").rules(3)) == 175


# --- Set-up: cards, deal, dealer --------------------------------------------------------------


@pytest.mark.parametrize(("players", "cards"), [(2, 40), (3, 50), (4, 60)])
def test_deck_size_by_players(players: int, cards: int) -> None:
    rules = classic(players)
    assert rules.deck_size == cards
    round_ = Round.deal(rules, seed=1)
    everything = [c for s in range(players) for c in round_.rack(s)] + list(round_.stock()) + list(round_.discard_pile)
    assert sorted(everything) == list(range(1, cards + 1))


def test_two_player_rule_is_on_by_default_with_two_players_only() -> None:
    assert classic(2).two_player_rule
    assert not classic(3).two_player_rule
    assert not classic(2, two_player_rule=False).two_player_rule


def test_deal_one_at_a_time_from_the_dealers_left_into_slot_50_first() -> None:
    rules = classic(3)
    deck = list(range(1, 51))
    round_ = Round(rules, deck, dealer=1)
    # Seat 2 (the dealer's left) gets cards 1, 4, 7, ... into slots 50, 45, 40, ...
    assert round_.rack(2) == (28, 25, 22, 19, 16, 13, 10, 7, 4, 1)
    assert round_.rack(0) == (29, 26, 23, 20, 17, 14, 11, 8, 5, 2)
    assert round_.rack(1) == (30, 27, 24, 21, 18, 15, 12, 9, 6, 3)
    assert round_.discard_pile == (31,)  # the next card is turned up
    assert round_.stock()[0] == 32
    assert round_.to_act == 2  # the player to the dealer's left plays first


def test_lowest_cut_deals_and_the_deal_passes_left() -> None:
    rules = classic(3, turn_cap=1)
    match = Match(rules, seed=11)
    assert match.round.dealer == match.cut.index(min(match.cut))
    first = match.round.dealer
    while len(match.rounds) < 3:
        seat = match.to_act
        assert seat is not None
        match.apply(DrawFromStock(seat))
        match.apply(Discard(seat))
    assert [r.dealer for r in match.rounds] == [first, (first + 1) % 3, (first + 2) % 3]


# --- A turn -----------------------------------------------------------------------------------


def test_take_the_discard_and_exchange_it() -> None:
    rules = classic(3)
    racks = [down(1), [11, 12, 13, 14, 15, 16, 40, 18, 19, 20], down(21)]
    round_ = scripted_round(rules, racks, turned_up=35)
    seat = round_.to_act
    assert seat == 1
    round_.apply(TakeDiscard(1))
    assert round_.phase is Phase.PLACE and round_.held == 35
    round_.apply(Exchange(1, 6))
    assert round_.rack(1)[6] == 35
    assert round_.discard_pile == (40,)
    assert round_.to_act == 2


def test_a_card_taken_from_the_discard_pile_cannot_be_discarded() -> None:
    round_ = Round.deal(classic(3), seed=3)
    seat = round_.to_act
    assert seat is not None
    round_.apply(TakeDiscard(seat))
    before = snapshot(round_)
    with pytest.raises(racko.MustPlaceDiscardError, match="must place it"):
        round_.apply(Discard(seat))
    assert snapshot(round_) == before
    assert not round_.can(Discard(seat))


def test_a_drawn_card_may_be_discarded() -> None:
    round_ = Round.deal(classic(3), seed=3)
    seat = round_.to_act
    assert seat is not None
    top = round_.stock()[0]
    round_.apply(DrawFromStock(seat))
    round_.apply(Discard(seat))
    assert round_.discard_pile[-1] == top
    assert round_.to_act == (seat + 1) % 3


# --- Illegal actions: typed errors, player-readable messages, nothing changes ------------------


@pytest.mark.parametrize(
    ("make", "error", "words"),
    [
        (lambda seat: DrawFromStock((seat + 1) % 3), racko.NotYourTurnError, "not your turn"),
        (lambda seat: Exchange(seat, 3), racko.WrongPhaseError, "first draw"),
        (lambda seat: Discard(seat), racko.WrongPhaseError, "first draw"),
        (lambda seat: CallRacko(seat), racko.NotRackoError, "not in order"),
        (lambda seat: Wait(seat), racko.WrongPhaseError, "wait"),
        (lambda seat: "draw", racko.UnknownActionError, "not a Rack-O action"),
    ],
)
def test_illegal_actions_at_the_start_of_a_turn(make: object, error: type[Exception], words: str) -> None:
    round_ = Round.deal(classic(3), seed=5)
    seat = round_.to_act
    action = make(seat)  # type: ignore[operator]
    before = snapshot(round_)
    with pytest.raises(error, match=words):
        round_.apply(action)
    assert snapshot(round_) == before
    assert not round_.can(action)
    with pytest.raises(error):
        round_.check(action)


@pytest.mark.parametrize("slot", [-1, 10, 50, "3", None, True])
def test_slot_out_of_range(slot: object) -> None:
    round_ = Round.deal(classic(2), seed=5)
    seat = round_.to_act
    assert seat is not None
    round_.apply(DrawFromStock(seat))
    before = snapshot(round_)
    with pytest.raises(racko.SlotOutOfRangeError, match="no slot"):
        round_.apply(Exchange(seat, slot))  # type: ignore[arg-type]
    assert snapshot(round_) == before


def test_drawing_twice_is_refused() -> None:
    round_ = Round.deal(classic(2), seed=5)
    seat = round_.to_act
    assert seat is not None
    round_.apply(DrawFromStock(seat))
    with pytest.raises(racko.WrongPhaseError, match="place the card you drew"):
        round_.apply(TakeDiscard(seat))


def test_acting_after_the_round_ended_is_refused() -> None:
    rules = classic(3)
    racks = [[40, 2, 3, 4, 5, 6, 7, 8, 9, 10], down(11), down(21)]
    round_ = scripted_round(rules, racks, turned_up=1, dealer=2)
    round_.apply(TakeDiscard(0))
    round_.apply(Exchange(0, 0))  # 1..10 is in order: auto Rack-O
    assert round_.over and round_.result is not None and round_.result.winner == 0
    before = snapshot(round_)
    with pytest.raises(racko.RoundOverError, match="round is over"):
        round_.apply(DrawFromStock(1))
    assert snapshot(round_) == before
    assert round_.legal_actions() == []


def test_the_legal_mask_matches_the_legal_actions() -> None:
    round_ = Round.deal(classic(2), seed=9)
    mask = round_.legal_mask()
    assert len(mask) == racko.ACTION_SPACE_SIZE
    assert [racko.action_from_index(round_.to_act, i) for i, ok in enumerate(mask) if ok] == round_.legal_actions()


# --- Going Rack-O -----------------------------------------------------------------------------


def test_the_two_player_rule_refuses_a_racko_without_a_run_of_three() -> None:
    rules = classic(2, auto_racko=False)
    racks = [ORDERED_NO_RUN, [1, 3, 4, 6, 7, 8, 10, 11, 12, 14]]
    round_ = scripted_round(rules, racks, turned_up=15, dealer=1)
    before = snapshot(round_)
    with pytest.raises(racko.NotRackoError, match="run of at least three"):
        round_.apply(CallRacko(0))
    assert snapshot(round_) == before


def test_the_two_player_rule_lets_a_run_of_three_go_racko() -> None:
    rules = classic(2)
    racks = [[2, 5, 9, 13, 17, 28, 29, 40, 33, 37], [14, 3, 4, 6, 7, 8, 10, 11, 12, 1]]
    round_ = scripted_round(rules, racks, turned_up=30, dealer=1)
    round_.apply(TakeDiscard(0))
    round_.apply(Exchange(0, 7))  # 28 29 30: in order with a run of three
    assert round_.result is not None
    assert round_.result.winner == 0
    assert round_.result.scores == (75, 5 * racko.ordered_prefix(racks[1]))


def test_an_ordered_rack_without_a_run_plays_on_with_two_players() -> None:
    rules = classic(2)
    racks = [[2, 5, 9, 13, 17, 21, 25, 40, 33, 37], [14, 3, 4, 6, 7, 8, 10, 11, 12, 1]]
    round_ = scripted_round(rules, racks, turned_up=29, dealer=1)
    round_.apply(TakeDiscard(0))
    round_.apply(Exchange(0, 7))
    assert not round_.over and round_.to_act == 1


def test_without_the_rule_two_players_go_racko_without_a_run() -> None:
    rules = classic(2, two_player_rule=False)
    racks = [[2, 5, 9, 13, 17, 21, 25, 40, 33, 37], [14, 3, 4, 6, 7, 8, 10, 11, 12, 1]]
    round_ = scripted_round(rules, racks, turned_up=29, dealer=1)
    round_.apply(TakeDiscard(0))
    round_.apply(Exchange(0, 7))
    assert round_.result is not None and round_.result.winner == 0


def test_a_racko_straight_from_the_deal_goes_out_before_any_move() -> None:
    rules = classic(3)
    racks = [list(range(21, 31)), list(range(1, 11)), list(range(11, 21))]
    round_ = scripted_round(rules, racks, turned_up=45, dealer=2)
    assert round_.over
    assert round_.result is not None and round_.result.winner == 0  # first in play order
    assert round_.result.turns == 0


def test_calling_racko_at_the_start_of_a_turn_when_calling_is_a_choice() -> None:
    rules = classic(3, auto_racko=False)
    racks = [list(range(21, 31)), [1, 2, 3, 4, 5, 6, 7, 8, 9, 44], [11, 12, 13, 14, 15, 16, 17, 18, 20, 19]]
    round_ = scripted_round(rules, racks, turned_up=45, dealer=2)
    assert not round_.over
    assert CallRacko(0) in round_.legal_actions()
    round_.apply(CallRacko(0))
    assert round_.result is not None and round_.result.winner == 0
    assert round_.result.scores == (75, 50, 45)


# --- Bonus Rack-O -----------------------------------------------------------------------------


def test_bonus_racko_lets_a_player_wait_and_declare_later() -> None:
    rules = racko.variant("bonus").rules(3)
    assert not rules.auto_racko
    racks = [
        [2, 5, 9, 13, 17, 21, 25, 40, 33, 37],
        [41, 42, 43, 44, 45, 46, 47, 48, 50, 49],
        [20, 19, 18, 16, 15, 14, 12, 11, 10, 8],
    ]
    round_ = scripted_round(rules, racks, turned_up=29, stock=[26, 27, 30], dealer=2)
    round_.apply(TakeDiscard(0))
    round_.apply(Exchange(0, 7))  # 2 5 9 13 17 21 25 29 33 37: in order, no run
    assert round_.phase is Phase.DECLARE and round_.to_act == 0
    assert round_.legal_actions() == [CallRacko(0), Wait(0)]
    round_.apply(Wait(0))
    assert round_.to_act == 1 and not round_.over
    round_.apply(DrawFromStock(1))  # 26
    round_.apply(Discard(1))
    # Every turn ends in the same moment, qualifying or not: only the call is missing from the choices.
    assert round_.phase is Phase.DECLARE and round_.to_act == 1
    assert round_.legal_actions() == [Wait(1)]
    round_.apply(Wait(1))
    round_.apply(TakeDiscard(2))  # 26
    round_.apply(Exchange(2, 9))
    round_.apply(Wait(2))
    round_.apply(DrawFromStock(0))  # 27
    round_.apply(Exchange(0, 6))  # 25 -> 27: 21 27 29 still in order
    round_.apply(Wait(0))
    round_.apply(TakeDiscard(1))  # 25
    round_.apply(Exchange(1, 0))
    round_.apply(Wait(1))
    round_.apply(DrawFromStock(2))  # 30
    round_.apply(Discard(2))
    round_.apply(Wait(2))
    round_.apply(TakeDiscard(0))  # 30
    round_.apply(Exchange(0, 8))  # 33 -> 30: ... 27 29 30 37
    round_.apply(CallRacko(0))
    result = round_.result
    assert result is not None and result.winner == 0
    assert result.run == 2 and result.bonus == 0 and result.scores[0] == 75


def test_bonus_racko_never_tells_the_table_that_a_rack_could_go_out() -> None:
    """Two deals that differ in one hidden card: after the same public turn, seat 0's rack qualifies in one and
    not in the other.  Everything the other seats see (their observation and their log) must be the same, before
    seat 0 decides and after it plays on: at a table nobody announces that they could have called."""
    rules = racko.variant("bonus").rules(3)
    others = [[41, 42, 43, 44, 45, 46, 47, 48, 50, 49], [20, 19, 18, 16, 15, 14, 12, 11, 10, 8]]
    could = scripted_round(rules, [[2, 5, 9, 13, 17, 21, 25, 40, 33, 37], *others], turned_up=29, dealer=2)
    could_not = scripted_round(rules, [[2, 5, 9, 13, 17, 21, 25, 40, 33, 1], *others], turned_up=29, dealer=2)

    def seen(round_: Round) -> list[object]:
        return [(round_.observation(seat), round_.public_log(seat)) for seat in (1, 2)] + [round_.public_log(None)]

    for round_ in (could, could_not):
        round_.apply(TakeDiscard(0))
        round_.apply(Exchange(0, 7))  # 40 out, 29 in
    assert could.legal_actions() == [CallRacko(0), Wait(0)] and could_not.legal_actions() == [Wait(0)]
    assert seen(could) == seen(could_not)
    could.apply(Wait(0))
    could_not.apply(Wait(0))
    assert seen(could) == seen(could_not)
    # Only seat 0 itself is told that it chose to wait.
    assert [event.describe(["You", "B", "C"]) for event in could.public_log(0)][-1] == (
        "You could go Rack-O but chose to wait."
    )


def test_bonus_racko_pays_the_run_bonus_to_the_winner_only() -> None:
    rules = racko.variant("bonus").rules(3)
    racks = [[2, 5, 9, 13, 27, 28, 40, 30, 33, 37], list(range(41, 51)), [11, 12, 13 + 1, 15, 16, 17, 18, 19, 20, 1]]
    round_ = scripted_round(rules, racks, turned_up=29, dealer=2)
    round_.apply(TakeDiscard(0))
    round_.apply(Exchange(0, 6))  # 27 28 29 30: a run of four
    round_.apply(CallRacko(0))
    result = round_.result
    assert result is not None
    assert result.scores == (175, 50, 45)
    assert (result.run, result.bonus) == (4, 100)


# --- Refilling the stock ----------------------------------------------------------------------


def _play_until_refill(round_: Round) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Draw and discard until the stock runs out; return the discard pile before and after."""
    while round_.stock_size > 1:
        seat = round_.to_act
        assert seat is not None
        round_.apply(DrawFromStock(seat))
        round_.apply(Discard(seat))
    seat = round_.to_act
    assert seat is not None
    round_.apply(DrawFromStock(seat))
    pile = (*round_.discard_pile, round_.held)
    round_.apply(Discard(seat))
    return pile, round_.discard_pile  # type: ignore[return-value]


def test_flip_refill_turns_the_discard_pile_over_unshuffled() -> None:
    round_ = Round.deal(classic(2, two_player_rule=False), seed=4)
    pile, after = _play_until_refill(round_)
    # Turned over: the bottom discard becomes the top of the stock and is turned up.
    assert after == (pile[0],)
    assert round_.stock() == pile[1:]
    assert round_.public_view().turned_over_pile == pile


def test_shuffle_refill_shuffles_with_the_games_own_generator() -> None:
    rules = classic(2, refill="shuffle")
    first = Round.deal(rules, seed=4)
    second = Round.deal(rules, seed=4)
    pile, _ = _play_until_refill(first)
    _play_until_refill(second)
    assert sorted((*first.stock(), *first.discard_pile)) == sorted(pile)
    assert first.stock() == second.stock()  # same seed, same actions, same shuffle
    assert first.reshuffles == second.reshuffles and len(first.reshuffles) == 1


# --- Turn cap ---------------------------------------------------------------------------------


def test_a_capped_round_is_scored_as_if_nobody_went_out() -> None:
    rules = classic(3, turn_cap=4)
    round_ = Round.deal(rules, seed=2)
    for _ in range(4):
        seat = round_.to_act
        assert seat is not None
        round_.apply(DrawFromStock(seat))
        round_.apply(Discard(seat))
    result = round_.result
    assert result is not None and result.capped and result.winner is None and result.turns == 4
    assert result.scores == tuple(racko.prefix_score(round_.rack(seat)) for seat in range(3))


# --- The match --------------------------------------------------------------------------------


def test_match_winner_needs_the_target_and_a_unique_highest_total() -> None:
    rules = classic(3)
    assert match_winner(rules, [480, 495, 100]) is None
    assert match_winner(rules, [500, 495, 100]) == 0
    assert match_winner(rules, [520, 560, 100]) == 1  # two passed 500: the highest wins
    assert match_winner(rules, [560, 560, 100]) is None  # tied at the top: another round


def test_partners_add_their_scores_and_the_first_team_to_the_target_wins() -> None:
    rules = racko.variant("partners").rules(4, target=200, turn_cap=2)
    match = Match(rules, seed=3)
    while not match.over:
        seat = match.to_act
        assert seat is not None
        match.apply(DrawFromStock(seat))
        match.apply(Discard(seat))
    seat_totals = [sum(r.scores[s] for r in match.results) for s in range(4)]
    assert match.seat_totals == seat_totals
    assert match.totals == (seat_totals[0] + seat_totals[2], seat_totals[1] + seat_totals[3])
    outcome = match.outcome
    assert outcome is not None and outcome.totals[outcome.winner] == max(outcome.totals) >= 200
    assert outcome.seats == ((0, 2) if outcome.winner == 0 else (1, 3))
    with pytest.raises(racko.RoundOverError, match="game is over"):
        match.apply(DrawFromStock(0))


def test_partners_need_four_players() -> None:
    with pytest.raises(racko.RulesError, match="played by 4 players, not 3"):
        racko.variant("partners").rules(3)


# --- Observations: what a seat may see of other racks ------------------------------------------


def test_others_see_a_taken_discard_in_its_slot_until_it_leaves() -> None:
    rules = classic(3)
    racks = [down(1), [11, 12, 13, 14, 15, 16, 40, 18, 19, 20], down(21)]
    round_ = scripted_round(rules, racks, turned_up=35, stock=[50, 49])
    round_.apply(TakeDiscard(1))
    round_.apply(Exchange(1, 6))
    seen_by_2 = round_.observation(2).public
    assert seen_by_2.known[1][6] == 35
    assert seen_by_2.left[1][6] == (40,)
    # Seat 2 draws (50) and puts it where... the others see only the card that left.
    round_.apply(DrawFromStock(2))
    held_view = round_.observation(0)
    assert held_view.held is None and 50 not in held_view.seen_cards()
    assert round_.observation(2).held == 50
    round_.apply(Exchange(2, 0))
    seen_by_0 = round_.observation(0)
    assert seen_by_0.public.known[2][0] is None
    assert seen_by_0.public.left[2][0] == (30,)
    assert 50 not in seen_by_0.seen_cards()


def test_observations_never_show_the_stock_or_unseen_rack_cards() -> None:
    round_ = Round.deal(classic(4), seed=8)
    for seat in range(4):
        seen = round_.observation(seat).seen_cards()
        others = {c for s in range(4) if s != seat for c in round_.rack(s)}
        assert not seen & others
        assert not seen & set(round_.stock())


def test_rules_options_are_validated() -> None:
    with pytest.raises(racko.RulesError, match="refill"):
        classic(2, refill="sideways")
    with pytest.raises(racko.RulesError, match="too small"):
        classic(3, deck_size=30)
    with pytest.raises(racko.RulesError, match="Unknown variant"):
        racko.variant("chess")
    assert classic(2, deck_size=60).deck_size == 60  # research option


@pytest.mark.parametrize(
    ("written", "canonical"),
    [
        ("classic", "classic"),
        ("Classic Rack-O", "classic"),
        ("Rack-O", "classic"),
        ("standard", "classic"),
        ("Bonus Rack-O", "bonus"),
        ("BONUS", "bonus"),
        ("partner", "partners"),
        ("Teams", "partners"),
        ("high-low", "highlow"),
        ("High-Low", "highlow"),
        ("high low rack-o", "highlow"),
        ("hilo", "highlow"),
        ("HighLow", "highlow"),
    ],
)
def test_variants_are_found_by_the_names_people_write(written: str, canonical: str) -> None:
    assert racko.variant(written).name == canonical
    assert racko.variant(written).rules().variant == canonical  # records keep the canonical name
    data = racko.variant(canonical).rules().to_dict()
    assert racko.Rules.from_dict({**data, "variant": written}).variant == canonical


@pytest.mark.parametrize("written", ["poker", "", "high-low-low", 7, None])
def test_an_unknown_variant_name_is_refused_with_the_known_ones(written: object) -> None:
    with pytest.raises(racko.RulesError, match="known: classic, bonus, partners, highlow"):
        racko.variant(written)  # type: ignore[arg-type]


@pytest.mark.parametrize("variant_name", ["classic", "bonus", "partners", "highlow"])
def test_apply_returns_exactly_the_events_it_logged_after_one_legality_check(
    variant_name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from racko import bots

    rules = racko.variant(variant_name).rules(target=100, turn_cap=60, two_player_rule=False)
    match = racko.Match(rules, seed=9)
    players = [bots.create("easy", seed=seat) for seat in range(rules.players)]
    round_type = type(match.round)
    checks = 0
    real_check = round_type._why_illegal

    def counted(self: Any, action: Any) -> Any:
        nonlocal checks
        checks += 1
        return real_check(self, action)

    monkeypatch.setattr(round_type, "_why_illegal", counted)
    while not match.over:
        seat = match.to_act
        assert seat is not None
        logged = len(match.log)
        checks = 0
        events = match.apply(players[seat].act(match.observation(seat)))
        assert checks == 1
        assert events == tuple(match.log[logged:]) and events
    with pytest.raises(racko.RoundOverError):
        match.apply(racko.DrawFromStock(0))


def test_recorded_reshuffles_that_do_not_fit_are_refused_and_leave_the_round_as_it_was() -> None:
    from helpers import snapshot

    rules = racko.variant("classic").rules(2, two_player_rule=False, refill="shuffle")
    deck = list(range(1, 41))
    round_ = Round(rules, deck, 0, reshuffles=[[1, 2, 3]])  # not the cards of any discard pile
    while round_.stock_size > 1 or round_.phase is not racko.Phase.PICK:
        seat = round_.to_act
        assert seat is not None
        round_.apply(DrawFromStock(seat) if round_.phase is racko.Phase.PICK else Discard(seat))
    seat = round_.to_act
    assert seat is not None
    round_.apply(DrawFromStock(seat))  # the last card of the stock: the turn's end refills it
    before = snapshot(round_)
    for _ in range(2):
        with pytest.raises(racko.RecordError, match="does not hold the cards of the discard pile"):
            round_.apply(Discard(seat))
        assert snapshot(round_) == before and round_.can(Discard(seat))


def test_asking_for_a_seat_that_is_not_at_the_table_is_a_racko_error() -> None:
    match = racko.Match(racko.variant("classic").rules(2), seed=1)
    for seat in (5, -1, "0", None):
        with pytest.raises(racko.NoSuchSeatError, match="There is no seat"):
            match.observation(seat)  # type: ignore[arg-type]


def test_a_view_s_rules_are_the_seat_s_own_copy() -> None:
    match = racko.Match(racko.variant("classic").rules(2), seed=1)
    seen = match.observation(0).public.rules
    assert seen == match.rules and seen is not match.rules
    object.__setattr__(seen, "target", 1)  # a bot forcing a change to what it was shown
    assert match.rules.target == 500


def test_drawing_again_says_drawing() -> None:
    match = racko.Match(racko.variant("classic").rules(2), seed=1)
    seat = match.to_act
    assert seat is not None
    match.apply(DrawFromStock(seat))
    with pytest.raises(racko.WrongPhaseError, match="You cannot draw from the stock now"):
        match.apply(DrawFromStock(seat))
    with pytest.raises(racko.WrongPhaseError, match="You cannot take the top discard now"):
        match.apply(TakeDiscard(seat))
