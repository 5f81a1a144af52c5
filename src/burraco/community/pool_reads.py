"""What the matchmaking pool reads of the database and says back (:mod:`.matchmaking`):
its refusals, the table's creator and bot level of a match, the bodies of a pool and a rating
window, an account's rating and name, a partner one may queue with, a table's status."""

from __future__ import annotations

import math
from typing import Any

from sqlalchemy import Connection, select

from burraco.accounts import social
from burraco.accounts.identity import Guest
from burraco.accounts.models import AccountRow, RatingRow
from burraco.accounts.names import FieldError
from burraco.accounts.ratings import MU
from burraco.accounts.social import Someone
from burraco.bots.base import LEVEL_NAMES
from burraco.meet.entries import PoolKey
from burraco.meet.matches import FALLBACK_LEVEL, bot_levels
from burraco.server.storage.models import GuestRow, TableRow

CREATOR_PREFIX = "meet:"
CREATOR_NAME = "Matchmaking"


class PoolRefused(Exception):
    """Why a join is refused: an HTTP status, a protocol code and (bad input) the field."""

    def __init__(self, status: int, code: str, detail: str, field: str | None = None) -> None:
        super().__init__(detail)
        self.status, self.code, self.detail, self.field = status, code, detail, field


class SeatsRefused(Exception):
    """Accounts of a match that may not take a rated seat now (their ids), and why."""

    def __init__(self, accounts: list[str], reason: str) -> None:
        super().__init__(reason)
        self.accounts = accounts


def creator_of(match_id: str) -> Guest:
    """The creator of a match's table: the match itself, vouched for by the server (which
    checked every account of a rated match one by one), so the hub's creator check passes."""
    return Guest(f"{CREATOR_PREFIX}{match_id}"[:32], CREATOR_NAME, account=True)


def table_level(form: str, level: str) -> str:
    """The level a table seats for a match's ``level``: itself when a table offers it, else
    the offered level whose fitted rating lies nearest its (on a tie, the weaker)."""
    if level in LEVEL_NAMES:
        return level
    fitted = bot_levels(form)
    rating = dict(fitted).get(level, MU)
    offered = [(name, r) for name, r in fitted if name in LEVEL_NAMES] or [(FALLBACK_LEVEL, MU)]
    return min(offered, key=lambda pair: (abs(pair[1] - rating), pair[1]))[0]


def pool_body(key: PoolKey) -> dict[str, Any]:
    return {"name": key.name, "format": key.format, "form": key.form, "rated": key.rated}


def window_body(rating: float, half: float) -> list[float] | None:
    """``[lo, hi]`` of a rating window (``None``: anyone)."""
    if math.isinf(half):
        return None
    return [round(rating - half, 1), round(rating + half, 1)]


# --- reads -----------------------------------------------------------------------------------

def rating_of(conn: Connection, player_id: str, form: str) -> float:
    """An account's rating for ``form`` (its mean; a newcomer's 1500)."""
    mu = conn.scalar(select(RatingRow.mu).where(RatingRow.player_id == player_id,
                                                RatingRow.form == form))
    return float(mu) if mu is not None else MU


def names_of(conn: Connection, ids: list[str]) -> dict[str, str]:
    """The name each id goes by at a table: an account's username, else a guest's nickname."""
    if not ids:
        return {}
    found: dict[str, str] = {pid: name for pid, name in conn.execute(
        select(AccountRow.player_id, AccountRow.username).where(AccountRow.player_id.in_(ids)))}
    rest = [pid for pid in ids if pid not in found]
    if rest:
        found.update({pid: name for pid, name in conn.execute(
            select(GuestRow.id, GuestRow.nickname).where(GuestRow.id.in_(rest)))})
    return found


def partner_named(conn: Connection, me: str, username: object) -> Someone:
    """The account ``me`` may queue with as partners: :class:`PoolRefused` (422 naming
    ``partner``) for an unknown username, oneself, or anyone not a friend (a block between
    the two is told as no friendship, as a block ends the follows)."""
    try:
        mate = social.account_named(conn, username)
    except FieldError as exc:
        raise PoolRefused(422, "bad_field", str(exc).removeprefix("username: "),
                          field="partner") from None
    if mate.player_id == me:
        raise PoolRefused(422, "bad_field", "that is you: a partner is another player",
                          field="partner")
    if not social.are_friends(conn, me, mate.player_id):
        raise PoolRefused(422, "bad_field", f"{mate.username} is not your friend: partners "
                          "are friends, each following the other", field="partner")
    return mate


def table_status(conn: Connection, table_id: str) -> str | None:
    status = conn.scalar(select(TableRow.status).where(TableRow.id == table_id))
    return None if status is None else str(status)


def table_made_by(conn: Connection, creator: str) -> str | None:
    """A waiting table ``creator`` made (a match's earlier delivery), if any."""
    found = conn.scalar(select(TableRow.id).where(TableRow.creator == creator,
                                                  TableRow.status == "waiting").limit(1))
    return None if found is None else str(found)
