"""Random-play conformance suite for the hand engine (RULES.md §3, §6, §7.3, §7.4, §8).

Thousands of hands, 2 and 4 players, are played with seeded random policies,
and every step is checked against properties that need no knowledge of the
position:

* cheap checks, on every step: the 108 cards are conserved; a legal action
  exists until the hand is over and none after; the listed actions are
  distinct and each applies without error (on a clone); every transition
  keeps the engine invariants of §7.3 (no turn ends with an empty hand except
  by taking the pozzetto or closing; one pozzetto per side, the top one first;
  a closing needs the pozzetto, a burraco and a non-wild discard; melded
  cards never leave the table);
* full checks, on a subset of steps: every unlisted discard (all 53 faces)
  and single-card attachment (every face onto every meld of the side, and one
  meld index past the end) is rejected with ``IllegalActionError`` and leaves
  the state unchanged; new melds are complete (for every distinct multiset of
  3..6 of the hand's faces, ``NewMeld`` is listed iff applying it succeeds);
  and legal.py's claim about multi-card attachments holds (each legal one is
  listed or can be made as single listed attachments in some order, with the
  same result).

At the end of each hand the record (the deal and the actions' texts) must
replay to the same state.  The time call (§8.2) is injected at random steps
of some hands: the hand then ends after the promised turns, or earlier.

Scale: ``BURRACO_CONFORMANCE_HANDS=10 pytest tests/engine/test_conformance.py``
multiplies the number of hands (and hypothesis examples) by 10.
"""

from __future__ import annotations

import os
import random
from collections import Counter
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from positions import same_state, snapshot

from burraco.bench.engine import engine_compiled
from burraco.engine import (
    Attach,
    CallTime,
    Discard,
    Draw,
    HandState,
    IllegalActionError,
    NewMeld,
    Pickup,
    deal_seeded,
    legal_actions,
    parse_action,
)
from burraco.engine.actions import Action
from burraco.engine.cards import FACE_IS_WILD, FACES, JOKER, face_rank, face_suit, sort_key
from burraco.engine.events import (
    Discarded,
    Event,
    HandOver,
    PickedUp,
    PozzettoSeen,
    PozzettoTaken,
    TimeCalled,
)
from burraco.engine.melds import SET, Meld, read_meld
from burraco.engine.state import CARD_FACE, DRAW_PHASE, OVER, PLAY_PHASE

SCALE = max(1, int(os.environ.get("BURRACO_CONFORMANCE_HANDS", "1")))
ALL_CARDS = list(range(108))
MAX_HAND_FOR_NEW_MELDS = 14  # bound of the new-meld completeness enumeration
# slots that record how a position was reached, not what it is
SEQUENCE_FIELDS = ("history", "meld_counter")
MAX_MULTI_ATTACH = 4  # cards per multi-card attachment tried (the whole hand too, if small)
POLICIES = ("uniform", "melder")


# --- the policies ---------------------------------------------------------------------------

def choose(policy: str, actions: list[Action], rng: random.Random) -> Action:
    """``uniform`` picks any listed action; ``melder`` melds and attaches 90 % of the time,
    which drives hands to pozzetti and closings."""
    if policy == "uniform":
        return rng.choice(actions)
    plays = [a for a in actions if isinstance(a, (NewMeld, Attach))]
    if plays and rng.random() < 0.9:
        return rng.choice(plays)
    others = [a for a in actions if not isinstance(a, (NewMeld, Attach))]
    return rng.choice(others or actions)


# --- stats: the suite must actually reach the situations it claims to check -----------------

class Stats:
    def __init__(self) -> None:
        self.hands = 0
        self.steps = 0
        self.full_steps = 0
        self.ends: Counter[str] = Counter()
        self.pozzetti: Counter[str] = Counter()
        self.new_meld_sets = 0
        self.multi_attaches = 0
        self.multi_attaches_listed = 0
        self.barred_positions = 0
        self.time_calls = 0


# --- cheap checks ---------------------------------------------------------------------------

