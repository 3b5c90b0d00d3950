"""Whole tournaments run by the tournaments room over a real store (SQLite), their tables simulated (a result drawn from
the players' strengths when the test ends a game) and the server's clock moved by hand: Swiss tournaments with byes,
at tables of three and of Partners' teams, racko's levels, the seats racko fills when byes run out; an arena with its
streaks, pauses, last opponents and end; a process that stops mid-round and another that takes over."""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from racko.play.tournaments import Contender, meetings, pair_swiss, repeats
from racko.web.store import TableStore
from racko.web.tournaments import Refusal, Snapshot, Tournaments
from racko.web.tournaments.kept import BYE, SERVER, TABLE
from racko.web.tournaments.runner import Conflict
from tournament_groupings import least_repeats
from tournaments_sim import Simulated


def _meets_again_no_more_than_needed(snapshot: Snapshot, sides: int) -> None:
    """Each round seats together again no more entrants who met than the least possible after the rounds before it
    (every grouping of that round's seated entrants tried)."""
    for round_ in range(2, snapshot.kept.round + 1):
        met = meetings(game.sides for game in snapshot.games if game.round < round_ and game.kind != BYE)
        tables = [game.sides for game in snapshot.games if game.round == round_ and game.kind != BYE]
        seated = [side for table in tables for side in table if side is not None]
        if len(seated) == len(tables) * sides:  # (a table racko's computer player fills is left out)
            assert repeats(tables, met) == least_repeats(seated, sides, met), round_


def test_nine_players_four_rounds_of_two_with_byes(store: TableStore) -> None:
    """9 players, 4 rounds at tables of 2 (on SQLite and on PostgreSQL): each round one bye, to the lowest placed
    without one; nobody has two; no round seats together again more who met than it must; the standings add up."""
    sim = Simulated(store)

    async def play() -> Snapshot:
        tournament = await sim.make(kind="swiss", variant="classic", seats=2, rounds=4, clock="fast")
        for index in range(9):
            await sim.room.join(tournament, sim.person(f"P{index}", index / 8), bot=False)
        await sim.room.look()
        assert (await sim.snapshot(tournament)).kept.status == "created"  # not before its time
        sim.clock.at += 60
        return await sim.play_swiss(tournament)

    snapshot = sim.run(play())
    byes = [game for game in snapshot.games if game.kind == BYE]
    assert [game.round for game in byes] == [1, 2, 3, 4]
    assert len({game.sides[0] for game in byes}) == 4
    assert Counter(game.round for game in snapshot.games if game.kind == TABLE) == {1: 4, 2: 4, 3: 4, 4: 4}
    _meets_again_no_more_than_needed(snapshot, 2)
    lines = snapshot.standings()
    assert sum(line.points for line in lines) == 16 * 1 + 4 * 0.5  # a point a game, half a bye
    assert all(line.games + line.byes == 4 for line in lines)
    for game in byes[1:]:  # the bye goes to one of the lowest placed without one, as the round began
        before = [other for other in snapshot.games if other.round < game.round]
        earlier = Snapshot(snapshot.kept, snapshot.entrants, before).standings()
        had = {other.sides[0] for other in before if other.kind == BYE}
        eligible = [line for line in earlier if line.entrant not in had]
        assert next(line for line in earlier if line.entrant == game.sides[0]).points == eligible[-1].points


def test_twelve_players_at_tables_of_three(tmp_path: Path) -> None:
    """12 players, 4 rounds of High-Low at tables of 3: no bye; each round seats together again no more players who
    met than the least possible after the rounds before it (every grouping tried); points by placing (2, 1, 0)."""
    sim = Simulated.on_sqlite(tmp_path)

    async def play() -> Snapshot:
        tournament = await sim.make(kind="swiss", variant="highlow", seats=3, rounds=4, clock="normal", starts_in=0)
        for index in range(12):
            await sim.room.join(tournament, sim.person(f"P{index}", index / 11), bot=False)
        return await sim.play_swiss(tournament)

    snapshot = sim.run(play())
    assert not [game for game in snapshot.games if game.kind == BYE]
    assert Counter(game.round for game in snapshot.games) == {1: 4, 2: 4, 3: 4, 4: 4}
    assert all(len(game.seats) == 3 and None not in game.seats for game in snapshot.games)
    _meets_again_no_more_than_needed(snapshot, 3)
    assert sum(line.points for line in snapshot.standings()) == 16 * 3
    assert all(sorted(game.result["places"]) == [1, 2, 3] for game in snapshot.games if game.result)


