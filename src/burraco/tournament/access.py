"""Who is the director, and reading the director's forms: the club pages' doors.

A club's machine with no key set (``BURRACO_DIRECTOR_KEY``) trusts everyone at it; with a key,
the director's pages need its cookie (or, for an API client, the ``X-Director-Key`` header).
"""

from __future__ import annotations

import hmac
import os
from urllib.parse import parse_qs, unquote

from starlette.requests import Request

from burraco.tournament.errors import Refused
from burraco.tournament.i18n import Text

KEY_ENV = "BURRACO_DIRECTOR_KEY"
KEY_COOKIE = "burraco_director"
MAX_FORM = 64 * 1024



async def read_form(request: Request) -> dict[str, str]:
    body = await request.body()
    if len(body) > MAX_FORM:
        raise Refused(413, Text("error.form_too_large"))
    fields = parse_qs(body.decode("utf-8", "replace"), keep_blank_values=True)
    return {k: v[-1] for k, v in fields.items()}


KEY_HEADER = "x-director-key"


def same_key(given: str, key: str) -> bool:
    """Constant-time comparison of any text (``compare_digest`` refuses non-ASCII ``str``)."""
    return hmac.compare_digest(given.encode("utf-8", "surrogatepass"),
                               key.encode("utf-8", "surrogatepass"))


def _cookie_key(request: Request) -> str:
    return unquote(request.cookies.get(KEY_COOKIE, ""))


def _header_key(request: Request) -> str:
    """The ``X-Director-Key`` header as UTF-8 (headers arrive decoded as latin-1)."""
    return request.headers.get(KEY_HEADER, "").encode("latin-1").decode("utf-8", "replace")


def is_director(request: Request) -> bool:
    """No key set (a club's own machine), or the director's cookie matches it."""
    key = os.environ.get(KEY_ENV)
    return not key or same_key(_cookie_key(request), key)


def director_key_given(request: Request) -> bool:
    """The key is set and given (the cookie, or the ``X-Director-Key`` header of an API client).

    What anyone may fetch (the JSON, the CSV exports, the printable page, the PDFs) shows a
    held duplicate round's results (:mod:`.held`) only to this request: without a key there
    is no telling the director from a player still at a table.
    """
    key = os.environ.get(KEY_ENV)
    if not key:
        return False
    return (same_key(_cookie_key(request), key)
            or same_key(_header_key(request), key))


def check_key(request: Request) -> None:
    if not is_director(request):
        raise Refused(403, Text("error.locked", env=KEY_ENV))
