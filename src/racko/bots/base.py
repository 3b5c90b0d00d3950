"""The bot interface and the registry of bots by name."""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from typing import ClassVar, TypeVar

from racko.errors import RackoError
from racko.families import AnyAction, AnyObservation
from racko.rules import VARIANTS, variant


class Bot(ABC):
    """A computer player.  It is given its seat's observation and answers with a legal action.

    A bot may remember what its observations showed it during a round; it never
    sees the game object.  Its randomness comes from its own seeded generator.
    """

    name: ClassVar[str]
    description: ClassVar[str]
    level: ClassVar[int]
    """Strength rank: 0 for ``random``, higher is stronger (the order players choose from)."""
    variants: ClassVar[frozenset[str]] = frozenset(VARIANTS)
    """The variants this bot plays (by their canonical names); every one unless a bot says otherwise."""
    listed: ClassVar[bool] = True
    """Whether it is a level players choose from (:func:`available`); playing styles for the arena are not
    (:func:`arena_opponents`)."""

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    @abstractmethod
    def act(self, observation: AnyObservation) -> AnyAction:
        """The action to take; called only when it is this bot's turn."""


BotType = TypeVar("BotType", bound=type[Bot])
_REGISTRY: dict[str, type[Bot]] = {}


def register(cls: BotType) -> BotType:
    """Class decorator: make a bot available to :func:`create` under its ``name``."""
    _REGISTRY[cls.name] = cls
    return cls


def create(name: str, seed: int | None = None) -> Bot:
    """A new bot of the named kind (see :func:`available`)."""
    try:
        cls = _REGISTRY[name]
    except KeyError:
        raise RackoError(f"Unknown bot {name!r}; available: {', '.join([*available(), *arena_opponents()])}.") from None
    return cls(seed=seed)


def available() -> list[str]:
    """The names of the levels players choose from, weakest first."""
    return sorted((name for name, cls in _REGISTRY.items() if _listed(cls)), key=lambda name: _REGISTRY[name].level)


def arena_opponents() -> list[str]:
    """The names of the playing styles that are not levels (arena opponents, types of player the opponent model
    knows): :func:`create` makes them as it makes levels."""
    return sorted(name for name, cls in _REGISTRY.items() if not _listed(cls))


def _listed(cls: type[Bot]) -> bool:
    # A bot of another build (racko.tools.builds) may predate ``listed``: such a bot is a level.
    return bool(getattr(cls, "listed", True))


def describe(name: str) -> str:
    """The one-line description of a bot, for players choosing opponents."""
    try:
        return _REGISTRY[name].description
    except KeyError:
        raise RackoError(f"Unknown bot {name!r}; available: {', '.join(available())}.") from None


def playing(variant_name: str) -> list[str]:
    """The names of the bots that play this variant (any name :func:`racko.variant` knows), weakest first."""
    name = variant(variant_name).name
    return [bot for bot in available() if name in _REGISTRY[bot].variants]
