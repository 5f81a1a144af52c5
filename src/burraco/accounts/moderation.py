"""Moderation: roles, players' reports, and the moderators' actions (the sanctions).

* **Roles** (``admin``, ``moderator``) are given and taken on the server's machine only
  (``burraco admin grant|revoke``), each with who and why.
* **Reports**: an account reports another from a table, a profile or a quick message, with a
  reason; the queue shows moderators each open report with its evidence.
* **Sanctions**: a moderator warns, mutes (no quick messages, no challenges), suspends from
  rated play, bans, renames an insulting username, or lifts an earlier sanction; each row
  says who, why and until when, and the rows are the log.  The person sees the kind, the
  reason and the end (never the moderator's name).

Nothing here shows a person's password hash, session tokens or recovery codes.
"""

from __future__ import annotations

import time
from typing import Any

from sqlalchemy import Connection, Row, delete, func, insert, or_, select, update

from burraco.accounts.identity import new_id
from burraco.accounts.models import AccountRow, MatchRow, SessionRow
from burraco.accounts.names import FieldError, check_username, username_key
from burraco.accounts.trust_models import NameHoldRow, ReportRow, RoleRow, SanctionRow

ROLES = ("admin", "moderator")
REASONS = ("cheating", "abuse", "name", "abandon", "other")
CONTEXTS = ("table", "profile", "message")
ACTIONS = ("warn", "mute", "suspend", "ban", "rename", "lift")
LASTING = ("mute", "suspend", "ban")
"""The actions that last until a date (a ban may last for ever)."""
MAX_DAYS = 3650
WARNINGS_SHOWN = 30 * 24 * 3600.0
"""How long a person's page shows a warning."""


class ModerationError(Exception):
    """Refused: ``status`` and ``code`` for HTTP, ``field`` when bad input."""

    def __init__(self, status: int, code: str, detail: str, field: str | None = None) -> None:
        super().__init__(detail)
        self.status, self.code, self.detail, self.field = status, code, detail, field


def check_reason(raw: object, field: str = "reason") -> str:
    """A moderator's or an administrator's reason: 3 to 500 characters of words."""
    if not isinstance(raw, str):
        raise FieldError(field, "expected a string")
    text = " ".join(raw.split())
    if not 3 <= len(text) <= 500:
        raise FieldError(field, "say why, in 3 to 500 characters")
    return text


# --- roles ---------------------------------------------------------------------------------

def roles_of(conn: Connection, player_id: str) -> list[str]:
    return sorted(conn.scalars(select(RoleRow.role).where(RoleRow.player_id == player_id)))


def is_moderator(conn: Connection, player_id: str) -> bool:
    return bool(roles_of(conn, player_id))


def grant(conn: Connection, player_id: str, role: str, by: str, reason: str) -> bool:
    """Give a role (False: it was held already)."""
    if role not in ROLES:
        raise FieldError("role", f"one of {', '.join(ROLES)}")
    if role in roles_of(conn, player_id):
        return False
    conn.execute(insert(RoleRow).values(player_id=player_id, role=role, granted_by=by,
                                        reason=check_reason(reason), at=time.time()))
    _log(conn, player_id, "role", f"{by}: {reason}", by, detail=f"+{role}")
    return True


def revoke(conn: Connection, player_id: str, role: str, by: str, reason: str) -> bool:
    check_reason(reason)
    done = conn.execute(delete(RoleRow).where(RoleRow.player_id == player_id,
                                                         RoleRow.role == role))
    if done.rowcount:
        _log(conn, player_id, "role", reason, by, detail=f"-{role}")
    return bool(done.rowcount)


def staff(conn: Connection) -> list[dict[str, Any]]:
    rows = conn.execute(select(RoleRow.player_id, RoleRow.role, RoleRow.granted_by,
                               RoleRow.reason, RoleRow.at, AccountRow.username)
                        .join(AccountRow, AccountRow.player_id == RoleRow.player_id)
                        .order_by(AccountRow.username_key, RoleRow.role))
    return [dict(row._mapping) for row in rows]


# --- reports -------------------------------------------------------------------------------

