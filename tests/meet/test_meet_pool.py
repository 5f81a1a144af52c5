"""The pairing: windows, the sides of a four, blocks, bots, determinism; a property test
over random pools; forty scripted players seated as time goes by; parties (one side, its
partners across, kept apart from whomever either partner blocked)."""

from __future__ import annotations

import asyncio
import itertools
import math
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from burraco.meet.entries import Entry, PoolKey, compatible, new_entry
from burraco.meet.matches import bot_level
from burraco.meet.pool import Pairing, pair
from burraco.meet.store import MemoryPool

TWO = ("505", "2", True)
FOUR = ("2005", "4", False)
FOUR_NO_BOTS = ("vp3", "4", True)


def single(account: str, rating: float, since: float = 0.0, pool: tuple[str, str, bool] = TWO,
           **extra: object) -> Entry:
    return new_entry(pool, [(account, rating)], since=since, **extra)  # type: ignore[arg-type]


def sides(pairing: Pairing) -> list[tuple[set[str], set[str]]]:
    return [({s.account or f"bot{s.seat}" for s in m.seats if s.team == 0},
             {s.account or f"bot{s.seat}" for s in m.seats if s.team == 1})
            for m in pairing.matches]


def test_form_2_pairs_the_nearest_within_the_window() -> None:
    entries = [single("ann", 1500), single("bob", 1590, 1), single("cy", 1550, 2)]
    result = pair(entries, 5)
    assert [m.accounts for m in result.matches] == [("ann", "cy")]
    assert [e.id for e in result.left] == ["bob"]
    match = result.matches[0]
    assert match.window == 100 and match.wait_of("ann") == 5 and match.wait_of("cy") == 3
    assert [(s.seat, s.team) for s in match.seats] == [(0, 0), (1, 1)]


def test_the_window_widens_and_must_be_mutual() -> None:
    entries = [single("ann", 1500), single("bob", 1750)]
    assert pair(entries, 19).matches == ()
    assert len(pair(entries, 20).matches) == 1
    old, fresh = single("ann", 1500, 0), single("bob", 1850, 100)
    assert pair([old, fresh], 100).matches == ()  # ann reaches anyone, bob only ±100
    assert pair([old, fresh], 119).matches == ()
    assert pair([old, fresh], 160).matches[0].window is None
    assert pair([single("ann", 1500), single("bob", 2900)], 60).matches[0].window is None


def test_ties_go_to_the_older_entry_and_the_result_is_deterministic() -> None:
    entries = [single("ann", 1500, 0), single("bob", 1450, 3), single("cy", 1550, 2)]
    assert pair(entries, 5).matches[0].accounts == ("ann", "cy")
    rng = random.Random(7)
    many = [single(f"p{i}", rng.uniform(1000, 2000), rng.uniform(0, 90)) for i in range(60)]
    first = pair(many, 90)
    for _ in range(5):
        rng.shuffle(many)
        assert pair(many, 90) == first


def test_form_4_two_parties_of_two() -> None:
    a = new_entry(FOUR, [("ann", 1500), ("bob", 1600)], since=0)
    b = new_entry(FOUR, [("cy", 1560), ("dee", 1480)], since=1)
    result = pair([a, b], 2)
    assert sides(result) == [({"ann", "bob"}, {"cy", "dee"})]
    assert [(s.seat, s.account) for s in result.matches[0].seats] == [
        (0, "ann"), (1, "cy"), (2, "bob"), (3, "dee")]


def test_form_4_a_party_and_two_singles_become_partners() -> None:
    result = pair([single("ann", 1500, 0, FOUR), single("bob", 1780, 1, FOUR),
                   new_entry(FOUR, [("cy", 1650), ("dee", 1750)], since=2)], 30)
    assert sides(result) == [({"ann", "bob"}, {"cy", "dee"})]
    result = pair([new_entry(FOUR, [("cy", 1650), ("dee", 1750)], since=0),
                   single("ann", 1660, 1, FOUR), single("bob", 1740, 2, FOUR)], 3)
    assert sides(result) == [({"cy", "dee"}, {"ann", "bob"})]


