"""Where the pools live: in one process's memory, or in Redis for every process of a cluster.

Both stores do the same things (:class:`PoolStore`): ``join`` an entry (one pool per
person: refused while any member of the party waits anywhere or is being seated),
``leave`` (at once, with the whole party), ``where`` (the pool, since when, the window
now), ``pair`` (the matches made, each *delivered* to one caller), ``ack`` (the caller
has created the match's table), ``give_back`` and ``matches_for`` (the match that holds
an account: where the player is to go).

Exactly once.  ``pair`` reads the pool, pairs it (:func:`burraco.meet.pool.pair`, pure),
then *takes* the matches in one atomic step: a match is taken only if each of its entries
is still in the pool exactly as it was paired, and taking moves those entries out of the
pool into the match, marked *pending* under a lease (a token and a deadline).  Two
processes pairing the same pool at once compute the same matches; whichever takes first
gets them, the other's take finds the entries gone and gets nothing, so no entry is ever
in two matches.

A pending match is not yet a seat.  The caller creates the table, then acknowledges the
match with the table's id (``ack``).  The ack seats the match only if the caller's token
still holds it (a compare-and-set), and only a seated match names a table to its players
(``matches_for``; a pending one says "being seated").  A caller that dies, or stalls,
between the take and the ack does not lose the players: once the lease's deadline has
passed, the next ``pair`` (in any process) re-delivers the match under a new token, and
the old token's ack is refused, so the table the stalled caller may have created is never
shown (the caller drops it when its ack is refused).  An ack after the deadline still
seats the match if nobody has re-delivered it yet.  A match already delivered
``deliveries`` times is dissolved instead: its entries go back to the pool as they were,
with their entry times, so a match whose table cannot be made does not circle for ever.
``give_back`` dissolves a held match at once (the caller could not create the table); a
party that leaves while its match is pending dissolves it too, the others going back to
the pool.  A re-delivery happens in a ``pair`` call: a server calls ``pair`` every second
or so whether or not anyone new has joined.

A party of two forms in the store before it waits: ``invite`` keeps an invitation
(:class:`burraco.meet.entries.Invitation`) that holds both its accounts as an entry would
(neither may join, be invited or invite while it is open), ``invitation_of`` finds it from
either side, ``withdraw`` drops it (the inviter cancels, the partner declines), and
``accept`` turns it into the party's entry in one step, only if it is still there exactly
as read and still open.  An invitation past its ``expires`` holds nobody: whatever finds it
(a join, an invitation, a pairing's prune) drops it.

In Redis every step is one Lua script (``store_lua``), so each runs whole and alone; the
pairing itself runs in the caller between the read and the take, which is safe because
the take checks each entry against what was read (an optimistic take: a WATCH on the
whole pool would make every join abort every concurrent pairing).  Times are the
callers' (``now``): the processes' clocks must agree to well within a lease.
"""

from __future__ import annotations

import asyncio
import json
import secrets
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Protocol

from redis.asyncio import Redis

from burraco.meet import store_lua
from burraco.meet.entries import Entry, Invitation, PoolError, PoolKey, window
from burraco.meet.matches import Match
from burraco.meet.pool import pair

LEASE = 15.0
"""Seconds a delivered match waits for its ack before it is delivered again."""
DELIVERIES = 2
"""Deliveries of a match before it is dissolved instead (its players back in the pool)."""
KEEP = 600.0
"""Seconds a seated match stays known to ``matches_for``."""
INVITE = "invite:"
"""How ``who`` marks an account held by an open invitation (``invite:INVITER``)."""

Step = Callable[[str], Awaitable[None]]
"""A hook ``pair`` awaits at its steps (``paired``: computed, not taken; ``taken``: taken,
not yet returned); tests pause a pairing there."""


@dataclass(frozen=True, slots=True)
class Delivery:
    """A match handed to one caller, who must create its table and ``ack`` it before
    ``deadline`` (the lease)."""

    match: Match
    token: str
    deadline: float
    attempt: int
    """1 at the first delivery, more when re-delivered after a lease ran out."""


@dataclass(frozen=True, slots=True)
class Where:
    """Where an account waits."""

    pool: PoolKey
    party: tuple[str, ...]
    since: float
    waited: float
    window: float
    """Half-width of the rating window now (``math.inf``: anyone)."""


