"""Where bots play beyond the tables people invite them to (docs/BOTS.md): challenges (a person's from the bot's
challenge page, a bot's through the Bot API) that the bot accepts or declines, and quick play's seeks of the bots
that opt in, matched by the lobby with other seeking bots and the people whose wish welcomes bots.

A bot's seeks are kept in the store (``racko_bot_seeks``), so that any process takes them: every process's lobby
holds them (the keeper brings each lobby in step with the store at every look), and the lobby that seats a bot first
takes its seeks out of the store in the same moment (:meth:`Seeks.seating`), so that no other seats it too."""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from racko.web.bots.access import BotLimits, bot_of, posted_object
from racko.web.bots.api import STALE_SECONDS, BotEvents, Poller, listening_in
from racko.web.bots.challenges import Challenge, Challenges, withdraw_every_one_of
from racko.web.core import (
    Refusal,
    answers_refusals,
    client_address,
    json_body,
    page,
    static_files,
)
from racko.web.lobby import Lobby
from racko.web.players import Player, required_player
from racko.web.store import Rows

SEEKS_PER_BOT = 3
"""Kinds of game one bot may seek at once (as many as a person may wait for in quick play)."""


class Seeks:
    """The bots' seeks in the store, and this process's lobby kept in step with them."""

    def __init__(self, lobby: Lobby, events: BotEvents, limits: BotLimits) -> None:
        self.lobby = lobby
        self.events = events
        self.limits = limits
        self.store = events.store
        lobby.seating_bots = self.seating
        events.pollers.append(Poller(self._read, self._in_step))
        events.sweepers.append(self._sweep)
        events.on_last_close.append(self._last_stream_closed)

    async def seek(self, bot: Player, body: dict[str, Any]) -> dict[str, Any]:
        """The bot's seek, noted in the store (refused when it has no event stream open anywhere, plays as many
        games as it may, or seeks :data:`SEEKS_PER_BOT` kinds already), then offered to this process's lobby."""
        wish = self.lobby.bot_wish(body)
        limits = self.limits

        def work(rows: Rows) -> None:
            rows("UPDATE racko_bot_accounts SET created = created WHERE player_id = ?", (bot.id,))  # held
            if not listening_in(rows, bot.id, time.time()):
                raise Refusal("not-listening", "Open the event stream first: a seek lasts while it is open.")
            playing = limits.games_of(rows, bot.id)
            if playing >= limits.games_at_once:
                raise limits.too_many_games(bot, playing)
            others = {str(name) for (name,) in rows("SELECT wish FROM racko_bot_seeks WHERE player_id = ?", (bot.id,))}
            if wish in others:
                return
            if len(others) >= SEEKS_PER_BOT:
                raise Refusal("too-many", f"A bot seeks at most {SEEKS_PER_BOT} kinds of game at once.")
            rows(
                "INSERT INTO racko_bot_seeks (player_id, wish, body, made) VALUES (?, ?, ?, ?)",
                (bot.id, wish, json.dumps(body), time.time()),
            )

        await asyncio.to_thread(self.store.run, work, durable=False)
        return await self.lobby.bot_seeks(bot, body)

    async def stop(self, bot_id: str) -> int:
        """The bot's seeks end, everywhere (each lobby at its next look); how many there were."""
        gone = await asyncio.to_thread(
            self.store.run,
            lambda rows: rows("DELETE FROM racko_bot_seeks WHERE player_id = ? RETURNING wish", (bot_id,)),
            durable=False,
        )
        self.lobby.bot_stops(bot_id)
        return len(gone)

    async def seating(self, bot_ids: list[str]) -> bool:
        """The lobby is about to seat these bots: each still seeks (no other process seated it) and has room for a
        game; their seeks leave the store at once.  Whether they may be seated."""
        limits = self.limits

        def work(rows: Rows) -> bool:
            for bot_id in sorted(bot_ids):
                rows("UPDATE racko_bot_accounts SET created = created WHERE player_id = ?", (bot_id,))  # held
            for bot_id in bot_ids:
                gone = rows("DELETE FROM racko_bot_seeks WHERE player_id = ? RETURNING wish", (bot_id,))
                if not gone or limits.games_of(rows, bot_id) >= limits.games_at_once:
                    return False
            return True

        try:
            return bool(await asyncio.to_thread(self.store.run, work))
        except Exception:  # the store away a moment: nobody is seated now, the seeks stay
            return False

    def _read(self, rows: Rows) -> list[tuple[str, str, str]]:
        """The keeper's read: every bot's seeks (bot, name, wish as posted)."""
        found = rows(
            "SELECT s.player_id, p.name, s.body FROM racko_bot_seeks s JOIN racko_players p ON p.id = s.player_id "
            "ORDER BY s.made"
        )
        return [(str(bot_id), str(name), str(body)) for bot_id, name, body in found]

    async def _in_step(self, seeks: list[tuple[str, str, str]]) -> None:
        """This lobby's bots' seeks made those of the store: a bot that seeks no more is taken out, a seek made
        elsewhere is offered here (the lobby matches it at once if it can)."""
        kept = {bot_id for bot_id, _, _ in seeks}
        here = {waiting.player.id: waiting for waiting in self.lobby.waiting if waiting.bot}
        for bot_id in set(here) - kept:
            self.lobby.bot_stops(bot_id)
        wished = {(w.player.id, w.key.name()) for w in self.lobby.waiting if w.bot}
        for bot_id, name, body in seeks:
            try:
                wish = json.loads(body)
                if (bot_id, self.lobby.bot_wish(wish)) not in wished:
                    await self.lobby.bot_seeks(Player(bot_id, name), wish)
            except (ValueError, Refusal):
                continue

    def _sweep(self, rows: Rows, now: float) -> None:
        """The seeks of a bot with no event stream open anywhere (its process stopped) end."""
        rows(
            "DELETE FROM racko_bot_seeks WHERE player_id NOT IN "
            "(SELECT player_id FROM racko_bot_streams WHERE seen > ?)",
            (time.time() - STALE_SECONDS,),
        )

    async def _last_stream_closed(self, bot: Player) -> None:
        """The bot's last event stream here closed: its seeks end, unless it has one open in another process."""

        def work(rows: Rows) -> bool:
            if listening_in(rows, bot.id, time.time()):
                return False
            rows("DELETE FROM racko_bot_seeks WHERE player_id = ?", (bot.id,))
            return True

        if await asyncio.to_thread(self.store.run, work, durable=False):
            self.lobby.bot_stops(bot.id)


