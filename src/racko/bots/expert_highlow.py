"""How ``expert`` plays High-Low: the row's gap cost (:mod:`racko.bots.highlow_gaps`) with the model tuned on
solitaire, the card it passes on, and the cards that will come round.

- Every row is public, so the card a placement passes on is weighed too: a card
  that would help the next player is passed only if keeping it out costs more
  (:data:`DENIAL`), and one that would let that player go Rack-O at once costs
  :data:`GIFT` draws.
- Cards in another row outside that row's cheapest kept sequence will be given
  up sooner or later and passed round the table: they count among the cards that
  may come, like the unseen ones.

Measured against ``hard`` (docs/STRENGTH.md), each of the last two alone is within
the noise; together they give ``expert`` a small, measurable edge.
"""

from __future__ import annotations

from racko.bots.highlow_gaps import DENIAL, HIGHLOW_GAPS, highlow_move
from racko.highlow import HighLowAction, HighLowObservation

GIFT = 30.0
"""Draws held against handing the next player the card that completes its row: about losing the hand."""


def highlow_action(observation: HighLowObservation) -> HighLowAction:
    """The expert's move in High-Low."""
    return highlow_move(observation, HIGHLOW_GAPS, DENIAL, gift=GIFT, circulating=True)
