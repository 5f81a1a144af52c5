"""uvicorn's HTTP protocol with a deadline for a request's headers (against slowloris).

uvicorn closes an idle keep-alive connection after ``timeout_keep_alive``, but
only once a response has been sent: a connection that never finishes its first
request line and headers, or sends them a byte at a time, is held for ever.
:func:`header_timeout_protocol` returns uvicorn's own protocol class
(httptools) with one timer added: armed when a connection opens and when a
request's first byte arrives, disarmed when its headers are complete; when it
fires the connection is closed, with a 408 answer if a request was begun (a
socket a browser opened ahead and left unused is closed without one: a stray 408
on it would be read as the answer to its next request).  The body has its own deadline
(:class:`~burraco.infra.http_limits.BodyLimit`), and a WebSocket, once
upgraded, is the gateway's (its hello timeout).
"""

from __future__ import annotations

import asyncio
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from burraco.infra.http_limits import error_body


def header_timeout_protocol(seconds: float) -> type[asyncio.Protocol]:
    """uvicorn's httptools protocol, closing connections whose headers take over ``seconds``."""

    class HeaderTimeoutProtocol(HttpToolsProtocol):
        header_timeout = seconds

        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self._header_timer: asyncio.TimerHandle | None = None
            self._begun = False
            """A request's first byte is in and its headers are not complete."""

        def _arm(self) -> None:
            if self._header_timer is None:
                self._header_timer = self.loop.call_later(self.header_timeout, self._expired)

        def _disarm(self) -> None:
            if self._header_timer is not None:
                self._header_timer.cancel()
                self._header_timer = None

        def _expired(self) -> None:
            self._header_timer = None
            if self.transport.is_closing():
                return
            idle = self.cycle is None or self.cycle.response_complete
            if self._begun and idle:  # a request was begun: say why it ends
                body = error_body("request_timeout", "the request headers did not arrive "
                                  f"within {self.header_timeout:g} seconds")
                self.transport.write(
                    b"HTTP/1.1 408 Request Timeout\r\ncontent-type: application/json\r\n"
                    b"connection: close\r\ncontent-length: " + str(len(body)).encode()
                    + b"\r\n\r\n" + body)
            self.transport.close()

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            self._arm()

        def on_message_begin(self) -> None:
            super().on_message_begin()
            self._begun = True
            self._arm()

        def on_headers_complete(self) -> None:
            self._begun = False
            self._disarm()
            super().on_headers_complete()

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            super().connection_lost(exc)

    return HeaderTimeoutProtocol
