"""Entries: every malformed field refused by name, the windows, refused joins that change
nothing, and invitations to a party (checked the same way; the party's entry they make)."""

from __future__ import annotations

import asyncio
import math
from typing import Any

import pytest

from burraco.meet.entries import (
    BOTS_AFTER,
    INVITATION_SECONDS,
    Entry,
    Invitation,
    PoolError,
    PoolKey,
    compatible,
    new_entry,
    new_invitation,
    window,
)
from burraco.meet.store import MemoryPool

CASUAL_2 = ("505", "2", False)
CASUAL_4 = ("hand", "4", False)
RATED_2 = ("1005", "2", True)


def test_window_widens_with_the_wait() -> None:
    assert window(0) == 100
    assert window(19.99) == 100
    assert window(20) == 300
    assert window(59.99) == 300
    assert window(60) == math.inf
    assert window(3600) == math.inf


def test_defaults_and_the_stored_form_round_trip() -> None:
    casual = new_entry(CASUAL_4, [("ann", 1500), ("bob", 1600)], since=10, blocked={"eve"})
    assert casual.bots_after == BOTS_AFTER
    assert casual.rating == 1550
    assert casual.id == "ann"
    assert new_entry(RATED_2, [("ann", 1500)], since=10).bots_after is None
    assert Entry.from_json(casual.to_json()) == casual
    assert Entry.from_json(casual.to_json()).to_json() == casual.to_json()
    assert new_entry(CASUAL_2, [("ann", 1500)], since=0, bots_after=None).bots_after is None
    assert new_entry(CASUAL_2, [("ann", 1500)], since=0, bots_after=10).bots_after == 10.0


@pytest.mark.parametrize(("pool", "party", "extra", "field"), [
    (("pinnacle", "2", False), [("ann", 1500)], {}, "format"),
    (("505", "3", False), [("ann", 1500)], {}, "form"),
    (("505", 2, False), [("ann", 1500)], {}, "form"),
    (("505", "2", "yes"), [("ann", 1500)], {}, "rated"),
    (CASUAL_2, [("ann", 1500), ("bob", 1500)], {}, "party"),
    (CASUAL_4, [("ann", 1500), ("bob", 1500), ("cy", 1500)], {}, "party"),
    (CASUAL_4, [], {}, "party"),
    (CASUAL_2, "ann", {}, "party"),
    (CASUAL_2, [("ann",)], {}, "party"),
    (CASUAL_4, [("ann", 1500), ("ann", 1600)], {}, "party"),
    (CASUAL_2, [("ann", "1500")], {}, "rating"),
    (CASUAL_2, [("ann", None)], {}, "rating"),
    (CASUAL_2, [("ann", True)], {}, "rating"),
    (CASUAL_2, [("ann", math.nan)], {}, "rating"),
    (CASUAL_2, [("ann", math.inf)], {}, "rating"),
    (CASUAL_2, [("", 1500)], {}, "account"),
    (CASUAL_2, [(7, 1500)], {}, "account"),
    (CASUAL_2, [("x" * 65, 1500)], {}, "account"),
    (RATED_2, [("ann", 1500)], {"bots_after": 45}, "bots_after"),
    (CASUAL_2, [("ann", 1500)], {"bots_after": 9.9}, "bots_after"),
    (CASUAL_2, [("ann", 1500)], {"bots_after": 601}, "bots_after"),
    (CASUAL_2, [("ann", 1500)], {"bots_after": "45"}, "bots_after"),
    (CASUAL_2, [("ann", 1500)], {"since": "now"}, "since"),
    (CASUAL_2, [("ann", 1500)], {"since": math.nan}, "since"),
    (CASUAL_2, [("ann", 1500)], {"blocked": "bob"}, "blocked"),
    (CASUAL_2, [("ann", 1500)], {"blocked": [1, 2]}, "blocked"),
    (CASUAL_4, [("ann", 1500), ("bob", 1500)], {"blocked": ["bob"]}, "blocked"),
])
def test_a_malformed_entry_names_its_field(pool: Any, party: Any, extra: dict[str, Any],
                                           field: str) -> None:
    extra = {"since": 0.0, **extra}
    with pytest.raises(PoolError) as caught:
        new_entry(pool, party, **extra)
    assert caught.value.field == field
    assert str(caught.value).startswith(f"{field}: ")


def test_a_stored_entry_that_is_not_one_is_refused() -> None:
    with pytest.raises(PoolError) as caught:
        Entry.from_json('{"pool": "505/2/casual"}')
    assert caught.value.field == "entry"
    with pytest.raises(PoolError):
        PoolKey.parse("505/2")


