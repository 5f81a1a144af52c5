"""Open events as values: every malformed field refused by name, registration and its
refusals, the start, results (VP for ``vp3``), no-shows that withdraw, the finish; the
benchmark's functions run small (full size with BURRACO_BENCH=1)."""

from __future__ import annotations

import os
from dataclasses import replace
from typing import Any

import pytest

from burraco.meet import events_bench
from burraco.meet.events import (
    BYE_VP,
    MISSES_TO_WITHDRAW,
    EventError,
    EventSpec,
    EventState,
    add_games,
    begin_round,
    finish,
    lot,
    no_show,
    open_event,
    record_result,
    register,
    start,
    unregister,
    withdraw,
)

T0 = 1_000_000.0


def swiss_spec(**changes: Any) -> EventSpec:
    fields: dict[str, Any] = {"name": "Friday Swiss", "starts": T0, "kind": "swiss",
                              "form": "2", "rounds": 3, "format": "505"}
    fields.update(changes)
    return EventSpec(**fields)


def arena_spec(**changes: Any) -> EventSpec:
    fields: dict[str, Any] = {"name": "Hourly arena", "starts": T0, "kind": "arena",
                              "form": "2", "minutes": 30, "format": "hand"}
    fields.update(changes)
    return EventSpec(**fields)


def with_players(spec: EventSpec, count: int) -> EventState:
    state = open_event(spec)
    for i in range(count):
        if spec.form == "2":
            party = [(f"p{i:02}", 1500.0 + 10 * i)]
        else:
            party = [(f"p{i:02}a", 1500.0 + 10 * i), (f"p{i:02}b", 1520.0 + 10 * i)]
        state = register(state, party, T0 - 100 + i)
    return state


@pytest.mark.parametrize(("changes", "field"), [
    ({"name": ""}, "name"),
    ({"name": "x" * 81}, "name"),
    ({"starts": float("nan")}, "starts"),
    ({"kind": "knockout"}, "kind"),
    ({"form": "3"}, "form"),
    ({"form": 2}, "form"),
    ({"rules": "pinnacle"}, "rules"),
    ({"format": "3005"}, "format"),
    ({"rounds": 0}, "rounds"),
    ({"rounds": 16}, "rounds"),
    ({"rounds": None}, "rounds"),
    ({"rounds": True}, "rounds"),
    ({"minutes": 30}, "minutes"),
    ({"turn_seconds": 1}, "turn_seconds"),
    ({"rated": "yes"}, "rated"),
    ({"min_rating": float("inf")}, "min_rating"),
    ({"club": ""}, "club"),
    ({"max_entrants": 1}, "max_entrants"),
    ({"bye_points": 2}, "bye_points"),
    ({"seed": "1"}, "seed"),
])
def test_a_malformed_swiss_names_its_field(changes: dict[str, Any], field: str) -> None:
    with pytest.raises(EventError) as caught:
        swiss_spec(**changes)
    assert caught.value.field == field
    assert str(caught.value).startswith(f"{field}: ")


@pytest.mark.parametrize(("changes", "field"), [
    ({"minutes": None}, "minutes"),
    ({"minutes": 0}, "minutes"),
    ({"minutes": 721}, "minutes"),
    ({"rounds": 5}, "rounds"),
])
def test_a_malformed_arena_names_its_field(changes: dict[str, Any], field: str) -> None:
    with pytest.raises(EventError) as caught:
        arena_spec(**changes)
    assert caught.value.field == field


def test_the_spec_reads_well() -> None:
    spec = swiss_spec(format="vp3", rated=True)
    assert spec.pool.name == "vp3/2/rated"
    assert spec.vp and spec.win == BYE_VP == spec.bye == 14
    assert swiss_spec().bye == 1 and swiss_spec(bye_points=0.5).bye == 0.5
    assert arena_spec().seconds == 1800
    assert spec.rules_value().name == "fibur"


def test_registration_and_its_refusals() -> None:
    spec = swiss_spec(max_entrants=3, min_rating=1400)
    state = with_players(spec, 2)
    assert [e.id for e in state.active()] == ["p00", "p01"]
    for party, now, field in (
            ([("p00", 1500)], T0 - 1, "account"),
            ([("zed", 1300)], T0 - 1, "min_rating"),
            ([("zed", 1500)], T0, "starts"),
            ([("zed", 1500), ("yan", 1500)], T0 - 1, "party"),
            ([("zed", float("nan"))], T0 - 1, "rating"),
            ([("", 1500)], T0 - 1, "account"),
            ("zed", T0 - 1, "party")):
        with pytest.raises(EventError) as caught:
            register(state, party, now)  # type: ignore[arg-type]
        assert caught.value.field == field
    state = register(state, [("cy", 1450)], T0 - 1)
    with pytest.raises(EventError) as caught:
        register(state, [("dee", 1500)], T0 - 1)
    assert caught.value.field == "max_entrants"
    state = unregister(state, "cy", T0 - 1)
    assert not state.entrant("cy").joined and len(state.active()) == 2
    state = register(state, [("dee", 1500)], T0 - 1)
    with pytest.raises(EventError):
        unregister(state, "cy", T0 - 1)
    with pytest.raises(EventError) as caught:
        unregister(state, "dee", T0)
    assert caught.value.field == "starts"


