"""Test harness for the game server: a real server process, real WebSocket clients.

* :class:`ServerProcess` runs ``burraco serve`` as a subprocess on a free port
  with a real database, and can stop it, SIGKILL it and start it again.
* :class:`Client` is a WebSocket client (the ``websockets`` library) that
  checks every frame against the documented message shapes and that event
  versions arrive gap-free, and keeps every frame with the version it had.
* :func:`states_by_version` rebuilds, with the engine alone, the hand state at
  every version of a table from what the server stored, and :func:`leaks`
  checks a frame against the engine's hidden set for its seat.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
import uuid
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect

from burraco.audit.faces import visible_faces
from burraco.engine.actions import parse_action
from burraco.engine.cards import card_face, parse_face
from burraco.engine.deal import deal_from_order
from burraco.engine.rules import Rules
from burraco.engine.state import HandState
from burraco.infra.db import make_engine
from burraco.server.protocol import check_server_message
from burraco.server.storage import repository as repo

BURRACO = str(Path(sys.executable).with_name("burraco"))
PG_ENV = "BURRACO_TEST_POSTGRES_URL"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


SUITE_LIMITS = ["--bot-tables-per-guest", "0", "--bot-table-rate", "none",
                "--bot-table-delay", "0", "--account-rate", "none"]
"""The suite's servers play tables of bots only as a workload (at full speed, many per guest)
and register many accounts from one address: they lift those limits, whose defaults
tests/server/test_table_creation_limits.py holds (``defaults=True``)."""


class ServerProcess:
    """``burraco serve`` on a free port; keeps its port and database across restarts."""

    def __init__(self, db_url: str, log_path: Path, *, extra: list[str] | None = None,
                 defaults: bool = False) -> None:
        self.db_url = db_url
        self.port = free_port()
        self.log_path = log_path
        self.extra = (extra or []) + ([] if defaults else SUITE_LIMITS)
        self.proc: subprocess.Popen[bytes] | None = None
        self.http = httpx.Client(base_url=self.base, timeout=30)

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def ws_url(self, table_id: str) -> str:
        return f"ws://127.0.0.1:{self.port}/ws/tables/{table_id}"

    def command(self) -> list[str]:
        """What runs the server (a subclass may run another launcher)."""
        return [BURRACO, "serve", "--port", str(self.port), "--db", self.db_url, *self.extra]

    def start(self, timeout: float = 60) -> None:
        log = open(self.log_path, "ab")  # noqa: SIM115 - the process owns it
        self.proc = subprocess.Popen(self.command(), stdout=log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"server exited with {self.proc.returncode}:\n{self.log()}")
            try:
                if self.http.get("/healthz", timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        raise RuntimeError(f"server not up after {timeout} s:\n{self.log()}")

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")[-4000:]

    def kill(self) -> None:
        """SIGKILL: no shutdown code runs."""
        assert self.proc is not None
        os.kill(self.proc.pid, signal.SIGKILL)
        self.proc.wait(10)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.kill()
        self.http.close()

    # --- HTTP helpers ------------------------------------------------------------------------

    def guest(self, nickname: str = "Tester") -> str:
        response = self.http.post("/api/guests", json={"nickname": nickname})
        assert response.status_code == 201, response.text
        assert response.cookies.get("burraco_guest") == response.json()["token"]
        self.http.cookies.clear()  # every test says which guest it is
        return str(response.json()["token"])

    def create_table(self, token: str, **body: Any) -> dict[str, Any]:
        response = self.http.post("/api/tables", json=body,
                                  headers={"authorization": f"Bearer {token}"})
        assert response.status_code == 201, response.text
        return dict(response.json())


_ids = itertools.count(1)


class Client:
    """One WebSocket connection to a table, as a careful client would keep it."""

    def __init__(self, server: ServerProcess, table: dict[str, Any], seat: int | None, *,
                 guest: str | None = None, legal: bool = True, seat_token: str | None = None,
                 watch_token: str | None = None) -> None:
        self.url = server.ws_url(table["table_id"])
        self.seat = seat
        self.guest = guest
        self.legal_wanted = legal
        self.seat_token = seat_token if seat_token is not None else (
            table["seats"][seat].get("token") if seat is not None else None)
        self.watch_token = watch_token
        self.ws: ClientConnection | None = None
        self.version = 0
        self.frames: list[tuple[int, dict[str, Any]]] = []
        """Every frame received, with the client's version when it arrived."""
        self.events: dict[int, dict[str, Any] | None] = {}
        self.legal: dict[str, Any] | None = None
        self.last_sync: dict[str, Any] | None = None

    async def connect(self, v: int | None = None) -> dict[str, Any]:
        self.ws = await connect(self.url, max_size=None)
        hello: dict[str, Any] = {"t": "hello", "seat": self.seat, "legal": self.legal_wanted}
        for key, value in (("seat_token", self.seat_token), ("guest", self.guest),
                           ("watch_token", self.watch_token), ("v", v)):
            if value is not None:
                hello[key] = value
        await self.ws.send(json.dumps(hello))
        first = await self.recv()
        if first.get("t") == "hello_ok" and first["catch_up"] != "sync":
            self.version = v if v is not None else 0
        return first

    async def send_raw(self, data: str | bytes) -> None:
        assert self.ws is not None
        await self.ws.send(data)

    async def recv(self, timeout: float = 20) -> dict[str, Any]:
        assert self.ws is not None
        raw = await asyncio.wait_for(self.ws.recv(), timeout)
        frame = json.loads(raw)
        check_server_message(frame)
        if "v" in frame and "t" not in frame:
            assert frame["v"] == self.version + 1, (
                f"seat {self.seat}: got version {frame['v']} after {self.version}")
            self.version = frame["v"]
            self.events[frame["v"]] = frame.get("e")
        elif frame["t"] == "sync":
            self.version = frame["version"]
            self.last_sync = frame
        elif frame["t"] == "legal":
            self.legal = frame
        self.frames.append((self.version, frame))
        return dict(frame)

    async def until(self, predicate: Any, timeout: float = 30) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"seat {self.seat}: condition not met in {timeout} s; "
                                   f"last frames {self.frames[-3:]}")
            frame = await self.recv(left)
            if predicate(frame):
                return frame

    async def command(self, message: dict[str, Any], timeout: float = 20) -> dict[str, Any]:
        """Send a command and return its ack or reject (matched by client message id)."""
        await self.send_raw(json.dumps(message))
        cmid = message.get("id")
        return await self.until(
            lambda f: f.get("t") in ("ack", "reject") and f.get("id") == cmid, timeout)

    async def act(self, action: str, *, v: int | None = None,
                  cmid: str | None = None) -> dict[str, Any]:
        return await self.command({"t": "act", "id": cmid or f"c{next(_ids)}",
                                   "v": self.version if v is None else v, "action": action})

    async def my_turn(self, timeout: float = 30, *, at_least: int = 0) -> dict[str, Any]:
        """Wait for a ``legal`` message for the current version (``at_least`` or later)."""
        if (self.legal is not None and self.legal["version"] == self.version
                and self.version >= at_least):
            return self.legal
        return await self.until(
            lambda f: f.get("t") == "legal" and f["version"] == self.version >= at_least,
            timeout)

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()


