"""What one connection is shown of a table: built from that seat's observation only (a spectator: the public view).

Nothing here reads the deck, the stock's order, the seed or another seat's rack: the only inputs are
``session.observation(seat)``, the log as that viewer may see it, and the results of finished rounds (a round's
end reveals every rack).  tests/web/table/test_table_protocol.py checks every frame of whole games against the
engine's knowledge model.
"""

from __future__ import annotations

from dataclasses import fields
from typing import Any

from racko.events import RoundEnded
from racko.families import AnyEvent, AnyObservation, family_of
from racko.highlow import SWAP, WILD, HighLowObservation, HighLowResult
from racko.highlow.scoring import RUN_BONUS
from racko.observation import RoundResult
from racko.play.hint import CARD_VALUES, Choice
from racko.play.loop import game_verbs, situation_of
from racko.play.session import PlaySession, default_opponent
from racko.play.text import scores_line, side_names
from racko.record import GameRecord, replay
from racko.rules import BONUS_FOR_RUN, POINTS_PER_CARD, RACKO_SCORE, SLOT_LABELS, variant


def card_json(card: int) -> int | str:
    """A card as the page gets it (as records write it): a number, or "W" / "S" for High-Low's Wild and Swap."""
    return "W" if card == WILD else "S" if card == SWAP else card


def _cards(cards: tuple[int, ...] | list[int]) -> list[int | str]:
    return [card_json(card) for card in cards]


_CARD_FIELDS = ("card", "card_in", "card_out", "removed")
PLACE_FIELDS = ("slot", "position", "first", "second")
"""Event fields that name a place in a rack (an index in the engine): the log names it as actions do, a classic slot
by its label (5 ... 50) and a High-Low position 1 ... 10 from the left end (docs/PROTOCOL.md)."""
_UNTOLD_FIELDS = ("racks", "rows", "order", "pile", "result", "private")
"""Event fields the log entry leaves out: the deal's racks and rows, the turned-over pile (the view shows what the
viewer may know of them) and a new stock's order (``None`` for every viewer anyway)."""


def log_entries(events: list[AnyEvent], names: list[str]) -> list[dict[str, Any]]:
    """The log as the page words it, in any of its languages: each event's kind and fields (already filtered for
    the viewer by ``visible_to``) and its English sentence; events worth no sentence are left out."""
    entries = []
    for event in events:
        text = event.describe(names)
        if not text:
            continue
        entry: dict[str, Any] = {"kind": event.kind, "text": text}
        for field in fields(event):
            if field.name in _UNTOLD_FIELDS:
                continue
            value = getattr(event, field.name)
            if field.name in _CARD_FIELDS and value is not None:
                value = card_json(value)
            elif field.name in PLACE_FIELDS:
                value = place_label(field.name, value)
            entry[field.name] = value
        if isinstance(event, RoundEnded):
            entry.update(winner=event.result.winner, capped=event.result.capped, turns=event.result.turns)
        entries.append(entry)
    return entries


def place_label(field: str, index: int) -> int:
    """A rack's place as actions name it: a classic ``slot`` by the label printed on the rack (5 ... 50), a High-Low
    ``position`` (or a swap's ``first`` and ``second``) by its number from the left end (1 ... 10)."""
    return SLOT_LABELS[index] if field == "slot" else index + 1


def place_index(field: str, label: int) -> int:
    """The index in the engine's rack of a place :func:`place_label` named (0: slot 5, or the left end)."""
    return SLOT_LABELS.index(label) if field == "slot" else label - 1


def hint_json(choice: Choice, move: dict[str, Any] | None = None) -> dict[str, Any]:
    """One of the advisor's choices as the page words it: its reason and values, and the English sentence; and why,
    in sentences of the shared words (``why``: key, values, English text), with its chance to win the game from the
    scores (``game_chance``, 0 to 1: the measure the choices are ranked by with 2 players, as ``racko review``
    grades) and to win the round (``win_chance``, from the same play-outs), each ``None`` where the review measures
    turns; ``move``: the move in words as ``racko hint`` says it, where the choice says why."""
    values = {key: card_json(value) if key in CARD_VALUES else value for key, value in choice.values.items()}
    return {
        "reason": choice.reason,
        "values": values,
        "text": choice.explanation,
        "win_chance": choice.win_chance,
        "game_chance": choice.game_chance,
        "why": list(choice.why),
        "move": move,
    }


def _result(result: RoundResult | HighLowResult, number: int) -> dict[str, Any]:
    """A finished round, as every seat may see it: every rack, where its order broke, and what each score was made
    of (the page words it in its own language)."""
    return {
        "number": number,
        "winner": result.winner,
        "capped": result.capped,
        "scores": list(result.scores),
        "racks": [_cards(rack) for rack in result.racks],
        "ordered": list(result.ordered),
        "run": result.run,
        "bonus": result.bonus,
        "turns": result.turns,
        "doubles": list(result.doubles) if isinstance(result, HighLowResult) else None,
        "direction": result.direction if isinstance(result, HighLowResult) else None,
    }


