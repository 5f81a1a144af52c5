"""ASGI middleware that bounds what one HTTP request may cost before the app reads it.

:class:`BodyLimit` refuses a body larger than the server's limit with 413
``{"code": "too_large"}``: at once when ``Content-Length`` says so, otherwise as
soon as the bytes received pass the limit (chunked bodies are counted as they
arrive), so a 200 MB upload is never held in memory.  It also gives the client
``body_timeout`` seconds to send the body once the headers are in (408
``request_timeout``), so a slow trickle cannot hold a request open.  Either
answer closes the connection (``Connection: close``); whatever the app tries to
send after it is dropped.

Creations per client address are counted in :mod:`burraco.infra.rates`.
"""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send


def error_body(code: str, detail: str) -> bytes:
    return json.dumps({"code": code, "detail": detail}).encode()


async def send_error(send: Send, status: int, code: str, detail: str,
                     headers: list[tuple[bytes, bytes]] | None = None) -> None:
    """A complete ``{code, detail}`` JSON answer that closes the connection."""
    body = error_body(code, detail)
    await send({"type": "http.response.start", "status": status, "headers": [
        (b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
        (b"connection", b"close"), *(headers or [])]})
    await send({"type": "http.response.body", "body": body})


class BodyLimit:
    """Refuse request bodies over ``max_bytes`` (413) or slower than ``timeout`` seconds (408)."""

    def __init__(self, app: ASGIApp, *, max_bytes: int, timeout: float) -> None:
        self.app = app
        self.max_bytes = max_bytes
        self.timeout = timeout

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = self.max_bytes
        too_large = f"the request body is larger than {limit} bytes"
        declared = dict(scope["headers"]).get(b"content-length")
        if declared is not None and declared.isdigit() and int(declared) > limit:
            await send_error(send, 413, "too_large", too_large)
            return
        received = 0
        finished = False
        answered = False
        started = False
        deadline = time.monotonic() + self.timeout

        async def refuse(status: int, code: str, detail: str) -> Message:
            nonlocal answered
            if not started and not answered:
                answered = True
                await send_error(send, status, code, detail)
            return {"type": "http.disconnect"}

        async def counted_receive() -> Message:
            nonlocal received, finished
            if answered:
                return {"type": "http.disconnect"}
            if finished:  # the body is in: the app only waits for a disconnect now
                return await receive()
            try:
                message = await asyncio.wait_for(receive(), max(0.0, deadline - time.monotonic()))
            except TimeoutError:
                return await refuse(408, "request_timeout", "the request body did not arrive "
                                    f"within {self.timeout:g} seconds")
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > limit:
                    return await refuse(413, "too_large", too_large)
                finished = not message.get("more_body", False)
            return message

        async def guarded_send(message: Message) -> None:
            nonlocal started
            if answered:
                return  # the refusal was the answer
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, counted_receive, guarded_send)
        except Exception:
            if not answered:
                raise
            # the app failed reading the body it was refused (a disconnect): answered already


def client_address(scope: Any) -> str:
    """The client's address as the server sees it (behind a proxy: see docs/deployment.md)."""
    client = scope.get("client")
    return str(client[0]) if client else "unknown"
