"""The published JSON Schemas of what a seat is sent (docs/view.schema.json, docs/observation.schema.json,
docs/log-entry.schema.json; they refer to docs/record.schema.json by its ``$id``), as validators: every test that
checks a frame (:func:`tables.check_frame`) checks it against them too."""

from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import Any

import jsonschema
from referencing import Registry, Resource

DOCS = Path(__file__).resolve().parents[1] / "docs"
SCHEMAS = ("record", "view", "observation", "log-entry")


@functools.cache
def schema(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((DOCS / f"{name}.schema.json").read_text(encoding="utf-8"))
    return data


@functools.cache
def registry() -> Registry[Any]:
    """The four schemas by their ``$id``, as a client would load them."""
    resources = [(schema(name)["$id"], Resource.from_contents(schema(name))) for name in SCHEMAS]
    return Registry().with_resources(resources)


@functools.cache
def validator(name: str) -> jsonschema.Draft202012Validator:
    """The schema as published, its references resolved through :func:`registry`."""
    return jsonschema.Draft202012Validator(schema(name), registry=registry())


@functools.cache
def fast_validator(name: str) -> jsonschema.Draft202012Validator:
    """The same schema with every reference replaced by what it names (they hold no cycle): twice as fast, for the
    tests that check every frame of whole games (:func:`check_state`)."""
    return jsonschema.Draft202012Validator(_inlined(schema(name), schema(name)))


def _inlined(node: Any, document: dict[str, Any]) -> Any:
    if isinstance(node, list):
        return [_inlined(part, document) for part in node]
    if not isinstance(node, dict):
        return node
    if "$ref" not in node:
        return {key: _inlined(value, document) for key, value in node.items()}
    address, _, pointer = node["$ref"].partition("#")
    named = next(schema(name) for name in SCHEMAS if schema(name)["$id"] == address) if address else document
    target: Any = named
    for part in filter(None, pointer.split("/")):
        target = target[part]
    rest = {key: value for key, value in node.items() if key != "$ref"}
    return _inlined(target, named) | _inlined(rest, document)


def problems(name: str, instance: Any) -> list[str]:
    """What is wrong with ``instance`` by the schema ``name`` (empty: it fits), each with where."""
    if fast_validator(name).is_valid(instance):
        return []
    found = sorted(validator(name).iter_errors(instance), key=lambda error: list(error.absolute_path))
    return [f"{'/'.join(map(str, error.absolute_path)) or '(top)'}: {error.message[:300]}" for error in found]


def check_state(frame: dict[str, Any]) -> None:
    """A ``state`` frame's view, log entries and (the Bot API's) observation fit the published schemas."""
    wrong = problems("view", frame["view"])
    for number, entry in enumerate(frame["log"]):
        wrong += [f"log/{number}/{problem}" for problem in problems("log-entry", entry)]
    if "observation" in frame:
        wrong += [f"observation/{problem}" for problem in problems("observation", frame["observation"])]
    assert not wrong, wrong[:5]
