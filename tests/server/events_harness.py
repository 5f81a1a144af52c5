"""Scripted entrants of online tournaments: accounts over HTTP, games over WebSockets."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import httpx
from harness import Client, ServerProcess
from players_harness import bearer, play_out
from websockets.exceptions import ConnectionClosed

from burraco.server.waiting import CANCELLED


def schedule(server: ServerProcess, token: str, **body: Any) -> dict[str, Any]:
    made = httpx.post(f"{server.base}/api/events", headers=bearer(token), json=body)
    assert made.status_code == 201, made.text
    return dict(made.json())


def detail(server: ServerProcess, event_id: str, token: str | None = None) -> dict[str, Any]:
    got = httpx.get(f"{server.base}/api/events/{event_id}",
                    headers=bearer(token) if token else {})
    assert got.status_code == 200, got.text
    return dict(got.json())


def join(server: ServerProcess, token: str, event_id: str,
         partner: str | None = None) -> httpx.Response:
    body = {"partner": partner} if partner is not None else {}
    return httpx.post(f"{server.base}/api/events/{event_id}/join", headers=bearer(token),
                      json=body)


class Entrant:
    """One scripted account in an event: it sits down at each game it is given and plays
    it out (``shows=False``: it never sits down), until the event is over; at its
    ``withdraw_after``-th game it withdraws, then plays that game out."""

    def __init__(self, server: ServerProcess, token: str, event_id: str, *,
                 shows: bool = True, withdraw_after: int | None = None) -> None:
        self.server, self.token, self.event_id = server, token, event_id
        self.shows, self.withdraw_after = shows, withdraw_after
        self.games: list[str] = []
        """The games it was given, in order."""
        self.tables: list[str] = []
        self.withdrew = False
        self.cancelled: list[str] = []
        """Games whose table was deleted while it sat there (a no-show opposite)."""

    async def run(self, deadline: float) -> dict[str, Any]:
        """The event as this entrant last saw it (finished, or it is out)."""
        async with httpx.AsyncClient(base_url=self.server.base, timeout=30) as http:
            while time.monotonic() < deadline:
                got = await http.get(f"/api/events/{self.event_id}", headers=bearer(self.token))
                assert got.status_code == 200, got.text
                event = dict(got.json())
                me = event["me"]
                if event["phase"] in ("finished", "cancelled") or (me and me["withdrawn"]):
                    return event
                game = me["game"] if me else None
                if game and game["url"] and game["id"] not in self.games:
                    self.games.append(game["id"])
                    self.tables.append(game["table"])
                    last = self.withdraw_after is not None \
                        and len(self.games) >= self.withdraw_after
                    if last:  # withdrawn from the games to come; this one still counts
                        out = await http.delete(f"/api/events/{self.event_id}/join",
                                                headers=bearer(self.token))
                        assert out.status_code == 200, out.text
                        assert out.json()["me"]["withdrawn"]
                        self.withdrew = True
                    if self.shows:
                        await self.play(game)
                    if last:
                        return event
                    continue
                await asyncio.sleep(0.25)
        raise AssertionError(f"event {self.event_id} not over in time")

    async def play(self, game: dict[str, Any]) -> None:
        assert f"/play/{game['table']}?seat={game['seat']}&token={game['token']}" in game["url"]
        client = Client(self.server, {"table_id": game["table"]}, game["seat"],
                        guest=self.token, seat_token=game["token"])
        hello = await client.connect()
        assert hello["t"] == "hello_ok", hello
        try:
            await play_out(client, timeout=120)
        except ConnectionClosed as exc:  # the opponent never came: the table is deleted
            assert exc.rcvd is not None and exc.rcvd.code == CANCELLED, exc
            self.cancelled.append(game["id"])
        finally:
            await client.close()
