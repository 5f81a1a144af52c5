"""Fixtures for the browser tests: a real ``burraco serve``, Debian's Chromium under Playwright.

The server runs as a subprocess on a free port with a fresh SQLite file (the harness of
``tests/server``); the client it serves must have been built (``scripts/test`` and
``scripts/run`` build ``web/``).  Chromium is the system's ``/usr/bin/chromium``
(``scripts/test`` installs Debian's package when it is missing): Playwright never
downloads a browser here.  Screenshots go to ``artifacts/screenshots/``.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "server"))

from harness import ServerProcess  # noqa: E402

CHROMIUM = os.environ.get("BURRACO_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--disable-dev-shm-usage",
]
SCREENSHOTS = ROOT / "artifacts" / "screenshots"
STATIC = ROOT / "src" / "burraco" / "app" / "static"

pytestmark = pytest.mark.xdist_group("e2e")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    if not (STATIC / "index.html").is_file():
        pytest.fail("the web client is not built: run ./scripts/test (it builds web/), or "
                    "cd web && npm ci && npm run build")
    folder: Path = tmp_path_factory.mktemp("e2e")
    process = ServerProcess(f"sqlite:///{folder / 'burraco.db'}", folder / "server.log")
    process.start()
    yield process
    process.stop()


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    if not Path(CHROMIUM).is_file():
        pytest.fail(f"{CHROMIUM} is missing: scripts/test installs Debian's chromium "
                    "(apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield launched
        launched.close()


@pytest.fixture(scope="session")
def screenshots() -> Path:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    return SCREENSHOTS