def check_state(state: HandState) -> None:
    """Invariants of any single state."""
    assert sorted(state.all_cards()) == ALL_CARDS, "the 108 cards are not conserved"
    n = state.players
    assert len(state.pozzetti) + sum(t >= 0 for t in state.pozzetto_taker) == 2
    for side in range(state.sides):
        taker = state.pozzetto_taker[side]
        assert taker < 0 or state.side_of[taker] == side
        ranks = [m.rank for m in state.melds[side] if m.kind == SET]
        assert len(ranks) == len(set(ranks)), "two sets of one rank on a side (§4.2.3)"
    for seat in range(n):
        if state.pending[seat]:
            assert state.pozzetto_taker[state.side_of[seat]] == seat
            assert not state.hands[seat], "pozzetto pending while holding cards"
        if not state.hands[seat] and not state.pending[seat]:
            # §7.3: an empty hand only after a closing (or before the first deal card, never)
            assert state.phase == OVER and state.end_reason == "closed" and state.closer == seat
    if state.phase == PLAY_PHASE:
        assert state.hands[state.turn], "the player on turn has no card to discard (§7.3)"
    if state.phase == DRAW_PHASE:
        assert len(state.stock) > 2, "a turn starts with two cards in the stock (§7.4.1)"


def check_transition(
    before: HandState, action: Action, after: HandState, events: list[Event], *,
    reread: bool = True,
) -> None:
    """Invariants of one applied action (§3, §6, §7.3, §8).

    ``reread``: also read every changed meld again from its cards (the costly part).
    """
    check_state(after)
    seat = before.turn
    side = before.side_of[seat]
    if isinstance(action, Draw):
        assert len(after.stock) == len(before.stock) - 1
        assert after.phase in (PLAY_PHASE, OVER)
    elif isinstance(action, Pickup):
        assert before.pile and not after.pile, "the whole pile is taken (§3.1.1)"
        picked = [e for e in events if isinstance(e, PickedUp)]
        assert len(picked) == 1 and list(picked[0].cards) == before.pile
        assert (after.barred >= 0) == (len(before.pile) == 1)
    # melded cards never leave their meld (§3.2.3); the other side's table is untouched
    for s in range(before.sides):
        old, new = before.melds[s], after.melds[s]
        if s != side:
            assert old == new
        assert len(new) >= len(old)
        for i, meld in enumerate(new):
            if i < len(old) and meld is old[i]:
                continue  # melds are immutable: an untouched meld is the same object
            if i < len(old):
                assert set(old[i].cards) <= set(meld.cards)
            # every changed meld is still a legal meld of its cards (§4)
            if reread:
                assert isinstance(read_meld(list(meld.cards), after.rules), Meld), str(meld)
    # pozzetto rules (§6.1, §6.3, §6.4)
    taken = [e for e in events if isinstance(e, PozzettoTaken)]
    assert len(taken) <= 1
    if taken:
        event = taken[0]
        assert event.seat == seat and event.side == side
        assert before.pozzetto_taker[side] < 0, "a side took a second pozzetto (§6.1)"
        assert list(event.cards) == list(before.pozzetti[0]), "not the top pozzetto (§6.1)"
        assert event.live == isinstance(action, (NewMeld, Attach))
        if event.live:
            assert sorted(after.hands[seat]) == sorted(before.pozzetti[0])
            assert after.phase == PLAY_PHASE and after.turn == seat
        else:
            assert not after.hands[seat] and sorted(after.pending[seat]) == sorted(
                before.pozzetti[0])
    else:
        assert after.pozzetto_taker == before.pozzetto_taker
    # §7.3 a turn never leaves the mover with an empty hand but for the pozzetto or a closing
    if not after.hands[seat] and not after.pending[seat]:
        assert isinstance(action, Discard) and after.end_reason == "closed"
    if isinstance(action, (NewMeld, Attach)) and not taken:
        assert after.hands[seat], "a play emptied the hand without a pozzetto (§7.2)"
    # closing (§7.1)
    if after.phase == OVER and after.end_reason == "closed":
        assert isinstance(action, Discard)
        assert not FACE_IS_WILD[action.face], "closed with a wild discard (§7.1.4)"
        assert before.pozzetto_taker[side] >= 0, "closed without the pozzetto (§7.1.1)"
        assert any(len(m.cards) >= 7 for m in after.melds[side]), "closed without a burraco"
        assert after.closer == seat and not after.hands[seat]
        assert len(before.hands[seat]) == 1
    if isinstance(action, Discard):
        assert after.pile[-1:] and CARD_FACE[after.pile[-1]] == action.face
        assert after.pile[-1] != before.barred, "discarded the one-card-pile card (§3.1.4)"
        assert sum(isinstance(e, Discarded) for e in events) == 1
        if after.phase != OVER:
            assert after.turn == (seat + 1) % before.players and after.phase == DRAW_PHASE
        elif after.end_reason == "stock":
            assert len(after.stock) <= 2 or before.final_turn
    else:
        assert after.turn == seat
        ended = after.phase == OVER
        assert not ended or (isinstance(action, Draw) and after.rules.last_turn == "stop")
    if after.phase == OVER and before.phase != OVER:
        over = [e for e in events if isinstance(e, HandOver)]
        assert len(over) == 1 and over[0].reason == after.end_reason
        assert after.end_reason in ("closed", "stock", "stall", "time")
    # pozzetto con lo scarto: seen only after the partner's (2p: opponent's) discard (§6.4)
    for e in events:
        if isinstance(e, PozzettoSeen) and e.seat != seat:
            partner = before.partner_of(e.seat)
            expected = partner if partner is not None else (e.seat - 1) % before.players
            assert seat == expected and isinstance(action, Discard)


