"""Online clubs: any account founds one; its admins take members in; its own leaderboard.

A club has a name (unique in any case; its address is the name in lower case, letters and
digits joined by ``-``), a description, and is *public* (anyone joins at once) or *by
invitation* (an admin invites and the player accepts, or the player asks and an admin
accepts).  Roles: the ``founder`` (one; appoints and demotes admins, cannot leave), the
``admin`` (invites, accepts, removes members), the ``member``; a row may also be a
pending ``invited`` or ``asked``.  What others see: any club's name, description, kind
and size; the members and the leaderboard of a club by invitation only its members.

Every operation checks everything before it writes: a refusal (:class:`ClubError`, with
the HTTP status, a code and the field at fault) changes nothing.
"""

from __future__ import annotations

import re
import time
import unicodedata
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, delete, func, insert, select, update

from burraco.accounts import avatars
from burraco.accounts.models import AccountRow, ClubMemberRow, ClubRow, RatingRow
from burraco.accounts.names import FieldError
from burraco.accounts.ratings import FORMS, shown
from burraco.accounts.social import account_named, is_blocked_between

NAME = re.compile(r"[\w][\w '&.\-]{1,38}[\w.]")
"""3–40 characters: letters, digits, spaces, ``' & . -``; no markup."""
MAX_DESCRIPTION = 500
MAX_CLUBS = 20
"""Clubs one account may belong to (founded, joined, invited or asked)."""
MEMBERS = ("founder", "admin", "member")
ADMINS = ("founder", "admin")


class ClubError(Exception):
    def __init__(self, status: int, code: str, detail: str, field: str | None = None) -> None:
        super().__init__(detail)
        self.status, self.code, self.detail, self.field = status, code, detail, field


@dataclass(frozen=True, slots=True)
class Club:
    club_id: str
    name: str
    description: str
    public: bool
    members: int

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.club_id, "name": self.name, "description": self.description,
                "public": self.public, "members": self.members}


def club_address(name: str) -> str:
    plain = unicodedata.normalize("NFKD", name.casefold())
    text = "".join(c for c in plain if not unicodedata.combining(c))
    return re.sub(r"[^a-z0-9]+", "-", text).strip("-")[:40] or "club"


def check_club(name: object, description: object, public: object) -> tuple[str, str, bool]:
    if not isinstance(name, str) or not NAME.fullmatch(" ".join(name.split())):
        raise ClubError(422, "bad_request", "a club's name is 3 to 40 letters, digits, spaces "
                        "or ' & . - (no markup)", "name")
    if not isinstance(description, str) or len(description) > MAX_DESCRIPTION \
            or "<" in description or ">" in description:
        raise ClubError(422, "bad_request", f"a description is text of at most "
                        f"{MAX_DESCRIPTION} characters, without < or >", "description")
    if not isinstance(public, bool):
        raise ClubError(422, "bad_request", "public is true or false", "public")
    return " ".join(name.split()), description.strip(), public


def _role(conn: Connection, club_id: str, player_id: str) -> str | None:
    return conn.scalar(select(ClubMemberRow.role).where(
        ClubMemberRow.club_id == club_id, ClubMemberRow.player_id == player_id))


def _club(conn: Connection, club_id: object) -> Any:
    """The club's row (its columns by name)."""
    row = conn.execute(select(ClubRow.__table__).where(ClubRow.club_id == club_id)).first() \
        if isinstance(club_id, str) else None
    if row is None:
        raise ClubError(404, "not_found", f"no club {str(club_id)!r:.50}", "club")
    return row


def _size(conn: Connection, club_id: str) -> int:
    return int(conn.scalar(select(func.count()).select_from(ClubMemberRow).where(
        ClubMemberRow.club_id == club_id, ClubMemberRow.role.in_(MEMBERS))) or 0)


def _room_for(conn: Connection, player_id: str) -> None:
    held = conn.scalar(select(func.count()).select_from(ClubMemberRow).where(
        ClubMemberRow.player_id == player_id)) or 0
    if held >= MAX_CLUBS:
        raise ClubError(422, "too_many_clubs", f"a player belongs to at most {MAX_CLUBS} "
                        "clubs (leave one first)", "club")


