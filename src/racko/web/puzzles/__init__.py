"""The puzzles room: the puzzles page and its questions (:mod:`.routes`)."""

from racko.web.puzzles.routes import routes

__all__ = ["routes"]