Child = tuple[HandState, list[Event]]


def check_listed(
    state: HandState, actions: list[Action], *, transitions: bool,
) -> dict[Action, Child]:
    """A legal action exists until the hand ends; every listed one is distinct and applies.

    Returns the child state and events of each listed action; with ``transitions``
    every child is checked by :func:`check_transition` (else only the one played).
    """
    children: dict[Action, Child] = {}
    if state.phase == OVER:
        assert actions == []
        return children
    assert actions, "no legal action before the end of the hand (§7.3)"
    assert len(set(actions)) == len(actions), "duplicate legal actions"
    if state.phase == DRAW_PHASE:
        assert actions == ([Draw(), Pickup()] if state.pile else [Draw()])
    for action in actions:
        if isinstance(action, NewMeld):
            assert len(action.faces) >= 3
            assert list(action.faces) == sorted(action.faces, key=sort_key)
        child = state.clone()
        events = child.apply_in_place(action)  # must not raise
        if transitions:
            check_transition(state, action, child, events, reread=False)
        children[action] = (child, events)
    return children


# --- full checks ----------------------------------------------------------------------------

class Prober:
    """Applies actions in place on one clone of ``state``, re-cloning only after a success."""

    def __init__(self, state: HandState) -> None:
        self.state = state
        self.clone = state.clone()

    def rejects(self, action: Action) -> bool:
        """Is ``action`` rejected?  A rejected action must leave the state exactly as it was."""
        try:
            self.clone.apply_in_place(action)
        except IllegalActionError:
            assert same_state(self.clone, self.state), f"{action}: rejected but state changed"
            return True
        self.clone = self.state.clone()
        return False


def rejects(state: HandState, action: Action) -> bool:
    return Prober(state).rejects(action)


def multisets(counts: dict[int, int], low: int, high: int) -> Iterator[tuple[int, ...]]:
    """Distinct sub-multisets of ``counts`` with ``low``..``high`` elements (faces ascending)."""
    items = sorted(counts.items())

    def rec(i: int, chosen: list[int]) -> Iterator[tuple[int, ...]]:
        if len(chosen) >= low:
            yield tuple(chosen)
        if i == len(items) or len(chosen) == high:
            return
        for j in range(i, len(items)):
            face, count = items[j]
            for k in range(1, min(count, high - len(chosen)) + 1):
                chosen.extend([face] * k)
                yield from rec(j + 1, chosen)
                del chosen[len(chosen) - k:]

    yield from rec(0, [])


def hand_counts(state: HandState) -> dict[int, int]:
    return dict(Counter(CARD_FACE[c] for c in state.hands[state.turn]))


def check_full(state: HandState, actions: list[Action], stats: Stats, *, new_melds: bool) -> None:
    stats.full_steps += 1
    listed = set(actions)
    probe = Prober(state)
    if state.phase == DRAW_PHASE:
        held = sorted(hand_counts(state)) or [0]
        for action in (Discard(held[0]), NewMeld((0, 1, 2)), Attach(0, (held[0],))):
            assert probe.rejects(action), f"{action} accepted before the draw (§3.1)"
        if not state.pile:
            assert probe.rejects(Pickup())
        return
    if state.barred in state.hands[state.turn]:
        stats.barred_positions += 1
    # Draw and Pickup after the draw
    assert probe.rejects(Draw()) and probe.rejects(Pickup())
    # every discard, all 53 faces
    for face in range(FACES):
        action = Discard(face)
        assert (action in listed) == (not probe.rejects(action)), str(action)
    # every single-card attachment to every meld of the side (and a missing meld)
    melds = state.melds[state.side_of[state.turn]]
    for index in range(len(melds) + 1):
        for face in range(FACES):
            action = Attach(index, (face,))
            assert (action in listed) == (not probe.rejects(action)), str(action)
    counts = hand_counts(state)
    # completeness of new melds (bounded)
    if new_melds and len(state.hands[state.turn]) <= MAX_HAND_FOR_NEW_MELDS:
        stats.new_meld_sets += 1
        for combo in multisets(counts, 3, 6):
            action = NewMeld(tuple(sorted(combo, key=sort_key)))
            assert (action in listed) == (not probe.rejects(action)), str(action)
    check_multi_attach(state, listed, counts, melds, stats)


