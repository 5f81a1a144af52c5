"""Challenges: one player invites another to a two-player table of chosen rules.

A challenge names the other player (an account), a format of the pool's
(:data:`burraco.meet.entries.FORMATS`: one hand, to 505, 1005 or 2005, 3 smazzate with VP)
and whether it is rated.  It is *open* for :data:`CHALLENGE_SECONDS`; the challenged player
accepts it (the table is made at once, the challenger at seat 0, and each of the two learns
only their own seat link, from ``GET /api/challenges``), or declines it; the challenger may
withdraw it while it is open; past its time it has expired.  Refused, and nothing stored: a
guest (challenges are between accounts), an unknown player or oneself, a block between the
two either way (the blocked player learns only that the challenge is not possible), a format
this server makes no table of, a rated challenge by or to someone who may not take a rated
seat now (the pool's checks: a wait after an abandonment, a rated match not over), a second
open challenge to the same player, more than :data:`MAX_OPEN` open at once.  Accepting is a
compare-and-set on the row: of two accepts (two tabs) one makes the table.
"""

from __future__ import annotations

import contextlib
import secrets
import time
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, func, insert, or_, select, update

from burraco.accounts import screening
from burraco.accounts.identity import Guest
from burraco.accounts.models import AccountRow, ChallengeRow
from burraco.accounts.names import FieldError
from burraco.accounts.social import account_named, is_blocked_between
from burraco.community.matchmaking import Matchmaking, request_for
from burraco.community.pool_reads import PoolRefused
from burraco.meet.entries import FORMATS, PoolKey
from burraco.server.tables import SeatRequest
from burraco.server.waiting import CancelRefused, cancel_table

CHALLENGE_SECONDS = 300
"""How long a challenge stays open."""
MAX_OPEN = 5
"""Open challenges one player may have sent at once."""
SHOWN_SECONDS = 600
"""How long an accepted, declined or withdrawn challenge stays in the lists."""


class ChallengeRefused(Exception):
    def __init__(self, status: int, code: str, detail: str, field: str | None = None) -> None:
        super().__init__(detail)
        self.status, self.code, self.detail, self.field = status, code, detail, field


@dataclass(frozen=True, slots=True)
class Draft:
    challenger: str
    challenged: str
    username: str
    format: str
    rated: bool


def creator_of(challenge_id: str) -> Guest:
    """The table's creator: the challenge itself, so neither player may cancel it alone;
    vouched for by the server (which checked both accounts of a rated challenge), so the
    hub's creator check passes, as for a pool's match."""
    return Guest(f"challenge:{challenge_id}"[:32], "challenge", account=True)


