"""The parts of online tournaments below the server: the recurring series (``--events``),
the event's row (compare-and-set, the lease) on SQLite and PostgreSQL, and one step of the
driver (``online_events.pair``)."""

from __future__ import annotations

from datetime import UTC, datetime
from zoneinfo import ZoneInfo

import pytest
from sqlalchemy import Engine

from burraco.community import event_store as store
from burraco.community.event_entries import closed, never_held, until_round_over
from burraco.community.online_events import pair, since
from burraco.community.recurring import RecurringError, parse
from burraco.meet import swiss
from burraco.meet.events import EventSpec, open_event, record_result, register, start


def _at(text: str, zone: str = "Europe/Rome") -> float:
    return datetime.fromisoformat(text).replace(tzinfo=ZoneInfo(zone)).timestamp()


def test_the_default_series_and_their_next_starts() -> None:
    hourly, nightly = parse("default")
    now = _at("2026-12-07 20:10")
    assert hourly.start_after(now) == _at("2026-12-07 21:00")
    assert nightly.start_after(now) == _at("2026-12-07 21:00")
    assert nightly.start_after(_at("2026-12-07 21:00")) == _at("2026-12-08 21:00")
    # the nightly event keeps its wall time over the change to summer time
    assert nightly.start_after(_at("2027-03-28 12:00")) == _at("2027-03-28 21:00")
    assert nightly.start_after(_at("2027-03-27 22:00")) == _at("2027-03-28 21:00")
    state, key = hourly.next_event(now)
    assert state is not None and state.spec.kind == "arena" and state.spec.form == "2"
    assert key == f"hourly-arena@{int(_at('2026-12-07 21:00'))}"
    later, _ = nightly.next_event(_at("2026-12-07 10:00"))
    assert later is None  # announced an hour before (the default), not eleven
    assert parse("none") == []


@pytest.mark.parametrize(("text", "wanted"), [
    ("[1]", "events[0]: a series is a JSON object"),
    ('[{"key": "Bad Key", "every": "hour"}]', "events[0].key"),
    ('[{"key": "a", "every": "day", "at": "25:00"}]', "events[0].at"),
    ('[{"key": "a", "every": "hour", "zone": "Mars/Olympus"}]', "events[0].zone"),
    ('[{"key": "a", "every": "hour", "announce": 90, "name": "A", "kind": "arena", '
     '"form": "2", "minutes": 30}]', "events[0].announce"),
    ('[{"key": "a", "every": "hour", "name": "A", "kind": "arena", "form": "2"}]',
     "events[0].minutes"),
    ('[{"key": "a", "every": "hour", "name": "A", "kind": "swiss", "form": "2", '
     '"rounds": 3}, {"key": "a", "every": "day", "name": "B", "kind": "swiss", '
     '"form": "2", "rounds": 3}]', "same key"),
    ("{", "not JSON"),
    ("@/nonexistent/events.json", "cannot read"),
])
def test_a_bad_setting_is_refused_naming_what(text: str, wanted: str) -> None:
    with pytest.raises(RecurringError) as refused:
        parse(text)
    assert wanted in str(refused.value)


def _swiss() -> EventSpec:
    return EventSpec("Swiss", 100.0, "swiss", "2", rounds=2, format="hand")


def test_the_row_changes_by_compare_and_set_and_one_process_holds_it(engine: Engine) -> None:
    state = register(open_event(_swiss()), [("ada", 1500.0)], 10.0)
    with engine.begin() as conn:
        event_id = store.insert_event(conn, state, "ada", 10.0)
        assert event_id is not None
        assert store.insert_event(conn, state, None, 10.0, series="s@100") is not None
        assert store.insert_event(conn, state, None, 10.0, series="s@100") is None  # one a slot
    with engine.begin() as conn:
        first = store.load(conn, event_id)
        assert first is not None and first.state == state and first.version == 1
        bob = register(first.state, [("bob", 1600.0)], 11.0)
        assert store.save(conn, first, bob, 11.0)
        assert not store.save(conn, first, register(first.state, [("cy", 1.0)], 12.0), 12.0)
        again = store.load(conn, event_id)
        assert again is not None and again.state == bob and again.version == 2
    with engine.begin() as conn:
        assert store.take_lease(conn, event_id, "node-a", 50.0, 15.0)
        assert store.take_lease(conn, event_id, "node-a", 55.0, 15.0)  # renewed
        assert not store.take_lease(conn, event_id, "node-b", 60.0, 15.0)
        assert store.take_lease(conn, event_id, "node-b", 71.0, 15.0)  # ran out: taken over
        assert not store.take_lease(conn, event_id, "node-a", 72.0, 15.0)
        assert store.add_tables(conn, event_id, {"1.1": "t1"}, 72.0, "node-b")
        assert store.add_tables(conn, event_id, {"1.2": "t2", "1.1": "t9"}, 72.0, "node-b")
        assert not store.add_tables(conn, event_id, {"1.3": "t3"}, 72.0, "node-a")  # not its
        loaded = store.load(conn, event_id)
        assert loaded is not None and loaded.tables == {"1.1": "t1", "1.2": "t2"}  # kept
        assert not store.save(conn, loaded, loaded.state, 73.0, holder="node-a")
        assert store.save(conn, loaded, loaded.state, 73.0, holder="node-b")
        assert event_id in store.due(conn, 100.0, 0.0)
        assert event_id not in store.due(conn, 50.0, 0.0)  # not yet due
        assert event_id in [s.event_id for s in store.listing(conn, 1e18, 10)]


