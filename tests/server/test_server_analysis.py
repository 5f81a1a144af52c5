"""The replay page's marks: a finished hand's analysis runs in a background process, reports
its progress, and gives the marks of ``burraco analyze`` for that seat; the access rules of
the replay hold, and a hand still being played cannot be analysed."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from harness import ServerProcess, alive, children

from burraco.analysis.review import Settings, analyze

LEVEL = "advanced"  # quick: the worker runs at a low priority on a busy machine


@pytest.fixture(scope="module")
def analysis_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    folder: Path = tmp_path_factory.mktemp("analysis")
    process = ServerProcess(f"sqlite:///{folder / 'burraco.db'}", folder / "server.log",
                            extra=["--analysis-level", LEVEL, "--analysis-samples", "3"])
    process.start()
    yield process
    process.stop()


def _finished_table(server: ServerProcess, guest: str, **body: Any) -> str:
    table = server.create_table(guest, players=2, mode="smazzate", smazzate=1, bot_delay=0,
                                seats=[{"kind": "bot", "level": "basic"},
                                       {"kind": "bot", "level": "advanced"}], **body)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        info = server.http.get(f"/api/tables/{table['table_id']}",
                               params={"token": table.get("watch_token")}).json()
        if info.get("status") == "finished":
            return str(table["table_id"])
        time.sleep(0.2)
    raise AssertionError("the bots did not finish their hand")


def test_a_finished_hand_is_analysed_in_the_background_with_progress(
        analysis_server: ServerProcess) -> None:
    ada = analysis_server.guest("Ada")
    table_id = _finished_table(analysis_server, ada)
    url = f"/api/web/tables/{table_id}/hands/1/analysis"
    assert analysis_server.http.get(url, params={"seat": 0}).json()["code"] == "not_started"
    started = analysis_server.http.post(url, params={"seat": 0})
    assert started.status_code == 202
    job = started.json()
    assert job["status"] == "running" and job["total"] > 5 and job["done"] < job["total"]
    seen_progress = [job["done"]]
    deadline = time.monotonic() + 240
    while job["status"] == "running" and time.monotonic() < deadline:
        time.sleep(0.3)
        job = analysis_server.http.get(url, params={"seat": 0}).json()
        seen_progress.append(job["done"])
    assert job["status"] == "done", job
    # progress only ever grows (how many steps a poll sees depends on the machine's speed)
    assert seen_progress == sorted(seen_progress), seen_progress
    assert job["done"] == job["total"] == len(job["decisions"])
    # the same marks as `burraco analyze` with the same settings, from the stored record
    hands = analysis_server.http.get(f"/api/tables/{table_id}/hands").json()["hands"]
    expected = analyze(hands[0]["record"], 0, Settings(level=LEVEL, samples=3))
    assert job["decisions"] == [d.to_dict() for d in expected.decisions]
    assert job["total_loss"] == round(expected.total_loss, 1)
    again = analysis_server.http.post(url, params={"seat": 0})  # asked again: the same job
    assert again.status_code == 200 and again.json() == job


def test_analysis_requests_that_cannot_be_served_say_why(
        analysis_server: ServerProcess) -> None:
    ada = analysis_server.guest("Ada")
    table_id = _finished_table(analysis_server, ada)
    base = f"/api/web/tables/{table_id}/hands"
    bad_seat = analysis_server.http.post(f"{base}/1/analysis", params={"seat": 3})
    assert bad_seat.status_code == 422 and "seat 3" in bad_seat.json()["detail"]
    not_over = analysis_server.http.post(f"{base}/2/analysis", params={"seat": 0})
    assert not_over.status_code == 404 and not_over.json()["code"] == "hand_not_over"
    private = _finished_table(analysis_server, ada, public=False)
    refused = analysis_server.http.post(f"/api/web/tables/{private}/hands/1/analysis",
                                        params={"seat": 0})
    assert refused.status_code == 403


def test_the_analysis_worker_ends_when_its_server_is_killed(tmp_path: Path) -> None:
    server = ServerProcess(f"sqlite:///{tmp_path / 'burraco.db'}", tmp_path / "server.log",
                           extra=["--analysis-level", LEVEL, "--analysis-samples", "3"])
    server.start()
    try:
        table_id = _finished_table(server, server.guest("Ada"))
        url = f"/api/web/tables/{table_id}/hands/1/analysis"
        assert server.http.post(url, params={"seat": 0}).status_code == 202
        assert server.proc is not None
        deadline = time.monotonic() + 60
        while not (workers := children(server.proc.pid)) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert workers, "the analysis started no worker process"
        server.kill()  # SIGKILL: no shutdown code runs in the server
        deadline = time.monotonic() + 15
        while any(map(alive, workers)) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not any(map(alive, workers)), "the analysis worker outlived its server"
    finally:
        server.stop()