def test_partners_play_as_teams(tmp_path: Path) -> None:
    """Partners: racko's hard and 8 people, two of whom asked for each other; teams are made at the start (those
    two together, the others two by two in the order they joined, the one left over with racko's level), partners
    sit opposite, and the standings count teams; 5 teams: a bye each round."""
    sim = Simulated.on_sqlite(tmp_path)

    async def play() -> Snapshot:
        tournament = await sim.make(kind="swiss", variant="partners", seats=4, rounds=3, clock="fast", levels=["hard"])
        names = [f"P{index}" for index in range(8)]
        for index, name in enumerate(names):
            partner = {"P0": "P5", "P5": "p0"}.get(name)
            await sim.room.join(tournament, sim.person(name, index / 8), bot=False, partner=partner)
        sim.clock.at += 61
        return await sim.play_swiss(tournament, partners=True)

    snapshot = sim.run(play())
    teams = {unit.entrant: unit for unit in snapshot.units}
    assert sorted(unit.name for unit in teams.values()) == ["P0 & P5", "P2 & P3", "P4 & P6", "P7 & hard", "hard & P1"]
    by_id = {entrant.entrant: entrant.name for entrant in snapshot.entrants}
    for game in snapshot.games:
        if game.kind == BYE:
            continue
        order = sim.tables.made[game.table_id]  # type: ignore[index]
        for side, team in enumerate(game.sides):
            assert team is not None
            opposite = {order.seats[side].name, order.seats[side + 2].name}
            assert opposite == set(teams[team].name.split(" & "))
            assert {by_id.get(seat or "", "hard") for seat in game.seats[side::2]} == opposite
    byes = [game.sides[0] for game in snapshot.games if game.kind == BYE]
    assert len(byes) == 3 and len(set(byes)) == 3
    _meets_again_no_more_than_needed(snapshot, 2)
    assert sum(line.points for line in snapshot.standings()) == 2 * 3 + 0.5 * 3


def test_racko_s_levels_play_and_a_table_of_levels_alone_is_played_by_the_server(tmp_path: Path) -> None:
    """Two people and two of racko's levels, 3 rounds: the levels meet once (the last round leaves nothing else), at
    a game the server plays itself with the engine (25 points: a round or two); its result counts like any."""
    sim = Simulated.on_sqlite(tmp_path)

    async def play() -> Snapshot:
        tournament = await sim.make(
            kind="swiss", variant="classic", seats=2, rounds=3, clock="fast", target=25, levels=["easy", "medium"]
        )
        for name in ("Ann", "Bob"):
            await sim.room.join(tournament, sim.person(name), bot=False)
        sim.clock.at += 60
        return await sim.play_swiss(tournament)

    snapshot = sim.run(play())
    server = [game for game in snapshot.games if game.kind == SERVER]
    assert len(server) == 1 and server[0].round == 3
    assert server[0].table_id is None and server[0].result and server[0].result["server"]
    assert sorted(server[0].result["places"]) == [1, 2]
    people = {entrant.entrant for entrant in snapshot.entrants if entrant.player_id}
    for game in snapshot.games:
        assert (game.kind == TABLE) == bool(people & set(game.seats))
    _meets_again_no_more_than_needed(snapshot, 2)
    assert sum(line.points for line in snapshot.standings()) == 6


