"""The terminal client at a real ``burraco serve`` process, with a scripted browser-less
client and bots at the same table, through the WebSocket protocol (docs/protocol.md).

Seat 0 is the terminal app, played with its keys; seat 2 a scripted client; seats 1
and 3 the server's bots.  Midway the app's link is cut as a network failure would: it
must reconnect saying the last version it saw, and play on.  Everything the app shows of
its hand is checked against the hand the engine rebuilds from what the server stored.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from harness import Client, ServerProcess, scripted_choice, states_by_version, stored
from pilot import choose, play_by_keys, screen_text, wait_for

from burraco.engine.cards import CARD_FACE
from burraco.tui.app import BurracoApp
from burraco.tui.i18n import Words
from burraco.tui.keys import Settings
from burraco.tui.links import Seat, parse_link
from burraco.tui.online import OnlineDriver


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    folder: Path = tmp_path_factory.mktemp("tui-server")
    process = ServerProcess(f"sqlite:///{folder / 'burraco.db'}", folder / "server.log")
    process.start()
    yield process
    process.stop()


_ids = itertools.count(1)


async def scripted_player(client: Client, done: asyncio.Event) -> None:
    """Seat 2 without a screen: answers every `legal` with the harness's scripted choice."""
    await client.connect()
    while not done.is_set():
        try:
            frame = await client.recv(2)
        except TimeoutError:
            continue
        if frame.get("t") == "legal" and frame["version"] == client.version:
            await client.send_raw(json.dumps({
                "t": "act", "id": f"bob{next(_ids)}", "v": client.version,
                "action": scripted_choice(frame["actions"])}))


def test_a_hand_at_a_server_with_a_reconnection(server: ServerProcess) -> None:
    ada, bob = server.guest("Ada"), server.guest("Bob")
    table = server.create_table(ada, players=4, bot_delay=0, seats=[
        {"kind": "human"}, {"kind": "bot", "level": "basic"}, {"kind": "human"},
        {"kind": "bot", "level": "basic"}])
    invite = table["seats"][0]["invite"]
    where = parse_link(invite)
    assert where == Seat(server.base, table["table_id"], 0, token=table["seats"][0]["token"])
    words = Words("en")
    driver = OnlineDriver(where, guest=ada, words=words)
    app = BurracoApp(driver, words=words, settings=Settings())
    views: list[tuple[int, tuple[int, ...]]] = []

    async def main() -> None:
        done = asyncio.Event()
        other = Client(server, table, 2, guest=bob)
        script = asyncio.create_task(scripted_player(other, done))
        try:
            async with app.run_test(size=(80, 24)) as pilot:
                decided = 0
                turns = 0
                dropped_at: int | None = None
                while driver.hands_ended == 0:
                    try:
                        await wait_for(pilot, lambda d=decided: driver.hands_ended > 0 or (
                            app.last.my_turn and app.last.synced == app.last.version > d
                            and app.last.link == "open"), timeout=30, what="seat 0's turn")
                    except AssertionError as exc:  # say whose side stopped: app or server
                        said = await asyncio.to_thread(diagnosis, server, table["table_id"],
                                                       driver)
                        raise AssertionError(f"{exc}\n{said}") from None
                    if driver.hands_ended > 0:
                        break
                    t = app.last
                    views.append((t.version, t.hand))
                    decided = t.version
                    action = choose(t.legal, app)
                    await play_by_keys(pilot, app, action)
                    if action.startswith("discard"):
                        turns += 1
                    if turns == 2 and dropped_at is None:
                        await wait_for(pilot, lambda d=decided: driver.version > d,
                                       what="the ack")
                        dropped_at = driver.version
                        await driver.drop()
                        await wait_for(pilot, lambda: len(driver.hellos) == 2
                                       and app.last.link == "open", what="the reconnection")
                assert dropped_at is not None, "the hand ended before the link was cut"
                # the reconnection said the last version seen, and got what it missed
                assert driver.hellos[1]["v"] >= dropped_at
                assert driver.catch_ups[1] in ("none", "replay")
                await wait_for(pilot, lambda: app.last.hand_number >= 2, what="hand 2")
                assert "melds" in screen_text(app)  # the hand's score sheet (RULES.md §9)
                assert turns >= 3
        finally:
            done.set()
            await asyncio.wait_for(script, 10)
            await other.close()

    asyncio.run(main())
    states = states_by_version(server.db_url, table["table_id"])
    for version, hand in views:  # what the screen showed is seat 0's hand at that version
        assert sorted(CARD_FACE[c] for c in hand) == sorted(
            CARD_FACE[c] for c in states[version].hands[0]), version


def diagnosis(server: ServerProcess, table_id: str, driver: OnlineDriver) -> str:
    """What the app knew against what the server stored, and the server's log's end."""
    info = stored(server.db_url, table_id)["info"]
    task = driver._task
    link_task = "running" if task is not None and not task.done() else (
        f"ended: {task.exception()!r}" if task is not None and not task.cancelled() else "none")
    return (f"app: its link's task {link_task}, legal {driver.legal}\n"
            f"app: link {driver.link}, version {driver.version}, synced {driver.synced}, "
            f"pending {driver.pending}, hellos {driver.hellos}, catch-ups {driver.catch_ups}, "
            f"frames it could not apply {driver.frame_errors}; "
            f"server: stored version {info['version']}, status {info['status']}\n"
            f"server log:\n{server.log()}")


