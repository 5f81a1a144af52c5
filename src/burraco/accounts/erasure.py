"""Leaving: an account deleted, and everything stored about a person given to them.

:func:`erase` deletes an account.  What is the person's alone goes: the account, its
sessions and recovery codes, roles, follows and blocks (both ways), challenges (both ways),
the score pad's sheets, the address hashes, the ratings and their history, the statistics,
the penalties, the weekly and monthly standings, the places in online events, the club
memberships.  A club the person founded passes to its longest-standing admin, else to its
longest-standing member; a club left with nobody is closed.  What other people's records
need stays, anonymised: finished matches keep the seat (and each player's row of the match
keeps its result) so that the others' histories, ratings and the daily duplicate's scores
do not move, and the moderation log keeps its reports and sanctions.  Then every remaining
reference to the player id, in every table of the database (the table server's, the
clubs', the tournaments', found by reflection: no layer above has to register anything),
becomes one new anonymous id, and the names beside it :data:`ANONYMOUS`
(``infra.scrub`` says exactly where).  The username stays held for :data:`HOLD_DAYS`
(``name_holds``): nobody else may register it until then.

The search runs first, outside the single writer (:func:`survey`, a read: it scans every
table), and :func:`erase` then reads again, by key, only the rows it found.

:func:`export` gives every row of every table that names the person's id, without the
secrets (:data:`SECRET_COLUMNS`); the caller withholds the tables that are not the person's
to show whole (a table's raw event log holds every hand's cards) and adds what of them is
public.
"""

from __future__ import annotations

import asyncio
import dataclasses
import time
from collections.abc import Collection, Iterable
from datetime import UTC, date, datetime
from decimal import Decimal
from typing import Any

from sqlalchemy import Connection, MetaData, delete, insert, or_, select, update

from burraco.accounts import avatars, passwords, store
from burraco.accounts.identity import new_id
from burraco.accounts.models import (
    AccountRow,
    AddressSeenRow,
    BlockRow,
    BoardPeriodRow,
    ChallengeRow,
    ClubMemberRow,
    ClubRow,
    FollowRow,
    MatchAddressRow,
    OnlineEventResultRow,
    PadSheetRow,
    PenaltyRow,
    PlayerStatRow,
    RatingHistoryRow,
    RatingRow,
    SessionRow,
)
from burraco.accounts.names import username_key
from burraco.accounts.service import BadLogin, Players
from burraco.accounts.sessions import Session
from burraco.accounts.trust_models import NameHoldRow, RecoveryCodeRow, RoleRow
from burraco.infra import scrub

ANONYMOUS = "deleted player"
"""What a deleted account's name becomes wherever it was shown beside its id."""
HOLD_DAYS = 30
"""How long a deleted account's username stays held."""

NAME_KEYS = frozenset({"name", "nickname", "username", "seats"})
"""JSON keys whose value is a player's name (beside the player id: a match's seats, a
seat's claim; alone: a seat taken) or a list of names (a hand record's seats)."""
NAME_COLUMNS = frozenset({"nickname", "username"})
TEXT_COLUMNS = frozenset({"text", "reason", "detail", "outcome", "description"})
"""Free text in which the username is replaced as a word, in rows about the person (a
report's words, a sanction's reason, a rename's old and new names)."""
KEPT = frozenset({"name_holds", "alembic_version", "alembic_version_tournament"})
"""Tables never rewritten: the held name is held on purpose."""
SECRET_COLUMNS = frozenset({"password_hash", "secret_hash", "code_hash"})
"""Never exported: they would help whoever reads the file to guess a password or a code."""

OWN = (SessionRow.player_id, RecoveryCodeRow.player_id, RoleRow.player_id,
       FollowRow.follower, FollowRow.followed, BlockRow.blocker, BlockRow.blocked,
       ChallengeRow.challenger, ChallengeRow.challenged, PadSheetRow.player_id,
       AddressSeenRow.player_id, MatchAddressRow.player_id, RatingRow.player_id,
       RatingHistoryRow.player_id, PlayerStatRow.player_id, PenaltyRow.player_id,
       BoardPeriodRow.player_id, OnlineEventResultRow.player_id, ClubMemberRow.player_id)
"""The rows that are the person's alone, deleted (by the column that names them)."""

SECRETS_NOTE = ("Secrets are left out: the password's hash, the sessions' secret hashes and "
                "the recovery codes' hashes.")


@dataclasses.dataclass(frozen=True, slots=True)
class Survey:
    """The rows of every table that name a person (found outside the writer)."""

    metadata: MetaData
    rows: dict[str, list[dict[str, Any]]]


def survey(conn: Connection, player_id: str, names: Iterable[str]) -> Survey:
    metadata = scrub.reflected(conn)
    return Survey(metadata, scrub.rows_naming(conn, metadata, [player_id, *names], skip=KEPT))


def hold(conn: Connection, username: str, now: float) -> None:
    """Hold ``username`` for :data:`HOLD_DAYS`; holds that have ended are dropped."""
    key = username_key(username)
    conn.execute(delete(NameHoldRow).where(or_(NameHoldRow.until <= now,
                                               NameHoldRow.username_key == key)))
    conn.execute(insert(NameHoldRow).values(username_key=key,
                                            until=now + HOLD_DAYS * 24 * 3600.0))


