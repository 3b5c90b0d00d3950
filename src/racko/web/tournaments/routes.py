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


class TournamentRoutes:
    """The tournaments' pages and JSON; ``allowed`` are the origins whose pages may post, ``bot_limits`` the
    operator's limits on a bot account's token."""

    def __init__(self, tournaments: Tournaments, allowed: frozenset[str], bot_limits: BotLimits) -> None:
        self._tournaments = tournaments
        self._players = tournaments.players
        self._allowed = allowed
        self._bot_limits = bot_limits

    def routes(self) -> list[BaseRoute]:
        return [
            Route("/tournaments", self.list_page),
            Route("/tournaments/{tournament}", self.one_page),
            Route("/api/tournaments", answers_refusals(self.listing)),
            Route("/api/tournaments", answers_refusals(self.create), methods=["POST"]),
            Route("/api/tournaments/{tournament}", answers_refusals(self.one)),
            Route("/api/tournaments/{tournament}/join", answers_refusals(self.join), methods=["POST"]),
            Route("/api/tournaments/{tournament}/withdraw", answers_refusals(self.withdraw), methods=["POST"]),
            Route("/api/tournaments/{tournament}/pause", answers_refusals(self.pause), methods=["POST"]),
            Route("/api/bot/tournament/{tournament}/join", answers_refusals(self.bot_join), methods=["POST"]),
            Route("/api/bot/tournament/{tournament}/withdraw", answers_refusals(self.bot_withdraw), methods=["POST"]),
            static_files("tournaments"),
        ]

    async def list_page(self, request: Request) -> Response:
        return page("tournaments", "tournaments.html", request)

    async def one_page(self, request: Request) -> Response:
        return page("tournaments", "tournament.html", request)

    async def listing(self, request: Request) -> Response:
        found, counts = await self._tournaments.listing()
        return JSONResponse(views.listing(found, counts, self._tournaments.now()))

    async def one(self, request: Request) -> Response:
        tournament_id = _id(request)
        built = await self._tournaments.view(tournament_id, views.page)
        if built is None:
            raise Refusal("no-tournament", "There is no such tournament.")
        known = request.query_params.get("known")
        if known is not None and known == str(built["version"]):
            return JSONResponse({"version": built["version"], "unchanged": True, "now": self._tournaments.now()})
        player = await player_of(request, self._players)
        return JSONResponse(views.for_person(built, player.id if player else None, self._tournaments.now()))

    async def create(self, request: Request) -> Response:
        body = await json_body(request, self._allowed)
        player = await required_player(request, self._players)  # a bot account has no cookie: a person makes it
        starts_in = body.get("starts_in", 300)
        if isinstance(starts_in, bool) or not isinstance(starts_in, int | float) or not 0 <= starts_in <= LONGEST_WAIT:
            raise Refusal("bad-settings", "starts_in: seconds until the start, at most 30 days.")
        settings = TournamentSettings.of(body)
        kept = await self._tournaments.create(settings, float(starts_in), player)
        return JSONResponse({"id": kept.id, "url": f"/tournaments/{kept.id}"})

    async def _person(self, request: Request) -> tuple[str, Player, dict[str, object]]:
        """The tournament, the person posting (by their cookie) and what they posted."""
        body = await json_body(request, self._allowed)
        player = await required_player(request, self._players)
        return _id(request), player, body

    async def join(self, request: Request) -> Response:
        tournament_id, player, body = await self._person(request)
        partner = body.get("partner")
        wish = partner if isinstance(partner, str) else None
        return JSONResponse({"state": await self._tournaments.join(tournament_id, player, bot=False, partner=wish)})

    async def withdraw(self, request: Request) -> Response:
        tournament_id, player, _ = await self._person(request)
        return JSONResponse({"state": await self._tournaments.withdraw(tournament_id, player.id)})

    async def pause(self, request: Request) -> Response:
        tournament_id, player, _ = await self._person(request)
        return JSONResponse({"state": await self._tournaments.pause(tournament_id, player.id)})

    async def bot_join(self, request: Request) -> Response:
        bot = await bot_of(request, self._players, self._bot_limits)
        return JSONResponse({"state": await self._tournaments.join(_id(request), bot, bot=True)})

    async def bot_withdraw(self, request: Request) -> Response:
        bot = await bot_of(request, self._players, self._bot_limits)
        return JSONResponse({"state": await self._tournaments.withdraw(_id(request), bot.id)})
