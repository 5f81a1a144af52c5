"""What the rest of the server asks of players: who a token is, logging in, rated seats.

One :class:`Players` lives on the hub.  Its reads run in worker threads and its
writes go through the hub's single writer, like everything else of the server;
Argon2 hashing runs in worker threads too, so the event loop never waits on it.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from sqlalchemy.exc import IntegrityError

from burraco.bots.base import LEVEL_NAMES
from burraco.server.identity import GUEST_COOKIE, Guest, TokenError, new_id
from burraco.server.players import daily, passwords, queries, results, store
from burraco.server.players.names import username_key
from burraco.server.players.ratings import bot_ratings, shown
from burraco.server.players.sessions import (
    PREFIX,
    SESSION_COOKIE,
    OpenSockets,
    Session,
    SessionCache,
    matches,
    new_token,
    split,
)
from burraco.server.rates import RateLimits, Throttle, storage_for
from burraco.server.tables import TableConfigError

if TYPE_CHECKING:
    from burraco.server.hub import Hub
    from burraco.server.tables import TableConfig

log = logging.getLogger("burraco.server.players")

NAME_LIMIT = (5, 15 * 60.0)
"""Wrong passwords allowed per username in a window of seconds."""
ADDRESS_LIMIT = (20, 15 * 60.0)
"""Wrong passwords allowed per client address in a window of seconds."""


RATED_LIVE = ("a rated match is shown to spectators only once it is over (its replays then "
              "show every hand)")
ACCOUNT_REQUIRED = ("only accounts sit at rated tables: log in and send your session token")


def live_rated(info: dict[str, Any]) -> bool:
    """A rated table whose match is not over: nothing of its play is shown yet."""
    return bool(info["config"].get("rated")) and info["status"] != "finished"


class Throttled(Exception):
    def __init__(self, retry_after: int) -> None:
        super().__init__(f"too many wrong passwords: retry in {retry_after} s")
        self.retry_after = retry_after


class BadLogin(Exception):
    """Wrong username or password (one answer for both)."""


class UsernameTaken(Exception):
    pass


def request_token(headers: Any, cookies: Any) -> str | None:
    """The token a request carries: ``Authorization: Bearer``, else the session cookie, else
    the guest cookie."""
    header = headers.get("authorization", "")
    if header.lower().startswith("bearer "):
        return str(header[7:])
    token = cookies.get(SESSION_COOKIE) or cookies.get(GUEST_COOKIE)
    return str(token) if token else None


class Players:
    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        self.sessions = SessionCache()
        self.sockets = OpenSockets()
        """This process's WebSockets by the session they were opened with."""
        self.announce_ended: Callable[[list[str]], Awaitable[None]] | None = None
        """Tells every other process of the cluster that sessions ended (set by the cluster;
        ``None`` on a server of one process)."""
        counts = storage_for(hub.settings.redis_url, hub.settings.redis_prefix)
        self.by_name = Throttle(*NAME_LIMIT, counts, name="login-name")
        self.by_address = Throttle(*ADDRESS_LIMIT, counts, name="login-address")
        self.registrations = RateLimits({"accounts": hub.settings.account_rate}, counts)
        self._recording: set[asyncio.Task[None]] = set()
        self._closer: asyncio.Task[None] | None = None
        self.daily = Daily(hub)

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
            with self.hub.engine.connect() as conn:
                session = store.session(conn, session_id)
            if session is None:
                return None
            self.sessions.put(session)
        return session if matches(session, secret) else None

    def identify(self, token: object) -> Guest:
        """The person a token names: an account's session, or a signed guest token."""
        if isinstance(token, str) and token.startswith(PREFIX):
            session = self.session_of(token)
            if session is None:
                raise TokenError("session token: unknown or ended (log in again)")
            return Guest(session.player_id, session.username, account=True)
        return self.hub.tokens.guest(token)

    # --- accounts and sessions -----------------------------------------------------------

    async def register(self, username: str, password: str,
                       guest_token: str | None) -> tuple[str, str]:
        """(player id, token) of a new account; a guest's id (and history) carries over."""
        hashed = await asyncio.to_thread(passwords.hash_password, password)
        player_id = new_id()
        if guest_token and not guest_token.startswith(PREFIX):
            try:
                guest = self.hub.tokens.guest(guest_token)
            except TokenError:
                guest = None
            if guest is not None and not await self.hub.read(
                    lambda conn: store.is_account(conn, guest.id)):
                player_id = guest.id
        token, session_id, secret_hash = new_token()
        try:
            await self.hub.writer.run(lambda conn: store.create_account(
                conn, player_id, username, hashed, session_id, secret_hash))
        except (store.UsernameTaken, IntegrityError):
            raise UsernameTaken(username) from None
        self.sessions.put(Session(session_id, player_id, username, secret_hash))
        return player_id, token

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
        account = await self.hub.read(lambda conn: store.account_by_name(conn, username))
        stored = account["password_hash"] if account else None
        ok = await asyncio.to_thread(passwords.verify, stored, password)
        if not ok or account is None:
            await self.failed(username, address)
            raise BadLogin()
        return account

    async def login(self, username: str, password: str, address: str) -> tuple[str, str]:
        """(token, username as registered); :class:`BadLogin` or :class:`Throttled`."""
        account = await self._check_password(username, password, address)
        token, session_id, secret_hash = new_token()
        pid = account["player_id"]
        await self.hub.writer.run(lambda conn: store.add_session(conn, session_id, pid,
                                                                 secret_hash))
        self.sessions.put(Session(session_id, pid, account["username"], secret_hash))
        return token, account["username"]

    async def logout(self, session: Session) -> None:
        await self.hub.writer.run(lambda conn: store.end_session(conn, session.id))
        await self._end([session.id])

    def ended(self, session_ids: list[str]) -> None:
        """Sessions ended (here, or in another process of the cluster): forget them and close
        the WebSockets this process holds that were opened with them."""
        for session_id in session_ids:
            self.sessions.drop(session_id)
        closed = self.sockets.close(session_ids)
        if closed:
            log.info("closed %d WebSockets of %d ended sessions", closed, len(session_ids))

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
        live = await self.hub.read(lambda conn: store.live_sessions(conn, open_ids))
        self.ended([sid for sid in open_ids if sid not in live])

    async def change_password(self, session: Session, current: str, new: str,
                              address: str) -> None:
        """Set a new password; every other session of the account ends."""
        await self._check_password(session.username, current, address)
        hashed = await asyncio.to_thread(passwords.hash_password, new)
        ended = await self.hub.writer.run(lambda conn: store.set_password(
            conn, session.player_id, hashed, session.id))
        await self._end(ended)

    async def me(self, guest: Guest) -> dict[str, Any]:
        def read(conn: Any) -> dict[str, Any]:
            return {"ratings": queries.ratings_of(conn, guest.id),
                    "wait": results.active_wait(conn, guest.id)}

        extra = await self.hub.read(read)
        # guest_id and nickname too: at tables an account is named like a guest
        return {"player_id": guest.id, "username": guest.nickname, "account": True,
                "guest_id": guest.id, "nickname": guest.nickname, **extra}

    # --- reads ---------------------------------------------------------------------------

    async def profile(self, username: str) -> dict[str, Any] | None:
        def read(conn: Any) -> dict[str, Any] | None:
            if conn.dialect.name == "postgresql":  # one snapshot for the profile's reads
                conn.execution_options(isolation_level="REPEATABLE READ")
            return queries.profile(conn, username)

        return await self.hub.read(read)

    async def leaderboard(self, form: str, period: str, page: int,
                          me: str | None) -> dict[str, Any]:
        return await self.hub.read(lambda conn: queries.leaderboard(conn, form, period, page, me))

    @staticmethod
    def bot_ratings() -> dict[str, Any]:
        """The ratings of the levels a table seats (not of a retired version such as
        ``expert-2026``, which the fit needs as a step between two measured levels)."""
        return {form: {level: shown(r["mu"]) for level, r in levels.items()
                       if level in LEVEL_NAMES}
                for form, levels in bot_ratings().items()}

    # --- rated tables --------------------------------------------------------------------

    async def wait_of(self, player_id: str) -> dict[str, Any] | None:
        return await self.hub.read(lambda conn: results.active_wait(conn, player_id))

    async def creation_refusal(self, creator: Guest, config: TableConfig,
                               seated: bool) -> str | None:
        """Why ``creator`` may not create this table (``None``: they may)."""
        if not getattr(config, "rated", False):
            return None
        if not creator.account:
            return "only accounts create rated tables: register or log in"
        if seated:
            wait = await self.wait_of(creator.id)
            if wait is not None:
                return _wait_text(wait)
        return None

    async def admission(self, config: TableConfig, status: str, holder_id: str | None,
                        guest: Guest | None, seat: int | None) -> tuple[str, str] | None:
        """(code, reason) when a connection may not join a rated table as it asks."""
        if not getattr(config, "rated", False):
            return None
        if seat is None:
            if status != "finished":
                return ("rated_live", RATED_LIVE)
            return None
        if guest is None or not guest.account:
            return ("account_required", ACCOUNT_REQUIRED)
        if holder_id != guest.id:
            wait = await self.wait_of(guest.id)
            if wait is not None:
                return ("rated_wait", _wait_text(wait))
        return None

    # --- finished matches ----------------------------------------------------------------

    def record_soon(self, table_id: str) -> None:
        task = asyncio.get_running_loop().create_task(self.record(table_id))
        self._recording.add(task)
        task.add_done_callback(self._recording.discard)

    async def record(self, table_id: str) -> None:
        try:
            await self.hub.writer.run(lambda conn: results.record_match(conn, table_id))
        except Exception:
            log.exception("table %s: the finished match could not be recorded", table_id)

    async def start(self) -> None:
        """Record what a crash left between a match's end and its recording; start the clock
        that publishes each day's duplicate deals when the day closes."""
        for table_id in await self.hub.read(results.unrecorded_finished):
            await self.record(table_id)
        self._closer = asyncio.get_running_loop().create_task(self._close_days())

    async def _close_days(self, every: float = daily.CHECK_EVERY) -> None:
        """Publish the held deals of each closed day, then record its matches (once their
        tables have published the reveals, so the statistics see every hand)."""
        while True:
            try:
                for table_id in await self.hub.read(lambda conn: [
                        t for t in results.unrecorded_finished(conn)
                        if not daily.record_waits(conn, t)]):
                    await self.record(table_id)
                for group in await self.hub.read(daily.closed_groups_with_held):
                    await self.hub.settle_group(group)
            except Exception:
                log.exception("closing the daily duplicate failed; trying again later")
            await asyncio.sleep(every)

    async def stop(self) -> None:
        if self._closer is not None:
            self._closer.cancel()
        if self._recording:
            await asyncio.gather(*self._recording, return_exceptions=True)


