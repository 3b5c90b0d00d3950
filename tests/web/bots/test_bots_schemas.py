"""The published JSON Schemas of what a seat is sent (issue 52): docs/view.schema.json, docs/observation.schema.json
and docs/log-entry.schema.json. Here: they are valid schemas whose every field is described, they name exactly the
fields the server writes, and they refuse what is misshapen. That every frame of whole games fits them is checked
where those games are played: every frame a test checks (``tables.check_frame``: the table's WebSocket in
tests/web/table/test_table_protocol.py, the Bot API in every test of tests/web/bots/test_bots_api.py, whole games in
every variant among them, and tests/web/bots/test_bots_from_the_document.py) is checked against the schemas too."""

from __future__ import annotations

import copy
import dataclasses
import random
from collections.abc import Iterator
from typing import Any

import jsonschema
import pytest

import racko
from protocol_schemas import fast_validator, problems, schema, validator
from racko.events import Event
from racko.highlow.events import HighLowEvent
from racko.highlow.observation import HighLowObservation, HighLowResult, HighLowView
from racko.match import Match
from racko.observation import Observation, PublicView, RoundResult
from racko.observation_json import observation_to_json
from racko.play.session import PlaySession, SeatSpec
from racko.web.table import log_entries
from racko.web.table.views import view_of

PUBLISHED = ("view", "observation", "log-entry")


def walk(node: Any, path: str = "#") -> Iterator[tuple[str, Any]]:
    if isinstance(node, dict):
        yield path, node
        for key, value in node.items():
            yield from walk(value, f"{path}/{key}")
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from walk(value, f"{path}/{index}")