def test_when_byes_run_out_racko_fills_the_seats(tmp_path: Path) -> None:
    """3 players, 4 rounds at tables of 2: three byes, one each; in the fourth round nobody may have another, so the
    lowest placed plays racko's computer player, which is nobody in the standings."""
    sim = Simulated.on_sqlite(tmp_path)

    async def play() -> Snapshot:
        tournament = await sim.make(kind="swiss", variant="classic", seats=2, rounds=4, clock="fast", starts_in=0)
        for index in range(3):
            await sim.room.join(tournament, sim.person(f"P{index}", index / 2), bot=False)
        return await sim.play_swiss(tournament)

    snapshot = sim.run(play())
    byes = [game.sides[0] for game in snapshot.games if game.kind == BYE]
    assert len(byes) == 3 and len(set(byes)) == 3
    filled = [game for game in snapshot.games if None in game.seats]
    assert len(filled) == 1 and filled[0].round == 4 and filled[0].kind == TABLE
    order = sim.tables.made[filled[0].table_id]
    assert [seat.level for seat in order.seats if seat.player_id is None] == ["medium"]
    assert len(snapshot.standings()) == 3


def test_refusals_are_clear_and_change_nothing(tmp_path: Path) -> None:
    sim = Simulated.on_sqlite(tmp_path)

    async def play() -> None:
        bots_only = await sim.make(kind="swiss", variant="classic", seats=2, rounds=1, clock="fast", entry="bots")
        ann = sim.person("Ann")
        with pytest.raises(Refusal, match="for bots") as refused:
            await sim.room.join(bots_only, ann, bot=False)
        assert refused.value.code == "bots-only"
        people_only = await sim.make(kind="swiss", variant="classic", seats=2, rounds=1, clock="fast", entry="people")
        with pytest.raises(Refusal) as refused:
            await sim.room.join(people_only, ann, bot=True)
        assert refused.value.code == "people-only"
        with pytest.raises(Refusal) as refused:
            await sim.room.pause(people_only, ann.id)
        assert refused.value.code == "not-in"
        await sim.room.join(people_only, ann, bot=False)
        with pytest.raises(Refusal) as refused:
            await sim.room.pause(people_only, ann.id)
        assert refused.value.code == "not-started"
        assert await sim.room.withdraw(people_only, ann.id) == "out"
        assert not (await sim.snapshot(people_only)).entrants
        with pytest.raises(Refusal) as refused:
            await sim.room.join("nope", ann, bot=False)
        assert (refused.value.status, refused.value.code) == (404, "no-tournament")
        for bad, said in (
            ({"kind": "league"}, "swiss or an arena"),
            ({"variant": "highlow", "seats": 2}, "tables of 3, 4, 5"),
            ({"rounds": 0}, "1 to 15 rounds"),
            ({"clock": "none"}, "every game has a clock"),
            ({"kind": "arena", "minutes": 30, "clock": "days-1"}, "real time"),
            ({"levels": ["grandmaster"]}, "no level"),
        ):
            form = {"kind": "swiss", "variant": "classic", "seats": 2, "rounds": 3, "clock": "fast"} | bad
            with pytest.raises(Refusal, match=said):
                await sim.make(**form)

    sim.run(play())


def test_a_tournament_with_too_few_players_finishes_at_its_start_saying_so(tmp_path: Path) -> None:
    sim = Simulated.on_sqlite(tmp_path)

    async def play() -> Snapshot:
        tournament = await sim.make(kind="swiss", variant="classic", seats=2, rounds=3, clock="fast", starts_in=0)
        await sim.room.join(tournament, sim.person("Ann"), bot=False)
        await sim.room.look()
        return await sim.snapshot(tournament)

    snapshot = sim.run(play())
    assert (snapshot.kept.status, snapshot.kept.note, snapshot.games) == ("finished", "too-few", [])


