"""The first lesson in the browser (`/learn`): the page, and one stateless request that replays the learner's
answers so far on the lesson's prepared deal and says the step they lead to, with the verdict on a new answer.

The lesson itself (its steps, checks and words) is the analysis room's (:mod:`racko.analysis.lesson`).  The server
keeps nothing per learner: the page holds its answers (in its address, so that a reload resumes) and sends them.
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from racko.analysis.lesson import MOST_ANSWERS, Lesson, LessonError
from racko.web.core import Refusal, page, static_files

LONGEST_QUERY = 20 * MOST_ANSWERS
"""Longer answer lists are refused before they are read (an answer is a short word)."""


class LearnRoutes:
    """The lesson's page and its one question; it needs nothing (the learner's answers come with each request), and
    is a class as every room's routes are."""

    def routes(self) -> list[BaseRoute]:
        return [
            Route("/learn", self.learn_page),
            Route("/api/learn", self.lesson),
            static_files("learn"),
        ]

    async def learn_page(self, request: Request) -> Response:
        return page("learn", "learn.html", request)

    async def lesson(self, request: Request) -> Response:
        given = request.query_params.get("answers", "")
        attempt = request.query_params.get("try")
        if len(given) > LONGEST_QUERY or (attempt is not None and len(attempt) > 20):
            return Refusal("bad-answers", "That is more answers than the lesson has steps.").response()
        try:
            learner = Lesson.replay(given.split(",") if given else [])
        except LessonError as error:
            return Refusal("bad-answers", str(error)).response()
        body = {}
        if attempt is not None:
            body["feedback"] = learner.attempt(attempt).to_json()
        body["view"] = learner.view()
        return JSONResponse(body)
