"""The answer to an unknown address: the app's own "not found" page for a browser, JSON for the API.

A person who follows a mistyped or stale link gets a page in the app's look (the built client
shows its not-found screen, with a way back to the lobby), with status 404; without a built
client, a small bilingual HTML page says the same.  Paths of the API, the WebSockets and the
health check, and clients that do not ask for HTML, keep the ``{code, detail}`` JSON error.
"""

from __future__ import annotations

from pathlib import Path

from fastapi import Request
from fastapi.responses import FileResponse, HTMLResponse, Response

MACHINE_PREFIXES = ("/api/", "/ws/", "/healthz", "/metrics")
"""Paths whose callers are programs: their 404 stays JSON."""

FALLBACK_PAGE = """<!doctype html><html lang="en"><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Not found · Burraco</title>
<body style="font-family:system-ui,sans-serif;background:#14532d;color:#fbfaf5;
text-align:center;padding:3em 1em">
<h1>Page not found</h1><p>There is no page at this address.</p>
<p lang="it">A questo indirizzo non c'è nessuna pagina.</p>
<p><a style="color:#f2c14e" href="/">Back to the lobby · Torna alla sala</a></p>
</body></html>
"""


def wants_page(request: Request) -> bool:
    """True for a browser asking for a page (HTML accepted) outside the API's paths."""
    path = request.url.path
    if path.startswith(MACHINE_PREFIXES) or path == "/api":
        return False
    if request.method not in ("GET", "HEAD"):
        return False
    return "text/html" in request.headers.get("accept", "")


def not_found_page(static: Path) -> Response:
    """The client's page (it routes the unknown path to its not-found screen), status 404."""
    index = static / "index.html"
    if index.is_file():
        return FileResponse(index, status_code=404, headers={"cache-control": "no-cache"})
    return HTMLResponse(FALLBACK_PAGE, status_code=404)