def _put(conn: Connection, club_id: str, player_id: str, role: str) -> None:
    conn.execute(delete(ClubMemberRow).where(ClubMemberRow.club_id == club_id,
                                             ClubMemberRow.player_id == player_id))
    conn.execute(insert(ClubMemberRow).values(club_id=club_id, player_id=player_id, role=role,
                                              since=time.time()))


def found(conn: Connection, me: str, name: object, description: object,
          public: object) -> Club:
    clean, text, is_public = check_club(name, description, public)
    key = clean.casefold()
    if conn.scalar(select(ClubRow.club_id).where(ClubRow.name_key == key)) is not None:
        raise ClubError(409, "name_taken", f"a club is called {clean!r} already", "name")
    base = club_address(clean)
    club_id, n = base, 1
    while conn.scalar(select(ClubRow.club_id).where(ClubRow.club_id == club_id)) is not None:
        n += 1
        club_id = f"{base[:36]}-{n}"
    _room_for(conn, me)
    conn.execute(insert(ClubRow).values(club_id=club_id, name=clean, name_key=key,
                                        description=text, public=is_public, founder=me,
                                        created=time.time()))
    _put(conn, club_id, me, "founder")
    return Club(club_id, clean, text, is_public, 1)


def clubs_for(conn: Connection, me: str | None) -> list[dict[str, Any]]:
    """The public clubs and those ``me`` is in (or invited to, or asked), largest first."""
    mine = {} if me is None else dict(conn.execute(select(
        ClubMemberRow.club_id, ClubMemberRow.role).where(ClubMemberRow.player_id == me)).all())
    rows = conn.execute(select(ClubRow.__table__).where(
        ClubRow.public.is_(True) | ClubRow.club_id.in_(list(mine))))
    out = []
    for row in rows:
        club = Club(row.club_id, row.name, row.description, row.public,
                    _size(conn, row.club_id))
        out.append({**club.to_dict(), "role": mine.get(row.club_id)})
    return sorted(out, key=lambda c: (-c["members"], c["name"].casefold()))


def view(conn: Connection, me: str | None, club_id: object) -> dict[str, Any]:
    """A club as ``me`` may see it: the members and leaderboard only to members of a club
    by invitation."""
    row = _club(conn, club_id)
    role = _role(conn, row.club_id, me) if me else None
    out: dict[str, Any] = {**Club(row.club_id, row.name, row.description, row.public,
                                  _size(conn, row.club_id)).to_dict(), "role": role}
    if row.public or role in MEMBERS:
        people = conn.execute(select(ClubMemberRow.player_id, ClubMemberRow.role,
                                     AccountRow.username, AccountRow.avatar)
                              .join(AccountRow, AccountRow.player_id == ClubMemberRow.player_id)
                              .where(ClubMemberRow.club_id == row.club_id))
        listed = [{"username": p.username, "avatar": avatars.shown(p.player_id, p.avatar),
                   "role": p.role} for p in people]
        out["members_list"] = sorted([m for m in listed if m["role"] in MEMBERS],
                                     key=lambda m: (MEMBERS.index(m["role"]),
                                                    m["username"].casefold()))
        if role in ADMINS:
            out["pending"] = sorted([m for m in listed if m["role"] not in MEMBERS],
                                    key=lambda m: m["username"].casefold())
        out["leaderboard"] = {form: leaderboard(conn, row.club_id, form) for form in FORMS}
    return out


def member_ids(conn: Connection, club_id: object) -> dict[str, str]:
    """The club's members (not the pending): username → player id."""
    row = _club(conn, club_id)
    return {r.username: r.player_id for r in conn.execute(
        select(AccountRow.username, ClubMemberRow.player_id)
        .join(AccountRow, AccountRow.player_id == ClubMemberRow.player_id)
        .where(ClubMemberRow.club_id == row.club_id, ClubMemberRow.role.in_(MEMBERS)))}


def leaderboard(conn: Connection, club_id: str, form: str) -> list[dict[str, Any]]:
    """The members' ratings in ``form``, best first (members with a rated match only)."""
    rows = conn.execute(select(AccountRow.username, RatingRow.mu, RatingRow.matches)
                        .join(ClubMemberRow, ClubMemberRow.player_id == RatingRow.player_id)
                        .join(AccountRow, AccountRow.player_id == RatingRow.player_id)
                        .where(ClubMemberRow.club_id == club_id,
                               ClubMemberRow.role.in_(MEMBERS), RatingRow.form == form)
                        .order_by(RatingRow.mu.desc(), AccountRow.username_key))
    return [{"rank": k, "username": r.username, "rating": shown(r.mu), "matches": r.matches}
            for k, r in enumerate(rows, start=1)]


