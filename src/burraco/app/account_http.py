"""What the accounts' routes share: the error shape, the session cookie, the client's address."""

from __future__ import annotations

from typing import Any

from fastapi import Request
from fastapi.responses import JSONResponse

from burraco.accounts.names import FieldError
from burraco.accounts.service import Banned, Throttled
from burraco.accounts.sessions import SESSION_COOKIE, SESSION_DAYS
from burraco.infra.http_limits import client_address


def error(status: int, code: str, detail: str, **extra: Any) -> JSONResponse:
    return JSONResponse({"code": code, "detail": detail, **extra}, status_code=status)


def bad(exc: FieldError) -> JSONResponse:
    """422 naming the field."""
    return error(422, "bad_request", str(exc), field=exc.field)


def address(request: Request) -> str:
    return client_address(request.scope)


def banned(exc: Banned) -> JSONResponse:
    return error(403, "banned", str(exc), reason=exc.reason, until=exc.until)


def throttled(exc: Throttled) -> JSONResponse:
    """429 ``throttled`` with ``Retry-After``: too many wrong passwords or codes."""
    response = error(429, "throttled", str(exc))
    response.headers["Retry-After"] = str(exc.retry_after)
    return response


def with_cookie(body: dict[str, Any], token: str, status: int) -> JSONResponse:
    """``body`` and the session cookie of ``token``."""
    response = JSONResponse(body, status_code=status)
    response.set_cookie(SESSION_COOKIE, token, httponly=True, samesite="lax",
                        max_age=SESSION_DAYS * 24 * 3600)
    return response
