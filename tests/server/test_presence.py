"""Friends' presence over real HTTP against ``burraco serve``: offline, online once their
page polls, waiting in a pool, seated at a table (no watching link for a private table);
only friends are shown."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
from harness import ServerProcess
from players_harness import bearer, register
from pool_harness import all_join, join, matches, sit


def _friends(server: ServerProcess, token: str) -> dict[str, dict[str, Any]]:
    answer = httpx.get(f"{server.base}/api/me/friends/presence", headers=bearer(token))
    assert answer.status_code == 200, answer.text
    return {f["username"]: f for f in answer.json()["friends"]}


def test_a_friend_online_in_a_pool_and_at_a_table(server: ServerProcess) -> None:
    base = server.base
    lia, max_, ned = (register(server, name) for name in ("PresLia", "PresMax", "PresNed"))
    for one, other in ((lia, "PresMax"), (max_, "PresLia"), (ned, "PresLia")):
        httpx.put(f"{base}/api/me/following/{other}", headers=bearer(one["token"]))
    shown = _friends(server, lia["token"])
    assert list(shown) == ["PresMax"]  # Ned follows Lia, not the other way: not a friend
    assert shown["PresMax"]["online"] is False and shown["PresMax"]["table"] is None
    httpx.get(f"{base}/api/me/notifications", headers=bearer(max_["token"]))
    assert _friends(server, lia["token"])["PresMax"]["online"] is True
    casual = {"format": "hand", "form": "2", "rated": False, "bots_after": None}
    assert join(server, max_["token"], casual).status_code == 200
    assert _friends(server, lia["token"])["PresMax"]["pool"] == "hand/2/casual"
    httpx.delete(f"{base}/api/pool", headers=bearer(max_["token"]))
    all_join(server, [(max_["token"], casual), (ned["token"], casual)])
    found = matches(server, [max_["token"], ned["token"]])
    async def seat() -> None:
        client = await sit(server, found[max_["token"]], max_["token"])
        await client.close()
    asyncio.run(seat())
    friend = _friends(server, lia["token"])["PresMax"]
    assert friend["table"] == found[max_["token"]]["table"] and friend["watch"] is None
    assert httpx.get(f"{base}/api/me/friends/presence").status_code == 401
