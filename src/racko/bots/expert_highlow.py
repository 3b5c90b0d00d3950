"""How ``expert`` plays High-Low: the row's gap cost (:mod:`racko.bots.highlow_gaps`) with the model tuned on
solitaire, and the card it passes on.

Every row is public, so the card a placement passes on is weighed too: a card
that would help the next player is passed only if keeping it out costs more.
"""

from __future__ import annotations

from racko.bots.highlow_gaps import DENIAL, HIGHLOW_GAPS, highlow_move
from racko.highlow import HighLowAction, HighLowObservation


def highlow_action(observation: HighLowObservation) -> HighLowAction:
    """The expert's move in High-Low."""
    return highlow_move(observation, HIGHLOW_GAPS, DENIAL)
