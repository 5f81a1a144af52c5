"""Fixtures: a real ``burraco serve`` process per test module, on a fresh SQLite file; a
migrated database engine, on a SQLite file and (when configured) on PostgreSQL."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from harness import ServerProcess, postgres_schema
from sqlalchemy import Engine

from burraco.infra.db import make_engine, migrate


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    folder: Path = tmp_path_factory.mktemp("server")
    process = ServerProcess(f"sqlite:///{folder / 'burraco.db'}", folder / "server.log")
    process.start()
    yield process
    process.stop()


@pytest.fixture(scope="module")
def guest(server: ServerProcess) -> str:
    return server.guest("Ada")


@pytest.fixture(params=["sqlite", "postgresql"])
def engine(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Engine]:
    if request.param == "sqlite":
        db = make_engine(f"sqlite:///{tmp_path / 'store.db'}")
        migrate(db)
        yield db
        db.dispose()
        return
    with postgres_schema() as url:
        db = make_engine(url)
        migrate(db)
        yield db
        db.dispose()
