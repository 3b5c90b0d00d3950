"""Issue 52's resolve criterion: a client written from docs/BOTS.md alone, following it literally
(tests/web/bots/client_from_the_document.py, standard library only, nothing read from racko's source), plays every
variant to the end at a real server: every seat of the table a bot account, each played by its own process of that
client; every frame sent to them checked, as it is sent, against what the seat may know and the published schemas
(``bot_api.bot_server``). The clients run with ``python -S``, without site-packages: nothing but the standard
library is there to import. The bots sit at the table by their own consent: each seeks the game in quick play
(docs/BOTS.md). Half the tables are made before the clients listen (the test's own event streams hold the seeks
open; the clients' streams then say the game is under way, ``"game": null``), half after (the seeks made while the
clients listen: ``gameStart`` with the game's number)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from bot_api import bot_server, call, clients, hub_of_app, seated_by_seeks
from tables import wait_for

CLIENT = Path(__file__).with_name("client_from_the_document.py")
EVERY_VARIANT = [("classic", 2), ("classic", 4), ("bonus", 3), ("partners", 4), ("highlow", 3), ("highlow", 5)]
"""Every variant, and the numbers of seats test_bots_api's games between the example client and `racko bot connect`
leave out (classic for 4, bonus for 3, High-Low for 5)."""


@pytest.mark.parametrize(("variant", "players"), EVERY_VARIANT)
def test_a_client_written_from_the_document_plays_every_variant_to_the_end(
    tmp_path: Path, variant: str, players: int
) -> None:
    made_first = EVERY_VARIANT.index((variant, players)) % 2 == 0
    with bot_server(tmp_path / "tables.sqlite3", quick_target=25) as (url, app, failures):
        hub = hub_of_app(app)
        accounts = [hub.players.add_bot(f"Reader {seat + 1}") for seat in range(players)]
        wish = {"variant": variant, "players": players, "clock": "normal", "rated": False}
        wish |= {"two_player_rule": False} if players == 2 else {}
        tokens = [token for _, token in accounts]
        table = seated_by_seeks(url, tokens, wish) if made_first else None
        commands = [
            [sys.executable, "-S", str(CLIENT), url, token, "1", str(seat)] for seat, (_, token) in enumerate(accounts)
        ]
        with clients(commands, tmp_path, dict(os.environ)) as running:
            if table is None:  # made once every client listens: told as it starts
                events = app.state.challenges.events
                wait_for(lambda: all(events.listening(bot.id) for bot, _ in accounts), 30)
                for token in tokens:  # each seek its bot's consent, its client's stream open
                    assert call(url, "/api/bot/seek", token, wish)[0] == 200
                table = wait_for(lambda: next(iter(hub.tables), None), 30)
            codes = running.wait()
        said = running.said()
        assert codes == [0] * players, said
        assert all(f"finished: {table}" in text for text in said), (table, said)
        played = hub.tables[table]
        assert played.session.match.over and played.session.rules.target == 25
        assert {action.seat for action in played.session.match.actions} == set(range(players))
    assert not failures
