"""A raw WebSocket client over a plain TCP socket, for tests that need exact bytes on the wire.

The ``websockets`` library sends well-formed frames one ``send`` at a time;
attacks and fuzzing need more: several frames in one TCP write (a hello with
commands pipelined behind it), fragmented messages, binary frames, frames the
server must refuse.  :class:`RawSocket` does the opening handshake itself and
then writes whatever bytes it is given; it reads the server's (unmasked)
frames back, answering nothing on its own.
"""

from __future__ import annotations

import base64
import json
import os
import socket
import struct
import time
from dataclasses import dataclass
from typing import Any

TEXT, BINARY, CONTINUATION, CLOSE, PING, PONG = 0x1, 0x2, 0x0, 0x8, 0x9, 0xA


def frame(payload: bytes | str, opcode: int = TEXT, *, fin: bool = True) -> bytes:
    """One client frame (masked, as RFC 6455 requires of clients)."""
    data = payload.encode() if isinstance(payload, str) else payload
    head = bytes([(0x80 if fin else 0) | opcode])
    n = len(data)
    if n < 126:
        head += bytes([0x80 | n])
    elif n < 1 << 16:
        head += bytes([0x80 | 126]) + struct.pack("!H", n)
    else:
        head += bytes([0x80 | 127]) + struct.pack("!Q", n)
    mask = os.urandom(4)
    return head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(data))


def text(message: dict[str, Any] | str) -> bytes:
    """A text frame carrying ``message`` (a dict is sent as JSON)."""
    return frame(message if isinstance(message, str) else json.dumps(message))


@dataclass
class Received:
    """What the server sent: its JSON messages, and its close frame if it closed."""

    messages: list[dict[str, Any]]
    close_code: int | None
    closed: bool


class RawSocket:
    def __init__(self, port: int, path: str, *, timeout: float = 10) -> None:
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=timeout)
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall(
            f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
            f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
            "Sec-WebSocket-Version: 13\r\n\r\n".encode())
        self._buffer = b""
        while b"\r\n\r\n" not in self._buffer:
            chunk = self.sock.recv(4096)
            if not chunk:
                raise ConnectionError("closed during the handshake")
            self._buffer += chunk
        head, self._buffer = self._buffer.split(b"\r\n\r\n", 1)
        if b" 101 " not in head.split(b"\r\n", 1)[0]:
            raise ConnectionError(f"handshake refused: {head[:200]!r}")

    def send(self, data: bytes) -> None:
        """Write ``data`` in one call (one TCP send for anything that fits the buffer)."""
        self.sock.sendall(data)

    def _exact(self, n: int, deadline: float) -> bytes | None:
        while len(self._buffer) < n:
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            self.sock.settimeout(left)
            try:
                chunk = self.sock.recv(65536)
            except TimeoutError:
                return None
            except OSError:
                chunk = b""
            if not chunk:
                raise EOFError
            self._buffer += chunk
        out, self._buffer = self._buffer[:n], self._buffer[n:]
        return out

    def read_frame(self, timeout: float) -> tuple[int, bytes] | None:
        """The next whole frame (opcode, payload); ``None`` after ``timeout`` seconds."""
        deadline = time.monotonic() + timeout
        head = self._exact(2, deadline)
        if head is None:
            return None
        opcode, n = head[0] & 0x0F, head[1] & 0x7F
        if n == 126:
            n = struct.unpack("!H", self._exact(2, deadline + 5) or b"\0\0")[0]
        elif n == 127:
            n = struct.unpack("!Q", self._exact(8, deadline + 5) or b"\0" * 8)[0]
        payload = self._exact(n, deadline + 5) if n else b""
        return opcode, payload or b""

    def collect(self, *, until_close: bool = True, quiet: float = 1.0,
                timeout: float = 15) -> Received:
        """Read frames until the server closes (or ``quiet`` seconds pass with nothing)."""
        messages: list[dict[str, Any]] = []
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                got = self.read_frame(quiet if not until_close else deadline - time.monotonic())
            except EOFError:
                return Received(messages, None, True)
            if got is None:
                break
            opcode, payload = got
            if opcode == CLOSE:
                code = struct.unpack("!H", payload[:2])[0] if len(payload) >= 2 else None
                return Received(messages, code, True)
            if opcode == TEXT:
                messages.append(json.loads(payload))
        return Received(messages, None, False)

    def close(self) -> None:
        self.sock.close()
