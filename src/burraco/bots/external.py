"""An outside program as a bot: the open bot protocol (docs/bot-protocol.md).

The program is started once per seat (per match in the arena, per table on
the server) and speaks JSON lines on its stdin/stdout::

    -> {"type": "hello", "protocol": 1, "seat": S, "players": P, "rules": {...}}
    <- {"type": "ready", "name": "..."}
    -> {"type": "decide", "id": N, "view": {...}, "legal": ["draw", ...], "deadline_ms": D}
    <- {"type": "action", "action": "draw"}
    -> {"type": "event", "event": {...}}          (as the hand goes; optional to read)
    -> {"type": "quit"}

The view is ``view(state, seat).to_dict()``, the actions the engine's action
texts.  The program is never trusted: an answer that is not JSON, not an
action, not legal, or late loses that decision to the fallback (the
``basic`` level's move from the same view) and is recorded in
:attr:`ExternalBot.faults`; a program that dies or never says ``ready`` has
every later decision played by the fallback.  Nothing it does raises.
"""

from __future__ import annotations

import contextlib
import json
import os
import queue
import random
import shlex
import signal
import subprocess
import threading
import time
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass
from typing import IO, Any

from burraco.bots.basic import BasicBot
from burraco.engine.actions import Action
from burraco.engine.events import Event, event_for, event_text
from burraco.engine.rules import Rules
from burraco.engine.views import View

PROTOCOL = 1
PREFIX = "cmd:"
ENGINE_PREFIX = "engine:"
"""A server seat's level for an engine registered in the server's settings."""
DEFAULT_DEADLINE_MS = 1000
START_SECONDS = 10.0
"""How long a program may take to answer ``hello`` with ``ready``."""
QUIT_SECONDS = 1.0
MAX_LINE = 1 << 20
"""Longest answer line read (1 MiB); longer ones are garbage."""


def decide_message(ident: int, view: View, legal: Sequence[Action],
                   deadline_ms: int) -> dict[str, Any]:
    """The ``decide`` message: the seat's view (labels, never physical ids) and its actions."""
    return {"type": "decide", "id": ident, "view": view.to_dict(),
            "legal": [str(a) for a in legal], "deadline_ms": deadline_ms}


def event_message(event: Event) -> dict[str, Any]:
    """The ``event`` message of an event already cut to the bot's seat: cards as text."""
    return {"type": "event", "event": event_text(event)}


@dataclass(frozen=True, slots=True)
class Fault:
    """One decision the program lost to the fallback, and why."""

    decision: int
    kind: str
    """``timeout``, ``garbage``, ``illegal``, ``crash`` (it exited or never got ready) or
    ``dead`` (a decision after it crashed)."""
    detail: str

    def to_dict(self) -> dict[str, Any]:
        return {"decision": self.decision, "kind": self.kind, "detail": self.detail}


