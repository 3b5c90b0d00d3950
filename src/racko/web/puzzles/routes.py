"""The puzzles room: the page, one puzzle at a time without its answer, and the judgement of a move.

A puzzle reaches the page as :meth:`racko.analysis.puzzles.Puzzle.public_json` (the position and its moves): the
answer, the moves' worth, the explanation and the source game (which holds every hidden card) stay here until a
move is posted.  The streak is the browser's own (localStorage): nothing is stored on the server.
"""

from __future__ import annotations

import asyncio
import functools

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from racko.analysis.puzzles import PuzzleSet, answer, load
from racko.analysis.words import LANGUAGES
from racko.errors import RackoError
from racko.rules import VARIANTS
from racko.web.core import Refusal, answers_refusals, json_body, page, static_files


@functools.cache
def _shipped() -> PuzzleSet:
    return load()


async def _puzzles() -> PuzzleSet:
    try:
        return await asyncio.to_thread(_shipped)
    except RackoError as error:
        raise Refusal("unavailable", f"The puzzles cannot be used: {error}") from None


class PuzzleRoutes:
    """The puzzles' page, one puzzle, and the judgement of a move; ``allowed`` are the origins whose pages may post
    a move."""

    def __init__(self, allowed: frozenset[str]) -> None:
        self._allowed = allowed

    def routes(self) -> list[BaseRoute]:
        return [
            Route("/puzzles", self.puzzles_page),
            Route("/api/puzzles", answers_refusals(self.one)),
            Route("/api/puzzles/{puzzle}/answer", answers_refusals(self.judge), methods=["POST"]),
            static_files("puzzles"),
        ]

    async def puzzles_page(self, request: Request) -> Response:
        return page("puzzles", "puzzles.html", request)

    async def one(self, request: Request) -> Response:
        """``?number=N&variant=V``: the Nth puzzle (from 1, counting round) of a variant (default: all)."""
        every = await _puzzles()
        name = request.query_params.get("variant") or None
        if name is not None and name not in VARIANTS:
            raise Refusal("bad-variant", f"Unknown variant: choose one of {', '.join(VARIANTS)}.")
        chosen = every.of_variant(name)
        if not chosen:
            raise Refusal("not-found", "There are no puzzles of that variant.")
        text = request.query_params.get("number", "1")
        if not text.isdigit() or len(text) > 6:
            raise Refusal("bad-number", "A puzzle's number is a whole number from 1.")
        number = (max(1, int(text)) - 1) % len(chosen) + 1
        variants = sorted({puzzle.variant for puzzle in every.puzzles}, key=list(VARIANTS).index)
        return JSONResponse(
            {
                "number": number,
                "count": len(chosen),
                "variants": variants,
                "puzzle": chosen[number - 1].public_json(),
            }
        )

    async def judge(self, request: Request) -> Response:
        """``{"move": <a move as records write it>, "lang": "en"}``: right or wrong, and why."""
        data = await json_body(request, self._allowed)
        puzzle = (await _puzzles()).by_id(request.path_params["puzzle"])
        if puzzle is None:
            raise Refusal("not-found", "There is no such puzzle.")
        lang = data.get("lang") if data.get("lang") in LANGUAGES else "en"
        move = data.get("move")
        if not isinstance(move, dict):
            raise Refusal("bad-json", "Send the move as a JSON object.")
        try:
            verdict = answer(puzzle, move, str(lang))
        except RackoError as error:
            raise Refusal("illegal", str(error)) from None
        return JSONResponse(verdict.to_json())
