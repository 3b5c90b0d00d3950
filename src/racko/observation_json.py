"""One seat's observation as JSON and back, for a player that is not in this process (the web server's Bot API,
docs/BOTS.md): the same :class:`~racko.observation.Observation` (or High-Low's) that racko's own bots decide from,
so that a policy written for the engine plays unchanged at a server.  It holds what the seat may know and nothing
more: it is the seat's own observation, field for field."""

from __future__ import annotations

import dataclasses
import enum
from typing import Any

from racko.highlow.observation import HighLowObservation, HighLowPhase, HighLowResult, HighLowView
from racko.observation import Observation, Phase, PublicView, RoundResult
from racko.rules import Rules

AnyObservation = Observation | HighLowObservation


def _plain(value: Any) -> Any:
    if isinstance(value, Rules):
        return value.to_dict()
    if isinstance(value, enum.Enum):
        return value.value
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {field.name: _plain(getattr(value, field.name)) for field in dataclasses.fields(value)}
    if isinstance(value, tuple) and hasattr(value, "_fields"):
        return {name: _plain(getattr(value, name)) for name in value._fields}
    if isinstance(value, (tuple, list)):
        return [_plain(part) for part in value]
    return value


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
