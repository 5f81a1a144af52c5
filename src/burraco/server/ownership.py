"""What the hub and the gateway ask of the cluster (``--redis``): which process owns a table.

The cluster's node (:mod:`burraco.server.cluster.node`) stands above the hub and the gateway
(it forwards connections through them); they know it only by this protocol, and the server's
assembly (:func:`burraco.server.assembly.new_hub`) plugs it in.  A server of one process has
none: every table is its own.
"""

from __future__ import annotations

from typing import Any, Protocol

from starlette.websockets import WebSocket

from burraco.server.protocol import Hello


class Ownership(Protocol):
    node_id: str
    owned: dict[str, str]
    """The tables this process holds a lease on (table id: lease token)."""
    clocks: dict[str, tuple[object, float]]
    """Turn clocks handed over by a process that gave a table up, by table id."""
    cut_off: bool
    """The link to Redis is lost: this process serves nobody until it is back."""

    async def start(self) -> None: ...

    async def drain(self) -> None: ...

    def health(self) -> dict[str, Any]: ...

    @property
    def retry_after(self) -> int: ...

    def stale(self, table_id: str) -> None: ...

    def remember_clock(self, table_id: str, key: object, deadline: float | None) -> None: ...

    def reveal(self, table_id: str, number: int, reveal: dict[str, Any]) -> None: ...

    async def claim_new(self, table_id: str) -> str: ...

    async def balance_new(self, table_ids: list[str]) -> None: ...

    async def serve(self, ws: WebSocket, conn: Any, table_id: str, hello: Hello,
                    guest_token: str | None) -> None: ...
