"""racko: the rules of Rack-O, computer players and tools around them.

The engine (this package's top level and :mod:`racko.highlow`) uses only the standard library; the layers
above it are :mod:`racko.bots`, :mod:`racko.play` and the front ends (see docs/ARCHITECTURE.md).

>>> import racko
>>> rules = racko.variant("classic").rules(players=2)
>>> rules.deck_size, rules.two_player_rule
(40, True)
>>> game = racko.Match(rules, seed=7)
>>> seat = game.to_act
>>> game.apply(racko.DrawFromStock(seat))
(Drew(seat=1, card=26),)
>>> game.apply(racko.Exchange(seat, slot=0))
(Exchanged(seat=1, slot=0, card_in=26, card_out=35, from_discard=False),)
>>> game.to_act != seat
True
>>> racko.prefix_score([3, 8, 12, 19, 26, 37, 22, 30, 33, 39])
30
"""

from racko.actions import (
    ACTION_SPACE_SIZE,
    Action,
    CallRacko,
    Discard,
    DrawFromStock,
    Exchange,
    TakeDiscard,
    Wait,
    action_from_index,
    action_index,
)
from racko.errors import (
    EmptyPileError,
    IllegalActionError,
    MustPlaceDiscardError,
    NoSuchSeatError,
    NotRackoError,
    NotYourTurnError,
    RackoError,
    RecordError,
    RoundOverError,
    RulesError,
    SetupError,
    SlotOutOfRangeError,
    UnknownActionError,
    WrongPhaseError,
)
from racko.match import Match, MatchOutcome
from racko.observation import Observation, Phase, PublicView, RoundResult
from racko.record import GameRecord, RoundRecord, replay
from racko.round import Round
from racko.rules import RACK_SIZE, SLOT_LABELS, VARIANTS, Rules, Variant, slot_label, variant
from racko.scoring import (
    is_ordered,
    longest_run,
    ordered_prefix,
    prefix_score,
    qualifies_for_racko,
    racko_score,
    run_bonus,
)

__version__ = "0.1.0"

__all__ = [
    "ACTION_SPACE_SIZE",
    "RACK_SIZE",
    "SLOT_LABELS",
    "VARIANTS",
    "Action",
    "CallRacko",
    "Discard",
    "DrawFromStock",
    "EmptyPileError",
    "Exchange",
    "GameRecord",
    "IllegalActionError",
    "Match",
    "MatchOutcome",
    "MustPlaceDiscardError",
    "NoSuchSeatError",
    "NotRackoError",
    "NotYourTurnError",
    "Observation",
    "Phase",
    "PublicView",
    "RackoError",
    "RecordError",
    "Round",
    "RoundOverError",
    "RoundRecord",
    "RoundResult",
    "Rules",
    "RulesError",
    "SetupError",
    "SlotOutOfRangeError",
    "TakeDiscard",
    "UnknownActionError",
    "Variant",
    "Wait",
    "WrongPhaseError",
    "action_from_index",
    "action_index",
    "is_ordered",
    "longest_run",
    "ordered_prefix",
    "prefix_score",
    "qualifies_for_racko",
    "racko_score",
    "replay",
    "run_bonus",
    "slot_label",
    "variant",
]
