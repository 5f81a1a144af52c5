"""Where a table card's QR codes lead: a function ``(round, table) -> (ns_url, ew_url)``.

The paper only needs such a function; the result-entry desk makes the signed links
(:meth:`burraco.tournament.table_desk.Desk.link_builder`).  Round :data:`EVENING` (0, no
round's number) asks for a table's evening links, which open its round in play, whichever
it is: the cards printed before round 1 carry them.
"""

from __future__ import annotations

from collections.abc import Callable

LinkBuilder = Callable[[int, int], tuple[str, str]]
EVENING = 0
"""The round number that asks for a table's evening links (no round is numbered 0)."""