def join(conn: Connection, me: str, club_id: object) -> str:
    """Join a public club, accept an invitation, or ask to join a club by invitation; the
    role the player has now."""
    row = _club(conn, club_id)
    role = _role(conn, row.club_id, me)
    if role in MEMBERS:
        return str(role)
    if role == "asked":
        return role
    if role is None:
        _room_for(conn, me)
    new = "member" if row.public or role == "invited" else "asked"
    _put(conn, row.club_id, me, new)
    return new


def leave(conn: Connection, me: str, club_id: object) -> None:
    row = _club(conn, club_id)
    if _role(conn, row.club_id, me) == "founder":
        raise ClubError(409, "founder", "the founder cannot leave the club", "club")
    conn.execute(delete(ClubMemberRow).where(ClubMemberRow.club_id == row.club_id,
                                             ClubMemberRow.player_id == me))


def _admin(conn: Connection, me: str, club_id: object) -> tuple[Any, str]:
    row = _club(conn, club_id)
    role = _role(conn, row.club_id, me)
    if role not in ADMINS:
        raise ClubError(403, "not_admin", "only the club's admins may do this", "club")
    return row, str(role)


def require_admin(conn: Connection, me: str, club_id: object) -> str:
    """The club's id when ``me`` is one of its admins; else a refusal."""
    return str(_admin(conn, me, club_id)[0].club_id)


def _someone(conn: Connection, username: object) -> tuple[str, str]:
    try:
        other = account_named(conn, username)
    except FieldError as exc:
        raise ClubError(422, "bad_request", str(exc), "username") from None
    return other.player_id, other.username


def invite(conn: Connection, me: str, club_id: object, username: object) -> str:
    """An admin invites a player (one who asked becomes a member); the player's role now."""
    row, _ = _admin(conn, me, club_id)
    pid, _name = _someone(conn, username)
    if is_blocked_between(conn, me, pid):
        raise ClubError(403, "blocked", "a block stands between you and this player",
                        "username")
    role = _role(conn, row.club_id, pid)
    if role in MEMBERS:
        return str(role)
    new = "member" if role == "asked" else "invited"
    if role is None:
        _room_for(conn, pid)
    _put(conn, row.club_id, pid, new)
    return new


def accept(conn: Connection, me: str, club_id: object, username: object) -> str:
    row, _ = _admin(conn, me, club_id)
    pid, name = _someone(conn, username)
    if _role(conn, row.club_id, pid) != "asked":
        raise ClubError(409, "not_asked", f"{name} has not asked to join", "username")
    _put(conn, row.club_id, pid, "member")
    return "member"


def remove(conn: Connection, me: str, club_id: object, username: object) -> None:
    """An admin removes a member (or an invitation, or a request); only the founder removes
    an admin, and nobody the founder."""
    row, mine = _admin(conn, me, club_id)
    pid, name = _someone(conn, username)
    role = _role(conn, row.club_id, pid)
    if role is None:
        raise ClubError(404, "not_member", f"{name} is not in the club", "username")
    if role == "founder" or (role == "admin" and mine != "founder"):
        raise ClubError(403, "not_allowed", f"you may not remove {name}", "username")
    conn.execute(delete(ClubMemberRow).where(ClubMemberRow.club_id == row.club_id,
                                             ClubMemberRow.player_id == pid))


def appoint(conn: Connection, me: str, club_id: object, username: object,
            admin: object) -> str:
    """The founder makes a member an admin (``admin`` true) or a member again."""
    row, mine = _admin(conn, me, club_id)
    if mine != "founder":
        raise ClubError(403, "not_founder", "only the founder appoints admins", "club")
    if not isinstance(admin, bool):
        raise ClubError(422, "bad_request", "admin is true or false", "admin")
    pid, name = _someone(conn, username)
    role = _role(conn, row.club_id, pid)
    if role not in ("admin", "member"):
        raise ClubError(409, "not_member", f"{name} is not a member", "username")
    new = "admin" if admin else "member"
    conn.execute(update(ClubMemberRow).where(ClubMemberRow.club_id == row.club_id,
                                             ClubMemberRow.player_id == pid).values(role=new))
    return new
