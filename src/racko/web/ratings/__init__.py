"""The ratings room: OpenSkill ratings per variant, the players' histories of finished games, the computer levels'
calibration (:mod:`.ratings`), and the pages that show them (:mod:`.routes`)."""

from racko.web.ratings.ratings import BOTS, PEOPLE, POOLS, SCHEMA, Ratings, calibrate
from racko.web.ratings.routes import RatingRoutes

__all__ = ["BOTS", "PEOPLE", "POOLS", "SCHEMA", "RatingRoutes", "Ratings", "calibrate"]
