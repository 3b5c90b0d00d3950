"""Every sentence of a hint is a fact of the position from the player's own view (issue 37).

Positions from seeded games of the computer players at every level, in classic Rack-O, Bonus Rack-O and High-Low
(tests/hint_positions.json, made by tests/make_hint_positions.py), each with what its moves must and must not say;
every hint there held to the checks of :func:`untrue`; and the same checks on random deals (Hypothesis).
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from racko.actions import Discard, DrawFromStock, Exchange, TakeDiscard
from racko.analysis import evaluate as evaluate_module
from racko.analysis.evaluate import Evaluation, Measure, MoveValue, evaluate, placed, seat_history
from racko.analysis.explain import HINT_FIRST, HINT_MORE, explained_choices, goes_out_with, why
from racko.analysis.game_chance import LEAST_STAKE, round_stake
from racko.analysis.review import GAME_CHANCE_CLASSES
from racko.analysis.words import LANGUAGES, say, words
from racko.families import AnyObservation, family_of
from racko.highlow import HighLowObservation
from racko.match import Match
from racko.observation import Observation, Phase
from racko.record import GameRecord, replay
from racko.round import arrange_deck
from racko.rules import POINTS_PER_CARD, RACK_SIZE, SLOT_LABELS, variant
from racko.scoring import ordered_prefix, qualifies_for_racko

POSITIONS_FILE = Path(__file__).with_name("hint_positions.json")
LEVELS = ("random", "easy", "medium", "hard", "expert", "master")
AGAINST = {
    "why:out-of-order",
    "why:gives-up-kept",
    "why:drops-kept",
    "why:drops-kept-one",
    "why:start-breaks",
    "why:run-lost",
    "why:gives-wanted",
    "why:gives-wanted-next",
}
"""Sentences against a move: after every sentence for it, never before."""
BEST_FIRST = {"why:best", "why:best-game", "why:best-turns", "why:goes-out", "why:may-call", "why:call", "why:wait"}
"""What the best move says first: why it is best (its measured worth, or the certain win)."""
CARD_VALUES = {"card", "held", "out", "top", "low", "high", "cards", "taken", "upcoming"}
"""Values that name cards the player has seen (a stretch open to the rack's end is bounded by 0 or deck size + 1)."""


@cache
def positions_data() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(POSITIONS_FILE.read_text(encoding="utf-8"))
    return data


@cache
def game(number: int) -> GameRecord:
    return GameRecord.from_json(positions_data()["games"][number])


def position_of(entry: dict[str, Any]) -> tuple[AnyObservation, list[AnyObservation], list[str]]:
    """The observation of the position's seat, its earlier ones this round, and the players' names."""
    record = game(entry["game"])
    match = replay(record, stop_after=entry["action"])
    assert match.to_act == entry["seat"], entry
    seat = entry["seat"]
    names = list(record.players or ())
    return match.observation(seat), seat_history(match.round, seat), names


def position_id(entry: dict[str, Any]) -> str:
    return f"{entry['family']}-{entry['players']}p-{entry['level']}-game{entry['game']}-at{entry['action']}"


ALL = positions_data()["positions"]
WITH_CHECKS = [entry for entry in ALL if entry["checks"]]
MEASURED = [entry for entry in ALL if entry["players"] == 2 and entry["family"] != "highlow"]
"""Positions whose hints are measured by play-outs (two players, classic and Bonus)."""
SHOWN = 3
"""The choices a hint shows: the table's, the terminal's and ``racko hint``'s."""


# --- what a sentence may say ----------------------------------------------------------------------------------


def after_move(
    observation: Observation, action: Any, slot: int | None
) -> tuple[int | None, int | None, tuple[int, ...]]:
    """The card a move places, its slot, and the rack it leaves."""
    rack = observation.rack
    if isinstance(action, Exchange):
        assert observation.held is not None
        return observation.held, action.slot, placed(rack, action.slot, observation.held)
    if isinstance(action, TakeDiscard) and slot is not None:
        top = observation.public.discard_pile[-1]
        return top, slot, placed(rack, slot, top)
    return None, None, rack


def cannot_come(observation: Observation, card: int) -> bool:
    public = observation.public
    known = {seen for rack in public.known for seen in rack if seen is not None}
    return (
        not 1 <= card <= public.rules.deck_size
        or card in observation.rack
        or card == observation.held
        or card in public.discard_pile
        or card in known
    )


def untrue(observation: Observation, action: Any, slot: int | None, sentences: list[dict[str, Any]]) -> list[str]:
    """What is wrong with a move's sentences: each checked against the position as the player sees it."""
    public = observation.public
    rules = public.rules
    size = rules.deck_size
    rack = observation.rack
    seen = observation.seen_cards() | {0, size + 1}
    card, placed_slot, after = after_move(observation, action, slot)
    following = (observation.seat + 1) % rules.players
    problems = []

    def wrong(why: str) -> None:
        problems.append(f"{key} {values}: {why}")

    kept = {card for sentence in sentences if sentence["key"] == "why:in-order" for card in sentence["values"]["cards"]}
    for sentence in sentences:
        key, values = sentence["key"], sentence["values"]
        for name in CARD_VALUES & values.keys():
            named = values[name] if isinstance(values[name], list) else [values[name]]
            if not set(named) <= seen:
                wrong(f"names {set(named) - seen}, which the player has not seen")
        for lang in LANGUAGES:
            shown = {k: ", ".join(map(str, v)) if isinstance(v, list) else v for k, v in values.items()}
            if key not in words()[lang] or "{" in say(key, shown, lang):
                wrong(f"has no whole sentence in {lang}")
        if key in ("why:run-near", "why:run-near-one"):
            low, high = values["low"], values["high"]
            sides = [index for index in range(RACK_SIZE - 1) if after[index] == low and after[index + 1] == high]
            if not sides:
                wrong("the pair is not side by side after the move")
                continue
            index = sides[0]
            wanted = [values["below"], values["above"]] if key == "why:run-near" else [values["wanted"]]
            for third in wanted:
                if cannot_come(observation, third):
                    wrong(f"{third} cannot come: the player sees it, or it is no card")
                if third == low - 1 and index == 0:
                    wrong("nothing goes below slot 5")
                if third == high + 1 and index + 1 == RACK_SIZE - 1:
                    wrong("nothing goes above slot 50")
        elif key == "why:run-made":
            cards = values["cards"]
            text = ",".join(map(str, after))
            if (
                len(cards) < 3
                or cards != list(range(cards[0], cards[0] + len(cards)))
                or ",".join(map(str, cards)) not in text
            ):
                wrong("is no run side by side after the move")
        elif key.startswith("why:fits-") and not key.startswith("why:fits-new"):
            first, last = SLOT_LABELS.index(values["from"]), SLOT_LABELS.index(values["to"])
            if placed_slot is None or not first <= placed_slot <= last:
                wrong("names slots the card does not go to")
                continue
            if not values["low"] < values["card"] < values["high"]:
                wrong("the card is not between the bounds")
            if first == last and values["low"] < rack[placed_slot] < values["high"]:
                wrong(f"the slot's card {rack[placed_slot]} was already between {values['low']} and {values['high']}")
            low_bound = rack[first - 1] if first > 0 else 0
            high_bound = rack[last + 1] if last < RACK_SIZE - 1 else size + 1
            if (values["low"], values["high"]) != (low_bound, high_bound):
                wrong(f"the bounds are not the cards beside the stretch ({low_bound}, {high_bound})")
            # the same hint says which cards it keeps: none of them stands in a slot said to need a card (issue 48)
            needing = [after[index] for index in range(first, last + 1) if index != placed_slot]
            if set(needing) & kept:
                wrong(f"it keeps {sorted(set(needing) & kept)} in slots said to need a card")
        elif key == "why:replaces-kept":
            if placed_slot is None or values["out"] != rack[placed_slot] or values["card"] != card:
                wrong("is not the move's card and slot")
        elif key in ("why:start-grows", "why:start-breaks"):
            if qualifies_for_racko(after, rules):
                wrong("the move completes the rack: nobody else goes out first")
            if rules.players == 1:
                wrong("alone, nobody else goes out")
            now, was = ordered_prefix(after), ordered_prefix(rack)
            if values["points"] != POINTS_PER_CARD * now or (now > was) != (key == "why:start-grows"):
                wrong(f"the start is {was} cards before and {now} after")
        elif key in ("why:goes-out", "why:may-call"):
            if not qualifies_for_racko(after, rules):
                wrong("the rack does not qualify after the move")
        elif key == "why:in-order":
            cards = values["cards"]
            positions = [after.index(kept) if kept in after else -1 for kept in cards]
            if cards != sorted(cards) or positions != sorted(positions) or -1 in positions:
                wrong("these cards are not in rising order in the rack")
        elif key in ("why:gives-wanted", "why:gives-wanted-next", "why:denies", "why:denies-next"):
            if values["taken"] not in public.known[following]:
                wrong("the next player did not take that card from the pile")
            handed = rack[placed_slot] if placed_slot is not None else observation.held
            if key.startswith("why:gives") and values["out"] != handed:
                wrong("that card is not the one handed on")
            if key.startswith("why:denies") and values["card"] != card:
                wrong("that card is not the one placed")
        elif key.startswith("why:draw") and key != "why:draw-next":
            if "top" in values and values["top"] != public.discard_top:
                wrong("that is not the top discard")
            coming = [card for card in range(1, size + 1) if not cannot_come(observation, card)]
            makes_run = [card for card in coming if goes_out_with(rack, card, rules)]
            run_key = key in ("why:draw-run", "why:draw-over-run", "why:draw-empty-run")
            if values.get("may") != len(coming):
                wrong(f"{len(coming)} cards may come")
            if run_key and values["fit"] != len(makes_run):
                wrong(f"{len(makes_run)} of the cards that may come would make the run: {makes_run}")
            if not run_key and values["fit"] == 0 and makes_run:
                wrong(f"none said to help, while {makes_run} would make the run the rack needs (issue 48)")
        elif key in ("why:best", "why:chance", "why:best-game", "why:chance-game") and not (
            0 <= values["chance"] <= 100 and 0 <= values.get("round", 0) <= 100 and values["playouts"] > 0
        ):
            wrong("is no chance")
        elif key in ("why:stake-game", "why:stake-least-game"):
            # what the round is worth in the game: from the scores everyone sees, as the review weighs it
            stake = round_stake(public.totals[observation.seat], public.totals[1 - observation.seat], 2, rules.target)
            least = stake <= LEAST_STAKE
            if (key == "why:stake-least-game") != least or values["stake"] != round(100 * stake):
                wrong(f"the round is worth {stake:.3f} of the game at these scores")
        elif key in ("why:close-game", "why:best-close-game") and values["bound"] != 100 * GAME_CHANCE_CLASSES.good:
            wrong("is not the review's bound of a good move")
        elif key == "why:behind-game" and not values["share"] > 100 * GAME_CHANCE_CLASSES.good - 0.05:
            wrong("a loss within the bound of a good move is said to be close")
    return problems


def best_first_problems(sentences: list[dict[str, Any]]) -> list[str]:
    """The best move says first why it is best, and anything against it only after everything for it."""
    keys = [sentence["key"] for sentence in sentences]
    problems = []
    if not keys or keys[0] not in BEST_FIRST:
        problems.append(f"the best move starts with {keys[:1]}, not why it is best")
    against = [index for index, key in enumerate(keys) if key in AGAINST]
    if against and any(key not in AGAINST for key in keys[against[0] :]):
        problems.append(f"something for the best move comes after something against it: {keys}")
    return problems


def matches(sentence: dict[str, Any], spec: dict[str, Any]) -> bool:
    if "key_prefix" in spec:
        return bool(sentence["key"].startswith(spec["key_prefix"]))
    wanted = spec.get("values", {})
    return bool(sentence["key"] == spec["key"] and all(sentence["values"].get(k) == v for k, v in wanted.items()))


# --- the positions of real games -------------------------------------------------------------------------------


def test_the_positions_cover_every_level_and_the_three_families() -> None:
    classic_levels = {entry["level"] for entry in ALL if entry["family"] == "classic" and entry["players"] == 2}
    assert classic_levels == set(LEVELS)
    assert {entry["family"] for entry in ALL} == {"classic", "bonus", "highlow"}
    assert {entry["players"] for entry in ALL if entry["family"] == "classic"} == {1, 2, 3}
    specs = [spec for entry in ALL for check in entry["checks"] for spec in check["must"] + check["must_not"]]
    kinds = {spec.get("key", spec.get("key_prefix")) for spec in specs}
    assert {"why:run-near", "why:run-near-one", "why:fits-", "why:start-grows", "why:goes-out", "why:may-call"} <= kinds


@pytest.mark.parametrize("entry", WITH_CHECKS, ids=position_id)
def test_each_move_says_what_it_must_and_never_what_it_must_not(entry: dict[str, Any]) -> None:
    observation, _, names = position_of(entry)
    assert isinstance(observation, Observation)
    family = family_of(observation.rules)
    for check in entry["checks"]:
        action = family.action_from_json(check["move"])
        move = MoveValue(action, 0.0, check["slot"] if isinstance(action, TakeDiscard) else None)
        sentences = [sentence.to_json() for sentence in why(observation, action, move, None, names)]
        for spec in check["must"]:
            assert any(matches(sentence, spec) for sentence in sentences), (
                check["move"],
                check["slot"],
                spec,
                sentences,
            )
        for spec in check["must_not"]:
            assert not any(matches(sentence, spec) for sentence in sentences), (
                check["move"],
                check["slot"],
                spec,
                sentences,
            )
        assert not untrue(observation, action, check["slot"], sentences)


@pytest.mark.parametrize("entry", ALL, ids=position_id)
def test_every_sentence_of_a_hint_is_a_fact_and_the_best_move_says_why_it_is_best(entry: dict[str, Any]) -> None:
    observation, seen, names = position_of(entry)
    choices = explained_choices(observation, seen=seen, names=names)
    legal = observation.legal_actions()
    assert choices and all(choice.action in legal for choice in choices)
    if isinstance(observation, HighLowObservation):
        # The advisor's own move, said as such: no reason claimed without a measure behind it.
        (choice,) = choices
        assert not choice.why and choice.reason.startswith("highlow-"), choice
        return
    assert isinstance(observation, Observation)
    for choice in choices:
        slot = SLOT_LABELS.index(choice.values["slot"]) if isinstance(choice.action, TakeDiscard) else None
        problems = untrue(observation, choice.action, slot, list(choice.why))
        assert not problems, (choice.action.describe(), slot, problems)
    best = choices[0]
    assert not best_first_problems(list(best.why)), [sentence["text"] for sentence in best.why]
    # A move that completes the rack wins at once: it is the best move, and says so.
    rules = observation.rules
    completing = [check for check in entry["checks"] if any(spec.get("key") in BEST_FIRST for spec in check["must"])]
    if completing and len(legal) > 1:
        slot = SLOT_LABELS.index(best.values["slot"]) if isinstance(best.action, TakeDiscard) else None
        assert qualifies_for_racko(after_move(observation, best.action, slot)[2], rules), best
        assert best.why[0]["key"] in ("why:goes-out", "why:may-call"), best.why


@pytest.mark.parametrize("entry", MEASURED, ids=position_id)
def test_the_moves_a_hint_shows_rest_on_as_many_play_outs_and_the_best_leads(
    entry: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each choice shown has the figure its line gets with every play-out (every line raced in full here, on the
    same deals), so the best move shown is the best of them."""
    observation, seen, names = position_of(entry)
    assert isinstance(observation, Observation)
    choices = explained_choices(observation, seen=seen, names=names)[:SHOWN]
    monkeypatch.setattr(evaluate_module, "FINALISTS", 10 * RACK_SIZE)  # every line raced in full
    full = evaluate(observation, seen=seen, first=HINT_FIRST, more=HINT_MORE, game=True)
    assert full.measure == "game_chance"  # what racko review grades 2-player moves by (issue 37)
    shown = [choice.game_chance for choice in choices if choice.game_chance is not None]
    assert len(shown) == len(choices) and shown == sorted(shown, reverse=True), shown
    for choice in choices:
        measured = full.value_of(choice.action)
        if isinstance(choice.action, TakeDiscard) and SLOT_LABELS[measured.slot or 0] != choice.values["slot"]:
            continue  # the take's best slot in full is one the hint left at its rough figure, below those shown
        assert choice.game_chance == round(measured.value, 4), (choice.action.describe(), choice.game_chance, measured)
        assert measured.round_chance is not None and choice.win_chance == round(measured.round_chance, 3)


def _drawn(mine: list[int], theirs: list[int], card: int, top: int) -> Observation:
    """Seat 0 of a 2-player round (the 2-player rule) with ``mine``, having drawn ``card``; ``top`` on the pile."""
    deck = arrange_deck([mine, theirs], dealer=1, turned_up=top, stock=[card], deck_size=40)
    match = Match(variant("classic").rules(2), first_dealer=1, decks=[deck])
    match.apply(DrawFromStock(0))
    observation = match.observation(0)
    assert isinstance(observation, Observation)
    return observation


def test_a_card_that_brings_a_kept_card_into_order_names_the_slot_it_fills_not_the_stretch_before_it() -> None:
    """The issue's "Slots 20-25 need 2 cards between 7 and 15; 8 fits there." while the same hint keeps 9 in slot 25:
    the stretch a card fills is said of the order kept with the card in hand counted."""
    # 7 on the pile, 8 in hand: no card that may come goes between 6 and 9, so 9 is kept only once 8 is in slot 20
    observation = _drawn([2, 4, 6, 30, 9, 15, 20, 25, 33, 38], [16, 3, 5, 10, 11, 12, 13, 14, 1, 17], 8, 7)
    action = Exchange(0, 3)
    said = [sentence.to_json() for sentence in why(observation, action)]
    fits = next(sentence for sentence in said if sentence["key"].startswith("why:fits-"))
    assert fits["text"] == "Slot 20 needs a card between 6 and 9; 8 fits there.", said
    assert any(s["key"] == "why:in-order" and 9 in s["values"]["cards"] for s in said), said
    assert not untrue(observation, action, None, said)


def test_drawing_to_a_rack_in_order_without_its_run_counts_the_cards_that_make_the_run() -> None:
    """The issue's "0 of the 13 cards that may come from the stock would" while a 10 or a 13 would make the run."""
    mine = [2, 4, 6, 8, 11, 12, 14, 17, 20, 25]  # in order, no run of three: 10 (slot 20) or 13 (slot 35) makes one
    deck = arrange_deck([mine, [1, 3, 5, 7, 9, 15, 16, 18, 19, 21]], dealer=1, turned_up=30, stock=[22], deck_size=40)
    match = Match(variant("classic").rules(2), first_dealer=1, decks=[deck])
    observation = match.observation(0)
    assert isinstance(observation, Observation)
    said = [sentence.to_json() for sentence in why(observation, DrawFromStock(0))]
    draw = next(sentence for sentence in said if sentence["key"].startswith("why:draw"))
    assert draw["key"] == "why:draw-run" and draw["values"]["fit"] == 2, said
    assert draw["text"].endswith("2 of the 29 cards that may come from the stock would."), draw
    assert not untrue(observation, DrawFromStock(0), None, said)
    discard = _drawn(mine, [1, 3, 5, 7, 9, 15, 16, 18, 19, 21], 13, 30)
    # 13 drawn: it goes out in slot 35 (11, 12, 13), and discarding it says so rather than "fits none of your slots"
    said = [sentence.to_json() for sentence in why(discard, Discard(0))]
    assert said[0]["key"] == "why:discard-run", said


# --- random deals --------------------------------------------------------------------------------------------------


def dealt(deck: list[int], draw: bool) -> Observation:
    """A 2-player position (the 2-player rule) from a shuffled 40-card deck: seat 0's rack is its first ten cards,
    the opponent's the next ten, then the top discard; seat 0 has drawn the next card when ``draw``."""
    rules = variant("classic").rules(2, target=1)
    racks = [deck[:RACK_SIZE], deck[RACK_SIZE : 2 * RACK_SIZE]]
    arranged = arrange_deck(racks, dealer=1, turned_up=deck[20], stock=deck[21:], deck_size=40)
    match = Match(rules, first_dealer=1, decks=[arranged])
    if draw and not match.over:
        match.apply(DrawFromStock(0))
    observation = match.observation(0)
    assert isinstance(observation, Observation)
    return observation


@settings(max_examples=60, deadline=None)
@given(st.permutations(list(range(1, 41))), st.booleans())
def test_on_random_deals_every_move_s_sentences_are_facts_and_the_best_says_why_first(
    deck: list[int], draw: bool
) -> None:
    observation = dealt(deck, draw)
    if observation.public.phase is Phase.OVER or observation.seat != 0:
        return
    lines: list[MoveValue] = []
    for action in observation.legal_actions():
        slots = range(RACK_SIZE) if isinstance(action, TakeDiscard) else [None]
        lines.extend(MoveValue(action, 0.0, slot, 320) for slot in slots)
    for index, move in enumerate(lines):
        # Each move in turn measured best, the next one behind it: what it says, and in what order; by the round's
        # measure (the puzzles') and by the game's (the hint's, 2 players), the next one far behind or close.
        others = [other for other in lines if other.action != move.action]
        measures: list[tuple[Measure, float]] = [("win_chance", 0.5), ("game_chance", 0.5), ("game_chance", 0.599)]
        for measure, second in measures:
            ranked = (
                MoveValue(move.action, 0.6, move.slot, 320, 0.7),
                *(MoveValue(o.action, second, o.slot, 320, 0.6) for o in others),
            )
            evaluation = Evaluation(0, measure, ranked, 320)
            for shown in (ranked[0], ranked[-1]):
                said = [s.to_json() for s in why(observation, shown.action, shown, evaluation, ["a", "b"])]
                assert not untrue(observation, shown.action, shown.slot, said), (index, measure, said)
            best_said = [s.to_json() for s in why(observation, move.action, ranked[0], evaluation, ["a", "b"])]
            assert not best_first_problems(best_said), best_said
            _, _, after = after_move(observation, move.action, move.slot)
            if qualifies_for_racko(after, observation.rules):
                assert best_said[0]["key"] == "why:goes-out" and len(best_said) == 1, best_said
            elif measure == "game_chance":
                assert best_said[0]["key"] == "why:best-game", best_said


SLOT_POSITIONS: dict[str, Any] = json.loads(Path(__file__).with_name("hint_slot_positions.json").read_text())
"""Draw-or-take positions where main's hint compared the take by a slot lucky in its first 32 play-outs (issue 48)."""


@pytest.mark.parametrize(
    "entry", SLOT_POSITIONS["positions"], ids=lambda entry: f"game{entry['game']}-at{entry['action']}"
)
def test_a_hint_decides_a_take_s_slot_before_it_compares_take_with_draw(entry: dict[str, Any]) -> None:
    record = GameRecord.from_json(SLOT_POSITIONS["games"][entry["game"]])
    match = replay(record, stop_after=entry["action"])
    observation = match.observation(entry["seat"])
    choices = explained_choices(observation, seen=seat_history(match.round, entry["seat"]))
    take = next(choice for choice in choices if isinstance(choice.action, TakeDiscard))
    assert take.values["slot"] == entry["take_slot"], (entry["what"], [c.values for c in choices])
    if entry["best"] is not None:
        assert choices[0].action.kind == entry["best"], (entry["what"], choices[0].action)