def test_members_only_and_pairs() -> None:
    spec = swiss_spec(form="4", club="circolo")
    state = open_event(spec)
    with pytest.raises(EventError) as caught:
        register(state, [("ann", 1500), ("bob", 1600)], T0 - 1, members={"ann"})
    assert caught.value.field == "club"
    with pytest.raises(EventError) as caught:
        register(state, [("ann", 1500)], T0 - 1, members={"ann"})
    assert caught.value.field == "party"
    state = register(state, [("ann", 1500), ("bob", 1600)], T0 - 1, members={"ann", "bob"})
    pair = state.entrant("ann")
    assert pair.accounts == ("ann", "bob") and pair.rating == 1550
    with pytest.raises(EventError) as caught:
        register(state, [("cy", 1500), ("bob", 1600)], T0 - 1, members={"cy", "bob"})
    assert caught.value.field == "account"
    with pytest.raises(EventError) as caught:
        start(state, T0)
    assert caught.value.field == "entrants"  # one pair is not an event
    state = register(state, [("cy", 1500), ("dee", 1600)], T0 - 1, members={"cy", "dee"})
    assert start(state, T0).phase == "running"


def test_start_waits_for_its_time_and_closes_registration() -> None:
    state = with_players(swiss_spec(), 4)
    with pytest.raises(EventError) as caught:
        start(state, T0 - 1)
    assert caught.value.field == "starts"
    running = start(state, T0 + 5)
    assert running.started == T0 + 5
    for call in (lambda: register(running, [("zed", 1500)], T0 - 1),
                 lambda: unregister(running, "p00", T0 - 1),
                 lambda: start(running, T0 + 6)):
        with pytest.raises(EventError) as caught:
            call()
        assert caught.value.field == "phase"


def test_results_by_points_and_in_vp() -> None:
    state = start(with_players(swiss_spec(), 4), T0)
    state = begin_round(state, [("p00", "p01"), ("p02", "p03")], [], T0)
    state = record_result(state, "1.1", (600, 200), T0 + 60)
    state = record_result(state, "1.2", (300, 300), T0 + 60)
    assert state.game("1.1").result.winner == 0  # type: ignore[union-attr]
    assert state.game("1.2").result.winner is None  # type: ignore[union-attr]
    with pytest.raises(EventError) as caught:
        record_result(state, "1.1", (600, 200), T0)
    assert caught.value.field == "game"
    vp = start(with_players(swiss_spec(format="vp3"), 2), T0)
    vp = begin_round(vp, [("p00", "p01")], [], T0)
    with pytest.raises(EventError) as caught:
        record_result(vp, "1.1", (301, 0), T0)
    assert caught.value.field == "points"
    closed = record_result(vp, "1.1", (-40, 300), T0).game("1.1").result
    assert closed is not None and closed.vp == (7, 13) and closed.winner == 1
    level = record_result(vp, "1.1", (340, 300), T0).game("1.1").result
    assert level is not None and level.vp == (10, 10) and level.winner is None
    forced = record_result(vp, "1.1", (0, 0), T0, winner=1).game("1.1").result
    assert forced is not None and forced.winner == 1
    with pytest.raises(EventError) as caught:
        record_result(vp, "1.1", (0, 0), T0, winner=2)
    assert caught.value.field == "winner"
    with pytest.raises(EventError) as caught:
        record_result(vp, "1.1", (True, 0), T0)  # type: ignore[arg-type]
    assert caught.value.field == "points"


