"""The learn room: the first lesson's page and its stateless question (:mod:`.routes`)."""

from racko.web.learn.routes import routes

__all__ = ["routes"]
