"""Friends and blocks: follow a player (a friend when both follow), block a player.

A follow is one account's choice about another; two follows both ways make *friends*.
A block is stronger: the blocked account may not follow, challenge, message or be paired
with the blocker (the matchmaking pool reads :func:`kept_apart`), and blocking ends any
follow between the two, both ways.  Only accounts follow and block (a guest has nobody to
remember it by).  Each operation names the other player by username; an unknown username
and a player naming themselves are refused with a :class:`~burraco.accounts.names.
FieldError` on ``username``, and nothing changes.  Doing what is already done (following
twice, unblocking someone not blocked) changes nothing and is not an error.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, and_, delete, insert, or_, select

from burraco.accounts import avatars
from burraco.accounts.models import AccountRow, BlockRow, FollowRow
from burraco.accounts.names import FieldError, username_key

MAX_FOLLOWS = 1000
"""Accounts one account may follow (a list longer than a club's is a crawler's)."""
MAX_BLOCKS = 1000


class Blocked(Exception):
    """The other player blocked this one (or this one blocked the other): no follow."""


@dataclass(frozen=True, slots=True)
class Someone:
    player_id: str
    username: str
    avatar: str

    def to_dict(self) -> dict[str, Any]:
        return {"username": self.username, "avatar": self.avatar}


def account_named(conn: Connection, username: object) -> Someone:
    """The account called ``username`` (any case), or a refusal on the field."""
    if not isinstance(username, str) or not 1 <= len(username) <= 20:
        raise FieldError("username", "a username is 1 to 20 characters")
    row = conn.execute(select(AccountRow.player_id, AccountRow.username, AccountRow.avatar)
                       .where(AccountRow.username_key == username_key(username))).first()
    if row is None:
        raise FieldError("username", f"no player is called {username!r:.30}")
    return Someone(row.player_id, row.username, avatars.shown(row.player_id, row.avatar))


def _other(conn: Connection, me: str, username: object) -> Someone:
    other = account_named(conn, username)
    if other.player_id == me:
        raise FieldError("username", "that is you")
    return other


def is_blocked_between(conn: Connection, a: str, b: str) -> bool:
    """Whether either of ``a`` and ``b`` blocked the other."""
    return conn.scalar(select(BlockRow.blocker).where(or_(
        and_(BlockRow.blocker == a, BlockRow.blocked == b),
        and_(BlockRow.blocker == b, BlockRow.blocked == a))).limit(1)) is not None


def are_friends(conn: Connection, a: str, b: str) -> bool:
    """Whether ``a`` and ``b`` follow each other and neither blocked the other."""
    follows = conn.scalars(select(FollowRow.follower).where(or_(
        and_(FollowRow.follower == a, FollowRow.followed == b),
        and_(FollowRow.follower == b, FollowRow.followed == a)))).all()
    return len(set(follows)) == 2 and not is_blocked_between(conn, a, b)


def follow(conn: Connection, me: str, username: object) -> Someone:
    """``me`` follows ``username`` (:class:`Blocked` when a block stands between them)."""
    other = _other(conn, me, username)
    if is_blocked_between(conn, me, other.player_id):
        raise Blocked(other.username)
    exists = conn.scalar(select(FollowRow.follower).where(
        FollowRow.follower == me, FollowRow.followed == other.player_id))
    if exists is None:
        count = len(conn.scalars(select(FollowRow.followed).where(
            FollowRow.follower == me).limit(MAX_FOLLOWS)).all())
        if count >= MAX_FOLLOWS:
            raise FieldError("username", f"you follow {MAX_FOLLOWS} players already: "
                                         "unfollow some first")
        conn.execute(insert(FollowRow).values(follower=me, followed=other.player_id,
                                              since=time.time()))
    return other


def unfollow(conn: Connection, me: str, username: object) -> Someone:
    other = _other(conn, me, username)
    conn.execute(delete(FollowRow).where(FollowRow.follower == me,
                                         FollowRow.followed == other.player_id))
    return other


def block(conn: Connection, me: str, username: object) -> Someone:
    """``me`` blocks ``username``; any follow between them ends, both ways."""
    other = _other(conn, me, username)
    exists = conn.scalar(select(BlockRow.blocker).where(
        BlockRow.blocker == me, BlockRow.blocked == other.player_id))
    if exists is None:
        count = len(conn.scalars(select(BlockRow.blocked).where(
            BlockRow.blocker == me).limit(MAX_BLOCKS)).all())
        if count >= MAX_BLOCKS:
            raise FieldError("username", f"you have blocked {MAX_BLOCKS} players already")
        conn.execute(insert(BlockRow).values(blocker=me, blocked=other.player_id,
                                             since=time.time()))
    conn.execute(delete(FollowRow).where(or_(
        and_(FollowRow.follower == me, FollowRow.followed == other.player_id),
        and_(FollowRow.follower == other.player_id, FollowRow.followed == me))))
    return other


def unblock(conn: Connection, me: str, username: object) -> Someone:
    other = _other(conn, me, username)
    conn.execute(delete(BlockRow).where(BlockRow.blocker == me,
                                        BlockRow.blocked == other.player_id))
    return other


def kept_apart(conn: Connection, me: str) -> frozenset[str]:
    """The accounts ``me`` must never be paired with: those it blocked and those who
    blocked it."""
    mine = conn.scalars(select(BlockRow.blocked).where(BlockRow.blocker == me))
    theirs = conn.scalars(select(BlockRow.blocker).where(BlockRow.blocked == me))
    return frozenset([*mine, *theirs])


def _people(conn: Connection, ids: set[str]) -> list[Someone]:
    if not ids:
        return []
    rows = conn.execute(select(AccountRow.player_id, AccountRow.username, AccountRow.avatar)
                        .where(AccountRow.player_id.in_(ids)))
    out = [Someone(r.player_id, r.username, avatars.shown(r.player_id, r.avatar)) for r in rows]
    return sorted(out, key=lambda s: s.username.casefold())


def circle(conn: Connection, me: str) -> dict[str, list[Someone]]:
    """``me``'s friends (follows both ways), the others it follows, its other followers,
    and the players it blocked; each list by username."""
    following = set(conn.scalars(select(FollowRow.followed).where(FollowRow.follower == me)))
    followers = set(conn.scalars(select(FollowRow.follower).where(FollowRow.followed == me)))
    blocked = set(conn.scalars(select(BlockRow.blocked).where(BlockRow.blocker == me)))
    friends = following & followers
    return {"friends": _people(conn, friends), "following": _people(conn, following - friends),
            "followers": _people(conn, followers - friends), "blocked": _people(conn, blocked)}
