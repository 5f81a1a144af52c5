"""What the browser tests of people meeting share: a server of the module's own, accounts
over HTTP, a browser context signed in as one of them, the page's fit on a phone, the bell."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from harness import ServerProcess
from test_web_client import DESKTOP, PHONE

PASSWORD = "a long enough password"


def serve(tmp_path_factory: pytest.TempPathFactory, name: str) -> Iterator[ServerProcess]:
    """A ``burraco serve`` on a SQLite file of its own (a module fixture's body)."""
    folder: Path = tmp_path_factory.mktemp(name)
    process = ServerProcess(f"sqlite:///{folder / 'burraco.db'}", folder / "server.log")
    process.start()
    yield process
    process.stop()


def account(server: ServerProcess, username: str) -> dict[str, str]:
    """A new account, as the client keeps it (``burraco:guest``)."""
    made = server.http.post("/api/accounts", json={"username": username, "password": PASSWORD})
    assert made.status_code == 201, made.text
    server.http.cookies.clear()
    body = made.json()
    return {"guest_id": body["player_id"], "nickname": body["username"], "token": body["token"]}


def bearer(who: dict[str, str]) -> dict[str, str]:
    return {"authorization": f"Bearer {who['token']}"}


def befriend(server: ServerProcess, one: dict[str, str], other: dict[str, str]) -> None:
    """Each follows the other: friends."""
    for me, them in ((one, other), (other, one)):
        answer = server.http.put(f"/api/me/following/{them['nickname']}", headers=bearer(me))
        assert answer.status_code == 200, answer.text
    server.http.cookies.clear()


def open_as(browser: Any, who: dict[str, str] | None, *, phone: bool) -> Any:
    """A new page in a fresh context (390×844 or 1280×800), signed in as ``who`` (``None``:
    a first visit); ``page.errors`` collects the page's uncaught errors."""
    options = dict(PHONE) if phone else {"viewport": DESKTOP}
    context = browser.new_context(locale="en-GB", **options)
    if who is not None:
        context.add_init_script(
            f"localStorage.setItem('burraco:guest', {json.dumps(json.dumps(who))})"
        )
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.errors = errors
    return page


def visit(page: Any, server: ServerProcess, path: str) -> None:
    page.goto(server.base + path)
    page.locator("main h1").wait_for()


def fits(page: Any, controls: str) -> None:
    """No sideways scroll, and every visible control of ``controls`` (a CSS selector) 44 px
    tall at least (a link styled as text excepted)."""
    wide = page.evaluate(
        "() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]"
    )
    assert wide[0] <= wide[1], wide
    small = page.evaluate("""(controls) => [...document.querySelectorAll(controls)]
      .filter((el) => el.offsetParent !== null && !el.classList.contains('link'))
      .map((el) => [el.name || el.textContent.trim(), el.getBoundingClientRect().height])
      .filter(([, h]) => h < 43.5)""", controls)
    assert small == [], small


def open_bell(page: Any, kind: str) -> Any:
    """Open the bell once it shows an item of ``kind``; the item."""
    page.locator("[data-testid=bell-count]").wait_for(timeout=30_000)
    page.click("[data-testid=bell]")
    item = page.locator(f".bell-panel li[data-kind={kind}]")
    item.wait_for(timeout=30_000)
    return item