def alive(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie, dead but not yet reaped, counts as gone)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def children(pid: int) -> set[int]:
    """The processes whose parent is ``pid`` (Linux's /proc)."""
    found = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                found.add(int(entry.name))
    return found


def scripted_choice(actions: list[str]) -> str:
    """The scripted player: draw; then the longest meld; then the last discard offered."""
    if "draw" in actions:
        return "draw"
    melds = [a for a in actions if a.startswith("meld ")]
    if melds:
        return max(melds, key=len)
    discards = [a for a in actions if a.startswith("discard ")]
    return discards[-1] if discards else actions[0]


# --- what the server stored, rebuilt with the engine ------------------------------------------

def stored(db_url: str, table_id: str) -> dict[str, Any]:
    engine = make_engine(db_url)
    try:
        with engine.connect() as conn:
            info = repo.table_info(conn, table_id)
            assert info is not None
            return {
                "info": info,
                "commands": repo.all_commands(conn, table_id),
                "games": repo.all_games(conn, table_id),
                "events": repo.events_between(conn, table_id, 1, 10**9),
            }
    finally:
        engine.dispose()


def rules_of(config: dict[str, Any]) -> Rules:
    options = {k: tuple(v) if isinstance(v, list) else v for k, v in config["options"].items()}
    rules = Rules.preset(config["rules"]).with_options(**options)
    if config.get("target"):
        rules = rules.with_options(target=config["target"])
    return rules.for_players(config["players"])


