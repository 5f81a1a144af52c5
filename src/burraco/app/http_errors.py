"""Every HTTP error in the one shape the contract lists: ``{"code": ..., "detail": ...}``.

FastAPI and Starlette answer some errors themselves: a body that is not JSON
(or nested too deep, or with an integer too long to read) as 400 or 422
``{"detail": ...}``, an unknown path as 404, a wrong method as 405, a crash as a
plain-text 500.  :func:`install_error_shapes` gives each the documented shape,
with a code a client can branch on (every unreadable body is 400 ``bad_json``),
and keeps the status and headers (405's ``Allow``).  Validation errors of
bodies, queries and paths are 422 ``bad_request`` naming each field.
"""

from __future__ import annotations

import logging

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from starlette.exceptions import HTTPException

from burraco.app.client_files import static_dir
from burraco.app.not_found import not_found_page, wants_page

log = logging.getLogger(__name__)

CODES = {400: "bad_request", 401: "unauthorized", 403: "forbidden", 404: "not_found",
         405: "method_not_allowed", 408: "request_timeout", 413: "too_large",
         422: "bad_request", 429: "rate_limited"}

ERROR_SCHEMA = {
    "type": "object", "required": ["code", "detail"],
    "properties": {"code": {"type": "string"}, "detail": {"type": "string"}},
}
"""The JSON schema of an error answer (declared for every API operation in the OpenAPI)."""


def _field(loc: tuple[object, ...] | list[object]) -> str:
    return ".".join(str(p) for p in loc if p != "body") or "body"


CLIENT_FAULTS = ("Invalid UTF-8 sequence received from client",)
"""uvicorn's log lines about a client's malformed frame, logged with a traceback each."""


class OneLineClientFaults(logging.Filter):
    """A client's malformed frame is the client's fault, not the server's: one line, no
    traceback (a client could otherwise write 30 lines of log per frame it sends)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.exc_info and str(record.msg).startswith(CLIENT_FAULTS):
            record.exc_info = None
            record.exc_text = None
            record.levelno, record.levelname = logging.INFO, "INFO"
            return logging.getLogger(record.name).isEnabledFor(logging.INFO)
        return True


def quiet_client_faults() -> None:
    """Install :class:`OneLineClientFaults` on uvicorn's error log (once per process)."""
    logger = logging.getLogger("uvicorn.error")
    if not any(isinstance(f, OneLineClientFaults) for f in logger.filters):
        logger.addFilter(OneLineClientFaults())


def install_error_shapes(app: FastAPI) -> None:
    """Register the handlers that give every error answer the ``{code, detail}`` shape."""

    @app.exception_handler(RequestValidationError)
    async def _bad_request(_request: Request, exc: RequestValidationError) -> JSONResponse:
        errors = exc.errors()
        if any(e.get("type") == "json_invalid" for e in errors):
            return JSONResponse({"code": "bad_json", "detail": "the body is not valid JSON"},
                                status_code=400)
        problems = "; ".join(f"{_field(e['loc'])}: {e['msg']}" for e in errors)
        return JSONResponse({"code": "bad_request", "detail": problems[:2000]},
                            status_code=422)

    @app.exception_handler(HTTPException)
    async def _http_error(request: Request, exc: HTTPException) -> Response:
        if exc.status_code == 404 and wants_page(request):
            return not_found_page(static_dir())
        detail = exc.detail if isinstance(exc.detail, str) else str(exc.detail)
        code = CODES.get(exc.status_code, "error")
        if exc.status_code == 400 and "parsing the body" in detail:
            code, detail = "bad_json", ("the body could not be read as JSON (nested too "
                                        "deep, a number too long, or not JSON at all)")
        return JSONResponse({"code": code, "detail": detail}, status_code=exc.status_code,
                            headers=exc.headers)

    @app.exception_handler(Exception)
    async def _crash(request: Request, exc: Exception) -> JSONResponse:
        log.error("%s %s failed", request.method, request.url.path, exc_info=exc)
        return JSONResponse({"code": "internal_error",
                             "detail": "the server failed on this request (it is logged)"},
                            status_code=500)
