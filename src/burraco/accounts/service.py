"""What the rest of the server asks of accounts: who a token is, logging in, sessions, reads.

One :class:`Players` lives on the table server's hub (its :class:`Host`).  Its reads run
in worker threads and its writes go through the hub's single writer, like everything else;
Argon2 hashing runs in worker threads too, so the event loop never waits on it.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
from collections.abc import Awaitable, Callable
from typing import Any, Protocol, TypeVar

from sqlalchemy import Connection, Engine
from sqlalchemy.exc import IntegrityError

from burraco.accounts import avatars, fairplay, moderation, passwords, queries, recovery, store
from burraco.accounts.identity import GUEST_COOKIE, Guest, Signer, TokenError, new_id
from burraco.accounts.names import username_key
from burraco.accounts.ratings import bot_ratings, shown
from burraco.accounts.sessions import (
    PREFIX,
    SESSION_COOKIE,
    OpenSockets,
    Session,
    SessionCache,
    matches,
    new_token,
    split,
)
from burraco.bots.base import LEVEL_NAMES
from burraco.infra.config import ServerConfig
from burraco.infra.rates import RateLimits, Throttle, storage_for

log = logging.getLogger("burraco.server.players")

NAME_LIMIT = (5, 15 * 60.0)
"""Wrong passwords allowed per username in a window of seconds."""
ADDRESS_LIMIT = (20, 15 * 60.0)
"""Wrong passwords allowed per client address in a window of seconds."""

T = TypeVar("T")


class Writes(Protocol):
    async def run(self, fn: Callable[[Connection], T]) -> T: ...


class Host(Protocol):
    """What the accounts stand on: the server's database (an engine for the indexed read of a
    session, reads in worker threads, writes through its single writer), its signer of guest
    tokens and its settings.  The table server's hub is one; nothing of its tables is used."""

    @property
    def engine(self) -> Engine: ...

    @property
    def settings(self) -> ServerConfig: ...

    @property
    def writer(self) -> Writes: ...

    @property
    def tokens(self) -> Signer: ...

    async def read(self, fn: Callable[[Connection], T]) -> T: ...


class Throttled(Exception):
    def __init__(self, retry_after: int) -> None:
        super().__init__(f"too many wrong passwords: retry in {retry_after} s")
        self.retry_after = retry_after


class BadLogin(Exception):
    """Wrong username or password (one answer for both)."""


class UsernameTaken(Exception):
    pass


class Banned(Exception):
    """The account is banned: no log-in, no recovery, until ``until`` (``None``: for ever)."""

    def __init__(self, reason: str, until: float | None) -> None:
        super().__init__(f"this account is banned: {reason}")
        self.reason = reason
        self.until = until


class BadRecovery(Exception):
    """Wrong username or recovery code (one answer for both)."""


def request_token(headers: Any, cookies: Any) -> str | None:
    """The token a request carries: ``Authorization: Bearer``, else the session cookie, else
    the guest cookie."""
    header = headers.get("authorization", "")
    if header.lower().startswith("bearer "):
        return str(header[7:])
    token = cookies.get(SESSION_COOKIE) or cookies.get(GUEST_COOKIE)
    return str(token) if token else None


