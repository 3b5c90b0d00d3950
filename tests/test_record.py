"""Game records: the schema (docs/record.schema.json), round trips of bot games, the hand-written examples
(docs/examples/), and the refusal of every kind of corrupt record with a clear :class:`RecordError`."""

from __future__ import annotations

import copy
import dataclasses
import functools
import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from racko import bots
from racko.actions import ACTION_TYPES
from racko.bots.runner import play_match
from racko.errors import RecordError
from racko.highlow import KeepOrder, Replace, SwapCards
from racko.match import Match
from racko.record import RECORD_VERSION, GameRecord, replay
from racko.rules import REFILL_MODES, SLOT_LABELS, VARIANTS, Rules, variant

ROOT = Path(__file__).resolve().parents[1]
SCHEMA_PATH = ROOT / "docs" / "record.schema.json"
EXAMPLES = ROOT / "docs" / "examples"

FIGURE_3 = [3, 8, 12, 19, 26, 37, 22, 30, 33, 39]  # sheet 000, Figure 3: scores 30
SEAT_1_DEALT = [2, 5, 9, 13, 17, 20, 27, 28, 31, 35]  # in order, but no run of three


# --- Helpers ------------------------------------------------------------------------------------


@functools.cache
def schema() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    return data


def validator() -> jsonschema.Draft202012Validator:
    return jsonschema.Draft202012Validator(schema())


