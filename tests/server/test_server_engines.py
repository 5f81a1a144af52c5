"""Outside engines at a server table (docs/bot-protocol.md): the server registers them by
name, a table creator names one, it plays through the table's command queue like any bot; a
lying engine loses decisions to the fallback, the seat is marked, the table plays on; the
processes end with the match."""

from __future__ import annotations

import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from harness import ServerProcess, stored

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "bot_protocol_example.py"
MISBEHAVING = ROOT / "tests" / "bots" / "outside" / "misbehaving.py"
TOKEN = uuid.uuid4().hex


@pytest.fixture(scope="module")
def engines_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    folder: Path = tmp_path_factory.mktemp("engines")
    process = ServerProcess(
        f"sqlite:///{folder / 'burraco.db'}", folder / "server.log",
        extra=["--engine", f"example={sys.executable} {EXAMPLE} {TOKEN}",
               "--engine", f"liar={sys.executable} {MISBEHAVING} liar 3 {TOKEN}",
               "--engine-deadline-ms", "800"])
    process.start()
    yield process
    process.stop()


def _engine_processes() -> list[str]:
    found = []
    for cmdline in Path("/proc").glob("[0-9]*/cmdline"):
        try:
            text = cmdline.read_bytes().replace(b"\0", b" ").decode()
        except OSError:
            continue
        if TOKEN in text and "serve" not in text:
            found.append(text)
    return found


def test_a_table_seats_registered_engines_and_marks_the_one_that_lies(
        engines_server: ServerProcess) -> None:
    ada = engines_server.guest("Ada")
    table = engines_server.create_table(
        ada, players=2, mode="smazzate", smazzate=1, bot_delay=0,
        seats=[{"kind": "bot", "level": "engine:example"},
               {"kind": "bot", "level": "engine:liar"}])
    table_id = table["table_id"]
    deadline = time.monotonic() + 120
    info: dict = {}
    while time.monotonic() < deadline:
        info = engines_server.http.get(f"/api/tables/{table_id}").json()
        if info.get("status") == "finished":
            break
        time.sleep(0.3)
    assert info.get("status") == "finished", info
    seats = info["seats"]
    assert seats[0]["engine_faults"] == 0
    assert seats[1]["engine_faults"] > 0
    commands = stored(engines_server.db_url, table_id)["commands"]
    assert {c["seat"] for c in commands if c["source"] == "bot"} == {0, 1}
    assert "lost a decision to the fallback (illegal" in engines_server.log()
    for _ in range(50):  # the match is over: both programs are told to quit
        if not _engine_processes():
            break
        time.sleep(0.1)
    assert _engine_processes() == []


@pytest.mark.parametrize(("level", "message"), [
    ("engine:nope", "no outside engine 'nope' on this server (registered: example, liar)"),
    ("cmd:touch hacked", "a table cannot run a command"),
])
def test_a_table_may_only_name_a_registered_engine(
        engines_server: ServerProcess, level: str, message: str) -> None:
    ada = engines_server.guest("Ada")
    response = engines_server.http.post(
        "/api/tables", json={"players": 2, "seats": [{"kind": "human"},
                                                       {"kind": "bot", "level": level}]},
        headers={"authorization": f"Bearer {ada}"})
    assert response.status_code == 422
    assert message in response.text and "seats.1.level" in response.text


def test_serve_refuses_a_malformed_engine(tmp_path: Path) -> None:
    import subprocess

    from harness import BURRACO

    done = subprocess.run([BURRACO, "serve", "--db", f"sqlite:///{tmp_path / 'x.db'}",
                           "--engine", "nocommand"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert "--engine 'nocommand': write NAME=COMMAND LINE" in done.stderr
