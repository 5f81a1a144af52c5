"""Where the players reach the server: the base of every link printed or shown to them.

The server's public URL (``burraco serve --public-url``, or ``$BURRACO_PUBLIC_URL``, which
``burraco tournament serve`` reads too) is the address the phones use: the club's Wi-Fi
address or a domain.  When it is set, every table link — on the director's page, in the
table-links JSON, in the QR codes of the table cards — starts with it, whatever address the
director's browser opened the page at.  Without it the links take the page's own address,
which no phone can open when it is a loopback one (``localhost``, ``127.0.0.1``): the
director's page then warns (:func:`unreachable`).
"""

from __future__ import annotations

import ipaddress
import os

from starlette.requests import Request

PUBLIC_URL_ENV = "BURRACO_PUBLIC_URL"


def public_url(request: Request) -> str:
    """The public URL the server was given (without a trailing ``/``), or ``""``."""
    settings = getattr(getattr(request.app.state, "hub", None), "settings", None)
    given = getattr(settings, "public_url", "") or os.environ.get(PUBLIC_URL_ENV, "")
    return str(given).strip().rstrip("/")


def link_base(request: Request) -> str:
    """The base of the players' links: the public URL, else the address of this request."""
    return public_url(request) or str(request.base_url).rstrip("/")


def loopback(host: str) -> bool:
    """``localhost`` or a loopback IP address: a name only this computer answers to.

    >>> [loopback(h) for h in ("localhost", "127.0.0.1", "::1", "192.168.1.20", "club.it")]
    [True, True, True, False, False]
    """
    host = host.strip("[]").lower()
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def unreachable(request: Request) -> str:
    """The page's host when the players' links would lead to it and no phone can open it
    (a loopback address, no public URL set), else ``""``."""
    host = request.url.hostname or ""
    return host if not public_url(request) and loopback(host) else ""