class Challenges:
    def __init__(self, pool: Matchmaking) -> None:
        self.pool = pool
        self.hub = pool.hub

    async def create(self, guest: Guest, username: object, fmt: object,
                     rated: object, address: str | None = None) -> dict[str, Any]:
        """Challenge ``username``; ``address``: where the request came from, kept as a keyed
        hash for fair play's screening (:mod:`burraco.accounts.screening`)."""
        if not guest.account:
            raise ChallengeRefused(403, "account_required", "challenges are between accounts: "
                                   "register or log in")
        if fmt not in FORMATS:
            raise ChallengeRefused(422, "bad_field", f"format is one of {', '.join(FORMATS)}",
                                   "format")
        if not isinstance(rated, bool):
            raise ChallengeRefused(422, "bad_field", "rated is true or false", "rated")
        key = PoolKey(str(fmt), "2", rated)
        try:
            self.pool.config_for(key)  # a format this server makes a table of
            if rated:
                await self.pool.check_rated(guest)
        except PoolRefused as exc:
            raise ChallengeRefused(exc.status, exc.code, exc.detail, exc.field) from None

        hashed = None if address is None else screening.address_hash(self.hub.tokens, address)

        def write(conn: Connection) -> dict[str, Any]:
            try:
                other = account_named(conn, username)
            except FieldError as exc:
                raise ChallengeRefused(422, "bad_field", str(exc), "to") from None
            if other.player_id == guest.id:
                raise ChallengeRefused(422, "bad_field", "you cannot challenge yourself", "to")
            if is_blocked_between(conn, guest.id, other.player_id):
                raise ChallengeRefused(403, "not_possible",
                                       f"{other.username} cannot be challenged by you", "to")
            now = time.time()
            live = (ChallengeRow.challenger == guest.id, ChallengeRow.state == "open",
                    ChallengeRow.expires > now)
            if conn.scalar(select(ChallengeRow.challenge_id).where(
                    *live, ChallengeRow.challenged == other.player_id)) is not None:
                raise ChallengeRefused(409, "already_challenged",
                                       f"you have challenged {other.username} already", "to")
            if (conn.scalar(select(func.count()).select_from(ChallengeRow).where(*live)) or 0) \
                    >= MAX_OPEN:
                raise ChallengeRefused(429, "too_many_open", f"at most {MAX_OPEN} open "
                                       "challenges at once: withdraw one first", "to")
            challenge_id = secrets.token_hex(8)
            conn.execute(insert(ChallengeRow).values(
                challenge_id=challenge_id, challenger=guest.id, challenged=other.player_id,
                format=key.format, rated=rated, created=now, expires=now + CHALLENGE_SECONDS,
                state="open", table_id=None))
            if hashed is not None:
                screening.seen(conn, guest.id, "challenge", hashed)
            return {"id": challenge_id, "to": other.username, "format": key.format,
                    "rated": rated, "expires": now + CHALLENGE_SECONDS}
        return await self.hub.writer.run(write)

    async def listing(self, guest: Guest) -> dict[str, list[dict[str, Any]]]:
        """The player's challenges, sent and received: the open ones, and those settled in the
        last minutes (an accepted one with the player's own seat link)."""
        now = time.time()

        def read(conn: Connection) -> list[Any]:
            rows = conn.execute(select(ChallengeRow.__table__).where(
                or_(ChallengeRow.challenger == guest.id, ChallengeRow.challenged == guest.id),
                ChallengeRow.created > now - CHALLENGE_SECONDS - SHOWN_SECONDS)
                .order_by(ChallengeRow.created.desc())).all()
            ids = {r.challenger for r in rows} | {r.challenged for r in rows}
            names = dict(conn.execute(select(AccountRow.player_id, AccountRow.username).where(
                AccountRow.player_id.in_(ids))).all()) if ids else {}
            return [(r, names) for r in rows]

        out: dict[str, list[dict[str, Any]]] = {"incoming": [], "outgoing": []}
        for row, names in await self.hub.read(read):
            mine = row.challenger == guest.id
            state = "expired" if row.state == "open" and row.expires <= now else row.state
            body: dict[str, Any] = {
                "id": row.challenge_id, "from": names.get(row.challenger),
                "to": names.get(row.challenged), "format": row.format, "rated": row.rated,
                "state": state, "expires": row.expires}
            if state == "accepted" and row.table_id:
                body |= self.seat_of(row.table_id, 0 if mine else 1)
            out["outgoing" if mine else "incoming"].append(body)
        return out

    def seat_of(self, table_id: str, seat: int) -> dict[str, Any]:
        token = self.hub.tokens.seat_token(table_id, seat)
        return {"table": table_id, "seat": seat, "token": token,
                "url": f"{self.hub.settings.base_url}/play/{table_id}?seat={seat}&token={token}"}

    async def _row(self, challenge_id: str) -> Any:
        row = await self.hub.read(lambda conn: conn.execute(select(ChallengeRow.__table__).where(
            ChallengeRow.challenge_id == challenge_id)).first())
        if row is None:
            raise ChallengeRefused(404, "not_found", "no such challenge", "id")
        return row

    async def accept(self, guest: Guest, challenge_id: str,
                     address: str | None = None) -> dict[str, Any]:
        row = await self._row(challenge_id)
        if row.challenged != guest.id:
            raise ChallengeRefused(404, "not_found", "no such challenge", "id")
        if row.state != "open" or row.expires <= time.time():
            state = "expired" if row.state == "open" else row.state
            raise ChallengeRefused(409, state, f"this challenge is {state}", "id")
        key = PoolKey(row.format, "2", row.rated)
        if row.rated:
            for player in (row.challenger, row.challenged):
                try:
                    await self.pool.check_rated(Guest(player, "", account=True))
                except PoolRefused as exc:
                    raise ChallengeRefused(exc.status, exc.code, exc.detail, "id") from None
        creator = creator_of(challenge_id)
        created = await self.hub.create_table(creator, request_for(
            key, [SeatRequest(kind="human"), SeatRequest(kind="human")]))
        table_id = str(created["table_id"])

        mine = None if address is None else screening.address_hash(self.hub.tokens, address)

        def settle(conn: Connection) -> bool:
            done = conn.execute(update(ChallengeRow).where(
                ChallengeRow.challenge_id == challenge_id, ChallengeRow.state == "open")
                .values(state="accepted", table_id=table_id))
            if done.rowcount:
                screening.paired(conn, table_id, {row.challenger: None, row.challenged: mine},
                                 "challenge")
            return bool(done.rowcount)
        if not await self.hub.writer.run(settle):  # another tab accepted it a moment ago
            with contextlib.suppress(CancelRefused):  # nobody was given its links
                await cancel_table(self.hub, table_id, creator)
            raise ChallengeRefused(409, "accepted", "this challenge was accepted already", "id")
        return {"id": challenge_id, "state": "accepted", **self.seat_of(table_id, 1)}

    async def close(self, guest: Guest, challenge_id: str, state: str) -> dict[str, Any]:
        """``declined`` by the challenged player, ``withdrawn`` by the challenger."""
        row = await self._row(challenge_id)
        who = row.challenged if state == "declined" else row.challenger
        if who != guest.id:
            raise ChallengeRefused(404, "not_found", "no such challenge", "id")

        def settle(conn: Connection) -> bool:
            done = conn.execute(update(ChallengeRow).where(
                ChallengeRow.challenge_id == challenge_id, ChallengeRow.state == "open")
                .values(state=state))
            return bool(done.rowcount)
        if not await self.hub.writer.run(settle):
            raise ChallengeRefused(409, row.state, f"this challenge is {row.state}", "id")
        return {"id": challenge_id, "state": state}
