"""``hard``: weighs the top discard against the expected value of a blind draw (one-ply expectimax).

Like ``medium`` it values racks with :mod:`racko.bots.gaps`; before taking the
discard it averages, over every card that may come, the best it could do with
that card, and takes the discard only when that beats the draw.  In High-Low,
where there is no discard to take, it places cards like ``medium`` but also weighs
the card each placement hands the next player (:data:`DENIAL`).
"""

from __future__ import annotations

from racko.bots.base import register
from racko.bots.gaps import RackValuer
from racko.bots.highlow_gaps import DENIAL, highlow_move
from racko.bots.medium import MediumBot
from racko.highlow import HighLowAction, HighLowObservation


@register
class HardBot(MediumBot):
    name = "hard"
    level = 3
    description = (
        "Also weighs the top discard against a blind draw (in High-Low, the card it passes on): "
        "beats medium about 57 % of the time."
    )

    def highlow_action(self, observation: HighLowObservation) -> HighLowAction:
        """High-Low: ``medium``'s placement, with the card handed to the next player weighed too."""
        return highlow_move(observation, self.gap_model, DENIAL)

    def _take_beats_draw(
        self, valuer: RackValuer, rack: tuple[int, ...], may_come: list[int], now: float, take_cost: float
    ) -> bool:
        """Take the discard only when it beats the average of a blind draw."""
        return take_cost < self.draw_value(valuer, rack, may_come, now)

    def draw_value(self, valuer: RackValuer, rack: tuple[int, ...], may_come: list[int], now: float) -> float:
        """The cost expected after drawing from the stock: the average over the cards that may come."""
        return valuer.draw_cost(rack, may_come, now)