@dataclass(frozen=True, slots=True)
class Placement:
    """The match that holds an account: ``table`` once seated, ``None`` while pending."""

    match: Match
    table: str | None


class PoolStore(Protocol):
    async def join(self, entry: Entry) -> None: ...
    async def leave(self, account: str) -> Entry | None: ...
    async def where(self, account: str, now: float | None = None) -> Where | None: ...
    async def pair(self, now: float) -> list[Delivery]: ...
    async def ack(self, delivery: Delivery, table: str, now: float | None = None) -> bool: ...
    async def give_back(self, delivery: Delivery) -> bool: ...
    async def matches_for(self, account: str) -> Placement | None: ...
    async def waiting(self) -> list[Entry]: ...
    async def invite(self, invitation: Invitation, now: float | None = None) -> None: ...
    async def invitation_of(self, account: str,
                            now: float | None = None) -> Invitation | None: ...
    async def withdraw(self, account: str) -> Invitation | None: ...
    async def accept(self, invitation: Invitation, entry: Entry) -> None: ...


def where_of(entry: Entry, now: float | None) -> Where:
    at = time.time() if now is None else now
    return Where(entry.pool, entry.accounts, entry.since, entry.waited(at),
                 window(entry.waited(at)))


def refusal(account: str, pool: PoolKey | None) -> PoolError:
    if pool is None:
        return PoolError("account", f"{account!r} has been matched and is being seated",
                         account)
    return PoolError("account", f"{account!r} is already waiting in pool {pool.name}: "
                     "leave it first (one pool per person)", account)


def held_by(account: str, invitation: Invitation) -> PoolError:
    return PoolError("account", f"{account!r} is in an open invitation to a party "
                     f"({invitation.pool.name}): it is answered, withdrawn or expires first",
                     account)


def gone() -> PoolError:
    return PoolError("invitation", "the invitation is no longer open (withdrawn, declined "
                     "or expired)")


def check_accepting(invitation: Invitation, entry: Entry) -> None:
    """``entry`` is the party ``invitation`` invites to: its pool, its two accounts."""
    if entry.pool != invitation.pool or entry.accounts != invitation.accounts:
        raise PoolError("party", f"the party {list(entry.accounts)} in {entry.pool.name} is "
                        f"not the one invited ({list(invitation.accounts)} in "
                        f"{invitation.pool.name})")


def new_token() -> str:
    return secrets.token_hex(8)


@dataclass(slots=True)
class _Pending:
    match: Match
    entries: tuple[Entry, ...]
    token: str
    deadline: float
    attempt: int
    table: str | None = None
    seated_at: float = 0.0


