"""Game records: a JSON file with the rule options, each round's deck as dealt, and every action.

A record is the whole truth of a game (it holds every card), so it is for
after the game, replays and analysis, never for showing a seat during play.
:func:`replay` re-plays a record through the engine; a record whose action is
illegal is refused with the action's number and the reason.  The format is
described by docs/record.schema.json.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from racko.errors import IllegalActionError, RackoError, RecordError, RulesError
from racko.families import AnyAction, Family, family_of
from racko.match import Match
from racko.rules import Rules, is_whole

RECORD_FORMAT = "racko-record"
RECORD_VERSION = 2
"""Version 2: where calling Rack-O is a choice, every turn ends with the call or a pass (``wait``); version 1
recorded a pass only when the rack qualified, and is read by adding the others (:func:`_with_every_pass`)."""

MADE_BY = ("clock", "gone", "left")
"""Why a computer player made an action for a person's seat (a record's ``made_by``): ``clock``, the seat's turn ran
out; ``gone``, the seat was gone (its clock had played for it twice in a row); ``left``, its person had resigned,
left the table or been handed over (the record's ``left``)."""
_ACTION_NUMBER = re.compile(r"[1-9][0-9]{0,8}")


@dataclass(frozen=True, slots=True)
class RoundRecord:
    dealer: int
    deck: tuple[int, ...]
    """The whole deck in dealing order: the first card goes to the dealer's left."""
    actions: tuple[AnyAction, ...]
    reshuffles: tuple[tuple[int, ...], ...] = ()
    """The new stock (top card first) made by each shuffle refill of the round."""


@dataclass(frozen=True, slots=True)
class GameRecord:
    rules: Rules
    rounds: tuple[RoundRecord, ...]
    first_dealer: int
    seed: int | None = None
    players: tuple[str, ...] | None = None
    """Optional names of the seats, in seat order."""
    extra: dict[str, Any] = field(default_factory=dict)
    """Other top-level keys (e.g. an app's notes), kept as they were."""
    made_by: Mapping[int, str] = field(default_factory=dict)
    """The actions a computer player made for a person's seat, by number (from 1 over the whole record, as
    :func:`replay` counts them), and why (one of :data:`MADE_BY`); every other action was chosen by its seat's
    player."""

    @classmethod
    def of(
        cls, match: Match, players: tuple[str, ...] | None = None, made_by: Mapping[int, str] | None = None
    ) -> GameRecord:
        """The record of a game played so far."""
        return cls(
            rules=match.rules,
            rounds=tuple(RoundRecord(r.dealer, r.deck, tuple(r.actions), tuple(r.reshuffles)) for r in match.rounds),
            first_dealer=match.first_dealer,
            seed=match.seed,
            players=players,
            made_by=dict(made_by or {}),
        )

    @property
    def action_count(self) -> int:
        return sum(len(r.actions) for r in self.rounds)

    def to_json(self) -> dict[str, Any]:
        family = family_of(self.rules)
        data: dict[str, Any] = {
            "format": RECORD_FORMAT,
            "version": RECORD_VERSION,
            "rules": self.rules.to_dict(),
            "seed": self.seed,
            "first_dealer": self.first_dealer,
            "rounds": [
                {
                    "dealer": r.dealer,
                    "deck": [family.card_to_json(card) for card in r.deck],
                    "reshuffles": [[family.card_to_json(card) for card in order] for order in r.reshuffles],
                    "actions": [family.action_to_json(action) for action in r.actions],
                }
                for r in self.rounds
            ],
        }
        if self.players is not None:
            data["players"] = list(self.players)
        if self.made_by:
            data["made_by"] = {str(number): self.made_by[number] for number in sorted(self.made_by)}
        data.update(self.extra)
        return data

    def dumps(self) -> str:
        return json.dumps(self.to_json(), indent=1)

    @classmethod
    def from_json(cls, data: Any) -> GameRecord:
        """A record from its JSON value; raises :class:`RecordError` saying what is wrong."""
        if not isinstance(data, dict):
            raise RecordError("A racko record is a JSON object.")
        if data.get("format") != RECORD_FORMAT:
            raise RecordError(f'This is not a racko record (its "format" is not {RECORD_FORMAT!r}).')
        version = data.get("version")
        if not is_whole(version) or version not in (1, RECORD_VERSION):
            raise RecordError(f"Unsupported record version {version!r}; this racko reads versions 1 and 2.")
        try:
            rules = Rules.from_dict(data.get("rules"))
        except RulesError as error:
            raise RecordError(f"Bad rules: {error}") from None
        seed = data.get("seed")
        if seed is not None and not is_whole(seed):
            raise RecordError("The seed must be a whole number or null.")
        first_dealer = data.get("first_dealer")
        if not is_whole(first_dealer) or not 0 <= first_dealer < rules.players:
            raise RecordError(f'"first_dealer" must be a seat from 0 to {rules.players - 1}.')
        players = data.get("players")
        if players is not None:
            if (
                not isinstance(players, list)
                or len(players) != rules.players
                or not all(isinstance(name, str) for name in players)
            ):
                raise RecordError(f'"players" must list {rules.players} names.')
            players = tuple(players)
        raw_rounds = data.get("rounds")
        if not isinstance(raw_rounds, list):
            raise RecordError('"rounds" must be a list.')
        rounds = []
        family = family_of(rules)
        cards_are = family.cards_in_records
        number = 0
        for index, raw in enumerate(raw_rounds, start=1):
            if not isinstance(raw, dict):
                raise RecordError(f"Round {index} must be a JSON object.")
            unknown = sorted(set(raw) - {"dealer", "deck", "reshuffles", "actions"})
            if unknown:
                raise RecordError(f"Round {index} has unknown field(s): {', '.join(unknown)}.")
            dealer, deck, reshuffles = raw.get("dealer"), raw.get("deck"), raw.get("reshuffles", [])
            if not is_whole(dealer):
                raise RecordError(f'Round {index}: "dealer" must be a seat number.')
            cards = _cards(deck, family)
            if cards is None:
                raise RecordError(f'Round {index}: "deck" must be a list of {cards_are}.')
            orders = [_cards(order, family) for order in reshuffles] if isinstance(reshuffles, list) else [None]
            if any(order is None for order in orders):
                raise RecordError(f'Round {index}: "reshuffles" must be a list of lists of {cards_are}.')
            raw_actions = raw.get("actions")
            if not isinstance(raw_actions, list):
                raise RecordError(f'Round {index}: "actions" must be a list.')
            actions = []
            for raw_action in raw_actions:
                number += 1
                try:
                    actions.append(family.action_from_json(raw_action))
                except IllegalActionError as error:
                    raise RecordError(f"Action {number} (round {index}): {error}", action_number=number) from None
            rounds.append(
                RoundRecord(dealer, cards, tuple(actions), tuple(order for order in orders if order is not None))
            )
        made_by = _made_by(data["made_by"], number) if "made_by" in data else {}
        known = {"format", "version", "rules", "seed", "first_dealer", "players", "rounds", "made_by"}
        extra = {key: value for key, value in data.items() if key not in known}
        record = cls(rules, tuple(rounds), first_dealer, seed, players, extra, made_by)
        return _with_every_pass(record) if version == 1 and not rules.auto_racko else record

    @classmethod
    def loads(cls, text: str) -> GameRecord:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as error:
            raise RecordError(f"Not valid JSON: {error.msg} at line {error.lineno}, column {error.colno}.") from None
        except RecursionError:
            raise RecordError("Not a racko record: its JSON is nested too deeply to read.") from None
        except ValueError as error:  # e.g. a number of more digits than Python converts
            raise RecordError(f"Not a racko record: {error}.") from None
        try:
            return cls.from_json(data)
        except RecursionError:  # a deeply nested value where a flat one belongs
            raise RecordError("Not a racko record: a value is nested too deeply.") from None

    @classmethod
    def load(cls, path: str | Path) -> GameRecord:
        """Read a record file; any problem is a :class:`RecordError` with the reason."""
        try:
            text = Path(path).read_text(encoding="utf-8")
        except FileNotFoundError:
            raise RecordError("No such file.") from None
        except IsADirectoryError:
            raise RecordError("This is a folder, not a record file.") from None
        except UnicodeDecodeError:
            raise RecordError("Not a text file (a record is JSON text in UTF-8).") from None
        except OSError as error:
            raise RecordError(f"Cannot read the file: {error.strerror}.") from None
        return cls.loads(text)

    def save(self, path: str | Path) -> None:
        # Write beside the target, then rename, so a crash never leaves half a record.
        target = Path(path)
        temporary = target.with_name(target.name + ".tmp")
        temporary.write_text(self.dumps() + "\n", encoding="utf-8")
        temporary.replace(target)


def _made_by(value: Any, count: int) -> dict[int, str]:
    """A record's ``made_by`` read: action numbers (from 1 to ``count``, written as JSON keys) to why a computer
    player made them; :class:`RecordError` saying what is wrong."""
    if not isinstance(value, dict):
        raise RecordError('"made_by" must be a JSON object from action numbers to "clock", "gone" or "left".')
    made_by: dict[int, str] = {}
    for key, why in value.items():
        shown = repr(key) if not isinstance(key, str) or len(key) <= 20 else repr(key[:20] + "…")
        if not isinstance(key, str) or not _ACTION_NUMBER.fullmatch(key):
            raise RecordError(f'"made_by": {shown} is not an action number (1, 2, 3, … written without zeros before).')
        number = int(key)
        if number > count:
            raise RecordError(f'"made_by": there is no action {number} in this record: it has {count}.')
        if not isinstance(why, str) or why not in MADE_BY:
            raise RecordError(f'"made_by": action {number} must say "clock", "gone" or "left".')
        made_by[number] = why
    return made_by


def _cards(value: Any, family: Family[Any, Any]) -> tuple[int, ...] | None:
    """A list of cards as the family writes them, or ``None`` if it is not one."""
    if not isinstance(value, list):
        return None
    try:
        return tuple(family.card_from_json(card) for card in value)
    except RackoError:
        return None


def _start(record: GameRecord) -> Match:
    """The recorded game before its first action."""
    rules = record.rules
    if rules.refill == "flip" and any(r.reshuffles for r in record.rounds):
        raise RecordError("The record lists reshuffles, but its refill rule is 'flip' (no shuffling).")
    try:
        return Match(
            rules,
            seed=record.seed,
            first_dealer=record.first_dealer,
            decks=[r.deck for r in record.rounds],
            reshuffles=[r.reshuffles for r in record.rounds],
        )
    except RackoError as error:
        raise RecordError(str(error)) from None


def _with_every_pass(record: GameRecord) -> GameRecord:
    """A version-1 record where calling is a choice, with the pass added to every turn that ended without a
    qualifying rack (version 1 had no such moment).  Stops adding at the first action the game refuses, so that
    :func:`replay` then names that action and its reason."""
    match = _start(record)
    rounds = []
    refused = False
    numbers: dict[int, int] = {}  # the version-1 numbers to the new ones, for made_by
    written = before = 0
    for round_record in record.rounds:
        actions: list[AnyAction] = []
        for action in round_record.actions:
            written += 1
            numbers[written] = before + len(actions) + 1
            actions.append(action)
            if refused:
                continue
            try:
                match.apply(action)
            except RackoError:
                refused = True
                continue
            seat = match.to_act
            if seat is not None and not match.over:
                legal = match.observation(seat).legal_actions()
                if len(legal) == 1 and legal[0].kind == "wait":
                    actions.append(legal[0])
                    match.apply(legal[0])
        rounds.append(RoundRecord(round_record.dealer, round_record.deck, tuple(actions), round_record.reshuffles))
        before += len(actions)
    made_by = {numbers[number]: why for number, why in record.made_by.items()}
    return GameRecord(
        record.rules, tuple(rounds), record.first_dealer, record.seed, record.players, record.extra, made_by
    )


def replay(record: GameRecord, *, stop_after: int | None = None) -> Match:
    """Re-play a record through the engine and return the game in its final state.

    ``stop_after`` stops after that many actions (the position a hint is asked
    for).  An illegal action, a deck that is not a deck, or a round that does
    not follow from the one before raises :class:`RecordError` naming the
    action's number (counted from 1 over the whole record) and the reason.
    """
    match = _start(record)
    number = 0
    for index, round_record in enumerate(record.rounds, start=1):
        if index > len(match.rounds):
            if match.over:
                raise RecordError(f"Round {index} was recorded, but the game was already over after round {index - 1}.")
            raise RecordError(f"Round {index} starts before round {index - 1} was over.")
        current = match.rounds[index - 1]
        if current.dealer != round_record.dealer:
            raise RecordError(
                f"Round {index}: the record says seat {round_record.dealer} dealt, "
                f"but the deal passes to seat {current.dealer}."
            )
        for action in round_record.actions:
            if stop_after is not None and number >= stop_after:
                return match
            number += 1
            if current.over:
                ended = "game" if match.over else "round"
                raise RecordError(
                    f"Action {number} (round {index}, seat {action.seat}: {action.describe()}) comes after "
                    f"the {ended} was over.",
                    action_number=number,
                )
            try:
                match.apply(action)
            except IllegalActionError as error:
                raise RecordError(
                    f"Action {number} (round {index}, seat {action.seat}: {action.describe()}) is illegal: {error}",
                    action_number=number,
                ) from None
            except RackoError as error:  # a recorded reshuffle that does not fit the pile
                raise RecordError(f"Action {number} (round {index}): {error}", action_number=number) from None
        if stop_after is None and len(current.reshuffles) != len(round_record.reshuffles):
            raise RecordError(
                f"Round {index} lists {len(round_record.reshuffles)} reshuffle(s), "
                f"but its stock ran out {len(current.reshuffles)} time(s)."
            )
    return match