def test_form_4_four_singles_in_the_closest_sides() -> None:
    entries = [single("ann", 1400, 0, FOUR), single("bob", 1500, 1, FOUR),
               single("cy", 1600, 2, FOUR), single("dee", 1700, 3, FOUR)]
    result = pair(entries, 30)
    assert sides(result) == [({"ann", "dee"}, {"bob", "cy"})]
    assert result.matches[0].window == 300


def test_form_4_prefers_the_nearest_group() -> None:
    entries = [single("ann", 1500, 0, FOUR), single("far", 1590, 1, FOUR),
               single("b", 1510, 2, FOUR), single("c", 1490, 3, FOUR),
               single("d", 1520, 4, FOUR), single("e", 1585, 5, FOUR)]
    result = pair(entries, 6)
    assert set(result.matches[0].accounts) == {"ann", "b", "c", "d"}
    assert {e.id for e in result.left} == {"far", "e"}


def test_blocked_pairs_are_never_matched() -> None:
    entries = [single("ann", 1500, blocked={"bob"}), single("bob", 1500)]
    for now in (0, 30, 3600):
        assert pair(entries, now).matches == ()
    entries.append(single("cy", 1800))
    assert pair(entries, 3600).matches[0].accounts == ("ann", "cy")
    four = [single("ann", 1500, 0, FOUR_NO_BOTS, blocked={"dee"}),
            *(single(n, 1500, 1, FOUR_NO_BOTS) for n in ("bob", "cy", "dee"))]
    assert pair(four, 3600).matches == ()
    four.append(single("eve", 1500, 1, FOUR_NO_BOTS))
    assert set(pair(four, 3600).matches[0].accounts) == {"ann", "bob", "cy", "eve"}


def test_bots_only_for_casual_after_the_wait() -> None:
    casual = single("ann", 1700, 0, ("505", "2", False), bots_after=30)
    assert pair([casual], 29.9).matches == ()
    match = pair([casual], 30).matches[0]
    assert match.accounts == ("ann",) and len(match.bots) == 1
    assert match.bots[0].bot == bot_level("2", 1700)[0] == "advanced"
    rated = single("bob", 1700, 0, TWO)
    assert pair([rated], 600).matches == ()
    never = single("cy", 1700, 0, ("505", "2", False), bots_after=None)
    assert pair([never], 600).matches == ()
    lonely = new_entry(FOUR, [("dee", 1500)], since=0)
    four = pair([lonely], 45).matches[0]
    assert [(s.seat, s.team, s.account is None) for s in four.seats] == [
        (0, 0, False), (1, 1, True), (2, 0, True), (3, 1, True)]
    assert {s.bot for s in four.bots} == {"basic"}
    party = new_entry(FOUR, [("eve", 1750), ("fay", 1770)], since=0)
    assert {s.bot for s in pair([party], 45).matches[0].bots} == {"expert"}


def test_humans_first_then_bots() -> None:
    entries = [single("ann", 1500, 0, ("505", "2", False)),
               single("bob", 1550, 40, ("505", "2", False))]
    assert pair(entries, 50).matches[0].bots == ()


def test_bot_levels_are_the_nearest_fitted() -> None:
    assert bot_level("2", 1500)[0] == "basic"
    assert bot_level("2", 3000)[0] == "expert"
    assert bot_level("2", 500)[0] == "random"
    assert all(bot_level(form, r)[0] != "expert-2026"  # retired: never offered at a table
               for form in ("2", "4") for r in range(500, 3000, 50))


# --- the property test -------------------------------------------------------------------

POOLS = [PoolKey("505", "2", True), PoolKey("505", "2", False), PoolKey("hand", "4", True),
         PoolKey("hand", "4", False)]


