"""The learn room: the first lesson's page and its stateless question (:mod:`.routes`)."""

from racko.web.learn.routes import LearnRoutes

__all__ = ["LearnRoutes"]
