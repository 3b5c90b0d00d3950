"""The exceptions racko raises.

Every error a player or a file can cause is a :class:`RackoError`.  Illegal
actions raise a subclass of :class:`IllegalActionError` whose message is
written for the player ("It is not your turn: seat 1 is to play"), and the
game is left exactly as it was.
"""

from __future__ import annotations


class RackoError(Exception):
    """Base class of every error racko raises on purpose."""


class RulesError(RackoError, ValueError):
    """A rule option or a combination of options that cannot be played."""


class SetupError(RackoError, ValueError):
    """A deck, dealer or seat that cannot start a round (e.g. a hand-written deck missing a card)."""


class NoSuchSeatError(RackoError, ValueError):
    """A seat number that is not at the table (asking for its observation, say)."""


class IllegalActionError(RackoError, ValueError):
    """An action that the rules do not allow now.  The game is unchanged."""


class NotYourTurnError(IllegalActionError):
    """The action names a seat that is not the one to act."""


class WrongPhaseError(IllegalActionError):
    """The action does not fit this moment of the turn (e.g. placing before drawing)."""


class SlotOutOfRangeError(IllegalActionError):
    """The slot does not exist on the rack."""


class EmptyPileError(IllegalActionError):
    """The stock or the discard pile has no card to take."""


class MustPlaceDiscardError(IllegalActionError):
    """A card taken from the discard pile must be exchanged, not discarded."""


class NotRackoError(IllegalActionError):
    """Rack-O was called with a rack that does not qualify."""


class RoundOverError(IllegalActionError):
    """The round (or the whole game) has ended; no more actions are taken."""


class UnknownActionError(IllegalActionError):
    """The object is not an action of this game."""


class RecordError(RackoError, ValueError):
    """A game record that cannot be read or replayed.

    ``action_number`` is the 1-based number of the offending action across the
    whole record, when the problem is an action.
    """

    def __init__(self, message: str, *, action_number: int | None = None) -> None:
        super().__init__(message)
        self.action_number = action_number