def test_compatible_is_mutual_and_respects_blocks() -> None:
    old = new_entry(CASUAL_2, [("ann", 1500)], since=0)
    fresh = new_entry(CASUAL_2, [("bob", 1750)], since=60)
    assert old.window(60) == math.inf and fresh.window(60) == 100
    assert not compatible(old, fresh, 60)
    assert compatible(old, fresh, 80)
    blocked = new_entry(CASUAL_2, [("cy", 1500)], since=0, blocked={"ann"})
    assert not compatible(old, blocked, 1000) and not compatible(blocked, old, 1000)
    other_pool = new_entry(RATED_2, [("dee", 1500)], since=0)
    assert not compatible(old, other_pool, 1000)


def test_a_refused_join_changes_nothing() -> None:
    async def run() -> None:
        pool = MemoryPool()
        await pool.join(new_entry(CASUAL_4, [("ann", 1500), ("bob", 1500)], since=0))
        before = await pool.waiting()
        for party, pool_key in (([("bob", 1500)], CASUAL_2),
                                ([("cy", 1500), ("ann", 1500)], CASUAL_4),
                                ([("ann", 1500)], CASUAL_4)):
            with pytest.raises(PoolError) as caught:
                await pool.join(new_entry(pool_key, party, since=1))
            assert caught.value.field == "account"
            assert "hand/4/casual" in str(caught.value)
        assert await pool.waiting() == before
        assert await pool.where("cy") is None
        where = await pool.where("bob", now=25)
        assert where is not None and where.pool.name == "hand/4/casual"
        assert (where.since, where.waited, where.window) == (0.0, 25.0, 300.0)
        assert where.party == ("ann", "bob")
        assert await pool.leave("bob") is not None
        assert await pool.waiting() == [] and await pool.where("ann") is None

    asyncio.run(run())


# --- invitations to a party ------------------------------------------------------------------

def test_an_invitation_round_trips_and_makes_the_partys_entry() -> None:
    asked = new_invitation(CASUAL_4, "ann", "bob", since=10)
    assert (asked.id, asked.accounts, asked.bots_after) == ("ann", ("ann", "bob"), BOTS_AFTER)
    assert asked.expires == 10 + INVITATION_SECONDS
    assert asked.open(69.9) and not asked.open(70)
    assert Invitation.from_json(asked.to_json()) == asked
    assert Invitation.from_json(asked.to_json()).to_json() == asked.to_json()
    rated = new_invitation(("505", "4", True), "ann", "bob", since=10, seconds=5)
    assert rated.bots_after is None and rated.expires == 15
    entry = asked.entry({"ann": 1500, "bob": 1700}, 30, {"eve"})
    assert entry.accounts == ("ann", "bob") and entry.id == "ann" and entry.rating == 1600
    assert entry.since == 30 and entry.bots_after == BOTS_AFTER and entry.blocked == {"eve"}
    with pytest.raises(PoolError) as caught:  # a partner blocked by the other: no party
        asked.entry({"ann": 1500, "bob": 1700}, 30, {"bob"})
    assert caught.value.field == "blocked"


@pytest.mark.parametrize(("pool", "inviter", "partner", "extra", "field"), [
    (CASUAL_2, "ann", "bob", {}, "partner"),
    (RATED_2, "ann", "bob", {}, "partner"),
    (CASUAL_4, "ann", "ann", {}, "partner"),
    (CASUAL_4, "", "bob", {}, "account"),
    (CASUAL_4, "ann", 7, {}, "account"),
    (CASUAL_4, "ann", "x" * 65, {}, "account"),
    (("505", "4", True), "ann", "bob", {"bots_after": 45}, "bots_after"),
    (CASUAL_4, "ann", "bob", {"bots_after": 5}, "bots_after"),
    (CASUAL_4, "ann", "bob", {"since": "now"}, "since"),
    (CASUAL_4, "ann", "bob", {"seconds": 0}, "expires"),
    (("505", "5", False), "ann", "bob", {}, "form"),
])
def test_a_malformed_invitation_names_its_field(pool: Any, inviter: Any, partner: Any,
                                                extra: dict[str, Any], field: str) -> None:
    extra = {"since": 0.0, **extra}
    with pytest.raises(PoolError) as caught:
        new_invitation(pool, inviter, partner, **extra)
    assert caught.value.field == field
    with pytest.raises(PoolError) as caught:
        Invitation.from_json('{"pool": "hand/4/casual", "inviter": "ann"}')
    assert caught.value.field == "invitation"
