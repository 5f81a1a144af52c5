"""The score pad saved to an account: what a sheet must look like, and its SQL.

The pad computes every score in the browser (``web/src/scorepad``); the server keeps
the account's sheets as the pad wrote them, so that another browser logged in to the
same account finds them.  It checks only what keeps the store bounded and the rows
well formed: the id, the size, the count, the sheet's outline.  Of two versions of a
sheet the later ``updated`` (milliseconds, the writing browser's clock) wins.
"""

from __future__ import annotations

import json
import re
import time
from typing import Any

from sqlalchemy import Connection, delete, func, insert, select, update

from burraco.accounts.models import PadSheetRow
from burraco.infra.schema import Base

SHEET_BYTES = 32 * 1024
"""A sheet (compact JSON) at most this big: a long match card by card is a few KiB."""
MAX_SHEETS = 200
"""Sheets one account may keep."""
MAX_NAMES = 6
NAME_CHARS = 40
MAX_HANDS = 300
FUTURE_MS = 24 * 3600 * 1000
"""How far ahead of the server's clock an ``updated`` may be (clocks differ a little)."""
ID = re.compile(r"^[A-Za-z0-9_-]{1,32}$")

_SHEETS = Base.metadata.tables["scorepad_sheets"]


class PadError(Exception):
    """Bad input: nothing is stored.  ``status`` 413 (too big) or 422 (anything else)."""

    def __init__(self, status: int, code: str, field: str, detail: str) -> None:
        super().__init__(detail)
        self.status, self.code, self.field, self.detail = status, code, field, detail


class Stale(Exception):
    """The account keeps a later version of the sheet (it is kept, the newer wins)."""

    def __init__(self, current: dict[str, Any]) -> None:
        super().__init__("stale")
        self.current = current


def check_id(sheet_id: str) -> str:
    if not ID.match(sheet_id):
        raise PadError(422, "bad_request", "id", "id: 1 to 32 letters, digits, '-' or '_'")
    return sheet_id


def check_put(sheet_id: str, updated: int, sheet: dict[str, Any],
              now_ms: int | None = None) -> str:
    """The sheet as stored (compact JSON), or :class:`PadError` naming the field."""
    check_id(sheet_id)
    now = int(time.time() * 1000) if now_ms is None else now_ms
    if not 0 <= updated <= now + FUTURE_MS:
        raise PadError(422, "bad_request", "updated", "updated: milliseconds since the "
                       "epoch, not negative and not more than a day ahead of the server")
    text = json.dumps(sheet, separators=(",", ":"), ensure_ascii=False)
    if len(text.encode()) > SHEET_BYTES:
        raise PadError(413, "too_large", "sheet",
                       f"sheet: larger than {SHEET_BYTES} bytes as JSON")
    if sheet.get("version") != 1:
        raise PadError(422, "bad_request", "sheet.version", "sheet.version: must be 1")
    if sheet.get("id") != sheet_id:
        raise PadError(422, "bad_request", "sheet.id",
                       "sheet.id: must be the id of the address")
    names = sheet.get("names")
    if not (isinstance(names, list) and 2 <= len(names) <= MAX_NAMES and all(
            isinstance(n, str) and 0 < len(n) <= NAME_CHARS for n in names)):
        raise PadError(422, "bad_request", "sheet.names", f"sheet.names: 2 to {MAX_NAMES} "
                       f"names of 1 to {NAME_CHARS} characters")
    hands = sheet.get("hands")
    if not (isinstance(hands, list) and len(hands) <= MAX_HANDS
            and all(isinstance(h, dict) for h in hands)):
        raise PadError(422, "bad_request", "sheet.hands",
                       f"sheet.hands: a list of at most {MAX_HANDS} hands (objects)")
    for field in ("created", "preset", "mode"):
        if not isinstance(sheet.get(field), str):
            raise PadError(422, "bad_request", f"sheet.{field}", f"sheet.{field}: a string")
    return text


def sheets(conn: Connection, player_id: str) -> list[dict[str, Any]]:
    """The account's sheets, the latest changed first."""
    rows = conn.execute(select(PadSheetRow.sheet_id, PadSheetRow.updated, PadSheetRow.sheet)
                        .where(PadSheetRow.player_id == player_id)
                        .order_by(PadSheetRow.updated.desc(), PadSheetRow.sheet_id))
    return [{"id": r.sheet_id, "updated": r.updated, "sheet": r.sheet} for r in rows]


def put(conn: Connection, player_id: str, sheet_id: str, updated: int, text: str) -> bool:
    """Keep the sheet unless a later one is kept (:class:`Stale`); ``True``: a new sheet.

    Runs in the single writer, so the count and the write cannot race."""
    row = conn.execute(select(PadSheetRow.updated, PadSheetRow.sheet).where(
        PadSheetRow.player_id == player_id, PadSheetRow.sheet_id == sheet_id)).first()
    values = {"updated": updated, "size": len(text.encode()), "sheet": json.loads(text)}
    if row is not None:
        if row.updated > updated:
            raise Stale({"id": sheet_id, "updated": row.updated, "sheet": row.sheet})
        conn.execute(update(_SHEETS).where(_SHEETS.c.player_id == player_id,
                                           _SHEETS.c.sheet_id == sheet_id).values(**values))
        return False
    count = conn.scalar(select(func.count()).select_from(_SHEETS).where(
        _SHEETS.c.player_id == player_id)) or 0
    if count >= MAX_SHEETS:
        raise PadError(422, "too_many_sheets", "id", f"id: the account keeps {MAX_SHEETS} "
                       "sheets already (delete some first)")
    conn.execute(insert(_SHEETS).values(player_id=player_id, sheet_id=sheet_id, **values))
    return True


def remove(conn: Connection, player_id: str, sheet_id: str) -> bool:
    gone = conn.execute(delete(_SHEETS).where(_SHEETS.c.player_id == player_id,
                                              _SHEETS.c.sheet_id == sheet_id))
    return bool(gone.rowcount)
