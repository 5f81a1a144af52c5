"""The HTTP limits of a real ``burraco serve``, over real sockets: body size and time, header
and keep-alive timeouts (slowloris), rate limits per address, waiting tables per guest and
their expiry.

Every test gives its requests their own client address with ``X-Forwarded-For`` (the server
trusts it from 127.0.0.1, as uvicorn does by default: docs/deployment.md), so the tests of
one server process do not share a rate window.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from harness import Client, ServerProcess

HEADER_TIMEOUT = 2.0
BODY_TIMEOUT = 2.0
KEEPALIVE = 1
MAX_BODY = 64 * 1024
EXPIRY = 3.0
_addresses = itertools.count(1)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    folder: Path = tmp_path_factory.mktemp("limits")
    process = ServerProcess(f"sqlite:///{folder / 'burraco.db'}", folder / "server.log", extra=[
        "--header-timeout", str(HEADER_TIMEOUT), "--body-timeout", str(BODY_TIMEOUT),
        "--keepalive-timeout", str(KEEPALIVE), "--guest-rate", "5/minute",
        "--table-rate", "6/minute", "--waiting-tables-per-guest", "3",
        "--waiting-expiry", str(EXPIRY)])
    process.start()
    yield process
    process.stop()


def address() -> dict[str, str]:
    """Headers that make the next requests come from an address of their own."""
    return {"x-forwarded-for": f"198.51.100.{next(_addresses)}"}


def rss_kib(server: ServerProcess) -> int:
    assert server.proc is not None
    for line in Path(f"/proc/{server.proc.pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise AssertionError("no VmRSS")


def connect(server: ServerProcess) -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", server.port), timeout=10)
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    return sock


def read_response(sock: socket.socket, timeout: float = 10) -> tuple[int, dict[str, Any]]:
    """Status and JSON body of one answer (the server closes after it)."""
    sock.settimeout(timeout)
    data = b""
    while True:
        try:
            chunk = sock.recv(65536)
        except ConnectionResetError:
            break
        if not chunk:
            break
        data += chunk
        head, _, body = data.partition(b"\r\n\r\n")
        length = next((int(line.split(b":")[1]) for line in head.split(b"\r\n")
                       if line.lower().startswith(b"content-length:")), None)
        if length is not None and len(body) >= length:
            break
    head, _, body = data.partition(b"\r\n\r\n")
    return int(head.split()[1]), json.loads(body) if body else {}


def closed_within(sock: socket.socket, seconds: float) -> float:
    """Seconds until the server closes ``sock`` (reading and dropping what it sends)."""
    started = time.monotonic()
    sock.settimeout(seconds)
    try:
        while sock.recv(65536):
            pass
    except ConnectionResetError:
        pass
    except TimeoutError:
        raise AssertionError(f"still open after {seconds} s") from None
    return time.monotonic() - started


# --- bodies -----------------------------------------------------------------------------------

def test_a_declared_huge_body_is_refused_before_it_is_read(server: ServerProcess) -> None:
    before = rss_kib(server)
    sock = connect(server)
    sock.sendall(b"POST /api/guests HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                 b"Content-Length: 200000000\r\n\r\n" + b"[" * 65536)
    status, body = read_response(sock)
    assert status == 413 and body["code"] == "too_large", body
    closed_within(sock, 5)
    assert rss_kib(server) - before < 20_000


def test_a_streamed_huge_body_is_refused_once_past_the_limit(server: ServerProcess) -> None:
    """Chunked, no length: refused as soon as the bytes pass the limit, not after 200 MB."""
    before = rss_kib(server)
    sock = connect(server)
    sock.sendall(b"POST /api/guests HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                 b"Transfer-Encoding: chunked\r\n\r\n")
    chunk = b"10000\r\n" + b" " * 0x10000 + b"\r\n"
    sent = 0
    sock.settimeout(0.05)
    answer = b""
    while sent < 200_000_000:
        try:
            sock.sendall(chunk)
            sent += 0x10000
        except (BrokenPipeError, ConnectionResetError, TimeoutError):
            break
        try:
            answer += sock.recv(65536)
        except TimeoutError:
            continue
        if answer:
            break
    assert answer.startswith(b"HTTP/1.1 413"), answer[:200]
    assert sent < 4 * 1024 * 1024, f"{sent} bytes sent before the refusal"
    assert b'"too_large"' in answer or b"too_large" in read_tail(sock, answer)
    assert rss_kib(server) - before < 20_000


def read_tail(sock: socket.socket, start: bytes) -> bytes:
    sock.settimeout(2)
    data = start
    try:
        while chunk := sock.recv(65536):
            data += chunk
    except (TimeoutError, ConnectionResetError):
        pass
    return data


def test_a_body_under_the_limit_is_read(server: ServerProcess) -> None:
    body = json.dumps({"nickname": "Ada", "pad": " " * (MAX_BODY - 100)})
    response = server.http.post("/api/guests", content=body, headers={
        "content-type": "application/json", **address()})
    assert response.status_code == 422  # read whole, then refused for the unknown field
    assert response.json()["code"] == "bad_request"
    big = server.http.post("/api/tables", json={"options": {"bonuses": [["clean", 1]] * 20000}},
                           headers=address())
    assert big.status_code == 413 and big.json()["code"] == "too_large"


def test_a_form_over_the_limit_is_refused_on_the_tournament_pages(
        server: ServerProcess) -> None:
    """Pages that read their body themselves get the same refusal, streamed or declared."""
    sock = connect(server)
    sock.sendall(b"POST /tournaments/ HTTP/1.1\r\nHost: x\r\n"
                 b"Content-Type: application/x-www-form-urlencoded\r\n"
                 b"Transfer-Encoding: chunked\r\n\r\n")
    with contextlib.suppress(OSError):
        for _ in range(4):
            sock.sendall(b"8000\r\n" + b"a" * 0x8000 + b"\r\n")
    status, body = read_response(sock)
    assert status == 413 and body["code"] == "too_large", body
    answer = server.http.post("/tournaments/", content=b"name=" + b"x" * (MAX_BODY + 1),
                              headers={"content-type": "application/x-www-form-urlencoded"})
    assert answer.status_code == 413 and answer.json()["code"] == "too_large"


def test_a_body_sent_too_slowly_is_answered_408(server: ServerProcess) -> None:
    sock = connect(server)
    sock.sendall(b"POST /api/guests HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                 b"Content-Length: 100\r\n\r\n{\"nick")
    started = time.monotonic()
    status, body = read_response(sock, timeout=BODY_TIMEOUT + 5)
    assert status == 408 and body["code"] == "request_timeout", body
    assert time.monotonic() - started < BODY_TIMEOUT + 2


# --- slowloris ----------------------------------------------------------------------------------

def test_half_sent_requests_are_closed_within_the_header_timeout(
        server: ServerProcess) -> None:
    socks = [connect(server) for _ in range(30)]
    for i, sock in enumerate(socks):
        sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n" if i % 3 else b"")
    started = time.monotonic()
    # keep trickling header bytes: a slowloris client never finishes the headers
    for _ in range(int(HEADER_TIMEOUT * 2)):
        for i, sock in enumerate(socks):
            if i % 3:
                with contextlib.suppress(OSError):
                    sock.sendall(b"X-a: b\r\n")
        time.sleep(0.5)
    for sock in socks:
        closed_within(sock, HEADER_TIMEOUT + 3 - (time.monotonic() - started) + 1)
    assert time.monotonic() - started < HEADER_TIMEOUT + 3
    assert server.http.get("/healthz").status_code == 200


def test_a_begun_request_is_told_408_and_an_unused_socket_nothing(
        server: ServerProcess) -> None:
    """A browser's socket opened ahead and never used must not read a stray answer."""
    unused, begun = connect(server), connect(server)
    begun.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n")
    status, body = read_response(begun, timeout=HEADER_TIMEOUT + 3)
    assert status == 408 and body["code"] == "request_timeout", body
    unused.settimeout(HEADER_TIMEOUT + 3)
    assert unused.recv(65536) == b""  # closed, nothing said


