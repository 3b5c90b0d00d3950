"""The operations room's routes: ``/healthz`` (the proxy's health check; 503 while the server stops) and
``/metrics`` (Prometheus' text format, docs/DEPLOY.md)."""

from __future__ import annotations

from collections.abc import Callable

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from racko.web.ops.metrics import CONTENT_TYPE, Metrics
from racko.web.store import TableStore


class OpsRoutes:
    """The health check and the figures; ``tables`` counts the tables this process plays, ``running["closing"]``
    says the server is stopping."""

    def __init__(
        self, store: TableStore, tables: Callable[[], int], metrics: Metrics, running: dict[str, bool]
    ) -> None:
        self._store = store
        self._tables = tables
        self._metrics = metrics
        self._running = running

    def routes(self) -> list[BaseRoute]:
        return [Route("/healthz", self.health), Route("/metrics", self.metrics_page)]

    async def health(self, request: Request) -> Response:
        if self._running["closing"]:
            return JSONResponse({"status": "stopping", "node": self._store.node}, status_code=503)
        return JSONResponse({"status": "ok", "node": self._store.node, "tables": self._tables()})

    async def metrics_page(self, request: Request) -> Response:
        return Response(self._metrics.text(), media_type=CONTENT_TYPE)
