"""``GET /metrics``: the process's metrics in the Prometheus text format.

A route of its own so the app gains one line; what is counted lives in
:mod:`burraco.server.metrics`.  Under ``serve --workers`` any worker answers for
all of them (prometheus-client's multiprocess mode; docs/deployment.md).
"""

from __future__ import annotations

from fastapi import FastAPI
from fastapi.responses import Response

from burraco.server.metrics import CONTENT_TYPE, render


def install_metrics(app: FastAPI) -> None:
    @app.get("/metrics", include_in_schema=False)
    async def metrics() -> Response:
        return Response(render(), media_type=CONTENT_TYPE)
