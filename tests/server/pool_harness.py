"""Helpers for the matchmaking pool's tests: its HTTP calls, many players joining at once,
waiting for their tables, and taking up a seat through the seat link the pool gave; friends
and blocks, for the parties."""

from __future__ import annotations

import json
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx
from harness import Client, ServerProcess
from players_harness import bearer, event_type
from sqlalchemy import insert

from burraco.accounts.models import RatingRow
from burraco.infra.db import make_engine


def join(server: ServerProcess, token: str | None, body: Any) -> httpx.Response:
    headers = bearer(token) if token else {}
    if isinstance(body, bytes):
        return httpx.post(f"{server.base}/api/pool", content=body,
                          headers={**headers, "content-type": "application/json"})
    return httpx.post(f"{server.base}/api/pool", json=body, headers=headers)


def where(server: ServerProcess, token: str) -> dict[str, Any]:
    response = httpx.get(f"{server.base}/api/pool", headers=bearer(token))
    assert response.status_code == 200, response.text
    return dict(response.json())


def leave(server: ServerProcess, token: str) -> httpx.Response:
    return httpx.delete(f"{server.base}/api/pool", headers=bearer(token))


def accept(server: ServerProcess, token: str, body: Any = None) -> httpx.Response:
    """``POST /api/pool/accept`` (with ``body`` when given)."""
    if body is None:
        return httpx.post(f"{server.base}/api/pool/accept", headers=bearer(token))
    return httpx.post(f"{server.base}/api/pool/accept", json=body, headers=bearer(token))


def follow(server: ServerProcess, token: str, username: str) -> None:
    answer = httpx.put(f"{server.base}/api/me/following/{username}", headers=bearer(token))
    assert answer.status_code == 200, answer.text


def befriend(server: ServerProcess, one: dict[str, Any], other: dict[str, Any]) -> None:
    """Two accounts (``register``'s answers) follow each other: friends."""
    follow(server, one["token"], other["username"])
    follow(server, other["token"], one["username"])


def block(server: ServerProcess, token: str, username: str) -> None:
    answer = httpx.put(f"{server.base}/api/me/blocked/{username}", headers=bearer(token))
    assert answer.status_code == 200, answer.text


def all_join(server: ServerProcess, joins: list[tuple[str, dict[str, Any]]]) -> None:
    """Every ``(token, body)`` joins at once (one thread each)."""
    with ThreadPoolExecutor(len(joins)) as pool:
        answers = list(pool.map(lambda j: join(server, *j), joins))
    for answer in answers:
        assert answer.status_code == 200, answer.text


def matches(server: ServerProcess, tokens: list[str],
            timeout: float = 15) -> dict[str, dict[str, Any]]:
    """Each token's match once every one is seated at a table (polled)."""
    deadline = time.monotonic() + timeout
    while True:
        states = {t: where(server, t) for t in tokens}
        found = {t: s["match"] for t, s in states.items()
                 if s["state"] == "matched" and not s["match"]["pending"]}
        if len(found) == len(tokens):
            return found
        assert time.monotonic() < deadline, f"not all seated in {timeout} s: {states}"
        time.sleep(0.2)


def set_ratings(server: ServerProcess, ratings: dict[str, tuple[str, float]]) -> None:
    """Give accounts ratings (player id → (form, mu)), as recorded matches would."""
    engine = make_engine(server.db_url)
    try:
        with engine.begin() as conn:
            for player_id, (form, mu) in ratings.items():
                conn.execute(insert(RatingRow).values(player_id=player_id, form=form, mu=mu,
                                                      sigma=200.0, matches=5))
    finally:
        engine.dispose()


def table_of(server: ServerProcess, match: dict[str, Any]) -> dict[str, Any]:
    response = httpx.get(f"{server.base}/api/tables/{match['table']}",
                         params={"token": match["token"]})
    assert response.status_code == 200, response.text
    return dict(response.json())


async def sit(server: ServerProcess, match: dict[str, Any], token: str) -> Client:
    """Take up one's seat through the seat link the pool gave."""
    assert f"/play/{match['table']}?seat={match['seat']}&token={match['token']}" in match["url"]
    client = Client(server, {"table_id": match["table"]}, match["seat"], guest=token,
                    seat_token=match["token"])
    hello = await client.connect()
    assert hello["t"] == "hello_ok", hello
    return client


async def started_view(client: Client) -> dict[str, Any]:
    """The seat's ``sync`` once its match has started."""
    await client.until(lambda f: event_type(f) == "HandStarted", timeout=20)
    await client.send_raw(json.dumps({"t": "sync"}))
    return await client.until(lambda f: f.get("t") == "sync", timeout=20)