def check_multi_attach(
    state: HandState, listed: set[Action], counts: dict[int, int], melds: list[Meld],
    stats: Stats,
) -> None:
    """legal.py: a legal multi-card attachment is listed or made of listed single ones."""
    size = sum(counts.values())
    for index, meld in enumerate(melds):
        # cards that could belong to the meld at all: wilds and the suit (rank) of the meld
        usable = {
            f: k for f, k in counts.items()
            if f == JOKER or face_rank(f) == 2 or (
                face_rank(f) == meld.rank if meld.kind == SET else face_suit(f) == meld.suit)
        }
        combos = set(multisets(usable, 2, MAX_MULTI_ATTACH))
        if sum(usable.values()) == size and size <= 6:
            combos.add(tuple(sorted(f for f, k in counts.items() for _ in range(k))))
        for combo in sorted(combos):
            action = Attach(index, tuple(sorted(combo, key=sort_key)))
            direct = state.clone()
            try:
                direct.apply_in_place(action)
            except IllegalActionError:
                continue
            stats.multi_attaches += 1
            if action in listed:
                stats.multi_attaches_listed += 1
                continue
            goal = snapshot(direct, skip=SEQUENCE_FIELDS)
            assert reachable_by_singles(state, index, Counter(combo), goal), (
                f"{action} is legal but neither listed nor made of listed single attachments")


def reachable_by_singles(
    state: HandState, index: int, left: Counter[int], goal: tuple[object, ...],
) -> bool:
    if not +left:
        return snapshot(state, skip=SEQUENCE_FIELDS) == goal
    for face in sorted(+left):
        action = Attach(index, (face,))
        if action not in legal_actions(state):
            continue
        child = state.clone()
        child.apply_in_place(action)
        rest = left.copy()
        rest[face] -= 1
        if reachable_by_singles(child, index, rest, goal):
            return True
    return False


# --- the driver -----------------------------------------------------------------------------

def run_hand(
    seed: int, players: int, policy: str, stats: Stats, *, full_every: int,
    new_melds_every: int = 1, time_call_at: int = -1,
) -> HandState:
    """Play one seeded hand, checking every step.

    Full checks run every ``full_every`` steps (0: never), the new-meld
    enumeration on every ``new_melds_every``-th of those.
    """
    rng = random.Random(seed * 7919 + players)
    state = HandState.start(deal_seeded(seed, players=players))
    check_state(state)
    steps = fulls = 0
    time_called = -1  # turns owed after the time call, once called
    discards_after_call = 0
    while True:
        actions = legal_actions(state)
        full = bool(full_every) and steps % full_every == full_every - 1
        children = check_listed(state, actions, transitions=full)
        if state.phase == OVER:
            break
        if full:
            fulls += 1
            check_full(state, actions, stats, new_melds=fulls % new_melds_every == 0)
        if steps == time_call_at:
            before = state.clone()
            events = state.apply_in_place(CallTime())
            expected = players + (1 if before.phase == PLAY_PHASE else 0)
            assert events == [TimeCalled(expected)]
            assert snapshot(state, skip=("time_left", "history")) == snapshot(
                before, skip=("time_left", "history"))
            assert rejects(state, CallTime()), "time called twice"
            time_called = expected
            stats.time_calls += 1
        action = choose(policy, actions, rng)
        if steps == time_call_at:  # the children were made before the call
            before = state.clone()
            events = state.apply_in_place(action)
        else:
            before = state
            state, events = children[action]
        check_transition(before, action, state, events)
        for e in events:
            if isinstance(e, PozzettoTaken):
                stats.pozzetti["live" if e.live else "discard"] += 1
        if time_called >= 0 and isinstance(action, Discard):
            discards_after_call += 1
        steps += 1
        assert steps < 5000, "the hand never ends"
    if time_called >= 0:
        # §8.2: the turn in progress is completed and every player gets one more turn
        if state.end_reason == "time":
            assert discards_after_call == time_called
        else:
            assert discards_after_call <= time_called
    check_replay(state)
    stats.hands += 1
    stats.steps += steps
    stats.ends[state.end_reason] += 1
    return state