def test_a_holder_that_stops_mid_round_is_taken_over_and_no_round_is_paired_twice(tmp_path: Path) -> None:
    """Two processes share the store: the first holds the lease, pairs round 1 and stops (its lease runs out, as
    after kill -9), with one table's end never passed on; the second takes over once the lease ran out, reads that
    result from the table itself, pairs round 2 once, even when the first comes back and looks too."""
    first = Simulated.on_sqlite(tmp_path)
    second = Tournaments(first.store, first.players, first.tables, first.room.places_of, now=first.clock, round_pause=0)

    async def play() -> Snapshot:
        tournament = await first.make(kind="swiss", variant="classic", seats=2, rounds=2, clock="fast", starts_in=0)
        for index in range(6):
            await first.room.join(tournament, first.person(f"P{index}"), bot=False)
        await first.room.look()
        await second.look()
        assert first.room.holding and not second.holding
        tables = sorted(first.tables.open)
        assert len(tables) == 3
        first.tables.lose(tables[0])  # its game ends; its process stopped before passing it on
        for table in tables[1:]:
            result = first.tables.result(table)
            await second.table_result(table, lambda result=result: result)  # passed on by whoever played it
        first.clock.at += 3
        await second.look()
        assert not second.holding  # the first's lease runs yet
        first.clock.at += 3
        await second.look()
        assert second.holding
        second._checked = -1e9  # its look for tables that ended without telling: now
        await second.look()
        snapshot = await first.snapshot(tournament)
        assert snapshot.kept.round == 2 and len(first.tables.open) == 3
        await first.room.look()  # the first is back: it holds nothing, pairs nothing
        assert not first.room.holding
        return await first.snapshot(tournament)

    snapshot = first.run(play())
    assert Counter(game.round for game in snapshot.games) == {1: 3, 2: 3}
    for round_ in (1, 2):
        seated = [entrant for game in snapshot.games if game.round == round_ for entrant in game.sides]
        assert sorted(seated) == sorted(entrant.entrant for entrant in snapshot.entrants)
    assert all(game.finished is not None for game in snapshot.games if game.round == 1)


def test_a_round_paired_by_two_holders_at_once_is_kept_once(tmp_path: Path) -> None:
    """Two processes that both believe they hold the lease (a stalled one that has not seen its lease run out) pair
    the same round at once: the store keeps one of them."""
    first = Simulated.on_sqlite(tmp_path)
    second = Tournaments(first.store, first.players, first.tables, first.room.places_of, now=first.clock)

    async def play() -> Snapshot:
        tournament = await first.make(kind="swiss", variant="classic", seats=2, rounds=1, clock="fast", starts_in=0)
        for index in range(8):
            await first.room.join(tournament, first.person(f"P{index}"), bot=False)
        await first.room.look()  # started and paired
        snapshot = await first.snapshot(tournament)
        assert snapshot.kept.round == 1
        stale = Snapshot(replace(snapshot.kept, round=0), snapshot.entrants, [])  # as the stalled one saw it
        pairing = pair_swiss([Contender(unit.entrant, 0) for unit in stale.units], 2, {}, 5)
        with pytest.raises(Conflict):
            await asyncio.to_thread(first.store.run, lambda rows: second._pair(rows, stale, pairing, first.clock()))
        return await first.snapshot(tournament)

    snapshot = first.run(play())
    assert len(snapshot.games) == 4