@pytest.mark.parametrize("name", PUBLISHED)
def test_each_schema_is_a_valid_draft_2020_12_schema_whose_every_field_is_described(name: str) -> None:
    data = schema(name)
    jsonschema.Draft202012Validator.check_schema(data)
    assert data["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert all(isinstance(data[key], str) and data[key] for key in ("$id", "title", "description"))
    undescribed = [
        f"{path}/properties/{field}"
        for path, node in walk(data)
        for field, sub in node.get("properties", {}).items()
        if isinstance(sub, dict) and not {"if", "then", "else"} & set(path.split("/")) and not sub.get("description")
    ]
    assert undescribed == []


# --- what the server writes --------------------------------------------------------------------------------------


def session_of(variant: str, players: int, seed: int = 3) -> PlaySession:
    """A game of people only (every seat moved by the test), to 75."""
    rules = racko.variant(variant).rules(players, target=75)
    return PlaySession(Match(rules, seed=seed), [SeatSpec(f"P{seat}") for seat in range(players)])


def test_the_observation_schema_names_every_field_of_the_engine_s_observations() -> None:
    classic = schema("observation")["$defs"]["classic"]["properties"]
    highlow = schema("observation")["$defs"]["highlow"]["properties"]
    assert set(classic) == {*Observation._fields, "family"}
    assert set(highlow) == {*HighLowObservation._fields, "family"}
    assert set(classic["public"]["properties"]) == set(PublicView._fields)
    assert set(highlow["public"]["properties"]) == set(HighLowView._fields)
    result = classic["public"]["properties"]["result"]["anyOf"][1]
    assert set(result["properties"]) == {field.name for field in dataclasses.fields(RoundResult)}
    result = highlow["public"]["properties"]["result"]["anyOf"][1]
    assert set(result["properties"]) == {field.name for field in dataclasses.fields(HighLowResult)}


def test_the_log_entry_schema_names_every_kind_of_event() -> None:
    kinds = {kind.kind for kind in [*Event.__args__, *HighLowEvent.__args__]}  # type: ignore[attr-defined]
    assert set(schema("log-entry")["properties"]["kind"]["enum"]) == kinds
    assert set(schema("log-entry")["$defs"]) == kinds


@pytest.mark.parametrize(("variant", "players"), [("classic", 2), ("bonus", 3), ("partners", 4), ("highlow", 5)])
def test_the_view_schema_names_exactly_the_fields_of_each_family_s_views(variant: str, players: int) -> None:
    """Every field a view of the family has is in the schema, and every field of the schema's is in a view of one
    family or the other (``ended``, ``states`` and ``winner_seats`` are added by the table: docs/PLAYING.md's ways
    out and a seat's life)."""
    session = session_of(variant, players)
    spectator, seat = view_of(session, None), view_of(session, 0)
    assert set(spectator) == set(seat)
    listed = set(schema("view")["properties"])
    family = schema("view")["then" if variant == "highlow" else "else"]["required"]
    assert set(seat) | {"ended"} == set(schema("view")["required"]) | set(family)
    assert set(seat) | {"ended", "states", "winner_seats"} <= listed
    for viewer in (None, 0):
        assert problems("view", view_of(session, viewer) | {"ended": None}) == [], viewer


# --- what they refuse ----------------------------------------------------------------------------------------------


def played(variant: str, players: int, actions: int) -> tuple[PlaySession, list[dict[str, Any]]]:
    """A game after ``actions`` random legal actions, with the log of all of them as seat 0 sees it."""
    session = session_of(variant, players)
    rng = random.Random(5)
    for _ in range(actions):
        session.play(rng.choice(session.observation(session.to_act).legal_actions()))  # type: ignore[arg-type]
    return session, log_entries(session.events_between(0, session.version, 0), session.names)


@pytest.mark.parametrize(("variant", "players"), [("classic", 2), ("highlow", 3)])
def test_the_schemas_refuse_what_is_misshapen_and_both_validators_agree(variant: str, players: int) -> None:
    session, log = played(variant, players, 60)
    seat = session.to_act
    view = view_of(session, seat) | {"ended": None}
    observation = observation_to_json(session.observation(seat))
    assert problems("view", view) == [] and problems("observation", observation) == []
    assert [problems("log-entry", entry) for entry in log] == [[]] * len(log)
    place = "slot" if variant != "highlow" else "position"
    placed = next(entry for entry in log if place in entry)
    broken = [
        ("view", {key: value for key, value in view.items() if key != "legal"}),  # a field missing
        ("view", view | {"secret": 1}),  # a field nobody documented
        ("view", view | {"legal": [{"act": "exchange", "slot": 0, "seat": seat}]}),  # a slot by its index
        ("view", view | {"legal": [{"act": "draw"}]}),  # a legal action without its seat
        ("view", view | {"phase": "deal"}),
        ("view", view | {"known": [[None] * 10] * players, "rows": view.get("rows") or [[1] * 10] * 3}),  # both shapes
        ("view", view | {"rack": [*view["rack"][:9]]}),  # nine cards
        ("log-entry", placed | {place: 0 if variant == "highlow" else 3}),  # slot 20, position 1 as v1 wrote them
        ("log-entry", placed | {"kind": "shuffled"}),
        ("log-entry", {key: value for key, value in placed.items() if key != "text"}),
        ("observation", observation | {"family": "chess"}),
        ("observation", observation | {"seat": "0"}),
        ("observation", copy.deepcopy(observation) | {"public": observation["public"] | {"stock_size": -1}}),
        ("observation", observation | {"deck": [1, 2, 3]}),  # what no seat may know has no place in it
    ]
    if variant == "highlow":
        broken.append(("observation", observation | {"held": "W"}))  # the engine's Wild is 0: the view's is "W"
        broken.append(("view", view | {"held": 0}))
    for name, instance in broken:
        assert problems(name, instance), (name, instance)
        assert not validator(name).is_valid(instance) and not fast_validator(name).is_valid(instance), name
    for name, instance in [("view", view), ("observation", observation), *(("log-entry", entry) for entry in log)]:
        assert validator(name).is_valid(instance) and fast_validator(name).is_valid(instance), name