def test_a_step_pairs_rounds_then_finishes() -> None:
    state = open_event(_swiss())
    for i, name in enumerate(("a", "b", "c", "d")):
        state = register(state, [(name, 1500.0 + i)], 10.0)
    state = start(state, 100.0)
    state, phase = pair(state, 100.0)
    assert phase == "running" and state.round == 1 and len(state.open_games()) == 2
    assert pair(state, 101.0) == (state, "running")  # the round is not over: nothing to do
    for game in state.open_games():
        state = record_result(state, game.id, (100, 50), 150.0)
    state, phase = pair(state, 150.0)
    assert state.round == 2 and phase == "running"
    for game in state.open_games():
        state = record_result(state, game.id, (0, 50), 200.0)
    state, phase = pair(state, 200.0)
    assert phase == "finished" and state.finished == 200.0
    assert since(state, "a") == 200.0


def test_an_arena_step_pairs_whoever_waits_until_its_end() -> None:
    spec = EventSpec("Arena", 100.0, "arena", "2", minutes=1, format="hand")
    state = open_event(spec)
    for name in ("a", "b", "c"):
        state = register(state, [(name, 1500.0)], 10.0)
    state, phase = pair(start(state, 100.0), 100.0)
    assert len(state.open_games()) == 1 and phase == "running"
    game = state.open_games()[0]
    state = record_result(state, game.id, (100, 0), 130.0)
    state, _ = pair(state, 130.0)
    assert len(state.open_games()) == 1  # the one who sat out meets a player back
    state = record_result(state, state.open_games()[0].id, (0, 100), 170.0)
    state, phase = pair(state, 170.0)  # past the end (100 + 60): no new game, the end
    assert phase == "finished" and not state.open_games()
    assert datetime.fromtimestamp(state.finished or 0, UTC).year == 1970


def test_a_swiss_round_shows_no_result_before_every_table_is_done() -> None:
    """Its tables share the deals: one table's score would tell the others how they went."""
    state = open_event(_swiss())
    for i, name in enumerate(("a", "b", "c", "d")):
        state = register(state, [(name, 1500.0 + i)], 10.0)
    state, _ = pair(start(state, 100.0), 100.0)
    first, second = state.open_games()
    state = record_result(state, first.id, (900, 100), 150.0)
    shown = until_round_over(state)
    assert all(g.result is None for g in shown.games) and closed(state) == {first.id}
    assert {s.score for s in swiss.standings(shown)} == {0.0}
    state = record_result(state, second.id, (100, 900), 160.0)
    assert until_round_over(state) == state  # the round is over: everything shows
    state, _ = pair(state, 160.0)
    assert until_round_over(state).games[:2] == state.games[:2]  # round 1 stays shown


def test_an_event_nobody_entered_is_not_listed_once_cancelled() -> None:
    """An hourly arena nobody came to would otherwise fill the list with cancelled events."""
    empty = open_event(_swiss())
    entered = register(empty, [("ada", 1500.0)], 10.0)
    assert never_held(store.Stored("e1", empty, {}, 2, "cancelled", None, "s@1"))
    assert not never_held(store.Stored("e2", entered, {}, 2, "cancelled", None, None))
    assert not never_held(store.Stored("e3", empty, {}, 1, "open", None, "s@2"))