def test_an_arena_on_a_moved_clock(tmp_path: Path) -> None:
    """A 10-minute arena of 8 players at tables of 2, the clock moved by hand: it starts at its time and seats
    everybody at once; a finished game's players are seated again as soon as others wait, never with their last
    opponent at once; a paused player waits until they come back; two wins in a row put a player on fire (the next
    game's points doubled); at the end no table is made, and the games under way count when they end."""
    sim = Simulated.on_sqlite(tmp_path)

    async def play() -> None:
        tournament = await sim.make(kind="arena", variant="classic", seats=2, minutes=10, clock="fast", starts_in=120)
        people = [sim.person(f"P{index}", index / 7) for index in range(8)]
        for person in people:
            await sim.room.join(tournament, person, bot=False)
        sim.clock.at += 119
        await sim.room.look()
        assert (await sim.snapshot(tournament)).kept.status == "created"
        sim.clock.at += 1
        await sim.room.look()
        snapshot = await sim.snapshot(tournament)
        assert snapshot.kept.status == "started" and snapshot.kept.ends == sim.clock.at + 600
        ends = snapshot.kept.ends
        assert len(sim.tables.open) == 4  # everybody seated at once

        # one table ends: its two players are each other's last opponents, and nobody else waits
        table = sorted(sim.tables.open)[0]
        result = sim.tables.result(table)
        await sim.room.table_result(table, lambda: result)
        await sim.room.look()
        assert len(sim.tables.open) == 3  # they wait for somebody new …
        sim.clock.at += 20
        await sim.room.look()
        assert len(sim.tables.open) == 4  # … a while, then meet again

        # a player pauses: when their game ends they are not seated; back, they are
        paused = people[0]
        await sim.room.join(tournament, people[1], bot=False)
        await sim.room.pause(tournament, paused.id)
        for _ in range(4):
            await sim.finish_open()
            sim.clock.at += 30
            await sim.room.look()
        snapshot = await sim.snapshot(tournament)
        mine = next(entrant for entrant in snapshot.entrants if entrant.player_id == paused.id)
        assert mine.state == "paused" and mine.busy is None
        games_before = sum(mine.entrant in game.sides for game in snapshot.games)
        await sim.room.join(tournament, paused, bot=False)
        await sim.finish_open()
        await sim.room.look()
        snapshot = await sim.snapshot(tournament)
        assert sum(mine.entrant in game.sides for game in snapshot.games) > games_before

        while sim.clock.at + 30 < ends:  # to the end
            await sim.finish_open()
            sim.clock.at += 30
            await sim.room.look()
        sim.clock.at = ends
        made = len(sim.tables.made)
        at_end = len(sim.tables.open)
        assert at_end > 0 and (await sim.snapshot(tournament)).kept.status == "started"
        sim.clock.at += 60
        await sim.room.look()
        assert len(sim.tables.made) == made  # no table after the end
        await sim.finish_open()
        await sim.room.look()
        snapshot = await sim.snapshot(tournament)
        assert snapshot.kept.status == "finished"
        assert all(game.finished is not None for game in snapshot.games)

        # points: 2 a win, doubled after two wins in a row until a game not won (replayed from the games)
        streak: Counter[str] = Counter()
        expected: Counter[str] = Counter()
        for game in snapshot.finished_order():
            assert game.result is not None
            for side, entrant in enumerate(game.sides):
                assert entrant is not None
                won = game.result["places"][side] == 1
                expected[entrant] += (2 if won else 0) * (2 if streak[entrant] >= 2 else 1)
                streak[entrant] = streak[entrant] + 1 if won else 0
        lines = snapshot.standings()
        assert {line.entrant: line.points for line in lines} == {
            unit.entrant: expected[unit.entrant] for unit in snapshot.units
        }
        assert any(line.fire for line in lines) or max(streak.values()) < 2
        assert lines == sorted(lines, key=lambda line: (-line.points, -line.wins))
        # nobody met the same player twice in a row, unless they had waited for somebody new
        last_met: dict[str, str] = {}
        repeats = 0
        for game in sorted(snapshot.games, key=lambda game: game.started):
            first, second = game.sides
            repeats += last_met.get(first) == second  # type: ignore[arg-type]
            last_met[first], last_met[second] = second, first  # type: ignore[index]
        assert repeats <= 2

    sim.run(play())


class _Pushes:
    def __init__(self) -> None:
        self.told: list[tuple[str, Callable[[str], dict[str, str]]]] = []

    def tell(self, player_id: str, message_of: Callable[[str], dict[str, str]]) -> None:
        self.told.append((player_id, message_of))


class _Bots:
    def __init__(self, listening: set[str]) -> None:
        self.listening_to = listening
        self.told: list[tuple[str, dict[str, Any]]] = []

    def tell(self, player_id: str, event: dict[str, Any]) -> None:
        self.told.append((player_id, event))

    def listening(self, player_id: str) -> bool:
        return player_id in self.listening_to