class ExternalBot:
    """A bot played by an outside program over the open bot protocol.

    ``command`` is a command line (split like a shell would, run without a
    shell) or an argument list.  The process starts at the first decision,
    when the seat and the number of players are known, or with :meth:`start`.
    Call :meth:`close` when the match is over (it sends ``quit``).
    """

    def __init__(
        self, command: str | Sequence[str], *, rules: Rules | None = None,
        deadline_ms: int = DEFAULT_DEADLINE_MS, seed: int | None = None,
        start_seconds: float = START_SECONDS, name: str | None = None,
        cwd: str | None = None,
    ) -> None:
        self.argv = shlex.split(command) if isinstance(command, str) else list(command)
        if not self.argv:
            raise ValueError("an outside bot needs a command line (cmd:COMMAND)")
        if deadline_ms < 1:
            raise ValueError(f"deadline_ms must be at least 1, not {deadline_ms}")
        self.name = name or PREFIX + " ".join(self.argv)
        self.rules = rules
        self.deadline_ms = deadline_ms
        self.start_seconds = start_seconds
        self.cwd = cwd
        self.fallback = BasicBot(random.Random(seed))
        self.faults: list[Fault] = []
        self.engine_name = ""
        """What the program called itself in ``ready``."""
        self.decisions = 0
        self.seat: int | None = None
        self._process: subprocess.Popen[bytes] | None = None
        self._lines: queue.Queue[bytes | None] = queue.Queue()
        self._stderr: deque[str] = deque(maxlen=20)
        self._tail_thread: threading.Thread | None = None
        self._dead = ""
        self._next_id = 0

    # --- the process --------------------------------------------------------------------

    def start(self, seat: int, players: int, rules: Rules | None = None) -> bool:
        """Start the program and greet it; False (and a ``crash`` fault) if it is unusable."""
        if self._process is not None or self._dead:
            return not self._dead
        self.seat = seat
        rules = rules or self.rules or Rules()
        try:
            self._process = subprocess.Popen(
                self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                stderr=subprocess.PIPE, cwd=self.cwd, start_new_session=True)
        except OSError as exc:
            self._die(f"cannot start {self.argv[0]!r}: {exc}")
            return False
        assert self._process.stdout is not None and self._process.stderr is not None
        threading.Thread(target=_pump, args=(self._process.stdout, self._lines),
                         daemon=True).start()
        self._tail_thread = threading.Thread(target=_tail, args=(self._process.stderr,
                                                                 self._stderr), daemon=True)
        self._tail_thread.start()
        hello = {"type": "hello", "protocol": PROTOCOL, "seat": seat, "players": players,
                 "rules": _jsonable(rules.for_players(players).to_dict())}
        if not self._send(hello):
            return False
        answer, why = self._read(time.monotonic() + self.start_seconds, None)
        if answer is None or answer.get("type") != "ready":
            self._die(f"no ready answer to hello ({why or 'got ' + _short(answer)})")
            return False
        name = answer.get("name")
        self.engine_name = name if isinstance(name, str) else ""
        return True

    def close(self) -> None:
        """Send ``quit``, give the program a moment, then end it and its children."""
        process = self._process
        if process is None:
            return
        self._process = None
        if process.poll() is None:
            try:
                assert process.stdin is not None
                process.stdin.write(b'{"type": "quit"}\n')
                process.stdin.flush()
                process.stdin.close()
            except (OSError, ValueError):
                pass
            with contextlib.suppress(subprocess.TimeoutExpired):
                process.wait(QUIT_SECONDS)
        _kill_group(process)
        for stream in (process.stdin, process.stdout, process.stderr):
            if stream is not None:
                with contextlib.suppress(OSError):
                    stream.close()

    def __del__(self) -> None:  # a bot dropped without close() leaves no process behind
        process = getattr(self, "_process", None)
        if process is not None and process.poll() is None:
            _kill_group(process)

    @property
    def marked(self) -> bool:
        """True when at least one decision went to the fallback."""
        return bool(self.faults)

    def stderr_tail(self) -> str:
        return "\n".join(self._stderr)

    # --- playing -------------------------------------------------------------------------

    def act(self, view: View, legal: Sequence[Action]) -> Action:
        self.decisions += 1
        seat = view.seat if view.seat is not None else view.turn
        if self._process is None and not self._dead:
            rules = self.rules or Rules.preset(view.rules)
            if not self.start(seat, view.players, rules):
                return self._fall_back(view, legal, "crash", self._dead)
        if self._dead:
            return self._fall_back(view, legal, "dead", self._dead)
        self._next_id += 1
        ident = self._next_id
        deadline = time.monotonic() + self.deadline_ms / 1000
        self._drain()
        message = decide_message(ident, view, legal, self.deadline_ms)
        if not self._send(message):
            return self._fall_back(view, legal, "crash", self._dead)
        answer, why = self._read(deadline, ident)
        if answer is None:
            kind = "crash" if self._dead else "timeout" if why == "timeout" else "garbage"
            return self._fall_back(view, legal, kind, self._dead or why)
        text = answer.get("action")
        if answer.get("type") != "action" or not isinstance(text, str):
            return self._fall_back(view, legal, "garbage", f"not an action: {_short(answer)}")
        wanted = " ".join(text.split())
        for action, shown in zip(legal, message["legal"], strict=True):
            if shown == wanted or shown.lower() == wanted.lower():
                return action
        return self._fall_back(view, legal, "illegal", f"{text!r} is not among the legal "
                               "actions")

    def observe(self, seat_events: Sequence[Event]) -> None:
        """Send what the bot's seat saw happen (``event_for`` has already cut it)."""
        if self._process is None or self._dead:
            return
        for event in seat_events:
            self._send(event_message(event))

    def observe_all(self, events: Sequence[Event]) -> None:
        """:meth:`observe` with each event cut to this bot's seat first."""
        if self.seat is None:
            return
        shown = [e for e in (event_for(ev, self.seat) for ev in events) if e is not None]
        self.observe(shown)

    def _fall_back(self, view: View, legal: Sequence[Action], kind: str, detail: str) -> Action:
        self.faults.append(Fault(self.decisions, kind, detail))
        return self.fallback.act(view, legal)

    def _die(self, why: str) -> None:
        tail = self.stderr_tail()
        self._dead = why + (f"; its last error output: {tail[-300:]}" if tail else "")
        process = self._process
        if process is not None:
            _kill_group(process)

    def _send(self, message: dict[str, Any]) -> bool:
        process = self._process
        if process is None or process.stdin is None:
            return False
        try:
            process.stdin.write(json.dumps(message, separators=(",", ":")).encode() + b"\n")
            process.stdin.flush()
        except (OSError, ValueError):
            self._die(f"it closed its input (exit code {process.poll()})")
            return False
        return True

    def _drain(self) -> None:
        """Drop answers that came too late for an earlier decision."""
        while True:
            try:
                line = self._lines.get_nowait()
            except queue.Empty:
                return
            if line is None:
                self._lines.put(None)
                return

    def _read(self, deadline: float, ident: int | None) -> tuple[dict[str, Any] | None, str]:
        """The next answer by ``deadline``: (message, "") or (None, why).

        Lines of type ``info`` are skipped (a program may log through them), and
        so is an answer carrying another decision's ``id`` (a late one).
        """
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                return None, "timeout"
            try:
                line = self._lines.get(timeout=left)
            except queue.Empty:
                return None, "timeout"
            if line is None:
                self._lines.put(None)
                code = self._process.poll() if self._process is not None else None
                if code is None and self._process is not None:
                    try:
                        code = self._process.wait(0.2)
                    except subprocess.TimeoutExpired:
                        code = None
                if code is not None and self._tail_thread is not None:
                    # its last error lines may still be on their way to the tail: read them
                    self._tail_thread.join(0.5)
                self._die(f"it closed its output (exit code {code})")
                return None, self._dead
            if len(line) > MAX_LINE:
                return None, f"an answer of {len(line)} bytes"
            try:
                message = json.loads(line)
            except (UnicodeDecodeError, json.JSONDecodeError):
                return None, f"not JSON: {_short(line.decode('utf-8', 'replace'))}"
            if not isinstance(message, dict):
                return None, f"not a JSON object: {_short(message)}"
            if message.get("type") == "info":
                continue
            if ident is not None and "id" in message and message["id"] != ident:
                continue
            return message, ""


