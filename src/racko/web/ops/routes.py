"""The operations room's routes: ``/healthz`` (the proxy's health check; 503 while the server stops) and
``/metrics`` (Prometheus' text format, docs/DEPLOY.md)."""

from __future__ import annotations

from collections.abc import Callable

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from racko.web.ops.metrics import CONTENT_TYPE, Metrics
from racko.web.store import TableStore


def routes(store: TableStore, tables: Callable[[], int], metrics: Metrics, running: dict[str, bool]) -> list[BaseRoute]:
    """The health check and the figures; ``tables`` counts the tables this process plays, ``running["closing"]``
    says the server is stopping."""

    async def health(request: Request) -> Response:
        if running["closing"]:
            return JSONResponse({"status": "stopping", "node": store.node}, status_code=503)
        return JSONResponse({"status": "ok", "node": store.node, "tables": tables()})

    async def metrics_page(request: Request) -> Response:
        return Response(metrics.text(), media_type=CONTENT_TYPE)

    return [Route("/healthz", health), Route("/metrics", metrics_page)]
