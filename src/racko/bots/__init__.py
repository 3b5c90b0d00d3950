"""Computer players: one small interface and a registry.

A bot sees only its seat's :class:`~racko.Observation` and returns a legal
action.  Create one by name::

    >>> from racko import bots
    >>> bot = bots.create("easy", seed=1)
    >>> bot.name
    'easy'
"""

from __future__ import annotations

from racko.bots.base import Bot, arena_opponents, available, create, describe, playing, register
from racko.bots.bucket import BucketBot
from racko.bots.expert import ExpertBot
from racko.bots.hard import HardBot
from racko.bots.master import MasterBot
from racko.bots.medium import MediumBot
from racko.bots.random_bot import RandomBot
from racko.bots.styles import BandBot, SequenceBot

__all__ = [
    "BandBot",
    "Bot",
    "BucketBot",
    "ExpertBot",
    "HardBot",
    "MasterBot",
    "MediumBot",
    "RandomBot",
    "SequenceBot",
    "arena_opponents",
    "available",
    "create",
    "describe",
    "playing",
    "register",
]
