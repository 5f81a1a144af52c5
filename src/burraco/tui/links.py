"""Invite and watch links, the few HTTP calls a client makes, and the remembered guest.

An invite link is ``http://HOST:PORT/play/TABLE?seat=N&token=s.…``; a watch
link ``…/play/TABLE?watch=w.…`` (or no query at a public table).  The guest
token that first claims a seat is needed to sit there again, so it is kept
per server in ``$XDG_STATE_HOME/burraco/guests.json``.
"""

from __future__ import annotations

import json
import os
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any


class LinkError(ValueError):
    """A link or a server answer that cannot be used; the message says what is wrong."""


@dataclass(frozen=True, slots=True)
class Seat:
    """Where to connect and who to be there."""

    base: str
    table: str
    seat: int | None
    token: str | None = None
    watch_token: str | None = None

    @property
    def ws(self) -> str:
        scheme = "wss" if self.base.startswith("https:") else "ws"
        host = self.base.split("://", 1)[1]
        return f"{scheme}://{host}/ws/tables/{urllib.parse.quote(self.table)}"


def server_base(url: str) -> str:
    parts = urllib.parse.urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise LinkError(f"{url!r}: expected a server address such as http://127.0.0.1:8000")
    return f"{parts.scheme}://{parts.netloc}"


def parse_link(url: str) -> Seat:
    """A seat (or a spectator's place) from an invite or watch link."""
    base = server_base(url)
    parts = urllib.parse.urlsplit(url)
    path = parts.path.rstrip("/").split("/")
    if len(path) < 3 or path[-2] != "play" or not path[-1]:
        raise LinkError(f"{url!r}: an invite link looks like {base}/play/TABLE?seat=0&token=…")
    query = urllib.parse.parse_qs(parts.query)
    table = urllib.parse.unquote(path[-1])
    watch = query.get("watch", [None])[0]
    if "seat" in query:
        try:
            seat = int(query["seat"][0])
        except ValueError:
            raise LinkError(f"{url!r}: seat {query['seat'][0]!r} is not a number") from None
        token = query.get("token", [None])[0]
        if not token:
            raise LinkError(f"{url!r}: the invite has no token")
        return Seat(base, table, seat, token=token)
    return Seat(base, table, None, watch_token=watch)


def request_json(url: str, *, body: Mapping[str, Any] | None = None,
                 token: str | None = None, timeout: float = 15) -> dict[str, Any]:
    """One HTTP call (blocking: run it in a thread); errors name the server's code."""
    data = json.dumps(body).encode() if body is not None else None
    headers = {"content-type": "application/json"} if data is not None else {}
    if token:
        headers["authorization"] = f"Bearer {token}"
    req = urllib.request.Request(url, data=data, headers=headers,
                                 method="POST" if data is not None else "GET")
    try:
        with urllib.request.urlopen(req, timeout=timeout) as response:
            return dict(json.loads(response.read().decode()))
    except urllib.error.HTTPError as exc:
        try:
            detail = json.loads(exc.read().decode())
            why = f"{detail.get('code', exc.code)}: {detail.get('detail', '')}"
        except (ValueError, AttributeError):
            why = str(exc.code)
        raise LinkError(f"{url}: {why}") from None
    except (urllib.error.URLError, OSError) as exc:
        raise LinkError(f"{url}: {getattr(exc, 'reason', exc)}") from None


def guests_path(env: Mapping[str, str] | None = None) -> Path:
    env = os.environ if env is None else env
    base = env.get("XDG_STATE_HOME") or str(
        Path(env.get("HOME", "~")).expanduser() / ".local" / "state")
    return Path(base) / "burraco" / "guests.json"


def guest_token(base: str, nickname: str, *, path: Path | None = None) -> str:
    """This person's guest token at ``base``: the remembered one if the server knows it."""
    path = path or guests_path()
    try:
        known = json.loads(path.read_text(encoding="utf-8"))
        if not isinstance(known, dict):
            known = {}
    except (OSError, ValueError):
        known = {}
    token = known.get(base)
    if isinstance(token, str):
        try:
            request_json(f"{base}/api/me", token=token)
            return token
        except LinkError:
            pass
    made = request_json(f"{base}/api/guests", body={"nickname": nickname})
    token = str(made["token"])
    known[base] = token
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(known, indent=1), encoding="utf-8")
        path.chmod(0o600)
    except OSError:
        pass  # not remembered: this run still plays
    return token


def create_table(base: str, guest: str, *, players: int, seats: list[str], rules: str,
                 bot_delay: float | None = None) -> tuple[Seat, dict[str, Any]]:
    """A new table with you at seat 0 and ``seats`` (bot levels or ``human``) at the others."""
    body: dict[str, Any] = {
        "players": players, "rules": rules, "creator_seat": 0,
        "seats": [{"kind": "human"}] + [
            {"kind": "human"} if level == "human" else {"kind": "bot", "level": level}
            for level in seats],
    }
    if bot_delay is not None:
        body["bot_delay"] = bot_delay
    made = request_json(f"{base}/api/tables", body=body, token=guest)
    token = made["seats"][0]["token"]
    return Seat(base, str(made["table_id"]), 0, token=token), made
