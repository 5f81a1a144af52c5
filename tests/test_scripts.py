"""The README's run command, as a newcomer types it: `./scripts/run --port N` serves the app."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def test_run_script_serves_the_web_app_with_options_passed_through(tmp_path: Path) -> None:
    port = _free_port()
    env = {**os.environ, "BURRACO_DATA_DIR": str(tmp_path)}
    proc = subprocess.Popen(
        [str(ROOT / "scripts" / "run"), "--port", str(port)], cwd=ROOT, env=env,
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, start_new_session=True)
    try:
        deadline = time.monotonic() + 240
        page = ""
        while time.monotonic() < deadline and proc.poll() is None:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5) as reply:
                    page = reply.read().decode()
                break
            except OSError:
                time.sleep(0.5)
        assert proc.poll() is None, proc.stdout.read() if proc.stdout else ""
        assert page.lower().startswith("<!doctype html>")
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/web/options", timeout=5) as r:
            assert b'"fibur"' in r.read()
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=30)
    assert (tmp_path / "server.db").exists()  # the embedded SQLite default, in the data folder