def report(conn: Connection, reporter: str, target: str, reason: str, text: str,
           context: str, table_id: str | None, message: str | None) -> str:
    report_id = new_id()
    conn.execute(insert(ReportRow).values(
        report_id=report_id, reporter=reporter, target=target, reason=reason, text=text,
        context=context, table_id=table_id, message=message, created=time.time(),
        status="open"))
    return report_id


def _names(conn: Connection, ids: set[str]) -> dict[str, str]:
    if not ids:
        return {}
    rows = conn.execute(select(AccountRow.player_id, AccountRow.username)
                        .where(AccountRow.player_id.in_(ids)))
    return {str(pid): str(name) for pid, name in rows}


def _match(conn: Connection, table_id: str | None) -> dict[str, Any] | None:
    if not table_id:
        return None
    row = conn.execute(select(MatchRow.__table__).where(MatchRow.table_id == table_id)).first()
    if row is None:
        return None
    return {"table_id": row.table_id, "form": row.form, "rated": row.rated,
            "finished_at": row.finished_at, "hands": row.hands, "winner": row.winner,
            "scores": row.scores,
            "seats": [{k: seat.get(k) for k in ("seat", "side", "name", "bot")}
                      for seat in row.seats]}


def queue(conn: Connection, status: str, limit: int = 200) -> list[dict[str, Any]]:
    """The reports of a status, oldest open first (newest first once closed), each with its
    evidence and what the target has had before."""
    order = ReportRow.created.asc() if status == "open" else ReportRow.created.desc()
    rows = list(conn.execute(select(ReportRow.__table__).where(ReportRow.status == status)
                             .order_by(order).limit(limit)))
    names = _names(conn, {r.reporter for r in rows} | {r.target for r in rows})
    out = []
    for row in rows:
        match = _match(conn, row.table_id)
        out.append({
            "report_id": row.report_id, "reason": row.reason, "text": row.text,
            "context": row.context, "table_id": row.table_id, "message": row.message,
            "created": row.created, "status": row.status, "outcome": row.outcome,
            "handled_at": row.handled_at,
            "reporter": {"username": names.get(row.reporter, "deleted player")},
            "target": {"username": names.get(row.target, "deleted player"),
                       "player_id": row.target},
            "evidence": {"match": match,
                         "replay": f"/replay/{row.table_id}" if match is not None else None,
                         "messages": [row.message] if row.message else []},
            "target_sanctions": history(conn, row.target),
            "target_reports": int(conn.scalar(select(func.count()).select_from(ReportRow)
                                              .where(ReportRow.target == row.target)) or 0),
        })
    return out


def close(conn: Connection, report_id: str, moderator: str, outcome: str) -> bool:
    done = conn.execute(update(ReportRow).where(ReportRow.report_id == report_id,
                                                ReportRow.status == "open").values(
        status="closed", handled_by=moderator, handled_at=time.time(), outcome=outcome))
    return bool(done.rowcount)


def report_exists(conn: Connection, report_id: str) -> bool:
    return conn.scalar(select(ReportRow.report_id).where(
        ReportRow.report_id == report_id)) is not None


# --- sanctions -----------------------------------------------------------------------------

def _log(conn: Connection, player_id: str, kind: str, reason: str, moderator: str, *,
         until: float | None = None, report_id: str | None = None,
         detail: str | None = None) -> dict[str, Any]:
    row = {"sanction_id": new_id(), "player_id": player_id, "kind": kind, "reason": reason,
           "moderator": moderator, "at": time.time(), "until": until, "lifted_at": None,
           "report_id": report_id, "detail": detail}
    conn.execute(insert(SanctionRow).values(**row))
    return row