class Players:
    def __init__(self, host: Host) -> None:
        self.host = host
        self.sessions = SessionCache()
        self.sockets = OpenSockets()
        """This process's WebSockets by the session they were opened with."""
        self.announce_ended: Callable[[list[str]], Awaitable[None]] | None = None
        """Tells every other process of the cluster that sessions ended (set by the cluster;
        ``None`` on a server of one process)."""
        counts = storage_for(host.settings.redis_url, host.settings.redis_prefix)
        self.by_name = Throttle(*NAME_LIMIT, counts, name="login-name")
        self.by_address = Throttle(*ADDRESS_LIMIT, counts, name="login-address")
        self.profile_parts: list[Callable[[Connection, str], dict[str, Any]]] = []
        """What layers above add to a profile, read in its snapshot (``{key: value}`` for a
        player id): the club adds the tournaments a person played."""
        self.registrations = RateLimits({"accounts": host.settings.account_rate}, counts)
        self.avatar_changed: list[Callable[[str, str], None]] = []
        """Told ``(player id, avatar)`` when an account picks an avatar here: the hub shows
        it at the tables this process runs where the account holds a seat."""

    # --- who a token is ------------------------------------------------------------------

    def session_of(self, token: object) -> Session | None:
        """The live session of a session token (``None``: not one, or ended)."""
        if not isinstance(token, str):
            return None
        parts = split(token)
        if parts is None:
            return None
        session_id, secret = parts
        session = self.sessions.get(session_id)
        if session is None:
            # after a restart: one indexed read, then cached
            with self.host.engine.connect() as conn:
                session = store.session(conn, session_id)
                mute = moderation.lasting(conn, session.player_id, "mute") if session else None
            if session is None:
                return None
            if mute is not None:
                session = dataclasses.replace(session, muted_until=(
                    float("inf") if mute["until"] is None else mute["until"]))
            self.sessions.put(session)
        return session if matches(session, secret) else None

    def identify(self, token: object) -> Guest:
        """The person a token names: an account's session, or a signed guest token."""
        if isinstance(token, str) and token.startswith(PREFIX):
            session = self.session_of(token)
            if session is None:
                raise TokenError("session token: unknown or ended (log in again)")
            return Guest(session.player_id, session.username, account=True,
                         muted_until=session.muted_until)
        return self.host.tokens.guest(token)

    # --- accounts and sessions -----------------------------------------------------------

    async def register(self, username: str, password: str,
                       guest_token: str | None) -> tuple[str, str, list[str]]:
        """(player id, token, recovery codes) of a new account; a guest's id (and history)
        carries over."""
        hashed = await asyncio.to_thread(passwords.hash_password, password)
        codes = recovery.new_codes()
        code_hashes = await asyncio.to_thread(recovery.hash_codes, codes)
        player_id = new_id()
        if guest_token and not guest_token.startswith(PREFIX):
            try:
                guest = self.host.tokens.guest(guest_token)
            except TokenError:
                guest = None
            if guest is not None and not await self.host.read(
                    lambda conn: store.is_account(conn, guest.id)):
                player_id = guest.id
        token, session_id, secret_hash = new_token()

        def create(conn: Connection) -> None:
            store.create_account(conn, player_id, username, hashed, session_id, secret_hash)
            recovery.store_codes(conn, player_id, code_hashes)

        try:
            await self.host.writer.run(create)
        except (store.UsernameTaken, IntegrityError):
            raise UsernameTaken(username) from None
        self.sessions.put(Session(session_id, player_id, username, secret_hash))
        return player_id, token, codes

    def _throttle_keys(self, username: str, address: str) -> tuple[str, str]:
        return f"name:{username_key(username)}", f"addr:{address}"

    async def check_throttle(self, username: str, address: str) -> None:
        """Refuse (:class:`Throttled`) a guess from an address past its failures, or at a
        name past its failures; a name's lock does not hold against an address that has not
        failed, so nobody locks another player out with five wrong passwords (its one guess
        there counts against it like any other)."""
        name_key, addr_key = self._throttle_keys(username, address)
        wait = await self.by_address.retry_after(addr_key)
        if not wait:
            locked = await self.by_name.retry_after(name_key)
            if locked and await self.by_address.failures(addr_key):
                wait = locked
        if wait:
            raise Throttled(wait)

    async def failed(self, username: str, address: str) -> None:
        name_key, addr_key = self._throttle_keys(username, address)
        await self.by_name.failed(name_key)
        await self.by_address.failed(addr_key)

    async def _check_password(self, username: str, password: str,
                              address: str) -> dict[str, Any]:
        await self.check_throttle(username, address)
        account = await self.host.read(lambda conn: store.account_by_name(conn, username))
        stored = account["password_hash"] if account else None
        ok = await asyncio.to_thread(passwords.verify, stored, password)
        if not ok or account is None:
            await self.failed(username, address)
            raise BadLogin()
        return account

    async def login(self, username: str, password: str, address: str) -> tuple[str, str]:
        """(token, username as registered); :class:`BadLogin`, :class:`Throttled` or
        :class:`Banned`."""
        account = await self._check_password(username, password, address)
        return await self._new_session(account)

    async def _new_session(self, account: dict[str, Any]) -> tuple[str, str]:
        pid = account["player_id"]
        ban = await self.host.read(lambda conn: moderation.lasting(conn, pid, "ban"))
        if ban is not None:
            raise Banned(ban["reason"], ban["until"])
        token, session_id, secret_hash = new_token()
        await self.host.writer.run(lambda conn: store.add_session(conn, session_id, pid,
                                                                 secret_hash))
        self.sessions.put(Session(session_id, pid, account["username"], secret_hash))
        return token, account["username"]

    # --- recovery codes ------------------------------------------------------------------

    async def recover(self, username: str, code: str, new_password: str,
                      address: str) -> tuple[str, str, int]:
        """A recovery code sets a new password: every session of the account ends and a new
        one starts here; (token, username, codes left).  :class:`BadRecovery` for a wrong
        name or code (counted by the log-in throttle), :class:`Throttled`, :class:`Banned`."""
        await self.check_throttle(username, address)
        account = await self.host.read(lambda conn: store.account_by_name(conn, username))
        candidates = await self.host.read(
            lambda conn: recovery.unused(conn, account["player_id"]) if account else [])
        number = await asyncio.to_thread(recovery.matching, candidates, code)
        if account is None or number is None:
            await self.failed(username, address)
            raise BadRecovery()
        pid = account["player_id"]
        ban = await self.host.read(lambda conn: moderation.lasting(conn, pid, "ban"))
        if ban is not None:
            raise Banned(ban["reason"], ban["until"])
        hashed = await asyncio.to_thread(passwords.hash_password, new_password)

        def reset(conn: Connection) -> tuple[bool, list[str], int]:
            if not recovery.spend(conn, pid, number):
                return False, [], 0
            return True, store.set_password(conn, pid, hashed, ""), recovery.left(conn, pid)

        spent, ended, codes_left = await self.host.writer.run(reset)
        if not spent:  # spent by a recovery at the same moment
            raise BadRecovery()
        await self._end(ended)
        token, name = await self._new_session(account)
        return token, name, codes_left

    async def new_recovery_codes(self, session: Session, password: str,
                                 address: str) -> list[str]:
        """Fresh codes for an account that gives its password; the old ones stop working."""
        await self._check_password(session.username, password, address)
        codes = recovery.new_codes()
        hashes = await asyncio.to_thread(recovery.hash_codes, codes)
        await self.host.writer.run(lambda conn: recovery.store_codes(
            conn, session.player_id, hashes))
        return codes

    async def logout(self, session: Session) -> None:
        await self.host.writer.run(lambda conn: store.end_session(conn, session.id))
        await self._end([session.id])

    def ended(self, session_ids: list[str]) -> None:
        """Sessions ended (here, or in another process of the cluster): forget them and close
        the WebSockets this process holds that were opened with them."""
        for session_id in session_ids:
            self.sessions.drop(session_id)
        closed = self.sockets.close(session_ids)
        if closed:
            log.info("closed %d WebSockets of %d ended sessions", closed, len(session_ids))

    async def end_sessions(self, session_ids: list[str]) -> None:
        """Sessions ended in the database (an account deleted or banned): forgotten here and
        their sockets closed, on every process of the cluster."""
        await self._end(session_ids)

    async def _end(self, session_ids: list[str]) -> None:
        """Sessions ended in the database: everywhere, now (stored first, so a process that
        misses the announcement finds them gone when it looks again)."""
        if not session_ids:
            return
        self.ended(session_ids)
        if self.announce_ended is not None:
            await self.announce_ended(session_ids)

    async def recheck(self) -> None:
        """This process may have missed that sessions ended (its cluster link came back):
        forget every cached session, and close the sockets of those that are gone."""
        self.sessions.clear()
        open_ids = self.sockets.session_ids()
        live = await self.host.read(lambda conn: store.live_sessions(conn, open_ids))
        self.ended([sid for sid in open_ids if sid not in live])

    async def change_password(self, session: Session, current: str, new: str,
                              address: str) -> None:
        """Set a new password; every other session of the account ends."""
        await self._check_password(session.username, current, address)
        hashed = await asyncio.to_thread(passwords.hash_password, new)
        ended = await self.host.writer.run(lambda conn: store.set_password(
            conn, session.player_id, hashed, session.id))
        await self._end(ended)

    async def me(self, guest: Guest) -> dict[str, Any]:
        def read(conn: Any) -> dict[str, Any]:
            return {"avatar": store.avatars_of(conn, [guest.id]).get(guest.id, avatars.GUEST),
                    "ratings": queries.ratings_of(conn, guest.id),
                    "wait": fairplay.active_wait(conn, guest.id),
                    "recovery_codes_left": recovery.left(conn, guest.id),
                    "roles": moderation.roles_of(conn, guest.id),
                    "sanctions": moderation.in_force(conn, guest.id)}

        extra = await self.host.read(read)
        # guest_id and nickname too: at tables an account is named like a guest
        return {"player_id": guest.id, "username": guest.nickname, "account": True,
                "guest_id": guest.id, "nickname": guest.nickname, **extra}

    async def set_avatar(self, session: Session, raw: object) -> str:
        """Keep the avatar the account picked (:class:`FieldError` for one it may not pick,
        and nothing changes); tells :attr:`avatar_changed`."""
        avatar = avatars.check_avatar(raw)
        await self.host.writer.run(lambda conn: store.set_avatar(conn, session.player_id,
                                                                 avatar))
        for changed in self.avatar_changed:
            changed(session.player_id, avatar)
        return avatar

    async def avatars(self, player_ids: list[str]) -> dict[str, str]:
        """The avatar each account among ``player_ids`` shows (guests are left out)."""
        return await self.host.read(lambda conn: store.avatars_of(conn, player_ids))

    # --- reads ---------------------------------------------------------------------------

    async def profile(self, username: str) -> dict[str, Any] | None:
        def read(conn: Any) -> dict[str, Any] | None:
            if conn.dialect.name == "postgresql":  # one snapshot for the profile's reads
                conn.execution_options(isolation_level="REPEATABLE READ")
            out = queries.profile(conn, username)
            if out is not None:
                for part in self.profile_parts:
                    out.update(part(conn, out["player_id"]))
            return out

        return await self.host.read(read)

    async def leaderboard(self, form: str, period: str, page: int,
                          me: str | None) -> dict[str, Any]:
        return await self.host.read(lambda conn: queries.leaderboard(conn, form, period, page, me))

    @staticmethod
    def bot_ratings() -> dict[str, Any]:
        """The ratings of the levels a table seats (not of a retired version such as
        ``expert-2026``, which the fit needs as a step between two measured levels)."""
        return {form: {level: shown(r["mu"]) for level, r in levels.items()
                       if level in LEVEL_NAMES}
                for form, levels in bot_ratings().items()}

    # --- rated play ---------------------------------------------------------------------

    async def wait_of(self, player_id: str) -> dict[str, Any] | None:
        """The wait ``player_id`` sits out before the next rated match (``None``: none)."""
        return await self.host.read(lambda conn: fairplay.active_wait(conn, player_id))