def states_by_version(db_url: str, table_id: str) -> dict[int, HandState]:
    """The hand state at every version of a table, rebuilt from its stored commands."""
    data = stored(db_url, table_id)
    config = data["info"]["config"]
    rules = rules_of(config)
    kinds = {v: kind for v, kind, _ in data["events"]}
    games = {g["number"]: g for g in data["games"]}
    hand: HandState | None = None
    number = 0
    out: dict[int, HandState] = {}
    for command in data["commands"]:
        if command["kind"] == "act":
            assert hand is not None
            hand = hand.clone()
            hand.apply_in_place(parse_action(command["body"]["action"]))
        elif command["kind"] == "undo":
            assert hand is not None
            moves = hand.moves()[:-1]
            hand = HandState.start(hand.deal, rules)
            for move in moves:
                hand.apply_in_place(move)
        for version in range(command["first"], command["last"] + 1):
            if kinds[version] == "HandStarted":
                number += 1
                game = games[number]
                hand = HandState.start(deal_from_order(
                    list(game["deck"]), players=config["players"], dealer=game["dealer"],
                    rules=rules, cut=game["cut"], individual=bool(game["individual"])), rules)
            if hand is not None:
                out[version] = hand
    return out


_FACE = re.compile(r"(?<![A-Za-z0-9=])(?:10|[2-9AJQKT])[HDCS](?![A-Za-z0-9])|(?<![A-Za-z0-9])JK"
                   r"(?![A-Za-z0-9])")
_ID_KEYS = {"card", "cards", "hand", "hand_ids", "pile", "meld_ids"}
_SKIP_KEYS = {"reveal", "result", "table", "id", "nickname", "commitment", "reason", "config"}


def _collect(value: Any, key: str, ids: dict[str, list[int]], faces: set[int]) -> None:
    if key in _SKIP_KEYS:
        return
    if isinstance(value, dict):
        for k, v in value.items():
            _collect(v, k, ids, faces)
    elif isinstance(value, list):
        for v in value:
            _collect(v, key, ids, faces)
    elif isinstance(value, bool):
        return
    elif isinstance(value, int) and key in _ID_KEYS and value >= 0:
        ids.setdefault(key, []).append(value)
    elif isinstance(value, str):
        text = re.sub(r"\(=[^)]*\)", "", value)
        faces.update(parse_face(m) for m in _FACE.findall(text))


def leaks(frame: dict[str, Any], state: HandState | None, seat: int | None) -> list[str]:
    """What ``frame`` shows that the engine hides from ``seat`` (empty when nothing).

    By face (docs/protocol.md §2): a frame names no card id but a sync's ``hand_ids`` (labels,
    whose faces must be the seat's own hand), and every face it names has a copy the seat may
    see.  Which copy is where is the counterfactual audit's (tests/audit).
    """
    ids: dict[str, list[int]] = {}
    faces: set[int] = set()
    _collect(frame, "", ids, faces)
    if state is None:
        return [f"cards shown before any deal: {ids} {sorted(faces)}"] if (
            ids or faces) else []
    problems = [f"card ids in {key!r}: {values} (frames name cards by text)"
                for key, values in ids.items() if key != "hand_ids"]
    labels = ids.get("hand_ids", [])
    own = Counter(card_face(c) for c in state.hands[seat]) if seat is not None else Counter()
    if Counter(card_face(c) for c in labels) - own:
        problems.append(f"hand_ids {labels} name faces seat {seat} does not hold")
    visible = visible_faces(state, seat)
    problems += [f"face {f} has no visible copy for seat {seat}"
                 for f in sorted(faces) if not visible[f]]
    return problems


def check_secrecy(db_url: str, table_id: str, clients: list[Client]) -> int:
    """Check every frame every client received; returns the number of frames checked."""
    states = states_by_version(db_url, table_id)
    checked = 0
    for client in clients:
        for version, frame in client.frames:
            problems = leaks(frame, states.get(version), client.seat)
            assert not problems, f"seat {client.seat}, version {version}: {problems} in {frame}"
            checked += 1
    return checked


# --- PostgreSQL ------------------------------------------------------------------------------

@contextlib.contextmanager
def postgres_schema() -> Iterator[str]:
    """A database URL on a fresh schema of the test PostgreSQL server, dropped afterwards.

    Skips the test, saying why, when ``BURRACO_TEST_POSTGRES_URL`` is not set.
    """
    import pytest

    base = os.environ.get(PG_ENV)
    if not base:
        pytest.skip(f"{PG_ENV} is not set: PostgreSQL tests skipped (.ci/run sets it to "
                    "postgresql://postgres@127.0.0.1:5432/test)")
    import psycopg

    schema = f"burraco_test_{uuid.uuid4().hex[:12]}"
    dsn = base.replace("postgresql+psycopg://", "postgresql://", 1)
    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute(f'CREATE SCHEMA "{schema}"')
    separator = "&" if "?" in base else "?"
    try:
        yield f"{base}{separator}options=-csearch_path%3D{schema}"
    finally:
        with psycopg.connect(dsn, autocommit=True) as conn:
            conn.execute(f'DROP SCHEMA "{schema}" CASCADE')