def test_watching_a_table_of_bots(server: ServerProcess) -> None:
    ada = server.guest("Ada")
    table = server.create_table(ada, players=4, bot_delay=0.05, public=False,
                                seats=[{"kind": "bot", "level": "basic"}] * 4)
    where = parse_link(table["watch"])
    assert where.seat is None and where.watch_token == table["watch_token"]
    words = Words("en")
    driver = OnlineDriver(where, guest=None, words=words)
    app = BurracoApp(driver, words=words, settings=Settings())

    async def main() -> dict[str, Any]:
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_for(pilot, lambda: any(app.last.melds), timeout=30, what="a meld")
            await pilot.pause(0.3)
            text = screen_text(app)
            assert "Watching" in text
            assert app.last.hand == () and app.last.seat is None
            assert "d draw" not in text and "? help" in text  # a spectator's footer
            await pilot.press("d", "x", "m")  # and its keys play nothing
            assert app.last.refusal is None
            await pilot.press("q")  # no question for a spectator
            return {"code": app.return_code}

    assert asyncio.run(main())["code"] == 0


def test_a_bad_invite_is_refused_with_the_reason(server: ServerProcess) -> None:
    ada = server.guest("Ada")
    table = server.create_table(ada, players=2, seats=[{"kind": "human"}, {"kind": "human"}])
    token = table["seats"][1]["token"]  # the token of seat 1, presented for seat 0
    words = Words("en")
    driver = OnlineDriver(Seat(server.base, table["table_id"], 0, token=token), guest=ada,
                          words=words)
    app = BurracoApp(driver, words=words, settings=Settings())

    async def main() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_for(pilot, lambda: app.last.link == "refused", what="the refusal")
            assert "the server closed the link" in screen_text(app)
            assert driver.refusal is not None and driver.refusal.code == "seat_token_mismatch"
            with contextlib.suppress(Exception):
                await driver.close()

    asyncio.run(main())


def test_the_command_creates_a_table_and_remembers_the_guest(
        server: ServerProcess, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from burraco.cli import build_parser
    from burraco.tui.cli import build_driver
    from burraco.tui.links import guest_token

    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path))
    args = build_parser().parse_args(["tui", "--server", server.base + "/", "--name", "Ada",
                                      "--bots", "basic,human,advanced", "--lang", "en"])
    driver, _ = build_driver(args)
    assert isinstance(driver, OnlineDriver)
    assert driver.where.seat == 0 and driver.where.token
    assert list(driver.invites) == [2] and "seat=2&token=" in driver.invites[2]
    info = server.http.get(f"/api/tables/{driver.where.table}",
                           params={"token": driver.where.token}).json()
    kinds = [(s["kind"], s.get("level")) for s in info["seats"]]
    assert kinds == [("human", None), ("bot", "basic"), ("human", None), ("bot", "advanced")]
    remembered = tmp_path / "burraco" / "guests.json"
    assert json.loads(remembered.read_text()) == {server.base: driver.guest}
    assert guest_token(server.base, "Ada", path=remembered) == driver.guest  # the same again
    remembered.write_text(json.dumps({server.base: "g.forged.token"}))
    fresh = guest_token(server.base, "Ada", path=remembered)  # an unknown one is replaced
    assert fresh != "g.forged.token" and json.loads(remembered.read_text())[server.base] == fresh


class Recording(OnlineDriver):
    """The driver the app runs, noting the screen's first line right after each event frame
    (what a person sees until the next frame or the sync it asks for)."""

    app: BurracoApp | None = None
    headers: list[tuple[str, dict[str, Any], str]]

    def _receive(self, message: dict[str, Any]) -> bool:
        joined = super()._receive(message)
        event = message.get("e")
        if self.app is not None and isinstance(event, dict):
            self.headers.append((str(event.get("type")), event,
                                 screen_text(self.app).splitlines()[0]))
        return joined


def test_the_header_has_the_final_scores_with_the_match_over_frame(
        server: ServerProcess) -> None:
    ada = server.guest("Ada")
    table = server.create_table(ada, players=4, bot_delay=0.02, public=False,
                                options={"target": 100},
                                seats=[{"kind": "bot", "level": "basic"}] * 4)
    words = Words("en")
    driver = Recording(parse_link(table["watch"]), guest=None, words=words)
    driver.headers = []
    app = BurracoApp(driver, words=words, settings=Settings())
    driver.app = app

    async def main() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_for(pilot, lambda: driver.match_over is not None, timeout=120,
                           what="the match's end")
            assert "Match over" in screen_text(app)

    asyncio.run(main())
    ends = [(kind, event, line) for kind, event, line in driver.headers
            if kind in ("HandEnded", "MatchOver")]
    assert ends and ends[-1][0] == "MatchOver"
    for kind, event, line in ends:  # the header said each frame's scores as it came
        scores = " · ".join(f"{name} {score}" for name, score in zip(
            ("North+South", "East+West"), event["scores"], strict=True))
        assert f" · {scores} (to 100)" in line, (kind, line)