class DailyError(Exception):
    def __init__(self, status: int, code: str, detail: str, **extra: Any) -> None:
        super().__init__(detail)
        self.status, self.code, self.detail, self.extra = status, code, detail, extra


class Daily:
    """The daily duplicate's calls (``daily`` has the rules of it)."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub

    async def overview(self, guest: Guest | None, day: str | None) -> dict[str, Any]:
        current = daily.today()
        day = day or current
        closed = daily.clock() >= daily.closes_at(day)
        sets: dict[str, Any] = {}
        pid = guest.id if guest is not None and guest.account else None
        for form in daily.FORMS:
            def secret_of(conn: Any, form: str = form) -> str | None:
                if day == current:
                    return daily.ensure_group(conn, current, form)
                return daily.group_secret(conn, day, form)

            def mine_of(conn: Any, form: str = form) -> str | None:
                return daily.entry_of(conn, day, form, pid) if pid else None

            secret = await (self.hub.writer.run(secret_of) if day == current
                            else self.hub.read(secret_of))
            mine = await self.hub.read(mine_of)
            def held_of(conn: Any, form: str = form) -> frozenset[int]:
                return daily.pending_hands(conn, day, form)

            held = await self.hub.read(held_of) if closed and secret else frozenset()
            sets[form] = {
                "hands": daily.HANDS, "bots": daily.BOT, "my_table": mine,
                "my_seat_token": self.hub.tokens.seat_token(mine, 0) if mine else None,
                "deals": daily.commitments(secret, form, reveal=closed, held=held)
                if secret else None}
        return {"day": day, "closes_at": daily.closes_at(day), "closed": closed, "sets": sets}

    async def enter(self, guest: Guest, form: str) -> dict[str, Any]:
        if not guest.account:
            raise DailyError(401, "login_required", "the daily duplicate is for accounts: "
                             "register or log in")
        day = daily.today()
        existing = await self.hub.read(lambda conn: daily.entry_of(conn, day, form, guest.id))
        if existing is not None:
            raise DailyError(409, "daily_played", "you have entered today's set already",
                             table_id=existing)
        await self.hub.writer.run(lambda conn: daily.ensure_group(conn, day, form))
        try:
            created = await self.hub.create_table(guest, daily.request(form),
                                                  deal_group=daily.group_id(day, form))
        except TableConfigError as exc:
            raise DailyError(409, "daily_closed", str(exc)) from None
        table_id = created["table_id"]
        await self.hub.writer.run(lambda conn: daily.add_entry(conn, day, form, guest.id,
                                                               table_id))
        return created

    async def board(self, guest: Guest | None, form: str, day: str | None) -> dict[str, Any]:
        day = day or daily.today()
        me = guest.id if guest is not None and guest.account else None
        board = await self.hub.read(lambda conn: daily.day_board(conn, day, form, me))
        if board is None:
            raise DailyError(403, "daily_play_first", "the day's results are shown to those who "
                             "have played its whole set, and to everyone once the day is over")
        return board

    async def month(self, form: str, month: str) -> dict[str, Any]:
        return await self.hub.read(lambda conn: daily.month_board(conn, month, form))


def _wait_text(wait: dict[str, Any]) -> str:
    until = datetime.fromtimestamp(wait["until"], UTC).strftime("%Y-%m-%d %H:%M UTC")
    left = max(0, round((wait["until"] - time.time()) / 60))
    return f"you {wait['why']}: your next rated match may start at {until} (in {left} min)"
