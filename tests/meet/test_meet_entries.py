"""Entries: every malformed field refused by name, the windows, and refused joins that
change nothing."""

from __future__ import annotations

import asyncio
import math
from typing import Any

import pytest

from burraco.meet.entries import (
    BOTS_AFTER,
    Entry,
    PoolError,
    PoolKey,
    compatible,
    new_entry,
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