def test_an_idle_keep_alive_connection_is_closed(server: ServerProcess) -> None:
    sock = connect(server)
    sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
    sock.settimeout(5)
    assert sock.recv(65536).startswith(b"HTTP/1.1 200")
    assert closed_within(sock, KEEPALIVE + 3) < KEEPALIVE + 2
    # a second request begun but not finished on a kept connection has the header deadline
    sock = connect(server)
    sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
    assert sock.recv(65536).startswith(b"HTTP/1.1 200")
    sock.sendall(b"GET /healthz HTTP/1.1\r\n")
    assert closed_within(sock, HEADER_TIMEOUT + 3) < HEADER_TIMEOUT + 2


# --- rates and counts ----------------------------------------------------------------------------

def guest_from(server: ServerProcess, headers: dict[str, str]) -> httpx.Response:
    return server.http.post("/api/guests", json={"nickname": "Ada"}, headers=headers)


def test_guest_creation_is_rate_limited_per_address(server: ServerProcess) -> None:
    mine = address()
    for _ in range(5):
        assert guest_from(server, mine).status_code == 201
    refused = guest_from(server, mine)
    assert refused.status_code == 429, refused.text
    assert refused.json()["code"] == "rate_limited"
    assert int(refused.headers["retry-after"]) >= 1
    assert guest_from(server, address()).status_code == 201  # another address is not counted