class MemoryPool:
    """The pools of one process, safe for its asyncio tasks (one lock around each change)."""

    def __init__(self, *, lease: float = LEASE, deliveries: int = DELIVERIES,
                 keep: float = KEEP) -> None:
        self.lease = lease
        self.deliveries = deliveries
        self.keep = keep
        self._entries: dict[str, Entry] = {}
        self._who: dict[str, str] = {}
        """account → its entry's id, ``match:ID`` while its match is pending, or
        ``invite:ID`` while an invitation holds it."""
        self._invites: dict[str, Invitation] = {}
        self._matches: dict[str, _Pending] = {}
        self._seated: dict[str, str] = {}
        self._lock = asyncio.Lock()

    def _busy(self, account: str, now: float) -> PoolError | None:
        """Why ``account`` may not join or be invited now (``None``: it may); an expired
        invitation that held it is dropped."""
        at = self._who.get(account)
        if at is None:
            return None
        if at.startswith(INVITE):
            invitation = self._invites.get(at[len(INVITE):])
            if invitation is not None and invitation.open(now):
                return held_by(account, invitation)
            self._drop_invitation(at[len(INVITE):])
            self._who.pop(account, None)
            return None
        held = self._entries.get(at)
        return refusal(account, held.pool if held else None)

    def _drop_invitation(self, invitation_id: str) -> Invitation | None:
        invitation = self._invites.pop(invitation_id, None)
        for account in invitation.accounts if invitation is not None else ():
            if self._who.get(account) == INVITE + invitation_id:
                del self._who[account]
        return invitation

    async def join(self, entry: Entry) -> None:
        """Queue ``entry`` (an invitation expired by its ``since`` holds nobody)."""
        async with self._lock:
            for account in entry.accounts:
                busy = self._busy(account, entry.since)
                if busy is not None:
                    raise busy
            for account in entry.accounts:
                self._who[account] = entry.id
                self._seated.pop(account, None)
            self._entries[entry.id] = entry

    async def leave(self, account: str) -> Entry | None:
        async with self._lock:
            at = self._who.get(account)
            if at is None or at.startswith(INVITE):
                return None
            if at.startswith("match:"):
                return self._dissolve(at[6:], leaver=account)
            entry = self._entries.pop(at)
            for member in entry.accounts:
                self._who.pop(member, None)
            return entry

    async def where(self, account: str, now: float | None = None) -> Where | None:
        entry = self._entries.get(self._who.get(account, ""))
        return None if entry is None else where_of(entry, now)

    async def pair(self, now: float) -> list[Delivery]:
        async with self._lock:
            token = new_token()
            out = self._reclaim(now, token)
            pairing = pair(self._entries.values(), now)
            for match in pairing.matches:
                taken = pairing.taken[match.id]
                for entry in taken:
                    del self._entries[entry.id]
                    for account in entry.accounts:
                        self._who[account] = f"match:{match.id}"
                pending = _Pending(match, taken, token, now + self.lease, 1)
                self._matches[match.id] = pending
                out.append(Delivery(match, token, pending.deadline, 1))
            self._prune(now)
            return out

    def _reclaim(self, now: float, token: str) -> list[Delivery]:
        out = []
        due = sorted((p.deadline, match_id) for match_id, p in self._matches.items()
                     if p.table is None and p.deadline <= now)
        for _, match_id in due:
            pending = self._matches[match_id]
            if pending.attempt >= self.deliveries:
                self._dissolve(match_id, leaver=None)
                continue
            pending.token, pending.deadline = token, now + self.lease
            pending.attempt += 1
            out.append(Delivery(pending.match, token, pending.deadline, pending.attempt))
        return out

    def _dissolve(self, match_id: str, leaver: str | None) -> Entry | None:
        pending = self._matches.pop(match_id)
        removed = None
        for entry in pending.entries:
            if leaver in entry.accounts:
                removed = entry
                for account in entry.accounts:
                    self._who.pop(account, None)
            else:
                self._entries[entry.id] = entry
                for account in entry.accounts:
                    self._who[account] = entry.id
        return removed

    def _prune(self, now: float) -> None:
        for invitation in [i for i in self._invites.values() if not i.open(now)]:
            self._drop_invitation(invitation.id)
        old = [match_id for match_id, p in self._matches.items()
               if p.table is not None and p.seated_at < now - self.keep]
        for match_id in old:
            for account in self._matches.pop(match_id).match.accounts:
                if self._seated.get(account) == match_id:
                    del self._seated[account]

    def _held(self, delivery: Delivery) -> _Pending | None:
        pending = self._matches.get(delivery.match.id)
        if pending is None or pending.table is not None or pending.token != delivery.token:
            return None
        return pending

    async def ack(self, delivery: Delivery, table: str, now: float | None = None) -> bool:
        async with self._lock:
            pending = self._held(delivery)
            if pending is None:
                return False
            pending.table, pending.seated_at = table, time.time() if now is None else now
            for account in pending.match.accounts:
                self._who.pop(account, None)
                self._seated[account] = pending.match.id
            return True

    async def give_back(self, delivery: Delivery) -> bool:
        async with self._lock:
            if self._held(delivery) is None:
                return False
            self._dissolve(delivery.match.id, leaver=None)
            return True

    async def matches_for(self, account: str) -> Placement | None:
        at = self._who.get(account, "")
        match_id = at[6:] if at.startswith("match:") else self._seated.get(account)
        pending = self._matches.get(match_id or "")
        return None if pending is None else Placement(pending.match, pending.table)

    async def waiting(self) -> list[Entry]:
        return sorted(self._entries.values(), key=lambda e: (e.since, e.id))

    async def invite(self, invitation: Invitation, now: float | None = None) -> None:
        """Keep ``invitation`` (at ``now``: its ``since`` if not given); refused, naming the
        account, while either of its accounts waits, is being seated or is in another open
        invitation."""
        at = invitation.since if now is None else now
        async with self._lock:
            for account in invitation.accounts:
                busy = self._busy(account, at)
                if busy is not None:
                    raise busy
            for account in invitation.accounts:
                self._who[account] = INVITE + invitation.id
            self._invites[invitation.id] = invitation

    async def invitation_of(self, account: str,
                            now: float | None = None) -> Invitation | None:
        """The open invitation that holds ``account``, as inviter or as partner."""
        at = self._who.get(account, "")
        invitation = self._invites.get(at[len(INVITE):]) if at.startswith(INVITE) else None
        if invitation is None or not invitation.open(time.time() if now is None else now):
            return None
        return invitation

    async def withdraw(self, account: str) -> Invitation | None:
        """Drop the invitation that holds ``account`` (either side); the one dropped."""
        async with self._lock:
            at = self._who.get(account, "")
            return self._drop_invitation(at[len(INVITE):]) if at.startswith(INVITE) else None

    async def accept(self, invitation: Invitation, entry: Entry) -> None:
        """Turn ``invitation`` into the party's ``entry`` at ``entry.since``: only if it is
        still kept exactly as read and still open (else :class:`PoolError` on
        ``invitation``, and nothing changes but an expired invitation dropped)."""
        check_accepting(invitation, entry)
        async with self._lock:
            if self._invites.get(invitation.id) != invitation:
                raise gone()
            if not invitation.open(entry.since):
                self._drop_invitation(invitation.id)
                raise gone()
            del self._invites[invitation.id]
            for account in entry.accounts:
                self._who[account] = entry.id
                self._seated.pop(account, None)
            self._entries[entry.id] = entry


