"""The operations room: what the operator watches and runs: the Prometheus figures (:mod:`.metrics`), the log lines
(:mod:`.logs`), short collector pauses (:mod:`.memory`), the HAProxy configuration in front of several processes
(:mod:`.proxy`), and the health and metrics routes (:mod:`.routes`)."""

from racko.web.ops.logs import LOG_FORMATS, configure_logging
from racko.web.ops.memory import keep_collections_short
from racko.web.ops.metrics import Metrics
from racko.web.ops.proxy import Backend, haproxy_config, parse_backend
from racko.web.ops.routes import routes

__all__ = [
    "LOG_FORMATS",
    "Backend",
    "Metrics",
    "configure_logging",
    "haproxy_config",
    "keep_collections_short",
    "parse_backend",
    "routes",
]