@st.composite
def pools(draw: st.DrawFn) -> tuple[list[Entry], float]:
    count = draw(st.integers(0, 28))
    names = [f"a{i}" for i in range(2 * count)]
    entries = []
    for i in range(count):
        key = draw(st.sampled_from(POOLS))
        size = draw(st.integers(1, 2)) if key.form == "4" else 1
        party = [(names[2 * i + k], draw(st.integers(700, 2600))) for k in range(size)]
        others = [n for n in names if n not in {a for a, _ in party}]
        blocked = draw(st.sets(st.sampled_from(others), max_size=4)) if others else set()
        bots_after = None if key.rated else draw(st.one_of(st.none(), st.floats(10, 600)))
        since = draw(st.integers(0, 200))  # whole numbers: ties in age and rating
        entries.append(new_entry(key, party, since=since, bots_after=bots_after,
                                 blocked=blocked))
    return entries, draw(st.floats(0, 260))


@settings(max_examples=200, deadline=None)
@given(pools())
def test_property_pairings_are_sound(drawn: tuple[list[Entry], float]) -> None:
    entries, now = drawn
    result = pair(entries, now)
    seen: list[str] = []
    for match in result.matches:
        group = result.taken[match.id]
        seen += [a for e in group for a in e.accounts]
        assert sorted(match.accounts) == sorted(a for e in group for a in e.accounts)
        assert len(match.seats) == match.pool.seats
        assert [s.seat for s in match.seats] == list(range(match.pool.seats))
        assert all(s.team == s.seat % 2 for s in match.seats)
        for entry in group:
            assert len({match.team_of(a) for a in entry.accounts}) == 1
        for a, b in itertools.combinations(group, 2):
            assert not set(a.accounts) & b.blocked and not set(b.accounts) & a.blocked
            gap = abs(a.rating - b.rating)
            assert gap <= a.window(now) and gap <= b.window(now)
            assert compatible(a, b, now)
        if match.bots:
            assert not match.pool.rated
            assert len(group) == 1 and group[0].wants_bots(now)
        else:
            assert len(match.accounts) == match.pool.seats
    assert len(seen) == len(set(seen)), "somebody was matched twice"
    left = [a for e in result.left for a in e.accounts]
    assert sorted(seen + left) == sorted(a for e in entries for a in e.accounts)
    for a, b in itertools.combinations(result.left, 2):  # form 2: greedy leaves no pair
        if a.pool.form == "2":
            assert not compatible(a, b, now)
    assert pair(list(reversed(entries)), now) == result


# --- forty scripted players ----------------------------------------------------------------

def scripted(pool: tuple[str, str, bool], seed: int) -> list[Entry]:
    rng = random.Random(seed)
    ratings = [900 + 45 * i + rng.uniform(-20, 20) for i in range(40)]
    rng.shuffle(ratings)
    return [new_entry(pool, [(f"p{i:02}", r)], since=1000.0, bots_after=None)
            for i, r in enumerate(ratings)]


def test_forty_players_seated_as_the_windows_widen() -> None:
    for pool_key in (("505", "2", True), ("2005", "4", False)):
        asyncio.run(forty(pool_key))


async def forty(pool_key: tuple[str, str, bool]) -> None:
    entries = scripted(pool_key, seed=len(pool_key[1]))
    ratings = {e.id: e.rating for e in entries}
    store = MemoryPool()
    for entry in entries:
        await store.join(entry)
    seated: dict[str, str] = {}
    for tick in range(0, 75, 5):
        now = 1000.0 + tick
        for delivery in await store.pair(now):
            match = delivery.match
            assert await store.ack(delivery, f"table-{match.id}", now)
            reach = min(window_at(tick) for _ in match.accounts)
            group = [ratings[a] for a in match.accounts]
            if match.pool.form == "2":
                assert max(group) - min(group) <= reach
            else:  # the entries are singles: every pair lies within the window
                assert all(abs(x - y) <= reach for x, y in itertools.combinations(group, 2))
            assert match.window == (None if reach == math.inf else reach)
            for account in match.accounts:
                assert account not in seated, f"{account} seated twice"
                seated[account] = match.id
                assert match.wait_of(account) == tick
        if tick < 20:  # ±100 at first: somebody is matched, not everybody
            assert len(seated) < 40
    assert sorted(seated) == sorted(ratings), "everyone is seated once the windows open"
    assert await store.waiting() == []
    for account, match_id in seated.items():
        placement = await store.matches_for(account)
        assert placement is not None and placement.table == f"table-{match_id}"


