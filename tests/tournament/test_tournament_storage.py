"""Tournament storage on real databases: a SQLite file always, PostgreSQL when configured.

The migrations run from scratch (t0001 → t0003) and then every kind of entrant, seating,
result and web-table link is written and read back unchanged.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path

import pytest
from harness import postgres_schema

from burraco.tournament.model import Settings
from burraco.tournament.scale import VpScale
from burraco.tournament.schedule import Schedule
from burraco.tournament.service import Director


@pytest.fixture(params=["sqlite", "postgresql"])
def director(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Director]:
    with contextlib.ExitStack() as stack:
        url = (f"sqlite:///{tmp_path / 'club.db'}" if request.param == "sqlite"
               else stack.enter_context(postgres_schema()))
        d = Director.open(url)
        stack.callback(d.close)
        yield d


def test_every_kind_round_trips(director: Director) -> None:
    pairs = director.create(Settings("Coppie", schedule=Schedule.parse("mitchell:1")))
    director.register_all(pairs, [("A / B", ["A", "B"]), ("C", []), ("D", []), ("E", [])])
    director.start_round(pairs)
    director.record(pairs, 1, 1, 1200, 900, hands=[(600, 400), (300, 300), (300, 200)])
    director.link_online(pairs, 1, 2, "web-2", {"watch": "/w/2", "seats": []})

    solo = director.create(Settings("Individuale", kind="individual",
                                    schedule=Schedule.parse("random:1")))
    director.register_all(solo, [(f"P{n}", []) for n in range(1, 10)])
    director.start_round(solo)
    director.record(solo, 1, 2, 400, 1000)

    teams = director.create(Settings(
        "Squadre", kind="teams", schedule=Schedule.parse("roundrobin"),
        scale=VpScale.parse("club:100,300,500,700,900,1100,1300,1500,1700,2000", hands=3)))
    director.register_all(teams, [(f"T{n}", [f"{n}a", f"{n}b", f"{n}c", f"{n}d"])
                                  for n in range(1, 5)])
    director.start_round(teams)
    director.record(teams, 1, 1, 1500, 900, rooms=[(800, 300), (700, 600)])
    for room in (1, 2):
        director.link_online(teams, 1, 2, f"web-t{room}", {"watch": f"/w/{room}"}, room)

    t = director.load(pairs)
    assert t.pairs[0].players == ("A", "B") and t.result(1, 1) is not None
    assert t.result(1, 1).hands == ((600, 400), (300, 300), (300, 200))  # type: ignore[union-attr]
    assert director.online_tables(pairs, 1) == {2: [
        {"room": 0, "server_table": "web-2", "seats": {"watch": "/w/2", "seats": []}}]}

    t = director.load(solo)
    table = t.rounds[0].tables[1]
    result = t.result(1, 2)
    assert table.ns_partner is not None and result is not None
    assert result.line(0) == table.line(0) and result.line(1) == table.line(1)
    assert len(t.rounds[0].byes) == 1

    t = director.load(teams)
    assert t.settings.kind == "teams" and t.settings.vp_scale.name == "club"
    assert t.result(1, 1).rooms == ((800, 300), (700, 600))  # type: ignore[union-attr]
    assert [link["room"] for link in director.online_tables(teams, 1)[2]] == [1, 2]
    assert {s.kind for s in [director.load(x).settings for x in (pairs, solo, teams)]} == {
        "pairs", "individual", "teams"}


def test_web_table_links_survive_the_upgrade_to_rooms(tmp_path: Path) -> None:
    """A database from before team matches keeps its links, as room 0."""
    from alembic import command
    from sqlalchemy import text

    from burraco.infra.db import make_engine
    from burraco.tournament.storage import alembic_config

    engine = make_engine(f"sqlite:///{tmp_path / 'old.db'}")
    config = alembic_config()
    with engine.begin() as conn:
        config.attributes["connection"] = conn
        command.upgrade(config, "t0001")
        conn.execute(text("INSERT INTO tournaments (id, name, settings, version) VALUES "
                          "('old', 'Old', :settings, 0)"),
                     {"settings": '{"name": "Old", "hands": 3, "schedule": "mitchell:1", '
                                  '"scale": null, "duplicate": false, "bye_vp": 14, '
                                  '"bye_mp": 355, "tie_breaks": ["mp_diff"], '
                                  '"seating": "registration", "seed": 1, "kind": "pairs"}'})
        conn.execute(text('INSERT INTO tournament_online (tournament_id, round, "table", '
                          "server_table, seats) VALUES ('old', 1, 3, 'web-3', '{}')"))
    director = Director(engine)
    try:
        assert director.online_tables("old", 1) == {
            3: [{"room": 0, "server_table": "web-3", "seats": {}}]}
    finally:
        director.close()


def test_the_evenings_changes_and_members_round_trip(director: Director) -> None:
    """Migration t0005: withdrawals, penalties, options and members are stored and read back."""
    from burraco.tournament import changes
    from burraco.tournament.members import members, save_member

    tid = director.create(Settings("Serata", schedule=Schedule.parse("mitchell:3")))
    director.register_all(tid, [(f"P{n}", []) for n in range(1, 7)])
    director.start_round(tid)
    for table in (1, 2, 3):
        director.record(tid, 1, table, 600, 400)
    director.evening(tid, lambda t: changes.withdraw(t, 5, "reseat"))
    director.evening(tid, lambda t: changes.penalise(t, 1, vp=2, mp=50, reason="ritardo",
                                                     round_number=1))
    director.evening(tid, lambda t: changes.set_line_rankings(t, True))
    director.evening(tid, lambda t: changes.set_prizes(t, "overall:2,NS:1"))
    evening = director.load(tid).evening
    assert evening.withdrawals == (changes.Withdrawal(5, 2, "reseat"),)
    assert evening.penalties == (changes.Penalty(1, 2, 50, "ritardo", 1),)
    assert evening.line_rankings and [str(p) for p in evening.prizes] == ["overall:2", "NS:1"]
    assert 5 not in {p for t in director.start_round(tid).tables for p in t.pairs()}
    with director.engine.begin() as conn:
        save_member(conn, "A-7", "Anna Verdi", "Senior")
        save_member(conn, "A-7", "Anna Verdi", "Open")  # the number is the key: updated
    with director.engine.connect() as conn:
        assert [m.to_dict() for m in members(conn)] == [
            {"number": "A-7", "name": "Anna Verdi", "category": "Open", "account": None}]