def test_two_missed_games_withdraw() -> None:
    state = start(with_players(arena_spec(), 4), T0)
    state = add_games(state, [("p00", "p01"), ("p02", "p03")], T0)
    state = no_show(state, "a1", ["p01"], T0 + 30)
    result = state.game("a1").result
    assert result is not None and result.winner == 0 and result.absent == (1,)
    assert state.entrant("p01").missed == 1 and state.entrant("p01").active
    state = no_show(state, "a2", ["p02", "p03"], T0 + 30)
    result = state.game("a2").result
    assert result is not None and result.winner is None and result.absent == (0, 1)
    state = add_games(state, [("p01", "p00")], T0 + 40)
    state = no_show(state, "a3", ["p01"], T0 + 70)
    assert state.entrant("p01").missed == MISSES_TO_WITHDRAW
    assert state.entrant("p01").withdrawn and not state.entrant("p01").active
    with pytest.raises(EventError) as caught:
        add_games(state, [("p01", "p02")], T0 + 80)
    assert caught.value.field == "entrant"
    with pytest.raises(EventError) as caught:
        no_show(state, "a3", ["p01"], T0 + 80)
    assert caught.value.field == "game"
    with pytest.raises(EventError) as caught:
        no_show(add_games(state, [("p00", "p02")], T0 + 80), "a4", ["p03"], T0 + 90)
    assert caught.value.field == "absent"


def test_games_refuse_the_busy_and_the_late() -> None:
    state = start(with_players(arena_spec(), 4), T0)
    state = add_games(state, [("p00", "p01")], T0)
    for pairs in ([("p00", "p02")], [("p02", "p02")], [("p02", "zed")]):
        with pytest.raises(EventError):
            add_games(state, pairs, T0 + 1)
    with pytest.raises(EventError) as caught:
        add_games(state, [("p02", "p03")], T0 + 1800)
    assert caught.value.field == "minutes"
    assert add_games(state, [], T0 + 1800) == state
    with pytest.raises(EventError) as caught:
        begin_round(state, [("p02", "p03")], [], T0)
    assert caught.value.field == "kind"


def test_rounds_and_the_finish() -> None:
    state = start(with_players(swiss_spec(rounds=1), 3), T0)
    with pytest.raises(EventError):
        add_games(state, [("p00", "p01")], T0)
    state = begin_round(state, [("p00", "p01")], ["p02"], T0)
    assert state.byes[0].entrant == "p02" and state.round == 1
    with pytest.raises(EventError) as caught:
        finish(state, T0 + 1)
    assert caught.value.field == "games"
    state = record_result(state, "1.1", (505, 100), T0 + 600)
    with pytest.raises(EventError) as caught:
        begin_round(state, [("p00", "p02")], [], T0 + 601)
    assert caught.value.field == "round"
    done = finish(state, T0 + 601)
    assert done.phase == "finished" and done.finished == T0 + 601
    arena = start(with_players(arena_spec(), 2), T0)
    with pytest.raises(EventError) as caught:
        finish(arena, T0 + 1799)
    assert caught.value.field == "minutes"
    assert finish(arena, T0 + 1799, early=True).phase == "finished"
    assert finish(arena, T0 + 1800).phase == "finished"


def test_withdrawal_and_determinism() -> None:
    def run() -> EventState:
        state = start(with_players(swiss_spec(), 4), T0)
        state = withdraw(state, "p03", T0 + 1)
        return state
    first = run()
    assert first == run()
    assert first.entrant("p03").withdrawn
    with pytest.raises(EventError) as caught:
        withdraw(first, "p03", T0 + 2)
    assert caught.value.field == "entrant"
    with pytest.raises(EventError) as caught:
        withdraw(first, "zed", T0 + 2)
    assert caught.value.field == "entrant"
    with pytest.raises(EventError) as caught:
        withdraw(with_players(swiss_spec(), 2), "p00", T0 - 1)
    assert caught.value.field == "phase"


def test_a_state_has_a_known_phase() -> None:
    with pytest.raises(EventError) as caught:
        EventState(swiss_spec(), phase="paused")
    assert caught.value.field == "phase"


def test_the_lot_is_fixed_by_event_and_id() -> None:
    spec = swiss_spec(seed=7)
    assert lot(spec, "ann") == lot(spec, "ann") != lot(spec, "bob")
    assert lot(spec, "ann") != lot(replace(spec, seed=8), "ann")


def test_the_benchmarks_run_small() -> None:
    arena = events_bench.bench_arena(players=40, seed=2, minutes=15)
    assert arena["players"] == 40 and arena["calls"] > 0 and arena["games"] > 0
    assert 0 <= arena["p50"] <= arena["p95"] <= arena["max"]
    swiss = events_bench.bench_swiss(players=41, rounds=4)
    assert swiss["rounds"] == 4 and len(swiss["per_round"]) == 4
    assert swiss["rematches"] == 0


def test_the_benchmarks_full_size() -> None:
    if not os.environ.get("BURRACO_BENCH"):
        pytest.skip("BURRACO_BENCH is not set: the 500-player figures take a while")
    print()
    print(events_bench.describe(events_bench.bench_arena()))
    print(events_bench.describe(events_bench.bench_swiss()))
