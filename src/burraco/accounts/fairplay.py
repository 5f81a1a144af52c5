"""Fair play at rated tables: who abandoned a match, and how long they wait afterwards.

A seat abandoned the match when, by the stored commands (the same log recovery
replays, so the verdict never depends on memory):

* ``left``: a stand-in played for it, i.e. the player closed the page and did not
  come back within the table's grace time; or
* ``clock``: the turn clock ran out on it ``CLOCK_STRIKES`` times (each timeout ends
  with the clock's discard).

Each abandonment brings a wait before the next rated match, longer the more
abandonments the player has in the last ``MEMORY`` seconds: minutes at first, a
day at most (as the largest open game servers do).
"""

from __future__ import annotations

import time
from typing import Any

from sqlalchemy import Connection, select

from burraco.accounts.models import PenaltyRow
from burraco.accounts.trust_models import SanctionRow

CLOCK_STRIKES = 3
MEMORY = 30 * 24 * 3600.0
WAITS = (5 * 60.0, 30 * 60.0, 2 * 3600.0, 8 * 3600.0, 24 * 3600.0)
"""The wait after the 1st, 2nd, ... abandonment within ``MEMORY`` (the last one repeats)."""


def abandonments(commands: list[dict[str, Any]], human_seats: list[int]) -> dict[int, str]:
    """``{seat: reason}`` of the human seats that abandoned the match."""
    out: dict[int, str] = {}
    strikes = dict.fromkeys(human_seats, 0)
    for command in commands:
        seat = command["seat"]
        if seat not in strikes:
            continue
        if command["source"] == "standin":
            out.setdefault(seat, "left")
        elif command["source"] == "clock" and str(command["body"].get("action", "")
                                                  ).startswith("discard"):
            strikes[seat] += 1
    for seat, count in strikes.items():
        if count >= CLOCK_STRIKES:
            out.setdefault(seat, "clock")
    return out


def wait_after(previous: int) -> float:
    """Seconds of wait after an abandonment that follows ``previous`` recent ones."""
    return WAITS[min(previous, len(WAITS) - 1)]


REASONS = {
    "left": "left a rated match and did not come back within the grace time",
    "clock": f"let the turn clock run out {CLOCK_STRIKES} times in a rated match",
}


SUSPENDED = "suspended"
FOR_EVER = 4102444800.0
"""2100-01-01: the end shown for a ban without one."""


def active_wait(conn: Connection, pid: str, now: float | None = None) -> dict[str, Any] | None:
    """The wait a player must sit out before the next rated match (``None``: none): a
    moderator's suspension from rated play (or a ban), else an abandonment's wait."""
    now = time.time() if now is None else now
    sanction = conn.execute(
        select(SanctionRow.reason, SanctionRow.until).where(
            SanctionRow.player_id == pid, SanctionRow.kind.in_(("suspend", "ban")),
            SanctionRow.lifted_at.is_(None),
            SanctionRow.until.is_(None) | (SanctionRow.until > now))
        .order_by(SanctionRow.until.is_(None).desc(), SanctionRow.until.desc()).limit(1)).first()
    if sanction is not None:
        return {"reason": SUSPENDED, "why": f"are suspended from rated play by a moderator: "
                f"{sanction.reason}", "until": sanction.until or FOR_EVER, "table_id": None}
    row = conn.execute(select(PenaltyRow.reason, PenaltyRow.until, PenaltyRow.table_id)
                       .where(PenaltyRow.player_id == pid, PenaltyRow.until > now)
                       .order_by(PenaltyRow.until.desc()).limit(1)).first()
    if row is None:
        return None
    return {"reason": row.reason, "why": REASONS.get(row.reason, row.reason),
            "until": row.until, "table_id": row.table_id}
