"""What the screen asks of whoever holds the table: in-process bots, a server, or a record.

The app knows nothing of engines or sockets: it reads :meth:`Driver.table`,
sends the engine's action texts, and redraws when ``notify`` is called.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from burraco.tui.model import Table

Notify = Callable[[], None]


class Driver(Protocol):
    def table(self) -> Table:
        """What the seat sees now."""
        ...

    async def start(self, notify: Notify) -> None:
        """Begin (deal, connect, load); call ``notify`` whenever the table changes."""
        ...

    async def act(self, action: str) -> None:
        """Play an action text (``draw``, ``meld 5H 6H 7H``, ...); a refusal lands in the table."""
        ...

    async def undo(self) -> None: ...

    async def forward(self) -> None:
        """The next hand (after one ends), or the next move of a replay."""
        ...

    async def back(self) -> None:
        """A replay's previous move (nothing elsewhere)."""
        ...

    async def jump(self, at: int) -> None:
        """A replay: go to move ``at`` (clamped; nothing elsewhere)."""
        ...

    async def switch_seat(self) -> None:
        """A replay: look from the next seat (nothing elsewhere)."""
        ...

    async def close(self) -> None: ...