def _pass_on_clubs(conn: Connection, ids: Collection[str]) -> None:
    """Each club the person (any of ``ids``) founded: to the longest-standing admin, else
    member; a club with nobody else in it is closed (its invitations and requests too)."""
    founded = set(conn.scalars(select(ClubMemberRow.club_id).where(
        ClubMemberRow.player_id.in_(ids), ClubMemberRow.role == "founder")))
    founded |= set(conn.scalars(select(ClubRow.club_id).where(ClubRow.founder.in_(ids))))
    for club_id in sorted(founded):
        heirs = list(conn.execute(select(ClubMemberRow.player_id, ClubMemberRow.role).where(
            ClubMemberRow.club_id == club_id, ClubMemberRow.player_id.not_in(ids),
            ClubMemberRow.role.in_(("admin", "member")))
            .order_by(ClubMemberRow.since, ClubMemberRow.player_id)))
        heir = next((h for h in heirs if h.role == "admin"), heirs[0] if heirs else None)
        if heir is None:
            conn.execute(delete(ClubMemberRow).where(ClubMemberRow.club_id == club_id))
            conn.execute(delete(ClubRow).where(ClubRow.club_id == club_id))
            continue
        conn.execute(update(ClubMemberRow).where(
            ClubMemberRow.club_id == club_id, ClubMemberRow.player_id == heir.player_id)
            .values(role="founder"))
        conn.execute(update(ClubRow).where(ClubRow.club_id == club_id)
                     .values(founder=heir.player_id))


def erase(conn: Connection, player_id: str, username: str, now: float, *,
          found: Survey | None = None) -> list[str]:
    """Delete the account ``player_id`` (module docstring); the ids of the sessions that
    ended (none when there is no such account).  ``username`` is the name the caller knew
    it by (the current one is read too); ``found`` is the :func:`survey` made before, else
    the survey runs here."""
    current = conn.scalar(select(AccountRow.username).where(AccountRow.player_id == player_id))
    if current is None:
        return []
    names = frozenset({username, current})
    found = found if found is not None else survey(conn, player_id, names)
    ended = list(conn.scalars(select(SessionRow.id).where(SessionRow.player_id == player_id)))
    replacement = scrub.Replacement(
        player_id, "x" + new_id(), ANONYMOUS, names=names, name_keys=NAME_KEYS,
        name_columns=NAME_COLUMNS, text_columns=TEXT_COLUMNS)
    aliases = scrub.names_beside(found.metadata, found.rows, replacement)
    replacement = dataclasses.replace(replacement, aliases=frozenset(aliases))
    # every row found first, the person's own too (their words are rewritten while the row
    # still names them); then what is theirs alone goes, under either id
    scrub.rewrite(conn, found.metadata, found.rows, replacement)
    ids = (player_id, replacement.new)
    _pass_on_clubs(conn, ids)
    for column in OWN:
        conn.execute(delete(column.table).where(column.in_(ids)))
    conn.execute(delete(AccountRow).where(AccountRow.player_id.in_(ids)))
    hold(conn, current, now)
    return ended


async def leave(players: Players, session: Session, password: str, address: str) -> None:
    """Delete the account of ``session`` once its password is given: checked as a log-in
    is (the same throttle: :class:`~burraco.accounts.service.Throttled`, and
    :class:`~burraco.accounts.service.BadLogin` for a wrong one, which changes nothing);
    every session of the account then ends on every process at once."""
    pid = session.player_id
    account = await players.host.read(lambda conn: store.account_by_id(conn, pid))
    name = account["username"] if account is not None else session.username
    await players.check_throttle(name, address)
    stored = account["password_hash"] if account is not None else None
    if account is None or not await asyncio.to_thread(passwords.verify, stored, password):
        await players.failed(name, address)
        raise BadLogin()
    found = await players.host.read(lambda conn: survey(conn, pid, {name, session.username}))
    ended = await players.host.writer.run(lambda conn: erase(
        conn, pid, session.username, time.time(), found=found))
    await players.end_sessions(sorted(set(ended) | {session.id}))


# --- the export ------------------------------------------------------------------------------

def _plain(value: Any) -> Any:
    """A stored value as JSON can carry it."""
    if isinstance(value, datetime):
        return (value if value.tzinfo else value.replace(tzinfo=UTC)).isoformat()
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, Decimal):
        return float(value)
    if isinstance(value, bytes):
        return value.hex()
    return value


def shown(row: dict[str, Any]) -> dict[str, Any]:
    """A row as the export gives it: secrets left out, every value plain JSON."""
    return {k: _plain(v) for k, v in row.items() if k not in SECRET_COLUMNS}


def export(conn: Connection, player_id: str, *, metadata: MetaData | None = None,
           withheld: Collection[str] = ()) -> dict[str, Any] | None:
    """Everything stored about the account ``player_id`` (``None``: no such account):
    ``{"exported_at", "account", "tables": {table: [rows]}, "notes"}``; the tables of
    ``withheld`` are left to the caller."""
    account = conn.execute(select(AccountRow.player_id, AccountRow.username,
                                  AccountRow.created_at, AccountRow.avatar).where(
        AccountRow.player_id == player_id)).first()
    if account is None:
        return None
    metadata = metadata if metadata is not None else scrub.reflected(conn)
    found = scrub.rows_naming(conn, metadata, [player_id], skip=withheld)
    return {
        "exported_at": datetime.now(UTC).isoformat(),
        "account": {"username": account.username, "player_id": account.player_id,
                    "created_at": _plain(account.created_at),
                    "avatar": avatars.shown(player_id, account.avatar)},
        "tables": {name: [shown(row) for row in rows] for name, rows in found.items()},
        "notes": [SECRETS_NOTE],
    }