def table_setup(session: PlaySession) -> dict[str, Any]:
    """What does not change during a game: the variant, the rules in short, the names of slots and seats."""
    rules = session.rules
    chosen = variant(rules.variant)
    highlow = family_of(rules).name == "highlow"
    return {
        "variant": rules.variant,
        "title": chosen.title,
        "players": rules.players,
        "target": rules.target,
        "two_player_rule": rules.two_player_rule,
        "refill": rules.refill,
        "teams": [list(team) for team in rules.teams] if rules.teams is not None else None,
        "family": "highlow" if highlow else "classic",
        "slots": table_setup_slots(rules),
        "deck_size": rules.deck_size,
        "verbs": sorted(game_verbs(rules)),
        "default_bot": default_opponent(rules.variant),
        "bonus": rules.bonus,
        "run_bonus": {str(length): points for length, points in (RUN_BONUS if highlow else BONUS_FOR_RUN).items()},
        "racko_score": RACKO_SCORE,
        "points_per_card": POINTS_PER_CARD,
    }


def view_of(session: PlaySession, viewer: int | None) -> dict[str, Any]:
    """The table as ``viewer`` (a seat, or ``None`` for a spectator) may see it now."""
    match = session.match
    rules = session.rules
    names = session.names
    seat_view: AnyObservation = session.observation(viewer if viewer is not None else 0)
    public = seat_view.public
    view: dict[str, Any] = {
        "you": viewer,
        "names": names,
        "bots": [seat.bot for seat in session.seats],
        "round": public.round_number,
        "dealer": public.dealer,
        "to_act": None if match.over else public.to_act,
        "phase": public.phase.value,
        "turns": public.turns,
        "stock": public.stock_size,
        "discard": _cards(public.discard_pile),
        "totals": list(match.seat_totals),
        "scores": scores_line(rules, names, match.seat_totals),
        "sides": side_names(rules, names),
        "side_totals": list(rules.side_totals(match.seat_totals)),
        "results": [_result(result, number) for number, result in enumerate(match.results, start=1)],
        "over": match.over,
        "winners": None,
        "rack": None,
        "held": None,
        "legal": [],
        "situation": None,
    }
    if match.over and match.outcome is not None:
        winner = match.outcome.winner
        view["winners"] = side_names(rules, names)[winner] if rules.teams is not None else names[winner]
    if isinstance(seat_view, HighLowObservation):
        view["rows"] = [_cards(row) for row in seat_view.public.rows]
        view["drawer"] = seat_view.public.drawer
        passed = seat_view.public.passed_card
        view["passed"] = card_json(passed) if passed is not None else None
    else:
        classic = seat_view.public
        view["known"] = [[card_json(card) if card is not None else None for card in slots] for slots in classic.known]
        if match.over:  # the game's last round ended, and its end showed every rack as it was then, to everybody
            view["known"] = [_cards(rack) for rack in match.results[-1].racks]
        view["taken"] = card_json(classic.taken_discard) if classic.taken_discard is not None else None
        order = classic.known_stock_order  # public: everybody saw the pile that was turned over
        view["next_stock"] = card_json(order[0]) if order else None
    if viewer is not None:
        view["rack"] = _cards(seat_view.rack)
        view["held"] = card_json(seat_view.held) if seat_view.held is not None else None
        if not match.over and public.to_act == viewer:
            family = family_of(rules)
            view["legal"] = [family.action_to_json(action) for action in seat_view.legal_actions()]
            situation = situation_of(seat_view)
            view["situation"] = {
                "kind": situation.kind,
                "card": card_json(situation.card) if situation.card is not None else None,
            }
    return view


def replay_steps(record: GameRecord) -> dict[str, Any]:
    """A finished game, move by move, for the replay page: every rack open (a finished game's record is), the
    discard pile's top, the stock's size, the round, the totals and each move's log lines.  Step 0 is the deal."""
    match = replay(record, stop_after=0)
    names = list(record.players) if record.players else [f"Player {seat + 1}" for seat in range(record.rules.players)]

    def snapshot(lines: list[dict[str, Any]]) -> dict[str, Any]:
        seen = [match.observation(seat) for seat in range(match.rules.players)]
        public = seen[0].public
        racks = [
            _cards(view.public.rows[seat]) if isinstance(view, HighLowObservation) else _cards(view.rack)
            for seat, view in enumerate(seen)
        ]
        return {
            "log": lines,
            "round": public.round_number,
            "to_act": match.to_act,
            "racks": racks,
            "discard": card_json(public.discard_pile[-1]) if public.discard_pile else None,
            "stock": public.stock_size,
            "totals": list(match.seat_totals),
        }

    steps = [snapshot([])]
    for round_record in record.rounds:
        for action in round_record.actions:
            events = match.apply(action)
            step = snapshot(log_entries(list(events), names))
            # A move a computer player made for the seat's person (the record's made_by): the page says so.
            step["made_by"] = record.made_by.get(len(steps))
            step["seat"] = action.seat
            steps.append(step)
    return {
        "names": names,
        "variant": record.rules.variant,
        "title": variant(record.rules.variant).title,
        "slots": table_setup_slots(record.rules),
        "steps": steps,
    }


def table_setup_slots(rules: Any) -> list[str]:
    """The names of a rack's places: slots 5 … 50, or High-Low's positions 1 … 10."""
    if family_of(rules).name == "highlow":
        return [str(position) for position in range(1, 11)]
    return [str(label) for label in SLOT_LABELS]
