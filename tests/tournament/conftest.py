"""Fixtures: a real ``burraco serve`` process per test module, on a fresh SQLite file, and
Debian's Chromium for the modules that drive the club's pages in a browser.

The game server's test harness (``tests/server/harness.py``) is importable from here on.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

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


CHROMIUM = os.environ.get("BURRACO_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--disable-dev-shm-usage"]


@pytest.fixture(scope="module")
def browser(server: ServerProcess) -> Iterator[Any]:
    """Debian's Chromium through Playwright, for one module (after its server is up)."""
    if not Path(CHROMIUM).is_file():
        pytest.fail(f"{CHROMIUM} is missing: scripts/test installs Debian's chromium")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield launched
        launched.close()
