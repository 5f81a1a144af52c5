"""An event's state as stored (``meet.events_json``): every state a random event goes
through comes back equal from its JSON, and a stored spec is checked as a new one is."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from burraco.meet import arena, swiss
from burraco.meet.events import (
    EventError,
    EventSpec,
    EventState,
    no_show,
    open_event,
    record_result,
    register,
    start,
    withdraw,
)
from burraco.meet.events_json import from_json, spec_from_json, to_json


def _through_json(state: EventState) -> EventState:
    return from_json(json.loads(json.dumps(to_json(state))))  # as the database keeps it


def _play_round(state: EventState, rng: random.Random, now: float) -> EventState:
    for game in state.open_games():
        if rng.random() < 0.1:
            state = no_show(state, game.id, [game.sides[rng.randrange(2)]], now)
        else:
            state = record_result(state, game.id, (5 * rng.randrange(-40, 400),
                                                   5 * rng.randrange(-40, 400)), now)
    return state


@settings(max_examples=25, deadline=None)
@given(st.integers(2, 20), st.sampled_from(["swiss", "arena"]), st.sampled_from(["505", "vp3"]),
       st.integers(0, 2**31))
def test_every_state_comes_back_from_json(count: int, kind: str, fmt: str, seed: int) -> None:
    rng = random.Random(seed)
    spec = EventSpec("Event", 100.0, kind, "2", format=fmt, seed=seed,
                     rounds=3 if kind == "swiss" else None,
                     minutes=None if kind == "swiss" else 30)
    state = open_event(spec)
    for i in range(count):
        state = register(state, [(f"p{i}", 1400.0 + rng.randrange(300))], 10.0 + i)
        assert _through_json(state) == state
    state = start(state, 100.0)
    now = 100.0
    for _ in range(3):
        now += 60
        if spec.kind == "swiss":
            state = swiss.next_round(state, now)
        else:
            state = arena.start_games(state, {e.id: now - 1 for e in state.active()
                                              if e.id not in state.playing()}, now)
        assert _through_json(state) == state
        state = _play_round(state, rng, now + 30)
        if len(state.active()) > 2 and rng.random() < 0.3:
            state = withdraw(state, state.active()[0].id, now + 31)
        assert _through_json(state) == state


def test_a_stored_spec_is_checked_field_by_field() -> None:
    good = {"name": "X", "starts": 5.0, "kind": "swiss", "form": "2", "rounds": 3}
    assert spec_from_json(good).rounds == 3
    for bad, field in (({**good, "rounds": 0}, "rounds"), ({**good, "colour": "red"}, "colour"),
                       ({k: v for k, v in good.items() if k != "kind"}, "kind"),
                       ({**good, "show_seconds": 2}, "show_seconds")):
        with pytest.raises(EventError) as refused:
            spec_from_json(bad)
        assert refused.value.field == field
    with pytest.raises(EventError) as old:
        from_json({**to_json(open_event(spec_from_json(good))), "format": 99})
    assert old.value.field == "format"