def _text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


class RedisPool:
    """The pools of a cluster, in Redis under ``PREFIX:meet:``; every process of the cluster
    makes one on the same prefix."""

    def __init__(self, redis: Redis, prefix: str, *, lease: float = LEASE,
                 deliveries: int = DELIVERIES, keep: float = KEEP,
                 step: Step | None = None) -> None:
        self.redis = redis
        self.prefix = prefix
        self.lease = lease
        self.deliveries = deliveries
        self.keep = keep
        self.step = step
        self.keys = [f"{prefix}:meet:{name}" for name in store_lua.KEYS]
        self._scripts: dict[str, Any] = {
            name: redis.register_script(getattr(store_lua, name))
            for name in ("JOIN", "LEAVE", "TAKE", "RECLAIM", "ACK", "GIVE_BACK", "PRUNE",
                         "INVITE", "WITHDRAW", "ACCEPT")}

    async def _run(self, name: str, *args: Any) -> Any:
        return await self._scripts[name](keys=self.keys, args=list(args))

    async def join(self, entry: Entry) -> None:
        """As :meth:`MemoryPool.join`."""
        found = await self._run("JOIN", repr(entry.since), entry.id, entry.to_json(),
                                *entry.accounts)
        if found != 1:
            raise self._refusal(found)

    @staticmethod
    def _refusal(found: list[Any]) -> PoolError:
        account, at, held = (None if v is None else _text(v) for v in found)
        if at is not None and at.startswith(INVITE) and held is not None:
            return held_by(account or "", Invitation.from_json(held))
        return refusal(account or "", None if held is None else Entry.from_json(held).pool)

    async def leave(self, account: str) -> Entry | None:
        raw = await self._run("LEAVE", account)
        return None if raw is None else Entry.from_json(raw)

    async def where(self, account: str, now: float | None = None) -> Where | None:
        at = await self.redis.hget(self.keys[1], account)
        if at is None or _text(at).startswith("match:"):
            return None
        raw = await self.redis.hget(self.keys[0], _text(at))
        return None if raw is None else where_of(Entry.from_json(raw), now)

    async def pair(self, now: float) -> list[Delivery]:
        token = new_token()
        deadline = now + self.lease
        again = await self._run("RECLAIM", repr(now), token, repr(deadline), self.deliveries)
        out = [Delivery(Match.from_dict(json.loads(again[i + 1])["match"]), token, deadline,
                        int(again[i + 2])) for i in range(0, len(again), 3)]
        raw = {_text(k): _text(v) for k, v in (await self.redis.hgetall(self.keys[0])).items()}
        pairing = pair((Entry.from_json(text) for text in raw.values()), now)
        if self.step is not None:
            await self.step("paired")
        if pairing.matches:
            args: list[Any] = [token, repr(deadline)]
            for match in pairing.matches:
                taken = pairing.taken[match.id]
                body = {"match": match.to_dict(), "entries": [
                    {"id": e.id, "raw": raw[e.id], "accounts": list(e.accounts)}
                    for e in taken]}
                args += [match.id, json.dumps(body, separators=(",", ":")), len(taken)]
                for entry in taken:
                    args += [entry.id, raw[entry.id], len(entry.accounts), *entry.accounts]
            ids = {_text(i) for i in await self._run("TAKE", *args)}
            out += [Delivery(m, token, deadline, 1) for m in pairing.matches if m.id in ids]
        await self._run("PRUNE", repr(now - self.keep), repr(now))
        if self.step is not None:
            await self.step("taken")
        return out

    async def ack(self, delivery: Delivery, table: str, now: float | None = None) -> bool:
        at = time.time() if now is None else now
        return bool(await self._run("ACK", delivery.match.id, delivery.token, table,
                                    repr(at)))

    async def give_back(self, delivery: Delivery) -> bool:
        return bool(await self._run("GIVE_BACK", delivery.match.id, delivery.token))

    async def matches_for(self, account: str) -> Placement | None:
        async with self.redis.pipeline(transaction=True) as pipe:
            pipe.hget(self.keys[1], account)
            pipe.hget(self.keys[5], account)
            at, seated = await pipe.execute()
        at = None if at is None else _text(at)
        match_id = at[6:] if at and at.startswith("match:") else seated
        if match_id is None:
            return None
        match_id = _text(match_id)
        async with self.redis.pipeline(transaction=True) as pipe:
            pipe.hget(self.keys[2], match_id)
            pipe.hget(self.keys[3], match_id)
            body, state = await pipe.execute()
        if body is None or state is None:
            return None
        state = _text(state)
        table = state[7:] if state.startswith("seated ") else None
        return Placement(Match.from_dict(json.loads(body)["match"]), table)

    async def waiting(self) -> list[Entry]:
        raw = await self.redis.hgetall(self.keys[0])
        return sorted((Entry.from_json(v) for v in raw.values()), key=lambda e: (e.since, e.id))

    async def invite(self, invitation: Invitation, now: float | None = None) -> None:
        """As :meth:`MemoryPool.invite`."""
        at = invitation.since if now is None else now
        found = await self._run("INVITE", repr(at), invitation.id, invitation.to_json(),
                                repr(invitation.expires), *invitation.accounts)
        if found != 1:
            raise self._refusal(found)

    async def invitation_of(self, account: str,
                            now: float | None = None) -> Invitation | None:
        """As :meth:`MemoryPool.invitation_of`."""
        at = await self.redis.hget(self.keys[1], account)
        if at is None or not _text(at).startswith(INVITE):
            return None
        raw = await self.redis.hget(self.keys[7], _text(at)[len(INVITE):])
        if raw is None:
            return None
        invitation = Invitation.from_json(raw)
        return invitation if invitation.open(time.time() if now is None else now) else None

    async def withdraw(self, account: str) -> Invitation | None:
        """As :meth:`MemoryPool.withdraw`."""
        raw = await self._run("WITHDRAW", account)
        return None if raw is None else Invitation.from_json(raw)

    async def accept(self, invitation: Invitation, entry: Entry) -> None:
        """As :meth:`MemoryPool.accept`."""
        check_accepting(invitation, entry)
        if not await self._run("ACCEPT", repr(entry.since), invitation.id,
                               invitation.to_json(), entry.id, entry.to_json(),
                               *entry.accounts):
            raise gone()

    async def pending(self) -> list[str]:
        """The ids of the matches delivered and not yet acked."""
        return sorted(_text(i) for i in await self.redis.zrange(self.keys[4], 0, -1))