def test_people_are_pushed_their_round_and_bots_told_of_starts_and_ends(tmp_path: Path) -> None:
    """ "Your round starts" pushed to each person seated (in their device's language, opening their table), never to a
    bot account or a level; a bot account listening is told tournamentStart and tournamentFinish with its place, and
    a stream that opens is told of the tournaments under way it is in."""
    pushes = _Pushes()
    sim = Simulated.on_sqlite(tmp_path, pushes=pushes)
    robo, _ = sim.players.add_bot("Robo")
    bots = _Bots({robo.id})
    sim.room.bot_events = bots

    async def play() -> None:
        await sim.room.look()  # this process's first look: it knows what it saw from now on
        tournament = await sim.make(kind="swiss", variant="classic", seats=2, rounds=2, clock="fast", levels=["easy"])
        ann = sim.person("Ann")
        await sim.room.join(tournament, ann, bot=False)
        await sim.room.join(tournament, robo, bot=True)
        sim.clock.at += 60
        await sim.room.look()
        assert [event["type"] for _, event in bots.told] == ["tournamentStart"]
        assert bots.told[0][1] | {} == {
            "type": "tournamentStart",
            "tournament": tournament,
            "name": "Test",
            "kind": "swiss",
            "variant": "classic",
            "seats": 2,
            "clock": "fast",
            "rated": False,
        }
        opened: list[dict[str, Any]] = []
        await sim.room.bot_opened(robo, opened.append)
        assert [event["tournament"] for event in opened] == [tournament]
        snapshot = await sim.play_swiss(tournament)
        seated_ann = [game for game in snapshot.games if game.kind == TABLE and "e2" in game.seats]
        assert [player for player, _ in pushes.told] == [ann.id] * len(seated_ann)
        first = pushes.told[0][1]("fr")
        assert first["title"] == "Rack-O : votre ronde commence"
        assert first["body"].startswith(f"Test, ronde {seated_ann[0].round} : votre table avec ")
        assert first["url"] == f"/t/{seated_ann[0].table_id}" and first["tag"] == f"turn-{seated_ann[0].table_id}"
        last = pushes.told[-1][1]("xx")  # a language racko does not speak: English
        assert last["body"].startswith(f"Test, round {seated_ann[-1].round}: your table with ")
        await sim.room.look()
        finish = [event for _, event in bots.told if event["type"] == "tournamentFinish"]
        place = next(index for index, line in enumerate(snapshot.standings(), start=1) if line.entrant == "e3")
        assert finish == [{"type": "tournamentFinish", "tournament": tournament, "place": place}]

    sim.run(play())


@pytest.mark.parametrize(
    ("variant", "seats", "people", "levels"),
    [("partners", 4, 7, ["easy"]), ("highlow", 3, 4, ["easy", "medium", "hard"])],
)
def test_arenas_of_teams_and_of_three_seats(
    tmp_path: Path, variant: str, seats: int, people: int, levels: list[str]
) -> None:
    """An arena of Partners' teams (7 people and racko's easy: four teams, the one left over with easy) seats two
    teams a table, partners opposite; an arena of High-Low at tables of 3 seats people with racko's levels, never
    the levels alone, and the one left over waits for the next look."""
    sim = Simulated.on_sqlite(tmp_path)

    async def play() -> Snapshot:
        tournament = await sim.make(
            kind="arena", variant=variant, seats=seats, minutes=10, clock="fast", levels=levels, starts_in=10
        )
        for index in range(people):
            await sim.room.join(tournament, sim.person(f"P{index}"), bot=False)
        sim.clock.at += 10
        for _ in range(12):
            await sim.room.look()
            await sim.finish_open(partners=variant == "partners")
            sim.clock.at += 60
        await sim.room.look()
        return await sim.snapshot(tournament)

    snapshot = sim.run(play())
    by_id = snapshot.by_id()
    assert snapshot.kept.status == "finished" and len(snapshot.games) >= 6
    for game in snapshot.games:
        assert len(game.seats) == seats
        assert not all(by_id[side].is_level for side in game.sides if side is not None)  # never levels alone
        if variant == "partners":
            assert len(game.sides) == 2
            for side, team in enumerate(game.sides):
                assert team is not None
                assert [seat or "" for seat in game.seats[side::2]] == by_id[team].members  # opposite
    assert sum(line.games for line in snapshot.standings()) == len(snapshot.games) * len(snapshot.games[0].sides)