def window_at(waited: float) -> float:
    return 100.0 if waited < 20 else 300.0 if waited < 60 else math.inf


# --- parties -------------------------------------------------------------------------------

def party(a: str, b: str, rating: float = 1500, since: float = 0.0,
          pool: tuple[str, str, bool] = FOUR_NO_BOTS, blocked: set[str] | None = None) -> Entry:
    return new_entry(pool, [(a, rating), (b, rating)], since=since, blocked=blocked or set())


def partners_across(pairing: Pairing, a: str, b: str) -> bool:
    [match] = pairing.matches
    seats = {s.account: s.seat for s in match.seats}
    return abs(seats[a] - seats[b]) == 2


def test_a_party_meets_two_singles_who_become_partners_across() -> None:
    entries = [single("cy", 1500, 0, FOUR_NO_BOTS), party("ann", "bob", since=1),
               single("dee", 1520, 2, FOUR_NO_BOTS)]
    result = pair(entries, 3)
    assert partners_across(result, "ann", "bob") and partners_across(result, "cy", "dee")
    [match] = result.matches
    assert match.parties == (("cy",), ("ann", "bob"), ("dee",))
    assert [s.account for s in match.seats] == ["cy", "ann", "dee", "bob"]
    assert match.team_of("ann") == match.team_of("bob") != match.team_of("cy")


def test_a_party_anchor_takes_a_party_or_two_singles_and_keeps_its_seats() -> None:
    result = pair([party("ann", "bob"), party("cy", "dee", 1520, 1)], 2)
    assert partners_across(result, "ann", "bob") and partners_across(result, "cy", "dee")
    result = pair([party("ann", "bob"), single("cy", 1490, 1, FOUR_NO_BOTS),
                   single("dee", 1510, 2, FOUR_NO_BOTS)], 3)
    assert [s.account for s in result.matches[0].seats] == ["ann", "cy", "bob", "dee"]
    # a party is one side: a party and three singles leave one single waiting
    result = pair([party("ann", "bob"), *(single(n, 1500, 1, FOUR_NO_BOTS)
                                          for n in ("cy", "dee", "eve"))], 3)
    assert len(result.matches) == 1 and [e.id for e in result.left] == ["eve"]


def test_a_party_never_sits_with_someone_either_partner_blocked() -> None:
    """The party's blocked set is both partners' (the caller's union): a block of one
    partner keeps the whole party apart; a single's block of either partner too."""
    for blocked_by_party, blocker in (({"dee"}, None), (set(), "dee")):
        others = [single("cy", 1500, 1, FOUR_NO_BOTS),
                  single("dee", 1500, 2, FOUR_NO_BOTS,
                         blocked={"bob"} if blocker == "dee" else set())]
        entries = [party("ann", "bob", blocked=blocked_by_party), *others]
        for now in (3, 60, 3600):
            assert pair(entries, now).matches == ()
        entries.append(single("eve", 1500, 3, FOUR_NO_BOTS))
        [match] = pair(entries, 3600).matches
        assert set(match.accounts) == {"ann", "bob", "cy", "eve"}
        assert partners_across(pair(entries, 3600), "cy", "eve")
    # two parties, one partner of each blocked by the other side: never one table
    assert pair([party("ann", "bob", blocked={"dee"}), party("cy", "dee", since=1)],
                3600).matches == ()
    # the singles that would join a party must not block each other either
    entries = [party("ann", "bob"), single("cy", 1500, 1, FOUR_NO_BOTS, blocked={"dee"}),
               single("dee", 1500, 2, FOUR_NO_BOTS)]
    assert pair(entries, 3600).matches == ()


def test_a_casual_party_that_waited_gets_bots_on_the_other_side() -> None:
    result = pair([party("ann", "bob", pool=FOUR)], 45)
    [match] = result.matches
    assert [(s.seat, s.account) for s in match.seats if s.account] == [(0, "ann"), (2, "bob")]
    assert [s.seat for s in match.bots] == [1, 3]
