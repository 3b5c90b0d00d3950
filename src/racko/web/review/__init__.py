"""The review room: a game's review in the browser, worked out in a process of its own (:mod:`.reviews`), and its
routes (:mod:`.routes`)."""

from racko.web.review.reviews import Reviews
from racko.web.review.routes import ReviewRoutes

__all__ = ["ReviewRoutes", "Reviews"]
