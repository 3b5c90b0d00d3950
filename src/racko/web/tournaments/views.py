"""What the tournaments room shows: the list of tournaments and one tournament's page as JSON (``GET /api/tournaments``
and ``GET /api/tournaments/{id}``, docs/TOURNAMENTS.md), built from what the store keeps and the standings' pure
functions.  Names are sent as they were given: the pages show them as text, never as markup."""

from __future__ import annotations

from typing import Any

from racko.play.tournaments import ARENA, game_points
from racko.web.players import BOT_MARK
from racko.web.store import Rows, TableStore
from racko.web.tournaments import kept as kept_rows
from racko.web.tournaments.kept import BOT, BYE, FINISHED, LEVEL, MEMBER, TEAM, Entrant, Kept
from racko.web.tournaments.kept import FORGOTTEN as FORGOTTEN_STATE
from racko.web.tournaments.runner import FINISHED_LISTED, Snapshot

PODIUM = 3


def shown_name(entrant: Entrant | None, filler: str = "") -> str:
    """An entrant's name as the pages show it: a bot account's marked as a bot's; a filled seat's racko's level."""
    if entrant is None:
        return filler
    return entrant.name + BOT_MARK if entrant.kind == BOT and entrant.player_id is not None else entrant.name


def summary(kept: Kept, entrants: int, now: float) -> dict[str, Any]:
    """One tournament's line in the list."""
    settings = kept.settings
    return {
        "id": kept.id,
        "name": settings.name,
        "kind": settings.kind,
        "status": kept.status,
        "variant": settings.variant,
        "seats": settings.seats,
        "rounds": settings.rounds,
        "round": kept.round,
        "minutes": settings.minutes,
        "clock": settings.clock,
        "rated": settings.rated,
        "entry": settings.entry,
        "finishers": settings.finishers,
        "target": settings.target,
        "starts": kept.starts,
        "starts_in": max(0.0, round(kept.starts - now, 1)),
        "ends": kept.ends,
        "finished": kept.finished,
        "note": kept.note,
        "entrants": entrants,
    }


def listing(tournaments: list[Kept], counts: dict[str, int], now: float) -> dict[str, Any]:
    return {"now": now, "tournaments": [summary(kept, counts.get(kept.id, 0), now) for kept in tournaments]}


