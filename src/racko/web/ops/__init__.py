"""The operations room: what the operator watches and runs: the Prometheus figures (:mod:`.metrics`), the log lines
(:mod:`.logs`), a process's life and end said in them (:mod:`.life`: fatal signals, SIGTERM, crashes, restarts),
short collector pauses (:mod:`.memory`), the HAProxy configuration in front of several processes (:mod:`.proxy`),
and the health and metrics routes (:mod:`.routes`)."""

from racko.web.ops.life import SCHEMA, LoggedServer, Runs, report_crashes, said_of, watch_the_loop
from racko.web.ops.logs import LOG_FORMATS, configure_logging
from racko.web.ops.memory import keep_collections_short
from racko.web.ops.metrics import Metrics
from racko.web.ops.proxy import Backend, haproxy_config, parse_backend
from racko.web.ops.routes import OpsRoutes

__all__ = [
    "LOG_FORMATS",
    "SCHEMA",
    "Backend",
    "LoggedServer",
    "Metrics",
    "OpsRoutes",
    "Runs",
    "configure_logging",
    "haproxy_config",
    "keep_collections_short",
    "parse_backend",
    "report_crashes",
    "said_of",
    "watch_the_loop",
]
