"""Helpers for the players' tests: accounts over real HTTP, a scripted seat over WebSockets."""

from __future__ import annotations

import itertools
import json
from typing import Any

import httpx
from harness import Client, ServerProcess, scripted_choice

_ids = itertools.count(1)


def register(server: ServerProcess, username: str, password: str = "correct horse",
             **headers: str) -> dict[str, Any]:
    response = httpx.post(f"{server.base}/api/accounts",
                          json={"username": username, "password": password}, headers=headers)
    assert response.status_code == 201, response.text
    body = dict(response.json())
    assert response.cookies.get("burraco_session") == body["token"]
    return body


def bearer(token: str) -> dict[str, str]:
    return {"authorization": f"Bearer {token}"}


def event_type(frame: dict[str, Any]) -> str | None:
    shown = frame.get("e")
    return shown.get("type") if isinstance(shown, dict) else None


async def play_out(client: Client, *, timeout: float = 120, play: bool = True) -> None:
    """Play the scripted seat until the match is over."""
    while True:
        frame = await client.recv(timeout)
        if event_type(frame) == "MatchOver":
            return
        if frame.get("t") == "reject":
            raise AssertionError(f"unexpected reject {frame}")
        if play and frame.get("t") == "legal" and frame["version"] == client.version:
            await client.send_raw(json.dumps({
                "t": "act", "id": f"p{next(_ids)}", "v": client.version,
                "action": scripted_choice(frame["actions"])}))
