"""Storage on real databases: SQLite files always, PostgreSQL when the test server is configured.

The PostgreSQL runs use a fresh schema each (dropped afterwards), so reruns are
independent; without ``BURRACO_TEST_POSTGRES_URL`` they are skipped, saying so.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable

import pytest
from sqlalchemy import Connection, Engine, delete, func, select

from burraco.bots import make_bot
from burraco.engine.legal import legal_actions
from burraco.engine.views import view
from burraco.infra.db import migrate, table_names
from burraco.server.commit_path import build_unit
from burraco.server.game import FINISHED, Game, Step, fresh_deal
from burraco.server.hub import rebuild
from burraco.server.storage import repository as repo
from burraco.server.storage.models import GuestRow, SnapshotRow
from burraco.server.storage.writer import Writer
from burraco.server.tables import TableRequest, build_config


def store(db: Engine, table_id: str, before: int, step: Step, *, seat: int = -1,
          cmid: str = "", kind: str = "act", body: dict[str, object] | None = None,
          new_table: dict[str, object] | None = None) -> None:
    unit = build_unit(table_id, before, step, command={
        "seat": seat, "cmid": cmid or f"x{before + 1}", "kind": kind, "body": body or {},
        "source": "bot"}, new_table=new_table)
    with db.begin() as conn:
        repo.apply_unit(conn, unit)


def play_and_store(db: Engine, *, smazzate: int, seed: int) -> tuple[str, Game]:
    """A bot game stored command by command, as the actor stores it; returns the live game."""
    config = build_config(TableRequest(players=2, mode="smazzate", smazzate=smazzate, seats=[
        {"kind": "bot", "level": "basic"}, {"kind": "bot", "level": "random"}]))
    table_id = f"t{seed}"
    game = Game.new(config)
    step = game.open(fresh_deal)
    store(db, table_id, 0, step, kind="open", cmid="open",
          new_table={"creator": None, "config": config.to_dict(), "public": True})
    game = step.game
    bots = [make_bot("basic", seed=seed), make_bot("random", seed=seed + 1)]
    while game.status != FINISHED:
        assert game.hand is not None and game.turn is not None
        seat = game.turn
        action = bots[seat].act(view(game.hand, seat), legal_actions(game.hand))
        step = game.act(seat, action, fresh_deal)
        store(db, table_id, game.version, step, seat=seat, body={"action": str(action)})
        game = step.game
    return table_id, game


def test_the_migrations_create_every_table_and_run_twice(engine: Engine) -> None:
    assert {"guests", "tables", "commands", "events", "games", "snapshots",
            "server_secrets", "alembic_version"} <= table_names(engine)
    migrate(engine)  # already at head: nothing to do
    with engine.begin() as conn:
        first = repo.signing_secret(conn)
    with engine.begin() as conn:
        assert repo.signing_secret(conn) == first and len(first) == 32
        repo.insert_guest(conn, "g1", "Ada")


def test_a_stored_game_rebuilds_exactly_from_snapshots_and_from_scratch(engine: Engine) -> None:
    table_id, live = play_and_store(engine, smazzate=3, seed=5)
    with engine.connect() as conn:
        load = repo.load_table(conn, table_id)
        hands = repo.hand_rows(conn, table_id)
    assert load is not None and load.snapshot is not None
    assert load.version == live.version and load.status == FINISHED
    assert len(hands) >= 3 and all(h["reveal"] for h in hands)
    assert hands[0]["record"]["commitment"]["commitment"] == hands[0]["commitment"]
    again = rebuild(load)
    assert again.match == live.match and again.version == live.version
    # without snapshots, recovery replays every command from the table's opening
    with engine.begin() as conn:
        conn.execute(delete(SnapshotRow).where(SnapshotRow.table_id == table_id))
    with engine.connect() as conn:
        full = repo.load_table(conn, table_id)
    assert full is not None and full.snapshot is None and full.commands[0]["kind"] == "open"
    assert rebuild(full).match == live.match


def test_a_game_in_progress_rebuilds_to_the_same_hand(engine: Engine) -> None:
    config = build_config(TableRequest(players=4, seats=[{"kind": "bot"}] * 4))
    game = Game.new(config)
    step = game.open(fresh_deal)
    store(engine, "mid", 0, step, kind="open", cmid="open",
          new_table={"creator": None, "config": config.to_dict(), "public": True})
    game = step.game
    rng = random.Random(3)
    for _ in range(60):
        assert game.hand is not None and game.turn is not None
        action = rng.choice(legal_actions(game.hand))
        step = game.act(game.turn, action, fresh_deal)
        store(engine, "mid", game.version, step, seat=game.turn, body={"action": str(action)})
        game = step.game
    with engine.connect() as conn:
        load = repo.load_table(conn, "mid")
    assert load is not None
    again = rebuild(load)
    assert again.hand is not None and game.hand is not None
    assert again.hand.moves() == game.hand.moves() and again.hand.hands == game.hand.hands
    assert again.secret == game.secret and again.version == game.version


def test_a_command_checked_against_an_old_version_is_refused_and_writes_nothing(
        engine: Engine) -> None:
    config = build_config(TableRequest(players=2))
    step = Game.new(config).open(fresh_deal)
    store(engine, "cas", 0, step, kind="open", cmid="open",
          new_table={"creator": None, "config": config.to_dict(), "public": True})
    claim = step.game.claim(0, "g", "Ada", fresh_deal)
    store(engine, "cas", 1, claim, seat=0, kind="claim", cmid="c1")
    with pytest.raises(repo.ConflictError):
        store(engine, "cas", 1, claim, seat=0, kind="claim", cmid="c2")  # a second writer
    with engine.connect() as conn:
        assert repo.table_info(conn, "cas")["version"] == 2  # type: ignore[index]
        assert [c["cmid"] for c in repo.all_commands(conn, "cas")] == ["open", "c1"]


def test_the_writer_commits_groups_and_isolates_a_failing_job(engine: Engine) -> None:
    async def main() -> None:
        writer = Writer(engine)
        writer.start()

        def guest(n: int) -> Callable[[Connection], None]:
            return lambda conn: repo.insert_guest(conn, f"w{n}", f"N{n}")

        good = [writer.run(guest(n)) for n in range(50)]
        bad = writer.run(guest(3))  # a duplicate primary key
        results = await asyncio.gather(*good, bad, return_exceptions=True)
        await writer.close()
        assert all(r is None for r in results[:50])
        assert isinstance(results[50], Exception)

    asyncio.run(main())
    with engine.connect() as conn:
        count = conn.scalar(select(func.count()).select_from(GuestRow)
                            .where(GuestRow.id.startswith("w")))
    assert count == 50
