"""The tournaments room's routes: the pages (``/tournaments``, ``/tournaments/{id}``), their JSON
(``GET /api/tournaments``, ``GET /api/tournaments/{id}``), making one, joining, pausing and withdrawing by a person's
cookie, and joining and withdrawing by a bot account's token (docs/BOTS.md).  Every refusal is JSON ``{"code",
"error"}`` with its status."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from racko.web.bots import BotLimits, bot_of
from racko.web.core import Refusal, answers_refusals, json_body, page, static_files
from racko.web.players import Player, player_of, required_player
from racko.web.tournaments import views
from racko.web.tournaments.runner import Tournaments
from racko.web.tournaments.settings import LONGEST_WAIT, TournamentSettings

ID_LENGTH = 20


def _id(request: Request) -> str:
    tournament_id = str(request.path_params["tournament"])
    if not 0 < len(tournament_id) <= ID_LENGTH:
        raise Refusal("no-tournament", "There is no such tournament.")
    return tournament_id


def routes(tournaments: Tournaments, allowed: frozenset[str], bot_limits: BotLimits) -> list[BaseRoute]:
    players = tournaments.players

    async def list_page(request: Request) -> Response:
        return page("tournaments", "tournaments.html", request)

    async def one_page(request: Request) -> Response:
        return page("tournaments", "tournament.html", request)

    @answers_refusals
    async def listing(request: Request) -> Response:
        found, counts = await tournaments.listing()
        return JSONResponse(views.listing(found, counts, tournaments.now()))

    @answers_refusals
    async def one(request: Request) -> Response:
        tournament_id = _id(request)
        built = await tournaments.view(tournament_id, views.page)
        if built is None:
            raise Refusal("no-tournament", "There is no such tournament.")
        known = request.query_params.get("known")
        if known is not None and known == str(built["version"]):
            return JSONResponse({"version": built["version"], "unchanged": True, "now": tournaments.now()})
        player = await player_of(request, players)
        return JSONResponse(views.for_person(built, player.id if player else None, tournaments.now()))

    @answers_refusals
    async def create(request: Request) -> Response:
        body = await json_body(request, allowed)
        player = await required_player(request, players)  # a bot account has no cookie: a person makes it
        starts_in = body.get("starts_in", 300)
        if isinstance(starts_in, bool) or not isinstance(starts_in, int | float) or not 0 <= starts_in <= LONGEST_WAIT:
            raise Refusal("bad-settings", "starts_in: seconds until the start, at most 30 days.")
        settings = TournamentSettings.of(body)
        kept = await tournaments.create(settings, float(starts_in), player)
        return JSONResponse({"id": kept.id, "url": f"/tournaments/{kept.id}"})

    async def person(request: Request) -> tuple[str, Player, dict[str, object]]:
        body = await json_body(request, allowed)
        player = await required_player(request, players)
        return _id(request), player, body

    @answers_refusals
    async def join(request: Request) -> Response:
        tournament_id, player, body = await person(request)
        partner = body.get("partner")
        wish = partner if isinstance(partner, str) else None
        return JSONResponse({"state": await tournaments.join(tournament_id, player, bot=False, partner=wish)})

    @answers_refusals
    async def withdraw(request: Request) -> Response:
        tournament_id, player, _ = await person(request)
        return JSONResponse({"state": await tournaments.withdraw(tournament_id, player.id)})

    @answers_refusals
    async def pause(request: Request) -> Response:
        tournament_id, player, _ = await person(request)
        return JSONResponse({"state": await tournaments.pause(tournament_id, player.id)})

    @answers_refusals
    async def bot_join(request: Request) -> Response:
        bot = await bot_of(request, players, bot_limits)
        return JSONResponse({"state": await tournaments.join(_id(request), bot, bot=True)})

    @answers_refusals
    async def bot_withdraw(request: Request) -> Response:
        bot = await bot_of(request, players, bot_limits)
        return JSONResponse({"state": await tournaments.withdraw(_id(request), bot.id)})

    return [
        Route("/tournaments", list_page),
        Route("/tournaments/{tournament}", one_page),
        Route("/api/tournaments", listing),
        Route("/api/tournaments", create, methods=["POST"]),
        Route("/api/tournaments/{tournament}", one),
        Route("/api/tournaments/{tournament}/join", join, methods=["POST"]),
        Route("/api/tournaments/{tournament}/withdraw", withdraw, methods=["POST"]),
        Route("/api/tournaments/{tournament}/pause", pause, methods=["POST"]),
        Route("/api/bot/tournament/{tournament}/join", bot_join, methods=["POST"]),
        Route("/api/bot/tournament/{tournament}/withdraw", bot_withdraw, methods=["POST"]),
        static_files("tournaments"),
    ]
