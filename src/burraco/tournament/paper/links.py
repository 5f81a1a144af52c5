"""Where a table card's QR codes lead: a function ``(round, table) -> (ns_url, ew_url)``.

The paper only needs such a function; the result-entry desk makes the signed links
(:meth:`burraco.tournament.table_desk.Desk.link_builder`).
"""

from __future__ import annotations

from collections.abc import Callable

LinkBuilder = Callable[[int, int], tuple[str, str]]
