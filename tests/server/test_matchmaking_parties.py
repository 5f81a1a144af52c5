"""Parties in the matchmaking pool over real HTTP and WebSockets (docs/protocol.md,
"Matchmaking", "Parties"): two friends queue as partners (an invitation, accepted), two
singles queue, and all four meet at one table with the friends across, each told their own
seat link and sitting down; every refusal named; a party never seated with anyone either
partner blocked.

A real ``burraco serve`` on a SQLite file.  The stores' side (an invitation held, accepted
once, expired; in memory and in Redis): ``tests/meet/test_meet_store.py``; a party across
two processes of a cluster: ``test_matchmaking_cluster.py``.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from harness import ServerProcess
from players_harness import register
from pool_harness import (
    accept,
    all_join,
    befriend,
    block,
    follow,
    join,
    leave,
    matches,
    sit,
    started_view,
    where,
)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    folder: Path = tmp_path_factory.mktemp("parties")
    process = ServerProcess(f"sqlite:///{folder / 'burraco.db'}", folder / "server.log")
    process.start()
    yield process
    process.stop()
    assert "Traceback" not in process.log_path.read_text(errors="replace")


def people(server: ServerProcess, *names: str) -> list[dict[str, Any]]:
    return [register(server, name) for name in names]


def test_two_friends_and_two_singles_meet_with_the_friends_across(
        server: ServerProcess) -> None:
    ann, bob, cy, dee = people(server, "PartyAnn", "PartyBob", "SoloCy", "SoloDee")
    befriend(server, ann, bob)
    body = {"format": "vp3", "form": "4", "rated": True}
    asked = join(server, ann["token"], {**body, "partner": "partybob"})  # any case
    assert asked.status_code == 200, asked.text
    invitation = asked.json()
    assert invitation["state"] == "inviting" and invitation["partner"] == "PartyBob"
    assert invitation["pool"]["name"] == "vp3/4/rated" and invitation["bots_after"] is None
    assert invitation["expires"] - invitation["since"] == pytest.approx(60)
    assert 59 <= invitation["expires_in"] <= 60
    mine = where(server, ann["token"])
    assert mine["state"] == "inviting" and mine["partner"] == "PartyBob"
    theirs = where(server, bob["token"])
    assert theirs["state"] == "invited" and theirs["by"] == "PartyAnn"
    assert theirs["pool"] == invitation["pool"] and theirs["expires"] == invitation["expires"]
    assert "partner" not in theirs
    accepted = accept(server, bob["token"], {"by": "PartyAnn"})
    assert accepted.status_code == 200, accepted.text
    party = accepted.json()
    assert party["state"] == "waiting" and party["partner"] == "PartyAnn"
    assert party["rating"] == 1500 and party["pool"]["name"] == "vp3/4/rated"
    for token, partner in ((ann["token"], "PartyBob"), (bob["token"], "PartyAnn")):
        waiting = where(server, token)
        assert waiting["state"] == "waiting" and waiting["partner"] == partner, waiting
        assert waiting["waiting"] == 2  # two people, one entry
    all_join(server, [(cy["token"], body), (dee["token"], body)])
    tokens = [p["token"] for p in (ann, bob, cy, dee)]
    found = matches(server, tokens)
    seen = [found[t] for t in tokens]
    assert len({m["table"] for m in seen}) == 1 and len({m["id"] for m in seen}) == 1
    seat = {p["username"]: found[p["token"]]["seat"] for p in (ann, bob, cy, dee)}
    assert sorted(seat.values()) == [0, 1, 2, 3]
    assert abs(seat["PartyAnn"] - seat["PartyBob"]) == 2  # partners across: 0/2 or 1/3
    assert abs(seat["SoloCy"] - seat["SoloDee"]) == 2  # the singles became partners
    team = {p["username"]: found[p["token"]]["team"] for p in (ann, bob, cy, dee)}
    assert team["PartyAnn"] == team["PartyBob"] != team["SoloCy"] == team["SoloDee"]
    assert len({m["token"] for m in seen}) == 4  # each their own seat, nobody else's
    for match in seen:
        assert match["url"].endswith(f"?seat={match['seat']}&token={match['token']}")
        assert match["rated"] and match["bots"] == []
        others = [m["token"] for m in seen if m is not match]
        assert not any(token in str(match) for token in others)

    async def main() -> list[dict[str, Any]]:
        clients = [await sit(server, found[t], t) for t in tokens]
        try:
            return list(await asyncio.gather(*(started_view(c) for c in clients)))
        finally:
            for client in clients:
                await client.close()

    for view in asyncio.run(main()):
        assert view["status"] == "playing" and view["table"]["config"]["rated"]
        assert {s["seat"]: s["nickname"] for s in view["seats"]} == {
            number: name for name, number in seat.items()}


def test_refusals_are_named_and_store_nothing(server: ServerProcess) -> None:
    ada, ben, cal, dot = people(server, "RefAda", "RefBen", "RefCal", "RefDot")
    befriend(server, ada, ben)
    befriend(server, ada, cal)
    follow(server, ada["token"], "RefDot")  # one way only: not friends
    four = {"format": "2005", "form": "4", "bots_after": None}
    for body, field in [
            ({**four, "partner": 7}, "partner"),
            ({**four, "partner": None}, "partner"),
            ({**four, "partner": ["RefBen"]}, "partner"),
            ({**four, "partner": ""}, "partner"),
            ({**four, "partner": "x" * 5000}, "partner"),
            ({**four, "partner": "NobodyCalledSo"}, "partner"),
            ({**four, "partner": "RefAda"}, "partner"),  # oneself
            ({**four, "partner": "RefDot"}, "partner"),  # follows one way only
            ({"format": "505", "form": "2", "partner": "RefBen"}, "partner"),
            ({"format": "hand", "form": "4", "rated": True, "partner": "RefBen"}, "format"),
            ({**four, "partner": "RefBen", "bots_after": 1}, "bots_after")]:
        answer = join(server, ada["token"], body)
        assert answer.status_code == 422, (body, answer.text)
        error = answer.json()
        assert error["code"] == "bad_field" and error["field"] == field, (body, error)
        assert len(error["detail"]) < 300, error
        for person in (ada, ben, dot):
            assert where(server, person["token"]) == {"state": "none"}, body
    guest = server.guest("PartyGuest")
    refused = join(server, guest, {**four, "partner": "RefBen"})
    assert refused.status_code == 403, refused.text
    assert refused.json()["code"] == "account_required"
    assert refused.json()["field"] == "partner"
    assert where(server, guest) == {"state": "none"}
    # the partner must be free: not waiting, not inviting, not invited by another
    assert join(server, cal["token"], {"format": "1005", "form": "2"}).status_code == 200
    busy = join(server, ada["token"], {**four, "partner": "RefCal"})
    assert busy.status_code == 409 and busy.json()["code"] == "partner_busy", busy.text
    assert busy.json()["field"] == "partner"
    assert where(server, ada["token"]) == {"state": "none"}
    assert leave(server, cal["token"]).status_code == 204
    assert join(server, ada["token"], {**four, "partner": "RefBen"}).status_code == 200
    again = join(server, ada["token"], {**four, "partner": "RefCal"})  # one at a time
    assert again.status_code == 409 and again.json()["code"] == "already_queued"
    alone = join(server, ada["token"], four)
    assert alone.status_code == 409 and alone.json()["code"] == "already_queued"
    taken = join(server, cal["token"], {**four, "partner": "RefBen"})  # friends? no: 422
    assert taken.status_code == 422 and taken.json()["field"] == "partner"
    befriend(server, cal, ben)
    taken = join(server, cal["token"], {**four, "partner": "RefBen"})  # Ben is invited
    assert taken.status_code == 409 and taken.json()["code"] == "partner_busy"
    # accepting: only an invitation open for one, and only from whom one names
    nothing = accept(server, cal["token"])
    assert nothing.status_code == 409 and nothing.json()["code"] == "no_invitation"
    inviter = accept(server, ada["token"])  # the inviter has nothing to accept
    assert inviter.status_code == 409 and inviter.json()["code"] == "no_invitation"
    other = accept(server, ben["token"], {"by": "RefCal"})
    assert other.status_code == 409 and other.json()["field"] == "by", other.text
    for body, field in (({"by": 3}, "by"), ({"from": "RefAda"}, "from"), ([1], "body")):
        answer = accept(server, ben["token"], body)
        assert answer.status_code == 422 and answer.json()["field"] == field, answer.text
    assert where(server, ben["token"])["state"] == "invited"
    # declining (the partner's DELETE) frees both; so does withdrawing (the inviter's)
    assert leave(server, ben["token"]).status_code == 204
    assert where(server, ada["token"]) == {"state": "none"}
    assert where(server, ben["token"]) == {"state": "none"}
    declined = accept(server, ben["token"])
    assert declined.status_code == 409 and declined.json()["code"] == "no_invitation"
    assert join(server, ada["token"], {**four, "partner": "RefBen"}).status_code == 200
    assert leave(server, ada["token"]).status_code == 204
    assert where(server, ben["token"]) == {"state": "none"}
    # a join of one's own while invited declines the invitation
    assert join(server, ada["token"], {**four, "partner": "RefBen"}).status_code == 200
    solo = join(server, ben["token"], {"format": "1005", "form": "2"})
    assert solo.status_code == 200, solo.text
    assert where(server, ada["token"]) == {"state": "none"}
    assert where(server, ben["token"])["state"] == "waiting"
    assert leave(server, ben["token"]).status_code == 204
    # a rated party: both partners must be accounts that may take a rated seat (a guest
    # cannot be named; the checks are the pool's, tested there); the stored invitation
    # carries the pool's rules: no bots in a rated pool
    rated = join(server, ada["token"], {"format": "505", "form": "4", "rated": True,
                                        "partner": "RefBen"})
    assert rated.status_code == 200 and rated.json()["bots_after"] is None
    assert leave(server, ada["token"]).status_code == 204
    for person in (ada, ben, cal, dot):
        assert where(server, person["token"]) == {"state": "none"}


def test_a_party_never_meets_anyone_either_partner_blocked(server: ServerProcess) -> None:
    """The inviter's blocks and the partner's both count: two singles who joined before the
    blocks were made (so their own entries keep nobody apart) are each blocked by one
    partner, and nothing is made (a party and a single need a fourth free of the blocks);
    two free singles then make the table, and the blocked ones still wait."""
    ivy, joe, xena, wendy, yuri, zed = people(
        server, "BlkIvy", "BlkJoe", "BlkXena", "BlkWendy", "BlkYuri", "BlkZed")
    befriend(server, ivy, joe)
    block(server, xena["token"], "BlkWendy")  # (so that they never make four singles)
    four = {"format": "505", "form": "4", "bots_after": None}
    all_join(server, [(xena["token"], four), (wendy["token"], four)])
    block(server, joe["token"], "BlkXena")  # the partner's block
    block(server, ivy["token"], "BlkWendy")  # the inviter's
    assert join(server, ivy["token"], {**four, "partner": "BlkJoe"}).status_code == 200
    assert accept(server, joe["token"]).status_code == 200
    time.sleep(2.5)  # a few pairings: none may seat the party with either
    for person in (ivy, joe, xena, wendy):
        assert where(server, person["token"])["state"] == "waiting", person["username"]
    all_join(server, [(yuri["token"], four)])
    time.sleep(2.5)
    for person in (ivy, joe, xena, wendy, yuri):
        assert where(server, person["token"])["state"] == "waiting", person["username"]
    all_join(server, [(zed["token"], four)])
    tokens = [p["token"] for p in (ivy, joe, yuri, zed)]
    found = matches(server, tokens)
    assert len({m["table"] for m in found.values()}) == 1
    names = sorted(found[ivy["token"]]["players"])
    assert names == ["BlkIvy", "BlkJoe", "BlkYuri", "BlkZed"]
    assert abs(found[ivy["token"]]["seat"] - found[joe["token"]]["seat"]) == 2
    for person in (xena, wendy):
        assert where(server, person["token"])["state"] == "waiting"
        assert leave(server, person["token"]).status_code == 204