def page(snapshot: Snapshot) -> dict[str, Any]:
    """A tournament as everybody sees it (``you`` is added per person): its settings and status, the standings with
    their tie-breaks, every round's tables (an arena's games make one list), and the podium at the end."""
    kept = snapshot.kept
    settings = kept.settings
    by_id = snapshot.by_id()
    standing = snapshot.standings()
    individuals = [entrant for entrant in snapshot.entrants if entrant.kind != TEAM]
    finished_order = snapshot.finished_order()
    given = dict(
        zip(
            (game.number for game in finished_order),
            game_points(kind=kept.kind, games=[game.scored() for game in finished_order], sides=settings.sides),
            strict=True,
        )
    )
    lines = []
    for rank, line in enumerate(standing, start=1):
        unit = by_id[line.entrant]
        members = [by_id.get(member) for member in unit.members] if unit.kind == TEAM else []
        lines.append(
            {
                "rank": rank,
                "entrant": unit.entrant,
                "name": shown_name(unit),
                "kind": unit.kind,
                "player": unit.player_id,
                "forgotten": unit.state == FORGOTTEN_STATE,
                "members": [
                    {"name": shown_name(member, unit.name), "player": member.player_id if member else None}
                    for member in members
                ],
                "state": unit.state,
                "points": line.points,
                "games": line.games,
                "byes": line.byes,
                "wins": line.wins,
                "tie_breaks": _tie_breaks(kept, line),
                "fire": line.fire,
                "playing": _playing(snapshot, unit),
            }
        )
    rounds: list[list[dict[str, Any]]] = [[] for _ in range(max(kept.round, 1 if kept.kind == ARENA else 0))]
    filler = settings.levels[0] if settings.levels else "medium"
    for game in snapshot.games:
        seats = [shown_name(by_id.get(entrant) if entrant else None, filler) for entrant in game.seats]
        points = given.get(game.number)
        result = None
        if game.finished is not None and game.result is not None:
            places = game.result.get("places")
            result = {
                "void": bool(game.result.get("void")),
                "bye": game.kind == BYE,
                "places": _per_seat(places, settings.partners, len(game.seats)) if isinstance(places, list) else None,
                "totals": game.result.get("totals"),
                "points": _per_seat(list(points), settings.partners, len(game.seats)) if points else None,
            }
        index = 0 if kept.kind == ARENA else game.round - 1
        if 0 <= index < len(rounds):
            rounds[index].append(
                {
                    "table": game.table_id if game.made else None,  # an id says nothing before its table is made
                    "game": game.number,
                    "kind": game.kind,
                    "seats": seats,
                    "levels": [entrant is None or by_id[entrant].kind == LEVEL for entrant in game.seats],
                    "entrants": list(game.seats),
                    "sides": list(game.sides),
                    "result": result,
                }
            )
    return {
        "id": kept.id,
        "name": settings.name,
        "kind": settings.kind,
        "status": kept.status,
        "settings": settings.json(),
        "starts": kept.starts,
        "ends": kept.ends,
        "round": kept.round,
        "next_round_at": kept.next_at,
        "finished": kept.finished,
        "note": kept.note,
        "version": kept.version,
        "entrants": len(individuals),
        "standings": lines,
        "rounds": rounds,
        "podium": [line["name"] for line in lines[:PODIUM]] if kept.status == FINISHED and kept.note is None else [],
        "players": {
            entrant.player_id: {"entrant": entrant.entrant, "unit": entrant.team if entrant.state == MEMBER else None}
            for entrant in individuals
            if entrant.player_id is not None
        },
    }


def for_person(built: dict[str, Any], player_id: str | None, now: float) -> dict[str, Any]:
    """The page as one person sees it: where they stand in it (``you``), and the server's time now."""
    you = None
    mine = built["players"].get(player_id) if player_id is not None else None
    if mine is not None:
        unit = mine["unit"] or mine["entrant"]
        line = next((line for line in built["standings"] if line["entrant"] == unit), None)
        you = {
            "entrant": mine["entrant"],
            "state": line["state"] if line else None,
            "table": line["playing"] if line else None,
            "rank": line["rank"] if line else None,
        }
    shown = {key: value for key, value in built.items() if key != "players"}
    return shown | {"you": you, "now": now}


def _tie_breaks(kept: Kept, line: Any) -> dict[str, Any]:
    if kept.kind == ARENA:
        return {"wins": line.wins}
    if kept.settings.sides == 2:
        return {"buchholz": line.opponents_points, "sonneborn_berger": line.sonneborn_berger, "wins": line.wins}
    return {"opponents_points": line.opponents_points, "placings": list(line.placings)}


def _per_seat(per_side: list[Any], partners: bool, seats: int) -> list[Any]:
    """A side's figure for each of its seats (Partners: a team's for both its players, who sit opposite)."""
    if not partners:
        return per_side
    return [per_side[seat % 2] for seat in range(seats)]


def _playing(snapshot: Snapshot, unit: Entrant) -> str | None:
    """The table the entrant plays at now."""
    if unit.busy is None:
        return None
    for game in snapshot.games:
        if game.number == unit.busy and game.finished is None and game.made:
            return game.table_id
    return None


def listed_now(store: TableStore, now: float) -> dict[str, Any]:
    """The list as ``GET /api/tournaments`` answers it, read from ``store`` (the operator's command).  Blocking."""

    def work(rows: Rows) -> dict[str, Any]:
        found = kept_rows.listed(rows, FINISHED_LISTED)
        return listing(found, kept_rows.entrant_counts(rows, [kept.id for kept in found]), now)

    return store.read(work)