def is_external(spec: str) -> bool:
    return spec.startswith(PREFIX)


def external_from_spec(spec: str, *, rules: Rules | None = None, seed: int | None = None,
                       deadline_ms: int = DEFAULT_DEADLINE_MS) -> ExternalBot:
    """``cmd:COMMAND LINE`` -> an :class:`ExternalBot` (not started yet)."""
    return ExternalBot(spec[len(PREFIX):], rules=rules, seed=seed, deadline_ms=deadline_ms,
                       name=spec)


def _pump(stream: IO[bytes], lines: queue.Queue[bytes | None]) -> None:
    try:
        for line in iter(lambda: stream.readline(MAX_LINE + 1), b""):
            lines.put(line)
    except (OSError, ValueError):
        pass
    lines.put(None)


def _tail(stream: IO[bytes], tail: deque[str]) -> None:
    try:
        for line in iter(stream.readline, b""):
            tail.append(line.decode("utf-8", "replace").rstrip())
    except (OSError, ValueError):
        pass


def _kill_group(process: subprocess.Popen[bytes]) -> None:
    """End the program and anything it started (it runs in its own session)."""
    if process.poll() is not None:
        return
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        process.kill()
    with contextlib.suppress(subprocess.TimeoutExpired):
        process.wait(2)


def _jsonable(value: Any) -> Any:
    if isinstance(value, tuple | list):
        return [_jsonable(v) for v in value]
    if isinstance(value, dict):
        return {k: _jsonable(v) for k, v in value.items()}
    return value


def _short(value: Any) -> str:
    text = value if isinstance(value, str) else json.dumps(value)
    return text if len(text) <= 80 else text[:77] + "..."
