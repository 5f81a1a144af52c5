"""The club evenings' members and the online club they belong to.

The director names the online club (:mod:`burraco.accounts.clubs`) of the members list
(:mod:`.members`): ``link``.  From then on the online club's admins see which members have
an account and whether each is in the club (``evening_members``), and may invite, in one
go, every one who is not (``app/club_routes.py``): so a real club's members find each other
between evenings, in the club's own lobby and leaderboard.  Naming the club gives the
director no power over it: inviting stays its admins' act, and a member may decline.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import Connection, delete, insert, select

from burraco.accounts.models import AccountRow, ClubMemberRow, ClubRow
from burraco.tournament.errors import TournamentError, excerpt
from burraco.tournament.i18n import Text
from burraco.tournament.members import has_table
from burraco.tournament.storage import MemberRow, OnlineClubRow


def linked_club(conn: Connection) -> str | None:
    """The online club named for the members, if any (and if this database has one)."""
    if not has_table(conn, OnlineClubRow.__tablename__):
        return None
    return conn.scalar(select(OnlineClubRow.club_id).where(OnlineClubRow.id == 1))


def link(conn: Connection, club_id: str) -> str | None:
    """Name the members' online club by its address (``""``: none); the club's name."""
    club_id = club_id.strip().lower()
    conn.execute(delete(OnlineClubRow))
    if not club_id:
        return None
    name = conn.scalar(select(ClubRow.name).where(ClubRow.club_id == club_id)) \
        if has_table(conn, "clubs") else None
    if name is None:
        raise TournamentError(Text("error.no_online_club", club=excerpt(club_id)))
    conn.execute(insert(OnlineClubRow).values(id=1, club_id=club_id))
    return str(name)


def evening_members(conn: Connection, club_id: str) -> list[dict[str, Any]] | None:
    """The members with an account and each one's place in the club (``None``: not in it
    yet), when the members are linked to ``club_id``; else ``None``."""
    if linked_club(conn) != club_id:
        return None
    roles = {r.player_id: r.role for r in conn.execute(
        select(ClubMemberRow.player_id, ClubMemberRow.role).where(
            ClubMemberRow.club_id == club_id))}
    rows = conn.execute(
        select(MemberRow.number, MemberRow.name, AccountRow.player_id, AccountRow.username)
        .join(AccountRow, AccountRow.player_id == MemberRow.player_id)
        .order_by(MemberRow.name))
    return [{"number": r.number, "name": r.name, "username": r.username,
             "player_id": r.player_id, "role": roles.get(r.player_id)} for r in rows]
