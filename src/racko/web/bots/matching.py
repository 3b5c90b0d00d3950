"""Where bots play beyond the tables people invite them to (docs/BOTS.md): challenges (a person's from the bot's
challenge page, a bot's through the Bot API) that the bot accepts or declines, and quick play's seeks of the bots
that opt in, matched by the lobby with other seeking bots and the people whose wish welcomes bots."""

from __future__ import annotations

import asyncio
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from racko.web.bots.access import BotLimits, bot_of, posted_object
from racko.web.bots.api import BotEvents
from racko.web.bots.challenges import Challenge, Challenges
from racko.web.core import (
    Refusal,
    client_address,
    json_body,
    page,
    static_files,
)
from racko.web.lobby import Lobby
from racko.web.players import Player, required_player


def matching_routes(
    challenges: Challenges, lobby: Lobby, events: BotEvents, limits: BotLimits, allowed: frozenset[str]
) -> list[BaseRoute]:
    """The challenge page, the routes of challenges (a bot's and a person's) and the bots' seeks."""
    players = challenges.hub.players

    async def bot_body(request: Request) -> tuple[Player, dict[str, Any]]:
        bot = await bot_of(request, players, limits)
        said = "The body is a JSON object."
        body = await posted_object(request, "A request is at most 4 KiB.", said, said, empty=b"{}")
        return bot, body

    def answered(status: dict[str, Any]) -> JSONResponse:
        return JSONResponse(status, headers={"Cache-Control": "no-store"})  # a guest's link may be in it

    # --- a bot's routes ---------------------------------------------------------------------------------

    async def bot_challenges(request: Request) -> Response:
        try:
            bot, body = await bot_body(request)
            made = await challenges.make(bot, True, request.path_params["name"], body)
        except Refusal as refusal:
            return refusal.response()
        return answered(made.status(challenges.now(), challenger=True))

    async def bot_looks(request: Request) -> Response:
        try:
            bot = await bot_of(request, players, limits)
            challenge = challenges.find(request.path_params["id"])
            if bot.id not in (challenge.bot.id, challenge.challenger.id):
                raise Refusal("not-yours", "This challenge is neither to nor from this bot.")
        except Refusal as refusal:
            return refusal.response()
        return answered(challenge.status(challenges.now(), challenger=bot.id == challenge.challenger.id))

    async def bot_answers(request: Request) -> Response:
        answer = request.path_params["answer"]
        try:
            bot, body = await bot_body(request)
            challenge_id = request.path_params["id"]
            challenge: Challenge
            if answer == "accept":
                challenge = await challenges.accept(challenge_id, bot)
            elif answer == "decline":
                challenge = await challenges.decline(challenge_id, bot, body.get("reason"))
            elif answer == "cancel":
                challenge = await challenges.withdraw(challenge_id, bot)
            else:
                raise Refusal("no-route", "A challenge is answered with accept, decline or cancel.")
        except Refusal as refusal:
            return refusal.response()
        return answered(challenge.status(challenges.now(), challenger=bot.id == challenge.challenger.id))

    async def seek(request: Request) -> Response:
        try:
            bot, body = await bot_body(request)
            if not events.listening(bot.id):
                raise Refusal("not-listening", "Open the event stream first: a seek lasts while it is open.")
            await limits.may_start_a_game(bot)
            sought = await lobby.bot_seeks(bot, body)
        except Refusal as refusal:
            return refusal.response()
        return JSONResponse(sought)

    async def stop_seeking(request: Request) -> Response:
        try:
            bot = await bot_of(request, players, limits)
        except Refusal as refusal:
            return refusal.response()
        return JSONResponse({"stopped": lobby.bot_stops(bot.id)})

    async def seeks_end(bot: Player) -> None:
        lobby.bot_stops(bot.id)

    events.on_last_close.append(seeks_end)

    # --- a person's routes --------------------------------------------------------------------------------

    async def challenge_page(request: Request) -> Response:
        return page("bots", "challenge.html", request)

    async def person_challenges(request: Request) -> Response:
        try:
            body = await json_body(request, allowed)
            person = await required_player(request, players)
            if await asyncio.to_thread(players.is_bot, person.id):
                raise Refusal("bot", "A bot challenges through the Bot API.")
            made = await challenges.make(person, False, str(body.get("bot", "")), body, client_address(request))
        except Refusal as refusal:
            return refusal.response()
        return answered(made.status(challenges.now(), challenger=True))

    async def person_looks(request: Request) -> Response:
        try:
            person = await required_player(request, players)
            challenge = challenges.find(request.path_params["id"])
            if challenge.challenger.id != person.id:
                raise Refusal("not-yours", "Only its challenger follows a challenge.")
            if request.method == "POST":
                await json_body(request, allowed)
                challenge = await challenges.withdraw(challenge.id, person)
        except Refusal as refusal:
            return refusal.response()
        return answered(challenge.status(challenges.now(), challenger=True))

    return [
        Route("/api/bot/challenge/{id}/{answer}", bot_answers, methods=["POST"]),
        Route("/api/bot/challenge/{name}", bot_challenges, methods=["POST"]),
        Route("/api/bot/challenge/{id}", bot_looks, methods=["GET"]),
        Route("/api/bot/seek", seek, methods=["POST"]),
        Route("/api/bot/seek", stop_seeking, methods=["DELETE"]),
        Route("/challenge/{name}", challenge_page),
        Route("/api/challenges", person_challenges, methods=["POST"]),
        Route("/api/challenges/{id}", person_looks, methods=["GET"]),
        Route("/api/challenges/{id}/withdraw", person_looks, methods=["POST"]),
        static_files("bots"),
    ]
