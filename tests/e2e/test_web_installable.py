"""The client as an installable app, in Chromium against a real ``burraco serve``.

The web app manifest is linked, served with its media type and valid (a name, a start URL in
scope, a standalone display, a theme colour, icons that load); the service worker registers,
precaches the shell of this build (a cache named after the build) and, once the network is
gone, opens the lobby from its cache; the API is never cached. When the connection is lost
the page says so in a banner, and the banner goes when it is back.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from harness import ServerProcess
from test_web_client import DESKTOP, enter_lobby

pytestmark = pytest.mark.xdist_group("e2e")

CONTROLLED = "() => !!navigator.serviceWorker.controller"
"""The worker controls the page: right away after a reload once it is active, or when its
``activate`` step claims the page (a reload while it was still precaching the shell)."""

CACHED = """async () => {
  const out = {};
  for (const name of await caches.keys()) {
    const cache = await caches.open(name);
    out[name] = (await cache.keys()).map((r) => new URL(r.url).pathname);
  }
  return out;
}"""


def test_the_manifest_is_served_and_valid(server: ServerProcess, browser: Any) -> None:
    answer = server.http.get("/manifest.webmanifest")
    assert answer.status_code == 200
    assert answer.headers["content-type"].startswith("application/manifest+json")
    manifest = json.loads(answer.text)
    assert manifest["name"] == "Burraco" and manifest["short_name"]
    assert manifest["display"] == "standalone"
    assert manifest["start_url"].startswith(manifest["scope"])
    assert manifest["theme_color"].startswith("#") and manifest["background_color"].startswith("#")
    sizes = set()
    for icon in manifest["icons"]:
        got = server.http.get(icon["src"])
        assert got.status_code == 200, icon
        assert got.headers["content-type"].startswith(icon["type"]), icon
        sizes.add(icon["sizes"])
        if icon["type"] == "image/png":
            assert got.content[:8] == b"\x89PNG\r\n\x1a\n"
            width = int.from_bytes(got.content[16:20], "big")
            assert icon["sizes"] == f"{width}x{width}"
    assert {"192x192", "512x512"} <= sizes
    assert any("maskable" in icon.get("purpose", "") for icon in manifest["icons"])

    context = browser.new_context(viewport=DESKTOP, locale="en-US")
    page = context.new_page()
    page.goto(server.base + "/")
    href = page.locator("link[rel=manifest]").get_attribute("href")
    assert href == "/manifest.webmanifest"
    theme = page.locator("meta[name=theme-color]").get_attribute("content")
    assert theme == manifest["theme_color"]
    context.close()


def test_the_service_worker_serves_the_shell_offline_and_never_the_api(
        server: ServerProcess, browser: Any, screenshots: Path) -> None:
    context = browser.new_context(viewport=DESKTOP, locale="en-US")
    page = context.new_page()
    enter_lobby(page, server.base, "Offline")
    page.reload()
    page.wait_for_selector("[data-testid=quick-play]")
    page.wait_for_function(CONTROLLED, timeout=30_000)  # the service worker controls the page
    cached = page.evaluate(CACHED)
    names = [n for n in cached if n.startswith("burraco-")]
    assert len(names) == 1, cached
    files = cached[names[0]]
    assert "/" in files and any(f.startswith("/assets/") and f.endswith(".js") for f in files)
    assert "/manifest.webmanifest" in files
    assert page.locator(".card-face img").count() > 0  # the lobby's fan of cards
    page.wait_for_function(
        """async () => { const c = await caches.open((await caches.keys())[0]);
             return (await c.keys()).some(
               (r) => new URL(r.url).pathname.startsWith('/cards/')); }""")

    # offline: the banner says so; a reload opens the lobby from the cache
    assert page.locator("[data-testid=offline]").count() == 0
    context.set_offline(True)
    page.locator("[data-testid=offline]").wait_for()
    assert "offline" in (page.locator("[data-testid=offline]").text_content() or "")
    page.reload()
    page.wait_for_selector("header.top .brand")
    page.locator("[data-testid=offline]").wait_for()
    page.screenshot(path=str(screenshots / "lobby-offline.png"))
    context.set_offline(False)
    page.locator("[data-testid=offline]").wait_for(state="detached")

    every = [f for files in page.evaluate(CACHED).values() for f in files]
    assert not [f for f in every if f.startswith(("/api", "/ws", "/healthz"))], every
    context.close()


def test_a_table_says_when_it_is_offline(
        server: ServerProcess, browser: Any, screenshots: Path) -> None:
    context = browser.new_context(viewport=DESKTOP, locale="it-IT")
    page = context.new_page()
    enter_lobby(page, server.base, "Sconnessa")
    page.click("[data-testid=quick-play]")
    page.wait_for_selector(".hand-card", timeout=30_000)
    context.set_offline(True)
    banner = page.locator("[data-testid=offline]")
    banner.wait_for()
    assert "offline" in (banner.text_content() or "")
    page.screenshot(path=str(screenshots / "table-offline.png"))
    context.set_offline(False)
    page.wait_for_function("() => document.querySelector('.table-page').dataset.link === 'open'",
                           timeout=30_000)
    banner.wait_for(state="detached")
    context.close()
