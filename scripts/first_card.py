"""A newcomer's first minute, measured: from a first visit to the first card drawn.

A scripted newcomer opens the lobby in Chromium (Debian's ``/usr/bin/chromium``) on a phone-
sized window, with nothing stored, and does what the page puts in front of it: it types a
nickname if one is asked, taps the Play button, and draws from the stock as soon as it may.
It counts its taps, the text it had to type, how far down the page the Play button was, and
the seconds from the first request to the first card in its hand.  The server is a real
``burraco serve`` on a fresh SQLite file.

    .venv/bin/python scripts/first_card.py [--runs 3] [--width 390 --height 844] [--lang it]

Needs the dev extra (Playwright) and a built client (``scripts/run`` or ``scripts/test``).
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
BURRACO = str(Path(sys.executable).with_name("burraco"))
CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
        "--disable-background-networking", "--disable-dev-shm-usage"]


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_server(folder: Path) -> tuple[subprocess.Popen[bytes], str]:
    import httpx

    port = free_port()
    log = open(folder / "server.log", "ab")  # noqa: SIM115 - the process owns it
    proc = subprocess.Popen([BURRACO, "serve", "--port", str(port), "--db",
                             f"sqlite:///{folder / 'burraco.db'}"], stdout=log, stderr=log)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            if httpx.get(base + "/healthz", timeout=2).status_code == 200:
                return proc, base
        except httpx.HTTPError:
            time.sleep(0.2)
    proc.kill()
    raise SystemExit(f"the server did not start: see {folder / 'server.log'}")


def hand_size(page: Any) -> int:
    return int(page.locator(".hand-card").count())


def newcomer(browser: Any, base: str, width: int, height: int, lang: str) -> dict[str, Any]:
    context = browser.new_context(viewport={"width": width, "height": height},
                                  locale="it-IT" if lang == "it" else "en-GB", has_touch=True)
    page = context.new_page()
    taps = 0
    typed = 0
    play_at: float | None = None
    start = time.monotonic()
    page.goto(base + "/")
    deadline = start + 120
    drawn = False
    while time.monotonic() < deadline and not drawn:
        if "/play/" in page.url:
            if page.locator(".hand-card").count() == 0:
                page.wait_for_timeout(100)
                continue
            dialog = page.locator(".dialog button.primary:visible")
            if dialog.count():
                dialog.first.click()
                taps += 1
                continue
            legal = page.locator("#legal-actions").text_content() or "[]"
            if "draw" not in json.loads(legal):
                page.wait_for_timeout(100)
                continue
            before = hand_size(page)
            page.locator("[data-testid=stock]").click()
            taps += 1
            page.wait_for_function("(n) => document.querySelectorAll('.hand-card').length > n",
                                   arg=before, timeout=30_000)
            drawn = True
            break
        nickname = page.locator("input[name=nickname]:visible")
        if nickname.count():
            nickname.click()
            taps += 1
            nickname.fill("")
            nickname.type("Ada")
            typed += 3
            page.locator("form.nickname button[type=submit]").click()
            taps += 1
            page.wait_for_timeout(100)
            continue
        play = page.locator("[data-testid=quick-play]:visible")
        if play.count():
            if play_at is None:
                box = play.first.bounding_box()
                scroll = page.evaluate("() => window.scrollY")
                play_at = (box["y"] + scroll) if box else None
            play.first.click()
            taps += 1
            page.wait_for_url("**/play/**", timeout=30_000)
            continue
        page.wait_for_timeout(100)
    seconds = time.monotonic() - start
    context.close()
    if not drawn:
        raise SystemExit("the newcomer never drew a card in 120 s")
    return {"seconds": round(seconds, 2), "taps": taps, "typed": typed,
            "play_button_y": None if play_at is None else round(play_at)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--width", type=int, default=390)
    parser.add_argument("--height", type=int, default=844)
    parser.add_argument("--lang", choices=["it", "en"], default="it")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp:
        proc, base = start_server(Path(tmp))
        try:
            with sync_playwright() as pw:
                browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
                runs = [newcomer(browser, base, args.width, args.height, args.lang)
                        for _ in range(args.runs)]
                browser.close()
        finally:
            proc.terminate()
            proc.wait(timeout=30)
    for run in runs:
        print(json.dumps(run))
    print(json.dumps({
        "median_seconds": statistics.median(r["seconds"] for r in runs),
        "taps": runs[0]["taps"], "typed": runs[0]["typed"],
        "play_button_y": runs[0]["play_button_y"], "viewport": [args.width, args.height],
    }))


if __name__ == "__main__":
    main()