def check_replay(state: HandState) -> None:
    """The deal and the moves' texts give the final state again (records round-trip)."""
    again = HandState.start(state.deal)
    for action in state.moves():
        text = str(action)
        assert parse_action(text) == action, text
        again.apply_in_place(parse_action(text))
    assert same_state(again, state)


HANDS_PER_CASE = 100  # x 4 cases = 400 hands, full checks on every 12th step
CHEAP_HANDS = 1200 if engine_compiled() else 400
"""Hands with the cheap checks only: CI plays the 1200 against the compiled engine, where
they take a third of the time; the pure sources, every run, play 400."""
HYPOTHESIS_HANDS = 40


@pytest.mark.parametrize("players", [2, 4])
@pytest.mark.parametrize("policy", POLICIES)
def test_seeded_random_hands(players: int, policy: str) -> None:
    """Seeded hands: cheap checks on every step, full checks on every 12th step."""
    stats = Stats()
    base = {2: 10_000, 4: 20_000}[players] + (0 if policy == "uniform" else 5_000)
    for seed in range(base, base + HANDS_PER_CASE * SCALE):
        time_call_at = 30 + seed % 90 if seed % 5 == 0 else -1
        run_hand(seed, players, policy, stats, full_every=12, new_melds_every=3,
                 time_call_at=time_call_at)
    # the suite must reach what it checks
    assert stats.hands == HANDS_PER_CASE * SCALE
    assert stats.full_steps > 300 * SCALE
    assert stats.time_calls > 0 and stats.ends["time"] > 0
    if policy == "melder":
        assert stats.ends["closed"] > HANDS_PER_CASE * SCALE // 3
        assert stats.pozzetti["live"] > 0 and stats.pozzetti["discard"] > 0
        assert stats.multi_attaches > 0
    assert stats.new_meld_sets > 0


@settings(
    derandomize=True, max_examples=HYPOTHESIS_HANDS * SCALE, deadline=None, database=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(
    seed=st.integers(min_value=0, max_value=2**32 - 1),
    players=st.sampled_from([2, 4]),
    policy=st.sampled_from(POLICIES),
    time_call_at=st.one_of(st.just(-1), st.integers(min_value=0, max_value=200)),
)
def test_hypothesis_hands(seed: int, players: int, policy: str, time_call_at: int) -> None:
    """Hypothesis picks the deals; full checks on every 5th step."""
    run_hand(seed, players, policy, Stats(), full_every=5, new_melds_every=2,
             time_call_at=time_call_at)


def test_many_cheap_hands_reach_every_ending() -> None:
    """A larger plain loop with only the per-step cheap checks (no full checks)."""
    stats = Stats()
    for i in range(CHEAP_HANDS * SCALE):
        players = 2 if i % 2 else 4
        policy = POLICIES[(i // 2) % 2]
        run_hand(30_000 + i, players, policy, stats, full_every=0,
                 time_call_at=40 + i % 50 if i % 7 == 0 else -1)
    assert stats.hands == CHEAP_HANDS * SCALE
    assert {"closed", "stock", "stall", "time"} <= set(stats.ends)


def test_the_meld_caches_stay_bounded() -> None:
    """A server plays for months: the engine's memo tables are emptied, never grown past
    their limit (the shapes that matter come back within a few hands)."""
    import random

    from burraco.engine import HandState, deal_seeded, legal_actions, meld_search

    saved = meld_search.CACHE_LIMIT
    meld_search.CACHE_LIMIT = 64
    for cache in (meld_search._SEQUENCE_CACHE, meld_search._SET_CACHE, meld_search._ACCEPTS,
                  meld_search._RULES_BY_ID):
        cache.clear()  # earlier tests of this process filled them under the real limit
    try:
        rng = random.Random(3)
        for seed in range(6):
            state = HandState.start(deal_seeded(seed, players=4))
            while not state.is_over:
                state, _ = state.apply(rng.choice(legal_actions(state)))
                assert len(meld_search._SEQUENCE_CACHE) <= 64
                assert len(meld_search._SET_CACHE) <= 64
                assert len(meld_search._ACCEPTS) <= 64
                assert len(meld_search._RULES_BY_ID) <= 64
    finally:
        meld_search.CACHE_LIMIT = saved
