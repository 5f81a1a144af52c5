"""Fixtures: a real ``burraco serve`` process per test module, on a fresh SQLite file."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from harness import ServerProcess


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
