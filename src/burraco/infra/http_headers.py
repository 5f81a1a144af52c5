"""Security headers on every HTTP answer: what the browser may load, frame and guess.

The client (``web/``) and the tournament pages load scripts, styles, images and
fonts from the server itself only, and talk to it by ``fetch`` and WebSocket, so
the policy allows ``'self'`` and nothing else.  The tournament pages carry their
stylesheet inline (printable pages in one file), hence ``style-src
'unsafe-inline'``; no inline script is allowed anywhere.  Pages may not be
framed (clickjacking: ``frame-ancestors 'none'`` and ``X-Frame-Options: DENY``),
no answer may be sniffed as another type, and no page's address (invite links
carry seat tokens) is sent to another site as a referrer.
"""

from __future__ import annotations

from starlette.types import ASGIApp, Message, Receive, Scope, Send

CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
    "img-src 'self' data:; font-src 'self'; connect-src 'self'; "
    "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'")

HEADERS: list[tuple[bytes, bytes]] = [
    (b"content-security-policy", CONTENT_SECURITY_POLICY.encode()),
    (b"x-frame-options", b"DENY"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
]


class SecurityHeaders:
    """Add :data:`HEADERS` to every HTTP response that does not set them itself."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                present = {name.lower() for name, _ in message.get("headers", [])}
                message["headers"] = [*message.get("headers", []),
                                      *(h for h in HEADERS if h[0] not in present)]
            await send(message)

        await self.app(scope, receive, with_headers)