def act(conn: Connection, moderator: str, target: str, action: str, reason: str,
        days: float | None, new_username: str | None, report_id: str | None
        ) -> dict[str, Any]:
    """Carry out a checked action (the caller checked the fields); the sanction's row.
    A rename of a name that is taken or held is refused (:class:`ModerationError`)."""
    now = time.time()
    until = None if days is None else now + days * 24 * 3600
    detail = None
    if action == "rename":
        assert new_username is not None
        key = username_key(new_username)
        old = conn.scalar(select(AccountRow.username).where(AccountRow.player_id == target))
        taken = conn.scalar(select(AccountRow.player_id).where(
            AccountRow.username_key == key, AccountRow.player_id != target))
        held = conn.scalar(select(NameHoldRow.until).where(NameHoldRow.username_key == key,
                                                           NameHoldRow.until > now))
        if taken or held:
            raise ModerationError(409, "username_taken", f"the username {new_username!r} "
                                  "is taken", field="new_username")
        conn.execute(update(AccountRow).where(AccountRow.player_id == target).values(
            username=new_username, username_key=key))
        detail = f"{old} -> {new_username}"
    elif action == "lift":
        lifted = conn.execute(update(SanctionRow).where(
            SanctionRow.player_id == target, SanctionRow.kind.in_(LASTING),
            SanctionRow.lifted_at.is_(None),
            or_(SanctionRow.until.is_(None), SanctionRow.until > now)).values(lifted_at=now))
        detail = f"{lifted.rowcount} lifted"
    row = _log(conn, target, action, reason, moderator, until=until, report_id=report_id,
               detail=detail)
    if report_id is not None:
        close(conn, report_id, moderator, f"{action}: {reason}")
    return row


def in_force(conn: Connection, player_id: str, now: float | None = None
             ) -> list[dict[str, Any]]:
    """What a person sees of their sanctions: the mutes, suspensions and bans in force, and
    the warnings of the last 30 days (kind, reason, when, until)."""
    now = time.time() if now is None else now
    rows = conn.execute(select(SanctionRow.kind, SanctionRow.reason, SanctionRow.at,
                               SanctionRow.until).where(
        SanctionRow.player_id == player_id, SanctionRow.lifted_at.is_(None),
        or_(SanctionRow.kind.in_(LASTING) & (SanctionRow.until.is_(None)
                                             | (SanctionRow.until > now)),
            (SanctionRow.kind == "warn") & (SanctionRow.at > now - WARNINGS_SHOWN)))
        .order_by(SanctionRow.at.desc()))
    return [dict(row._mapping) for row in rows]


def lasting(conn: Connection, player_id: str, kind: str, now: float | None = None
            ) -> dict[str, Any] | None:
    """The ``kind`` sanction in force that ends last (``None``: none)."""
    found = [s for s in in_force(conn, player_id, now) if s["kind"] == kind]
    if not found:
        return None
    return max(found, key=lambda s: float("inf") if s["until"] is None else s["until"])


def history(conn: Connection, player_id: str) -> list[dict[str, Any]]:
    rows = conn.execute(select(SanctionRow.__table__).where(SanctionRow.player_id == player_id)
                        .order_by(SanctionRow.at.desc()).limit(50))
    return [_shown(row, None) for row in rows]


def _shown(row: Row[Any], names: dict[str, str] | None) -> dict[str, Any]:
    names = names or {}
    return {"sanction_id": row.sanction_id, "player_id": row.player_id,
            "username": names.get(row.player_id), "kind": row.kind, "reason": row.reason,
            "moderator": names.get(row.moderator, row.moderator), "at": row.at,
            "until": row.until, "lifted_at": row.lifted_at, "detail": row.detail,
            "report_id": row.report_id}


def log(conn: Connection, limit: int = 200) -> list[dict[str, Any]]:
    """Every action, newest first, with the names of the person and the moderator."""
    rows = list(conn.execute(select(SanctionRow.__table__).order_by(SanctionRow.at.desc())
                             .limit(limit)))
    names = _names(conn, {r.player_id for r in rows} | {r.moderator for r in rows})
    return [_shown(row, names) for row in rows]


def target_of(conn: Connection, username: object, field: str = "username") -> str:
    """The player id of an account named ``username``; 404 when there is none."""
    name = check_username(username, field)
    pid = conn.scalar(select(AccountRow.player_id).where(
        AccountRow.username_key == username_key(name)))
    if pid is None:
        raise ModerationError(404, "player_not_found", "no player of that name", field=field)
    return str(pid)


def sessions_of(conn: Connection, player_id: str, *, end: bool) -> list[str]:
    """The ids of the person's sessions; ``end``: deleted too (a ban)."""
    ids = list(conn.scalars(select(SessionRow.id).where(SessionRow.player_id == player_id)))
    if end and ids:
        conn.execute(delete(SessionRow).where(SessionRow.player_id == player_id))
    return ids
