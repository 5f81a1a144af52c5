"""Fixtures: a real ``burraco serve`` process per test module, on a fresh SQLite file.

The game server's test harness (``tests/server/harness.py``) is importable from here on.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "server"))

from harness import ServerProcess


@pytest.fixture(scope="module")
def server(request: pytest.FixtureRequest,
           tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    folder = tmp_path_factory.mktemp(request.module.__name__.rpartition(".")[2])
    process = ServerProcess(f"sqlite:///{folder / 'club.db'}", folder / "server.log")
    process.start()
    yield process
    process.stop()