def test_table_creation_is_rate_limited_per_address(server: ServerProcess) -> None:
    mine = address()
    token = guest_from(server, mine).json()["token"]
    auth = {"authorization": f"Bearer {token}", **mine}
    bots = {"players": 2, "seats": [{"kind": "bot"}] * 2, "bot_delay": 10}
    for _ in range(6):
        assert server.http.post("/api/tables", json=bots, headers=auth).status_code == 201
    refused = server.http.post("/api/tables", json=bots, headers=auth)
    assert refused.status_code == 429 and refused.json()["code"] == "rate_limited"
    # a refused body does not use up the window of another address, nor is it counted
    other = {"authorization": f"Bearer {token}", **address()}
    bad = server.http.post("/api/tables", json={"players": 9}, headers=other)
    assert bad.status_code == 422
    assert server.http.post("/api/tables", json=bots, headers=other).status_code == 201


def test_a_guest_may_have_only_so_many_tables_waiting(server: ServerProcess) -> None:
    mine = address()
    token = guest_from(server, mine).json()["token"]
    auth = {"authorization": f"Bearer {token}", **mine}
    for _ in range(3):
        assert server.http.post("/api/tables", json={"players": 2},
                                headers=auth).status_code == 201
    refused = server.http.post("/api/tables", json={"players": 2}, headers=auth)
    assert refused.status_code == 429 and refused.json()["code"] == "too_many_waiting"
    # a table that starts at once (no open human seat) does not wait: still allowed
    bots = {"players": 2, "seats": [{"kind": "bot"}] * 2, "bot_delay": 10}
    assert server.http.post("/api/tables", json=bots, headers=auth).status_code == 201


def test_abandoned_waiting_tables_expire_and_watched_ones_stay(server: ServerProcess) -> None:
    mine = address()
    token = guest_from(server, mine).json()["token"]
    auth = {"authorization": f"Bearer {token}", **mine}
    left = server.http.post("/api/tables", json={"players": 2}, headers=auth).json()
    watched = server.http.post("/api/tables", json={"players": 2}, headers=auth).json()
    playing = server.http.post("/api/tables", json={
        "players": 2, "seats": [{"kind": "bot"}] * 2, "bot_delay": 10}, headers=auth).json()

    async def watch_for(seconds: float) -> None:
        watcher = Client(server, watched, None)
        first = await watcher.connect()
        assert first["t"] == "hello_ok", first
        await asyncio.sleep(seconds)
        await watcher.close()

    asyncio.run(watch_for(EXPIRY * 2.5))
    assert server.http.get(f"/api/tables/{left['table_id']}").status_code == 404
    listed = {t["id"] for t in server.http.get("/api/tables").json()["tables"]}
    assert left["table_id"] not in listed
    assert server.http.get(f"/api/tables/{watched['table_id']}").status_code == 200
    assert server.http.get(f"/api/tables/{playing['table_id']}").status_code == 200
    assert server.http.get("/healthz").json()["broken"] == 0


def test_no_refusal_left_a_traceback(server: ServerProcess) -> None:
    """Refused and cut requests are answered, not crashed on (the log holds no traceback)."""
    assert server.http.get("/healthz").status_code == 200
    assert "Traceback" not in server.log_path.read_text(errors="replace")


@pytest.mark.parametrize(("option", "value", "message"), [
    ("--table-rate", "banana", "is not a rate"), ("--guest-rate", "5/fortnight", "is not a rate"),
    ("--header-timeout", "0", "must be positive"), ("--max-body-bytes", "-1", "must be positive"),
    ("--waiting-expiry", "-5", "0 or more"),
])
def test_bad_limit_options_are_refused_by_name(tmp_path: Path, option: str, value: str,
                                               message: str) -> None:
    from harness import BURRACO

    done = subprocess.run([BURRACO, "serve", "--db", f"sqlite:///{tmp_path / 'x.db'}", option,
                           value], capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert option in done.stderr and message in done.stderr, done.stderr


def test_waiting_tables_expire_on_postgresql_too(tmp_path: Path) -> None:
    """The age of a table is compared in the database's own time type (timestamptz here)."""
    from harness import postgres_schema

    with postgres_schema() as url:
        pg = ServerProcess(url, tmp_path / "server.log", extra=["--waiting-expiry", "2"])
        pg.start()
        try:
            token = pg.guest()
            auth = {"authorization": f"Bearer {token}"}
            left = pg.http.post("/api/tables", json={"players": 2}, headers=auth).json()
            assert pg.http.get(f"/api/tables/{left['table_id']}").status_code == 200
            deadline = time.monotonic() + 15
            while time.monotonic() < deadline:
                if pg.http.get(f"/api/tables/{left['table_id']}").status_code == 404:
                    break
                time.sleep(0.5)
            assert pg.http.get(f"/api/tables/{left['table_id']}").status_code == 404
            assert "Traceback" not in pg.log()
        finally:
            pg.stop()
