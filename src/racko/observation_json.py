"""One seat's observation as JSON and back, for a player that is not in this process (the web server's Bot API,
docs/BOTS.md): the same :class:`~racko.observation.Observation` (or High-Low's) that racko's own bots decide from,
so that a policy written for the engine plays unchanged at a server.  It holds what the seat may know and nothing
more: it is the seat's own observation, field for field."""

from __future__ import annotations

import dataclasses
import enum
import functools
from typing import Any

from racko.highlow.observation import HighLowObservation, HighLowPhase, HighLowResult, HighLowView
from racko.observation import Observation, Phase, PublicView, RoundResult
from racko.rules import Rules

AnyObservation = Observation | HighLowObservation


_LEAVES = frozenset({int, str, float, bool, type(None)})
"""What JSON writes as it is."""


def _plain(value: Any) -> Any:
    # Every state a bot is sent carries one (docs/BOTS.md): the common cases first, by exact type, and what does
    # not change within a table (its rules, a class's fields) worked out once.
    kind = type(value)
    if kind in _LEAVES:
        return value
    if kind is tuple or kind is list:
        if all(type(part) in _LEAVES for part in value):
            return list(value)
        return [_plain(part) for part in value]
    if kind is Rules:
        return _rules(value)
    if isinstance(value, enum.Enum):
        return value.value
    if kind not in _FIELD_NAMES:
        _FIELD_NAMES[kind] = _field_names(kind)
    names = _FIELD_NAMES[kind]
    if names is not None:
        return {name: _plain(getattr(value, name)) for name in names}
    if isinstance(value, (tuple, list)):
        return [_plain(part) for part in value]
    return value


@functools.lru_cache(maxsize=256)
def _rules(rules: Rules) -> dict[str, Any]:
    """The rules as :meth:`Rules.to_dict` writes them (read only: shared by every observation of those rules)."""
    return rules.to_dict()


_FIELD_NAMES: dict[type, tuple[str, ...] | None] = {}
"""The field names of each type seen (:func:`_field_names`)."""


def _field_names(kind: type) -> tuple[str, ...] | None:
    """The fields of a dataclass or a named tuple, in order (None for any other type)."""
    if dataclasses.is_dataclass(kind):
        return tuple(field.name for field in dataclasses.fields(kind))
    if issubclass(kind, tuple) and hasattr(kind, "_fields"):
        return tuple(kind._fields)
    return None


def _tuples(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_tuples(part) for part in value)
    return value


def observation_to_json(observation: AnyObservation) -> dict[str, Any]:
    """The observation as a JSON object (its fields by name; the rules as :meth:`Rules.to_dict` writes them)."""
    plain: dict[str, Any] = _plain(observation)
    plain["family"] = "highlow" if isinstance(observation, HighLowObservation) else "classic"
    return plain


def observation_from_json(data: dict[str, Any]) -> AnyObservation:
    """The observation :func:`observation_to_json` wrote; ``ValueError`` (or ``KeyError``, ``TypeError``) if it is
    not one."""
    public = {key: _tuples(value) for key, value in data["public"].items()}
    public["rules"] = Rules.from_dict(data["public"]["rules"])
    result = {key: _tuples(value) for key, value in public["result"].items()} if public.get("result") else None
    if data.get("family") == "highlow":
        public["phase"] = HighLowPhase(public["phase"])
        public["result"] = HighLowResult(**result) if result is not None else None
        return HighLowObservation(int(data["seat"]), data["held"], HighLowView(**public))
    public["phase"] = Phase(public["phase"])
    public["result"] = RoundResult(**result) if result is not None else None
    return Observation(int(data["seat"]), _tuples(data["rack"]), data["held"], PublicView(**public))
