"""The puzzles room: the puzzles page and its questions (:mod:`.routes`)."""

from racko.web.puzzles.routes import PuzzleRoutes

__all__ = ["PuzzleRoutes"]
