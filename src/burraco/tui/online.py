"""Online play and watching over the WebSocket protocol (docs/protocol.md), like the browser.

The server's ``sync`` (the engine's view for this seat) is what the screen
shows; event frames move the version at once and ask for a fresh sync (one
sync answers a burst), ``HandEnded`` keeps the score sheet, and the match's
scores of ``HandEnded`` and ``MatchOver`` reach the header at once.  When the link
drops the client reconnects with backoff and says the last version it saw in
its hello, so it receives exactly what it missed.  Commands carry a unique id
and the version they were decided at; a refusal comes back with its reason.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import time
from collections import deque
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidURI

from burraco.engine.cards import CardParseError, parse_face
from burraco.tui.driver import Notify
from burraco.tui.i18n import Words
from burraco.tui.links import Seat
from burraco.tui.model import Refusal, Table, hand_ids, meld_types, result_of, rules_of_config

FINAL_CLOSES = {4400, 4401, 4403, 4404, 4409}
"""Close codes after which reconnecting cannot help (a bad hello, token or seat)."""
_ids = itertools.count(1)


class OnlineDriver:
    """One seat (or a spectator) at a server's table."""

    def __init__(self, where: Seat, *, guest: str | None, words: Words,
                 nickname: str | None = None, invites: dict[int, str] | None = None) -> None:
        self.where = where
        self.guest = guest
        self.words = words
        self.nickname = nickname
        self.invites = dict(invites or {})
        """Invite links of the other human seats of a table this client created."""
        self.version = 0
        self.synced = -1
        self.sync: dict[str, Any] | None = None
        self.legal: dict[str, Any] | None = None
        self.presence: list[dict[str, Any]] = []
        self.clock: dict[str, Any] | None = None
        self.refusal: Refusal | None = None
        self.result: dict[str, Any] | None = None
        self.redeal = False
        self.match_over: dict[str, Any] | None = None
        self.event_scores: tuple[int, tuple[int, ...]] | None = None
        """(version, the match's scores) of the last event that gave them (a hand's start and
        end, the match's end): newer than the last sync, they are the header's."""
        self.link = "connecting"
        self.link_error = ""
        """Why the last connection attempt failed (shown while reconnecting)."""
        self.pending: str | None = None
        self.hellos: list[dict[str, Any]] = []
        """Every hello sent (tests read the version a reconnection asked from)."""
        self.catch_ups: list[str] = []
        self.hands_ended = 0
        self.frame_errors: deque[str] = deque(maxlen=20)
        """The last frames that could not be applied and redraws that failed, and why."""
        self._ws: ClientConnection | None = None
        self._notify: Notify = lambda: None
        self._task: asyncio.Task[None] | None = None
        self._sync_wanted = False
        self._tasks: set[asyncio.Task[None]] = set()
        self._closed = False
        self._prefix = f"t{int(time.time() * 1000):x}"

    # --- the table as this seat sees it ---------------------------------------------------

    def table(self) -> Table:
        sync = self.sync or {}
        config = dict((sync.get("table") or {}).get("config") or {})
        rules = rules_of_config(config) if config else None
        hand = sync.get("hand") or {}
        players = int(config.get("players", len(self.presence) or 4))
        seat = self.where.seat
        names = self._names(players)
        melds = tuple(tuple(side) for side in hand.get("melds", ()))
        match = sync.get("match") or {}
        status = str(sync.get("status", "waiting"))
        if self.match_over is not None:
            status = "finished"
        legal: tuple[str, ...] = ()
        undo = False
        if self.legal is not None and self.legal.get("version") == self.version:
            legal = tuple(self.legal.get("actions", ()))
            undo = bool(self.legal.get("undo"))
        online = tuple(bool(p.get("online")) if p.get("kind") == "human" else None
                       for p in self._presence(players))
        standin = tuple(p.get("standin") for p in self._presence(players))
        clock_seat = self.clock.get("seat") if self.clock else None
        deadline = self.clock.get("deadline_ms") if self.clock else None
        side_of = tuple(hand.get("side_of", ())) or tuple(
            s % 2 if players in (2, 4) else s % 3 if players == 6 else s
            for s in range(players))
        scores = tuple(match.get("scores") or ())
        if self.event_scores is not None and self.event_scores[0] > self.synced:
            scores = self.event_scores[1]
        return Table(
            kind="online" if seat is not None else "watch", seat=seat, players=players,
            names=names, side_of=side_of, status=status, hand_number=int(hand.get("number", 0)),
            dealer=int(hand.get("dealer", 0)), turn=int(hand.get("turn", 0)),
            phase=str(hand.get("phase", "draw")), hand=hand_ids(hand) if hand else (),
            pozzetto_seen=tuple(_face_ids(hand.get("pozzetto_seen", ()))),
            hand_counts=tuple(hand.get("hand_counts", ())), melds=melds,
            burraco=meld_types(melds, rules), pile=tuple(hand.get("pile", ())),
            stock_count=int(hand.get("stock_count", 0)),
            pozzetti_left=int(hand.get("pozzetti_left", 0)),
            pozzetto_taker=tuple(hand.get("pozzetto_taker", ())),
            final_turn=bool(hand.get("final_turn")),
            moves=tuple((int(s), str(a)) for s, a in hand.get("moves", ())),
            revealed=tuple(tuple(_face_ids(r)) for r in hand.get("revealed", ())),
            end_reason=str(hand.get("end_reason") or ""),
            closer=int(hand["closer"]) if hand.get("closer") is not None else -1,
            legal=legal, can_undo=undo, online=online, standin=standin,
            clock_seat=clock_seat, clock_deadline=deadline / 1000 if deadline else None,
            score_names=self._score_names(players, side_of, names, len(scores)),
            scores=scores, target=match.get("target"), result=result_of(self.result),
            redeal=self.redeal,
            winner=(self.match_over or {}).get("winner"), match_over=self.match_over is not None,
            link=self.link, link_error=self.link_error, refusal=self.refusal,
            version=self.version, synced=self.synced,
            casual=bool(config.get("casual", True)), notice=self._invite_text(players, status))

    def _invite_text(self, players: int, status: str) -> str:
        if status != "waiting" or not self.invites:
            return ""
        return "\n".join(self.words("invite", name=self.words.seat_name(seat, players), link=link)
                         for seat, link in sorted(self.invites.items()))

    def _presence(self, players: int) -> list[dict[str, Any]]:
        entries = {int(p.get("seat", -1)): p for p in self.presence}
        return [entries.get(s, {}) for s in range(players)]

    def _names(self, players: int) -> tuple[str, ...]:
        out = []
        for seat, entry in enumerate(self._presence(players)):
            if entry.get("kind") == "bot":
                name = (f"{self.words.seat_name(seat, players)} "
                        f"({self.words.level(str(entry.get('level')))})")
            else:
                name = str(entry.get("nickname") or (
                    f"{self.words.seat_name(seat, players)} ({self.words('open_seat')})"))
            if seat == self.where.seat:
                name = f"{self.words('you')} ({name})"
            out.append(name)
        return tuple(out)

    def _score_names(self, players: int, side_of: tuple[int, ...], names: tuple[str, ...],
                     count: int) -> tuple[str, ...]:
        def short(name: str) -> str:
            return name.split(" (")[0]

        if players in (3, 5):
            return tuple(short(n) for n in names[:count])
        return tuple("+".join(short(names[s]) for s in range(players) if side_of[s] == side)
                     for side in range(count))

    # --- the connection -------------------------------------------------------------------

    async def start(self, notify: Notify) -> None:
        self._notify = notify
        self._task = asyncio.get_running_loop().create_task(self._run())

    def _hello(self) -> dict[str, Any]:
        hello: dict[str, Any] = {"t": "hello", "legal": True}
        if self.where.seat is not None:
            hello["seat"] = self.where.seat
            hello["seat_token"] = self.where.token
        if self.guest:
            hello["guest"] = self.guest
        if self.where.watch_token:
            hello["watch_token"] = self.where.watch_token
        if self.synced >= 0:
            hello["v"] = self.version
        return hello

    async def _run(self) -> None:
        retries = 0
        while not self._closed:
            code: int | None = None
            try:
                async with connect(self.where.ws, max_size=None, open_timeout=10) as ws:
                    self._ws = ws
                    hello = self._hello()
                    self.hellos.append(hello)
                    await ws.send(json.dumps(hello))
                    try:
                        async for raw in ws:
                            if isinstance(raw, str) and self._take(raw):
                                retries = 0
                    except ConnectionClosed:
                        pass
                    code = ws.close_code
            except (OSError, InvalidHandshake, InvalidURI, TimeoutError) as exc:
                code = None
                self.link_error = str(exc) or type(exc).__name__
            self._ws = None
            if self._closed:
                return
            if code in FINAL_CLOSES:
                self.link = "refused"
                self._redraw()
                return
            self.link = "reconnecting"
            self.pending = None
            self._redraw()
            await asyncio.sleep(min(5.0, 0.3 * 2 ** retries))
            retries += 1

    def _redraw(self) -> None:
        """Tell the screen; its failure is recorded, never raised into the link task."""
        try:
            self._notify()
        except Exception as exc:  # a redraw's bug must not end the link
            self.frame_errors.append(f"redraw: {type(exc).__name__}: {exc}")

    def _take(self, raw: str) -> bool:
        """Apply one frame; a frame that cannot be applied is recorded and skipped.

        An exception here would end the link task silently and freeze the screen with the
        link still "open"; a bad frame (or a failing redraw) must cost that frame only, and
        the next event's sync repairs whatever it would have said.
        """
        try:
            message = json.loads(raw)
            if not isinstance(message, dict):
                raise ValueError(f"a frame must be a JSON object, not {type(message).__name__}")
            return self._receive(message)
        except Exception as exc:  # any failure costs this frame, not the link
            self.frame_errors.append(f"{type(exc).__name__}: {exc} (frame {raw[:80]!r})")
            return False

    def _receive(self, message: dict[str, Any]) -> bool:
        """Apply one server message; True when the connection is up and joined."""
        joined = False
        if "v" in message and "t" not in message:
            # a gap would be a bug somewhere: the sync asked for below repairs it either way
            self.version = int(message["v"])
            event = message.get("e")
            if isinstance(event, dict):
                kind = event.get("type")
                if kind == "HandEnded":
                    self.hands_ended += 1
                    self.result = event.get("result")
                    self.redeal = bool(event.get("redeal"))
                elif kind == "MatchOver":
                    self.match_over = event
                    self.clock = None  # no turn runs any more: the header drops its clock
                scores = event.get("scores")
                if kind in ("HandStarted", "HandEnded", "MatchOver") and isinstance(scores, list):
                    # the header shows them now, not when the sync asked for below comes
                    self.event_scores = (self.version, tuple(int(s) for s in scores))
            self._want_sync()
        else:
            kind = message.get("t")
            if kind == "hello_ok":
                self.link = "open"
                self.link_error = ""
                self.catch_ups.append(str(message.get("catch_up")))
                if message.get("catch_up") == "none":
                    self.version = int(message["version"])
                joined = True
            elif kind == "sync":
                version = int(message["version"])  # a sync without one changes nothing
                self.sync = message
                self.version = self.synced = version
                self.presence = list(message.get("seats") or [])
                self.clock = message.get("clock")
            elif kind == "legal":
                self.legal = message
            elif kind == "presence":
                self.presence = list(message.get("seats") or [])
            elif kind == "clock":
                self.clock = message
            elif kind == "ack":
                if message.get("id") == self.pending:
                    self.pending = None
            elif kind == "reject":
                self._rejected(message)
        self._redraw()
        return joined

    def _rejected(self, message: dict[str, Any]) -> None:
        code = str(message.get("code"))
        reason = str(message.get("reason") or "")
        if not reason:
            reason = self.words.code(code)
        if message.get("id") is None or message.get("id") == self.pending:
            self.pending = None
            self.refusal = Refusal(code, reason)
        if code == "stale_version":
            self._want_sync()

    def _want_sync(self) -> None:
        if self._sync_wanted:
            return
        self._sync_wanted = True

        async def later() -> None:
            await asyncio.sleep(0.04)
            self._sync_wanted = False
            await self._send({"t": "sync"})

        task = asyncio.get_running_loop().create_task(later())
        self._tasks.add(task)  # the loop keeps only weak references to its tasks
        task.add_done_callback(self._tasks.discard)

    async def _send(self, message: dict[str, Any]) -> bool:
        ws = self._ws
        if ws is None:
            return False
        try:
            await ws.send(json.dumps(message))
        except ConnectionClosed:
            return False
        return True

    # --- commands -------------------------------------------------------------------------

    async def act(self, action: str) -> None:
        if self.where.seat is None:
            self.refusal = Refusal("spectator", self.words.code("spectator"))
            self._redraw()
            return
        cmid = f"{self._prefix}-{next(_ids)}"
        self.refusal = None
        if await self._send({"t": "act", "id": cmid, "v": self.version, "action": action}):
            self.pending = cmid
        self._redraw()

    async def undo(self) -> None:
        if self.where.seat is None:
            return
        cmid = f"{self._prefix}-u{next(_ids)}"
        self.refusal = None
        if await self._send({"t": "undo", "id": cmid, "v": self.version}):
            self.pending = cmid
        self._redraw()

    async def forward(self) -> None:
        return None

    async def back(self) -> None:
        return None

    async def switch_seat(self) -> None:
        return None

    async def jump(self, at: int) -> None:
        return None

    async def drop(self) -> None:
        """Cut the link as a network failure would (no closing handshake)."""
        ws = self._ws
        if ws is not None:
            ws.transport.abort()

    async def close(self) -> None:
        self._closed = True
        ws = self._ws
        if ws is not None:
            with contextlib.suppress(Exception):
                await ws.close()
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task


def _face_ids(texts: Any) -> list[int]:
    out = []
    for text in texts or ():
        try:
            out.append(parse_face(str(text)))
        except CardParseError:
            continue
    return out