def revoke_in_bots(rows: Rows, bot_id: str) -> None:
    """Part of revoking a bot's token (the players room's transaction): its open challenges, made and received, are
    withdrawn (the other side told) and its seeks end; its streams end at each process's next look."""
    withdraw_every_one_of(rows, bot_id, time.time())
    rows("DELETE FROM racko_bot_seeks WHERE player_id = ?", (bot_id,))


class MatchingRoutes:
    """The challenge page, the routes of challenges (a bot's and a person's) and the bots' seeks, each a named
    handler."""

    def __init__(
        self, challenges: Challenges, lobby: Lobby, events: BotEvents, limits: BotLimits, allowed: frozenset[str]
    ) -> None:
        self.challenges = challenges
        self.limits = limits
        self.allowed = allowed
        self.players = challenges.hub.players
        self.seeks = Seeks(lobby, events, limits)

    def routes(self) -> list[BaseRoute]:
        handlers = [
            ("/api/bot/challenge/{id}/accept", self.bot_accepts, "POST"),
            ("/api/bot/challenge/{id}/decline", self.bot_declines, "POST"),
            ("/api/bot/challenge/{id}/cancel", self.bot_cancels, "POST"),
            ("/api/bot/challenge/{name}", self.bot_challenges, "POST"),
            ("/api/bot/challenge/{id}", self.bot_looks, "GET"),
            ("/api/bot/seek", self.seek, "POST"),
            ("/api/bot/seek", self.stop_seeking, "DELETE"),
            ("/api/challenges", self.person_challenges, "POST"),
            ("/api/challenges/{id}", self.person_looks, "GET"),
            ("/api/challenges/{id}/withdraw", self.person_looks, "POST"),
        ]
        return [
            *(Route(path, answers_refusals(handler), methods=[method]) for path, handler, method in handlers),
            Route("/challenge/{name}", self.challenge_page),
            static_files("bots"),
        ]

    async def _bot(self, request: Request) -> Player:
        return await bot_of(request, self.players, self.limits)

    async def _bot_body(self, request: Request) -> tuple[Player, dict[str, Any]]:
        bot = await self._bot(request)
        said = "The body is a JSON object."
        body = await posted_object(request, "A request is at most 4 KiB.", said, said, empty=b"{}")
        return bot, body

    def _status(self, challenge: Challenge, challenger: bool) -> JSONResponse:
        status = challenge.status(self.challenges.now(), challenger=challenger)
        return JSONResponse(status, headers={"Cache-Control": "no-store"})  # a guest's link may be in it

    def _told(self, bot: Player, challenge: Challenge) -> JSONResponse:
        """The challenge's status as this bot sees it (its challenger, or the bot challenged)."""
        return self._status(challenge, challenger=bot.id == challenge.challenger.id)

    # --- a bot's routes ---------------------------------------------------------------------------------

    async def bot_challenges(self, request: Request) -> Response:
        bot, body = await self._bot_body(request)
        made = await self.challenges.make(bot, True, request.path_params["name"], body)
        return self._status(made, challenger=True)

    async def bot_looks(self, request: Request) -> Response:
        bot = await self._bot(request)
        challenge = await self.challenges.find(request.path_params["id"])
        if bot.id not in (challenge.bot.id, challenge.challenger.id):
            raise Refusal("not-yours", "This challenge is neither to nor from this bot.")
        return self._told(bot, challenge)

    async def bot_accepts(self, request: Request) -> Response:
        bot, _ = await self._bot_body(request)
        return self._told(bot, await self.challenges.accept(request.path_params["id"], bot))

    async def bot_declines(self, request: Request) -> Response:
        bot, body = await self._bot_body(request)
        return self._told(bot, await self.challenges.decline(request.path_params["id"], bot, body.get("reason")))

    async def bot_cancels(self, request: Request) -> Response:
        """A bot withdraws the challenge it made."""
        bot, _ = await self._bot_body(request)
        return self._told(bot, await self.challenges.withdraw(request.path_params["id"], bot))

    async def seek(self, request: Request) -> Response:
        bot, body = await self._bot_body(request)
        return JSONResponse(await self.seeks.seek(bot, body))

    async def stop_seeking(self, request: Request) -> Response:
        bot = await self._bot(request)
        return JSONResponse({"stopped": await self.seeks.stop(bot.id)})

    # --- a person's routes --------------------------------------------------------------------------------

    async def challenge_page(self, request: Request) -> Response:
        return page("bots", "challenge.html", request)

    async def person_challenges(self, request: Request) -> Response:
        players = self.players
        body = await json_body(request, self.allowed)
        person = await required_player(request, players)
        if await asyncio.to_thread(players.is_bot, person.id):
            raise Refusal("bot", "A bot challenges through the Bot API.")
        address = client_address(request)
        made = await self.challenges.make(person, False, str(body.get("bot", "")), body, address)
        return self._status(made, challenger=True)

    async def person_looks(self, request: Request) -> Response:
        """A person follows the challenge they made (``GET``), or withdraws it (``POST …/withdraw``)."""
        person = await required_player(request, self.players)
        challenge = await self.challenges.find(request.path_params["id"])
        if challenge.challenger.id != person.id:
            raise Refusal("not-yours", "Only its challenger follows a challenge.")
        if request.method == "POST":
            await json_body(request, self.allowed)
            challenge = await self.challenges.withdraw(challenge.id, person)
        return self._status(challenge, challenger=True)
