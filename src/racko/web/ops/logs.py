"""The server's log: one line per event worth knowing (a table opened, set aside, taken over or handed on; the
process started or stopped), on standard error, as plain text or as one JSON object a line."""

from __future__ import annotations

import json
import logging
import sys
import time

LOG_FORMATS = ("plain", "json")


class _Plain(logging.Formatter):
    def __init__(self, node: str) -> None:
        super().__init__()
        self.node = node

    def format(self, record: logging.LogRecord) -> str:
        stamp = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(record.created))
        return f"{stamp} racko serve {self.node} {record.levelname.lower()}: {record.getMessage()}"


class _Json(logging.Formatter):
    def __init__(self, node: str) -> None:
        super().__init__()
        self.node = node

    def format(self, record: logging.LogRecord) -> str:
        return json.dumps(
            {
                "time": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(record.created)),
                "level": record.levelname.lower(),
                "node": self.node,
                "message": record.getMessage(),
            },
            ensure_ascii=False,
        )


def configure_logging(log_format: str, node: str) -> None:
    """Send the server's log (``racko.serve``) to standard error in ``log_format``; nothing else changes."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(_Json(node) if log_format == "json" else _Plain(node))
    logger = logging.getLogger("racko.serve")
    logger.handlers = [handler]
    logger.setLevel(logging.INFO)
    logger.propagate = False