def example(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((EXAMPLES / name).read_text(encoding="utf-8"))
    return data


def deal_deck(racks: list[list[int]], dealer: int, turned_up: int, stock: list[int], deck_size: int) -> list[int]:
    """The deck order that deals ``racks`` (slot 5 first), written from the record format's description:
    card i goes to seat (dealer + 1 + i) % players, each player's k-th card into slot index 9 - k; then the
    turned-up card, then the stock top first (cards not named follow in order)."""
    players = len(racks)
    dealt = [racks[(dealer + 1 + i) % players][9 - i // players] for i in range(10 * players)]
    named = [*dealt, turned_up, *stock]
    deck = named + sorted(set(range(1, deck_size + 1)) - set(named))
    assert sorted(deck) == list(range(1, deck_size + 1))
    return deck


def hand_record(rules: Rules, rounds: list[dict[str, Any]], first_dealer: int = 0, **extra: Any) -> dict[str, Any]:
    return {
        "format": "racko-record",
        "version": RECORD_VERSION,
        "rules": rules.to_dict(),
        "seed": 1,
        "first_dealer": first_dealer,
        "rounds": rounds,
        **extra,
    }


def load(data: Any) -> Match:
    """Read and replay a record's JSON value, as ``racko replay`` does."""
    return replay(GameRecord.from_json(data))


def refused(data: Any) -> RecordError:
    with pytest.raises(RecordError) as info:
        load(data)
    return info.value


def state(match: Match) -> tuple[Any, ...]:
    """Everything a replay must reproduce."""
    current = match.round
    seats = range(match.rules.players)
    return (
        match.totals,
        tuple(match.seat_totals),
        tuple(match.results),
        match.over,
        match.outcome,
        tuple((r.dealer, r.deck, tuple(r.actions), tuple(r.reshuffles)) for r in match.rounds),
        tuple(current.rack(seat) for seat in seats),
        current.discard_pile,
        current.stock(),
        current.phase,
        current.to_act,
        current.held,
        current.turns,
        tuple(match.log),
        tuple(current.observation(seat) for seat in seats),
    )


def walk(node: Any, path: str = "#") -> Iterator[tuple[str, Any]]:
    """Every subschema, with its path, skipping the conditional parts (if/then/else) that only add limits."""
    if isinstance(node, dict):
        yield path, node
        for key, value in node.items():
            if key in ("if", "then", "else", "allOf", "not"):
                continue
            yield from walk(value, f"{path}/{key}")
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from walk(value, f"{path}/{index}")


# --- Bot games of every variant --------------------------------------------------------------

GAMES: dict[str, tuple[str, int, dict[str, Any], tuple[str, ...]]] = {
    "classic-2": ("classic", 2, {}, ("easy", "easy")),
    "classic-3": ("classic", 3, {}, ("easy", "random", "easy")),
    "classic-4": ("classic", 4, {}, ("easy", "easy", "random", "easy")),
    "classic-solitaire": ("classic", 1, {"target": 150}, ("easy",)),
    "bonus-2": ("bonus", 2, {}, ("easy", "random")),
    "bonus-3": ("bonus", 3, {}, ("random", "easy", "easy")),
    "partners": ("partners", 4, {}, ("easy", "random", "easy", "easy")),
    "classic-2-shuffle": ("classic", 2, {"refill": "shuffle"}, ("easy", "random")),
    "classic-3-shuffle": ("classic", 3, {"refill": "shuffle"}, ("random", "easy", "random")),
    "partners-bonus-shuffle": (
        "partners",
        4,
        {"refill": "shuffle", "bonus": True, "auto_racko": False},
        ("random", "easy", "easy", "random"),
    ),
}


@functools.cache
def bot_game(name: str, seed: int = 1) -> Match:
    """A whole game played by bots (turn cap 60, target 200, to keep it short)."""
    variant_name, players, options, bot_names = GAMES[name]
    settings = {"turn_cap": 60, "target": 200, **options}
    rules = variant(variant_name).rules(players, **settings)
    match = Match(rules, seed=seed)
    play_match(match, [bots.create(bot, seed=seed * 10 + seat) for seat, bot in enumerate(bot_names)])
    return match


def bot_record(name: str) -> dict[str, Any]:
    return copy.deepcopy(GameRecord.of(bot_game(name)).to_json())


# --- The schema itself -----------------------------------------------------------------------


def test_the_schema_is_a_valid_draft_2020_12_schema_with_id_title_and_description() -> None:
    data = schema()
    jsonschema.Draft202012Validator.check_schema(data)
    assert data["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    for key in ("$id", "title", "description"):
        assert isinstance(data[key], str) and data[key]


def test_every_property_of_the_schema_has_a_description() -> None:
    missing = [
        f"{path}/properties/{name}"
        for path, node in walk(schema())
        for name, sub in node.get("properties", {}).items()
        if not str(sub.get("description", "")).strip()
    ]
    assert missing == []


def test_the_schema_names_what_the_engine_knows() -> None:
    data = schema()
    rules = data["properties"]["rules"]
    assert set(rules["properties"]) == {field.name for field in dataclasses.fields(Rules)}
    assert set(rules["required"]) == {"players", "deck_size", "two_player_rule"}
    assert rules["properties"]["variant"]["enum"] == list(VARIANTS)
    assert rules["properties"]["refill"]["enum"] == list(REFILL_MODES)
    action = data["$defs"]["action"]["properties"]
    assert action["act"]["enum"] == [*ACTION_TYPES, Replace.kind, SwapCards.kind, KeepOrder.kind]
    assert action["slot"]["enum"] == list(SLOT_LABELS)
    assert data["properties"]["format"]["const"] == "racko-record"
    assert data["properties"]["version"]["enum"] == [1, RECORD_VERSION]


def test_the_schema_rejects_a_misshapen_record() -> None:
    data = example("figure3.json")
    data["rounds"][0]["actions"] = [{"seat": 1, "act": "exchange", "slot": 7}, {"seat": 1, "act": "take", "slot": 5}]
    data["rules"]["refill"] = "riffle"
    data["rounds"][0]["deck"][0] = "3"
    data["version"] = 3
    errors = {error.json_path for error in validator().iter_errors(data)}
    assert errors == {
        "$.rounds[0].actions[0].slot",
        "$.rounds[0].actions[1]",
        "$.rules.refill",
        "$.rounds[0].deck[0]",
        "$.version",
    }


# --- Records written by the engine: valid, and they round-trip ---------------------------------


@pytest.mark.parametrize("name", list(GAMES))
def test_a_bot_game_record_validates_and_round_trips(name: str, tmp_path: Path) -> None:
    match = bot_game(name)
    assert match.over
    record = GameRecord.of(match)
    data = record.to_json()
    validator().validate(data)

    path = tmp_path / f"{name}.json"
    record.save(path)
    assert not (tmp_path / f"{name}.json.tmp").exists()
    assert json.loads(path.read_text(encoding="utf-8")) == data
    loaded = GameRecord.load(path)
    assert loaded == record
    assert loaded.action_count == len(match.actions)

    replayed = replay(loaded)
    assert replayed.totals == match.totals
    assert replayed.results == match.results
    assert replayed.outcome == match.outcome
    assert state(replayed) == state(match)
    # A second save of the replayed game is the same file.
    assert GameRecord.of(replayed).to_json() == data


def test_the_bot_games_cover_what_the_format_can_hold() -> None:
    """The round-trip games above exercise every feature: several rounds, refills, calls, caps, teams."""
    shuffles = sum(len(r["reshuffles"]) for name in GAMES if "shuffle" in name for r in bot_record(name)["rounds"])
    assert shuffles > 0
    for name in GAMES:
        if "shuffle" not in name:
            assert all(r["reshuffles"] == [] for r in bot_record(name)["rounds"])
    kinds = {a["act"] for name in GAMES for r in bot_record(name)["rounds"] for a in r["actions"]}
    assert kinds >= {"draw", "take", "exchange", "discard", "racko"}
    assert any(len(bot_game(name).rounds) > 2 for name in GAMES)
    assert any(result.capped for name in GAMES for result in bot_game(name).results)
    assert any(result.winner is not None for name in GAMES for result in bot_game(name).results)
    for name in GAMES:
        match = bot_game(name)
        dealers = [r.dealer for r in match.rounds]
        assert dealers == [(match.first_dealer + k) % match.rules.players for k in range(len(dealers))]


def test_a_game_in_progress_round_trips_mid_turn(tmp_path: Path) -> None:
    rules = variant("bonus").rules(3, refill="shuffle", turn_cap=80)
    match = Match(rules, seed=42)
    players = [bots.create("random", seed=seat) for seat in range(3)]
    for _ in range(301):
        seat = match.to_act
        assert seat is not None
        match.apply(players[seat].act(match.observation(seat)))
    assert not match.over
    record = GameRecord.of(match, players=("Ann", "Bob", "Cy"))
    validator().validate(record.to_json())
    record.save(tmp_path / "game.json")
    replayed = replay(GameRecord.load(tmp_path / "game.json"))
    assert state(replayed) == state(match)
    assert replayed.to_act == match.to_act


def test_replay_can_stop_after_a_number_of_actions() -> None:
    match = bot_game("classic-3")
    record = GameRecord.of(match)
    first_round = len(match.rounds[0].actions)
    partway = replay(record, stop_after=first_round + 3)
    assert len(partway.rounds) == 2
    assert len(partway.round.actions) == 3
    assert partway.results == match.results[:1]
    assert replay(record, stop_after=0).actions == []


def test_names_and_other_top_level_keys_are_kept() -> None:
    data = example("figure3.json")
    data["app"] = {"version": "9.9", "tags": ["club night"]}
    record = GameRecord.from_json(data)
    assert record.players == ("Ann", "Bob")
    assert record.extra == {"note": data["note"], "app": {"version": "9.9", "tags": ["club night"]}}
    assert record.to_json() == data
    validator().validate(data)


def test_optional_keys_may_be_left_out_of_a_hand_written_record() -> None:
    """Only players, deck_size and two_player_rule are required rules; seed, players and reshuffles are optional."""
    data = example("figure3.json")
    data["rules"] = {"players": 2, "deck_size": 40, "two_player_rule": True}
    for key in ("seed", "players", "note"):
        del data[key]
    del data["rounds"][0]["reshuffles"]
    validator().validate(data)
    match = load(data)
    assert match.rules == variant("classic").rules(2)
    assert match.totals == (30, 75)


# --- The hand-written examples ------------------------------------------------------------------


EXAMPLE_TOTALS = {
    "figure3.json": ((30, 75), False),
    "racko-from-the-deal.json": ((75, 50, 5), True),
    "bonus-wait.json": ((40, 175), False),
    "shuffle-refill.json": ((5, 5), False),
}


def test_the_examples_folder_holds_the_examples_tested_here() -> None:
    # The High-Low examples (highlow-*.json) are tested in tests/test_highlow.py.
    names = {path.name for path in EXAMPLES.glob("*.json") if not path.name.startswith("highlow-")}
    assert names == {*EXAMPLE_TOTALS, "illegal-discard-after-take.json"}


@pytest.mark.parametrize("name", sorted(EXAMPLE_TOTALS))
def test_an_example_record_validates_and_replays(name: str, tmp_path: Path) -> None:
    data = example(name)
    validator().validate(data)
    record = GameRecord.load(EXAMPLES / name)
    match = replay(record)
    totals, over = EXAMPLE_TOTALS[name]
    assert match.totals == totals
    assert match.over is over
    # Written back by the engine, the example is the same record.
    GameRecord.of(match, players=record.players).save(tmp_path / name)
    again = GameRecord.load(tmp_path / name)
    assert again.rounds[0] == record.rounds[0]
    assert again.rules == record.rules


def test_figure3_deals_the_racks_it_was_written_for() -> None:
    record = GameRecord.load(EXAMPLES / "figure3.json")
    dealt = replay(record, stop_after=0).round
    assert dealt.rack(0) == tuple(FIGURE_3)
    assert dealt.rack(1) == tuple(SEAT_1_DEALT)
    assert dealt.discard_pile == (29,)
    assert dealt.to_act == 1
    assert not dealt.over  # in order, but no run of three: the 2-player rule keeps seat 1 from going out

    result = replay(record).results[0]
    assert result.winner == 1
    assert result.turns == 1
    assert result.racks[1] == (2, 5, 9, 13, 17, 20, 27, 28, 29, 35)
    assert result.racks[0] == tuple(FIGURE_3)
    assert result.scores == (30, 75)
    assert result.explain(0) == "in order up to slot 30, broken at slot 35: 6 x 5 = 30 points"


def test_the_deal_example_goes_rack_o_for_the_first_seat_in_play_order() -> None:
    match = load(example("racko-from-the-deal.json"))
    result = match.results[0]
    assert (result.winner, result.turns, result.scores) == (0, 0, (75, 50, 5))
    assert result.ordered[1] == 10  # seat 1 was dealt a rack in order too, but plays after seat 0
    assert match.actions == []
    assert match.outcome is not None and match.outcome.winner == 0


def test_the_bonus_example_waits_for_a_longer_run() -> None:
    data = example("bonus-wait.json")
    waited = replay(GameRecord.from_json(data), stop_after=3)
    assert waited.round.phase.value == "pick" and waited.to_act == 0
    result = load(data).results[0]
    assert (result.winner, result.run, result.bonus, result.scores) == (1, 4, 100, (40, 175))
    # Calling at once instead of waiting scores a run of three: 75 + 50.
    data["rounds"][0]["actions"] = [*data["rounds"][0]["actions"][:2], {"seat": 1, "act": "racko"}]
    assert load(data).results[0].scores == (40, 125)


def test_a_version_1_bonus_record_is_read_with_the_pass_that_ends_every_turn() -> None:
    # Version 1 wrote a "wait" only when the rack qualified: seat 0's turn below ended without one.
    data = example("bonus-wait.json")
    actions = data["rounds"][0]["actions"]
    version_1 = {**data, "version": 1, "rounds": [{**data["rounds"][0], "actions": actions[:5] + actions[6:]}]}
    assert {"seat": 0, "act": "wait"} not in version_1["rounds"][0]["actions"]
    record = GameRecord.from_json(version_1)
    assert record.to_json()["rounds"] == data["rounds"] and record.to_json()["version"] == RECORD_VERSION
    assert load(version_1).results == load(data).results
    # Without the upgrade the same version-2 reading would be refused: the pass is where the turn ends.
    error = refused({**version_1, "version": RECORD_VERSION})
    assert "Action 6" in str(error) and "seat 0 is to play, not seat 1" in str(error)


def test_the_shuffle_example_turns_up_the_first_card_of_the_recorded_reshuffle() -> None:
    data = example("shuffle-refill.json")
    new_stock = data["rounds"][0]["reshuffles"][0]
    after_refill = replay(GameRecord.from_json(data), stop_after=38).round
    assert after_refill.discard_pile == (new_stock[0],)
    assert after_refill.stock() == tuple(new_stock[1:])
    assert after_refill.public_view().turned_over_pile == tuple(range(1, 21))
    assert after_refill.reshuffles == [tuple(new_stock)]
    result = load(data).results[0]
    assert result.capped and result.winner is None and result.turns == 20


def test_the_illegal_example_has_the_right_shape_but_is_refused_at_action_2() -> None:
    data = example("illegal-discard-after-take.json")
    validator().validate(data)
    error = refused(data)
    assert error.action_number == 2
    assert str(error) == (
        "Action 2 (round 1, seat 1: discard the card in hand) is illegal: "
        "You took 29 from the discard pile, so you must place it in your rack."
    )


# --- Hand-written decks reproduce rule situations ----------------------------------------------

ORDERED_WITH_RUN = [2, 5, 9, 13, 17, 28, 29, 30, 33, 37]
FALLING = [40, 39, 38, 36, 35, 34, 32, 31, 27, 26]


def test_a_rack_o_from_the_deal_ends_round_1_before_any_action() -> None:
    rules = variant("classic").rules(2, target=75)
    deck = deal_deck([FALLING, ORDERED_WITH_RUN], dealer=0, turned_up=1, stock=[], deck_size=40)
    match = load(hand_record(rules, [{"dealer": 0, "deck": deck, "actions": []}]))
    first = match.results[0]
    assert (first.winner, first.turns, first.scores) == (1, 0, (5, 75))
    assert first.racks == (tuple(FALLING), tuple(ORDERED_WITH_RUN))
    assert match.over and len(match.rounds) == 1


def test_a_rack_o_from_the_deal_in_a_game_that_goes_on_replays() -> None:
    rules = variant("classic").rules(2)
    deck = deal_deck([FALLING, ORDERED_WITH_RUN], dealer=0, turned_up=1, stock=[], deck_size=40)
    # The engine's own record of such a game: round 1 ends at the deal, round 2 is dealt by seat 1.
    played = Match(rules, seed=5, first_dealer=0, decks=[deck])
    assert played.results[0].winner == 1 and len(played.rounds) == 2 and played.round.dealer == 1
    match = replay(GameRecord.of(played))
    assert state(match) == state(played)


def test_a_rack_o_from_the_deal_in_round_2_replays() -> None:
    data = example("figure3.json")
    deck = deal_deck([ORDERED_WITH_RUN, FALLING], dealer=1, turned_up=1, stock=[], deck_size=40)
    data["rounds"].append({"dealer": 1, "deck": deck, "reshuffles": [], "actions": []})
    match = load(data)
    assert match.totals == (30 + 75, 75 + 5)


def test_the_first_qualifying_seat_from_the_dealers_left_goes_out_from_the_deal() -> None:
    rules = variant("classic").rules(3, target=75)  # the game ends there
    other = [1, 4, 7, 11, 15, 19, 21, 22, 23, 24]
    deck = deal_deck([ORDERED_WITH_RUN, list(range(50, 40, -1)), other], dealer=0, turned_up=3, stock=[], deck_size=50)
    result = load(hand_record(rules, [{"dealer": 0, "deck": deck, "actions": []}])).results[0]
    assert result.winner == 2  # seats 2 and 0 both qualify; play starts at seat 1, then seat 2
    assert result.scores == (50, 5, 75)


def test_an_ordered_rack_without_a_run_does_not_go_out_under_the_2_player_rule() -> None:
    rules = variant("classic").rules(2)
    falling = [40, 39, 38, 37, 36, 34, 33, 32, 30, 29]
    deck = deal_deck([falling, SEAT_1_DEALT], dealer=0, turned_up=1, stock=[], deck_size=40)
    match = load(hand_record(rules, [{"dealer": 0, "deck": deck, "actions": []}]))
    assert match.results == [] and match.to_act == 1
    without_the_rule = hand_record(
        rules.replace(two_player_rule=False, target=75), [{"dealer": 0, "deck": deck, "actions": []}]
    )
    assert load(without_the_rule).results[0].winner == 1


def test_without_auto_racko_a_qualifying_deal_waits_for_a_call() -> None:
    rules = variant("bonus").rules(2)
    deck = deal_deck([FALLING, ORDERED_WITH_RUN], dealer=0, turned_up=1, stock=[], deck_size=40)
    not_yet = load(hand_record(rules, [{"dealer": 0, "deck": deck, "actions": []}]))
    assert not_yet.results == [] and not_yet.to_act == 1
    called = load(hand_record(rules, [{"dealer": 0, "deck": deck, "actions": [{"seat": 1, "act": "racko"}]}]))
    assert called.results[0].scores == (5, 75 + 50)
    error = refused(hand_record(rules, [{"dealer": 0, "deck": deck, "actions": [{"seat": 1, "act": "wait"}]}]))
    assert error.action_number == 1
    assert (
        "Action 1 (round 1, seat 1: wait (end the turn without calling Rack-O)) is illegal: You can only wait"
        in str(error)
    )


# --- Corrupt records are refused with a clear RecordError --------------------------------------


def set_in(path: tuple[Any, ...], value: Any) -> Callable[[Any], None]:
    def mutate(data: Any) -> None:
        for key in path[:-1]:
            data = data[key]
        data[path[-1]] = value

    return mutate


def del_in(path: tuple[Any, ...]) -> Callable[[Any], None]:
    def mutate(data: Any) -> None:
        for key in path[:-1]:
            data = data[key]
        del data[path[-1]]

    return mutate


def drop_last_card(data: Any) -> None:
    data["rounds"][0]["deck"].pop()


def duplicate_card(data: Any) -> None:
    deck = data["rounds"][0]["deck"]
    deck[5] = deck[6]


def add_card(data: Any) -> None:
    data["rounds"][0]["deck"].append(41)


DECK = ("rounds", 0, "deck")
ACTIONS = ("rounds", 0, "actions")

# (mutation of figure3.json, the message (or a part of it), the action number)
CORRUPT: dict[str, tuple[Callable[[Any], None], str, int | None]] = {
    "format wrong": (set_in(("format",), "chess-record"), "This is not a racko record", None),
    "format missing": (del_in(("format",)), "This is not a racko record", None),
    "version 3": (set_in(("version",), 3), "Unsupported record version 3; this racko reads versions 1 and 2.", None),
    "version missing": (del_in(("version",)), "Unsupported record version None", None),
    "rules not an object": (set_in(("rules",), "classic"), "Bad rules: The rules must be a JSON object.", None),
    "unknown rule option": (set_in(("rules", "jokers"), True), "Bad rules: Unknown rule option(s): jokers.", None),
    "rule option missing": (
        del_in(("rules", "deck_size")),
        "Bad rules: The rules lack the option(s): deck_size.",
        None,
    ),
    "unknown variant": (set_in(("rules", "variant"), "poker"), "Bad rules: Unknown variant 'poker'", None),
    "unknown refill": (set_in(("rules", "refill"), "riffle"), "Bad rules: Unknown refill rule 'riffle'", None),
    "five players": (set_in(("rules", "players"), 5), "Bad rules: Classic Rack-O is played by 1 to 4 players", None),
    "deck too small": (set_in(("rules", "deck_size"), 21), "Bad rules: A deck of 21 cards is too small", None),
    "partners for two": (set_in(("rules", "partners"), True), "Bad rules: Partners Rack-O is played by exactly", None),
    "turn cap 0": (set_in(("rules", "turn_cap"), 0), "Bad rules: The turn cap must be a positive whole number", None),
    "target a string": (set_in(("rules", "target"), "500"), "Bad rules: The target score must be a positive", None),
    "flag not a bool": (set_in(("rules", "bonus"), "no"), "Bad rules: The option bonus must be true or false.", None),
    "seed a string": (set_in(("seed",), "abc"), "The seed must be a whole number or null.", None),
    "seed a float": (set_in(("seed",), 1.5), "The seed must be a whole number or null.", None),
    "first dealer out of range": (set_in(("first_dealer",), 2), '"first_dealer" must be a seat from 0 to 1.', None),
    "first dealer missing": (del_in(("first_dealer",)), '"first_dealer" must be a seat from 0 to 1.', None),
    "first dealer a bool": (set_in(("first_dealer",), False), '"first_dealer" must be a seat from 0 to 1.', None),
    "one name for two": (set_in(("players",), ["Ann"]), '"players" must list 2 names.', None),
    "a name not a string": (set_in(("players",), ["Ann", 2]), '"players" must list 2 names.', None),
    "rounds missing": (del_in(("rounds",)), '"rounds" must be a list.', None),
    "round not an object": (set_in(("rounds", 0), []), "Round 1 must be a JSON object.", None),
    "round with unknown field": (set_in(("rounds", 0, "hands"), []), "Round 1 has unknown field(s): hands.", None),
    "dealer a string": (set_in(("rounds", 0, "dealer"), "0"), 'Round 1: "dealer" must be a seat number.', None),
    "wrong dealer": (
        set_in(("rounds", 0, "dealer"), 1),
        "Round 1: the record says seat 1 dealt, but the deal passes to seat 0.",
        None,
    ),
    "dealer not a seat": (
        set_in(("rounds", 0, "dealer"), 5),
        "Round 1: the record says seat 5 dealt, but the deal passes to seat 0.",
        None,
    ),
    "deck missing a card": (
        drop_last_card,
        "Round 1: The deck must hold each card from 1 to 40 exactly once (got 39 cards).",
        None,
    ),
    "deck with a duplicate card": (
        duplicate_card,
        "Round 1: The deck must hold each card from 1 to 40 exactly once (got 40 cards).",
        None,
    ),
    "deck with card 41": (
        add_card,
        "Round 1: The deck must hold each card from 1 to 40 exactly once (got 41 cards).",
        None,
    ),
    "card a string": (set_in((*DECK, 0), "35"), 'Round 1: "deck" must be a list of card numbers.', None),
    "card a float": (set_in((*DECK, 0), 35.0), 'Round 1: "deck" must be a list of card numbers.', None),
    "card a bool": (set_in((*DECK, 0), True), 'Round 1: "deck" must be a list of card numbers.', None),
    "card null": (set_in((*DECK, 0), None), 'Round 1: "deck" must be a list of card numbers.', None),
    "deck missing": (del_in(DECK), 'Round 1: "deck" must be a list of card numbers.', None),
    "reshuffles not lists": (
        set_in(("rounds", 0, "reshuffles"), [1, 2]),
        'Round 1: "reshuffles" must be a list of lists of card numbers.',
        None,
    ),
    "reshuffles with flip": (
        set_in(("rounds", 0, "reshuffles"), [[31, 29]]),
        "The record lists reshuffles, but its refill rule is 'flip' (no shuffling).",
        None,
    ),
    "actions missing": (del_in(ACTIONS), 'Round 1: "actions" must be a list.', None),
    "unknown action kind": (
        set_in((*ACTIONS, 0), {"seat": 1, "act": "pass"}),
        "Action 1 (round 1): Unknown action 'pass'; known: draw, take, exchange, discard, racko, wait.",
        1,
    ),
    "action without act": (set_in((*ACTIONS, 0), {"seat": 1}), "Action 1 (round 1): Unknown action None", 1),
    "action not an object": (set_in((*ACTIONS, 0), "take"), "Action 1 (round 1): An action must be a JSON object", 1),
    "seat a string": (
        set_in((*ACTIONS, 0), {"seat": "1", "act": "take"}),
        "Action 1 (round 1): The action's seat must be a whole number, not '1'.",
        1,
    ),
    "exchange into slot 7": (
        set_in((*ACTIONS, 1, "slot"), 7),
        "Action 2 (round 1): An exchange needs a slot 5, 10, ... 50, not 7.",
        2,
    ),
    "exchange into slot 55": (
        set_in((*ACTIONS, 1, "slot"), 55),
        "Action 2 (round 1): An exchange needs a slot 5, 10, ... 50, not 55.",
        2,
    ),
    "exchange into slot index 0": (set_in((*ACTIONS, 1, "slot"), 0), "needs a slot 5, 10, ... 50, not 0.", 2),
    "exchange slot a string": (set_in((*ACTIONS, 1, "slot"), "45"), "needs a slot 5, 10, ... 50, not '45'.", 2),
    "exchange slot a bool": (set_in((*ACTIONS, 1, "slot"), True), "needs a slot 5, 10, ... 50, not True.", 2),
    "exchange without slot": (del_in((*ACTIONS, 1, "slot")), "needs a slot 5, 10, ... 50, not None.", 2),
    "take with a slot": (
        set_in((*ACTIONS, 0, "slot"), 45),
        "Action 1 (round 1): Unexpected field(s) in a 'take' action: slot.",
        1,
    ),
    "out of turn": (
        set_in((*ACTIONS, 0, "seat"), 0),
        "Action 1 (round 1, seat 0: take the top discard) is illegal: "
        "It is not your turn: seat 1 is to play, not seat 0.",
        1,
    ),
    "a seat that is not at the table": (
        set_in((*ACTIONS, 0, "seat"), 7),
        "It is not your turn: seat 1 is to play, not seat 7.",
        1,
    ),
    "exchange before picking a card": (
        set_in((*ACTIONS, 0), {"seat": 1, "act": "exchange", "slot": 45}),
        "Action 1 (round 1, seat 1: exchange into slot 45) is illegal: You cannot exchange a card now: "
        "first draw from the stock or take the top discard.",
        1,
    ),
    "calling Rack-O without a run of three": (
        set_in((*ACTIONS, 0), {"seat": 1, "act": "racko"}),
        "Action 1 (round 1, seat 1: call Rack-O) is illegal: Your rack is in order, but with two players a Rack-O "
        "needs a run of at least three",
        1,
    ),
}


@pytest.mark.parametrize("name", list(CORRUPT))
def test_a_corrupt_record_is_refused_with_the_reason(name: str) -> None:
    mutate, message, number = CORRUPT[name]
    data = example("figure3.json")
    mutate(data)
    error = refused(data)
    assert message in str(error)
    assert error.action_number == number


@pytest.mark.parametrize(
    "name",
    [
        "format wrong",
        "version 3",
        "unknown rule option",
        "unknown variant",
        "card a string",
        "deck missing",
        "unknown action kind",
        "exchange into slot 7",
        "exchange into slot 55",
        "seat a string",
        "take with a slot",
        "first dealer missing",
    ],
)
def test_the_schema_also_refuses_the_misshapen_ones(name: str) -> None:
    data = example("figure3.json")
    CORRUPT[name][0](data)
    assert not validator().is_valid(data)


def test_text_that_is_not_json_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    path.write_text('{"format": "racko-record",', encoding="utf-8")
    with pytest.raises(RecordError, match=r"^Not valid JSON: .* at line 1, column \d+\.$"):
        GameRecord.load(path)
    path.write_bytes(b"\xff\xfe\x00garbage")
    with pytest.raises(RecordError, match=r"^Not a text file"):
        GameRecord.load(path)


@pytest.mark.parametrize("text", ["[1, 2]", '"racko-record"', "42", "null", "true"])
def test_json_that_is_not_an_object_is_refused(text: str) -> None:
    with pytest.raises(RecordError, match=r"^A racko record is a JSON object\.$"):
        GameRecord.loads(text)


def test_a_missing_file_is_refused_naming_it(tmp_path: Path) -> None:
    with pytest.raises(RecordError, match=r"^No such file\.$"):
        GameRecord.load(tmp_path / "nowhere.json")


def test_an_illegal_action_in_the_middle_is_numbered_over_the_whole_record() -> None:
    data = bot_record("classic-3")
    assert len(data["rounds"]) >= 3
    before = len(data["rounds"][0]["actions"]) + len(data["rounds"][1]["actions"])
    actions = data["rounds"][2]["actions"]
    seat = actions[4]["seat"]
    actions[4] = {"seat": (seat + 1) % 3, "act": actions[4]["act"]}
    if actions[4]["act"] == "exchange":
        actions[4]["slot"] = 5
    error = refused(data)
    number = before + 5
    assert error.action_number == number
    assert str(error).startswith(f"Action {number} (round 3, seat {(seat + 1) % 3}: ")
    assert f"is illegal: It is not your turn: seat {seat} is to play, not seat {(seat + 1) % 3}." in str(error)


def test_an_unreadable_action_in_a_later_round_is_numbered_over_the_whole_record() -> None:
    data = bot_record("classic-4")
    before = len(data["rounds"][0]["actions"])
    data["rounds"][1]["actions"][9] = {"seat": 0, "act": "exchange", "slot": 7}
    with pytest.raises(RecordError) as info:
        GameRecord.from_json(data)
    assert info.value.action_number == before + 10
    assert str(info.value) == f"Action {before + 10} (round 2): An exchange needs a slot 5, 10, ... 50, not 7."


def test_a_round_after_the_game_is_over_is_refused() -> None:
    data = bot_record("classic-3")
    rounds = data["rounds"]
    extra = copy.deepcopy(rounds[-1])
    extra["dealer"] = (extra["dealer"] + 1) % 3
    extra["actions"] = []
    rounds.append(extra)
    validator().validate(data)
    n = len(rounds)
    error = refused(data)
    assert str(error) == f"Round {n} was recorded, but the game was already over after round {n - 1}."


def test_an_action_after_the_game_is_over_is_refused() -> None:
    data = bot_record("classic-3")
    last = data["rounds"][-1]["actions"]
    last.append({"seat": 0, "act": "draw"})
    error = refused(data)
    number = sum(len(r["actions"]) for r in data["rounds"])
    assert error.action_number == number
    assert str(error).endswith("comes after the game was over.")


def test_a_round_that_starts_before_the_previous_one_ended_is_refused() -> None:
    data = bot_record("classic-3")
    data["rounds"][0]["actions"].pop()
    error = refused(data)
    assert str(error) == "Round 2 starts before round 1 was over."
    assert error.action_number is None


def test_the_wrong_dealer_in_a_later_round_is_refused() -> None:
    data = bot_record("classic-4")
    data["rounds"][2]["dealer"] = data["rounds"][1]["dealer"]
    error = refused(data)
    assert str(error) == (
        f"Round 3: the record says seat {data['rounds'][1]['dealer']} dealt, "
        f"but the deal passes to seat {(data['rounds'][1]['dealer'] + 1) % 4}."
    )


def test_reshuffles_with_the_flip_refill_are_refused_in_any_round() -> None:
    data = bot_record("classic-2")
    data["rounds"][-1]["reshuffles"] = [list(range(1, 41))]
    assert str(refused(data)) == "The record lists reshuffles, but its refill rule is 'flip' (no shuffling)."


@pytest.mark.parametrize(
    "change",
    [
        pytest.param(lambda order: order.__setitem__(3, 40), id="a card from a rack"),
        pytest.param(lambda order: order.pop(), id="a card short"),
        pytest.param(lambda order: order.append(40), id="a card too many"),
        pytest.param(lambda order: order.__setitem__(3, order[4]), id="a card twice"),
    ],
)
def test_a_reshuffle_that_does_not_hold_the_discard_pile_is_refused(change: Callable[[list[int]], None]) -> None:
    data = example("shuffle-refill.json")
    change(data["rounds"][0]["reshuffles"][0])
    error = refused(data)
    # The 19th turn (actions 37 and 38) draws the last card; the refill follows its discard, action 38.
    assert error.action_number == 38
    assert str(error) == (
        "Action 38 (round 1): The recorded reshuffle in round 1 does not hold the cards of the discard pile."
    )


def test_a_recorded_reshuffle_in_a_bot_game_that_is_changed_is_refused() -> None:
    data = bot_record("classic-2-shuffle")
    where = next(i for i, r in enumerate(data["rounds"]) if r["reshuffles"])
    order = data["rounds"][where]["reshuffles"][0]
    deck = data["rounds"][where]["deck"]
    outsider = next(card for card in deck[:20] if card not in order)  # a card dealt into a rack
    order[0] = outsider
    error = refused(data)
    assert error.action_number is not None
    assert f"(round {where + 1}): The recorded reshuffle in round {where + 1} does not hold" in str(error)


# --- Malformed values and misplaced entries --------------------------------------------------


@pytest.mark.parametrize("act", [["draw"], {"kind": "draw"}])
def test_an_action_kind_that_is_not_a_string_is_refused(act: Any) -> None:
    data = example("figure3.json")
    data["rounds"][0]["actions"][0] = {"seat": 1, "act": act}
    error = refused(data)
    assert error.action_number == 1


def test_a_variant_that_is_not_a_string_is_refused() -> None:
    data = example("figure3.json")
    data["rules"]["variant"] = ["classic"]
    assert "variant" in str(refused(data))


@pytest.mark.parametrize(
    "path",
    [("rules", "players"), ("rules", "target"), ("rules", "turn_cap"), ("version",)],
    ids=lambda path: ".".join(path),
)
def test_true_is_not_a_number(path: tuple[str, ...]) -> None:
    data = example("figure3.json")
    del data["players"]
    set_in(path, True)(data)
    assert not validator().is_valid(data)
    with pytest.raises(RecordError):
        GameRecord.from_json(data)


def test_an_action_recorded_in_the_wrong_round_is_refused() -> None:
    data = bot_record("classic-3")
    moved = data["rounds"][1]["actions"].pop(0)
    data["rounds"][0]["actions"].append(moved)
    error = refused(data)
    assert error.action_number == len(data["rounds"][0]["actions"])


def test_a_bad_deck_in_a_later_round_names_that_round() -> None:
    data = bot_record("classic-3")
    data["rounds"][1]["deck"].pop()
    error = refused(data)
    assert str(error).startswith("Round 2: ")
    assert error.action_number is None


def test_a_reshuffle_that_never_happens_is_refused() -> None:
    data = example("shuffle-refill.json")
    data["rounds"][0]["reshuffles"].append([1, 2, 3])
    refused(data)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[" * 100_000 + "]" * 100_000, "nested too deeply"),
        ('{"format": "racko-record", "version": 1, "seed": ' + "9" * 5000 + "}", "Not a racko record"),
        ('{"format": "racko-record", "version": ' + "7" * 4000 + "}", "Unsupported record version"),
    ],
    ids=["deeply nested", "a 5,000-digit number", "a 4,000-digit version"],
)
def test_monstrous_json_is_refused_with_one_clear_line(text: str, message: str, tmp_path: Path) -> None:
    path = tmp_path / "monster.json"
    path.write_text(text)
    with pytest.raises(RecordError, match=message):
        GameRecord.load(path)


# --- Moves a computer player made for a person (made_by) --------------------------------------


def test_made_by_round_trips_validates_and_is_left_out_when_empty(tmp_path: Path) -> None:
    data = bot_record("classic-2")
    count = sum(len(round_["actions"]) for round_ in data["rounds"])
    made_by = {"1": "clock", "2": "gone", str(count): "left"}
    record = GameRecord.from_json({**data, "made_by": made_by})
    assert record.made_by == {1: "clock", 2: "gone", count: "left"}
    assert "made_by" not in record.extra
    written = record.to_json()
    assert written["made_by"] == made_by
    validator().validate(written)
    path = tmp_path / "game.json"
    record.save(path)
    assert GameRecord.load(path).made_by == record.made_by
    assert "made_by" not in GameRecord.from_json(data).to_json()  # an old record reads and writes as before


def test_made_by_follows_a_version_1_record_to_its_numbers_with_every_pass() -> None:
    data = example("bonus-wait.json")
    actions = data["rounds"][0]["actions"]
    version_1 = {**data, "version": 1, "rounds": [{**data["rounds"][0], "actions": actions[:5] + actions[6:]}]}
    # Version 1's action 6 is version 2's action 7: the pass that version 1 left out is action 6.
    record = GameRecord.from_json({**version_1, "made_by": {"6": "clock", "1": "gone"}})
    assert record.made_by == {7: "clock", 1: "gone"}


MADE_BY_CORRUPT: dict[str, tuple[Any, str]] = {
    "a list": ([1, 2], '"made_by" must be a JSON object'),
    "null": (None, '"made_by" must be a JSON object'),
    "action 0": ({"0": "clock"}, "'0' is not an action number"),
    "a leading zero": ({"01": "clock"}, "'01' is not an action number"),
    "a negative number": ({"-1": "clock"}, "'-1' is not an action number"),
    "a word": ({"first": "clock"}, "'first' is not an action number"),
    "a number with a space": ({" 1": "clock"}, "' 1' is not an action number"),
    "a huge number": ({"9" * 5000: "clock"}, "is not an action number"),
    "beyond the last action": ({"999": "clock"}, "there is no action 999 in this record: it has"),
    "an unknown reason": ({"1": "bot"}, 'action 1 must say "clock", "gone" or "left"'),
    "a reason that is not a string": ({"1": 1}, 'action 1 must say "clock", "gone" or "left"'),
}


@pytest.mark.parametrize("name", list(MADE_BY_CORRUPT))
def test_a_corrupt_made_by_is_refused_with_the_reason(name: str) -> None:
    value, message = MADE_BY_CORRUPT[name]
    data = {**example("figure3.json"), "made_by": value}
    error = refused(data)
    assert message in str(error)
    assert not validator().is_valid(data) or name == "beyond the last action"  # the schema cannot count actions
    with pytest.raises(RecordError, match="made_by"):
        GameRecord.loads(json.dumps(data))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    value=st.recursive(
        st.none() | st.booleans() | st.integers() | st.text(max_size=12),
        lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=12), inner, max_size=3),
        max_leaves=8,
    )
)
def test_any_made_by_either_reads_as_numbers_to_reasons_or_is_refused_with_a_record_error(value: Any) -> None:
    data = {**bot_record("classic-2"), "made_by": value}
    count = sum(len(round_["actions"]) for round_ in data["rounds"])
    try:
        record = GameRecord.from_json(data)
    except RecordError as error:
        assert "made_by" in str(error)
        return
    assert all(1 <= number <= count and why in ("clock", "gone", "left") for number, why in record.made_by.items())
    assert GameRecord.from_json(record.to_json()).made_by == record.made_by


@settings(max_examples=60, deadline=None)
@given(marks=st.dictionaries(st.integers(min_value=1, max_value=40), st.sampled_from(["clock", "gone", "left"])))
def test_valid_made_by_round_trips(marks: dict[int, str]) -> None:
    data = bot_record("classic-2")
    count = sum(len(round_["actions"]) for round_ in data["rounds"])
    assert count >= 40
    record = GameRecord.from_json({**data, "made_by": {str(number): why for number, why in marks.items()}})
    assert record.made_by == marks
    written = record.to_json()
    assert list(written.get("made_by", {})) == [str(number) for number in sorted(marks)]
    assert GameRecord.loads(json.dumps(written)).made_by == marks
