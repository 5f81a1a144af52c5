"""The matchmaking pool of a server: "Play now, with people" (docs/protocol.md, "Matchmaking").

:class:`Matchmaking` holds the pools (:mod:`burraco.meet.store`): a ``RedisPool`` under the
cluster's Redis URL and prefix when the server runs with ``--redis``, so that every process
(and every worker) of a cluster shares them; else a ``MemoryPool``, which a restart empties.
Every process runs a pairing loop, about once a second and at once after a join here:
``pair`` re-delivers the matches whose lease ran out and takes the new ones, each match by
exactly one process (``meet/store.py``).  Each match delivered here becomes a table through
the hub:

* its seats in ``Match.seats`` order: a human seat for each matched person, a bot seat of the
  match's level for the others (the nearest level a table offers, when the fitted ratings
  name a retired version of a level: ``expert-2026`` is measured, never seated);
* rated or casual as its pool (a rated table is never casual: no undo), the format's fields
  from ``FORMAT_TABLE``, the fibur rules, and private: a lobby guest could otherwise ask for
  an open human seat of a public table (``POST /api/web/tables/{id}/seats/{seat}``) before
  the matched player arrives;
* created by the match itself: the table's creator is ``meet:<match id>`` (:func:`creator_of`),
  nobody's account, so no player can cancel it and no player's caps count it;
* then acknowledged with the table's id.  A failed creation gives the match back (its players
  return to the pool with their entry times); a creation refused because a matched account
  may not take a rated seat now (a wait after an abandonment, a live rated seat, both taken
  since it joined) gives the match back and takes that account out of the pool, so the others
  are paired again without it.

**Idempotence.**  The hub mints every table's id itself (``create_table`` takes none), so the
match id cannot be the table's; it is kept as the table's creator instead.  A match delivered
again (``attempt > 1``: the process that took it died or stalled between creating its table
and the ack, and its lease ran out) first looks for a waiting table the same match created,
and is seated there rather than at a second one.  A process whose ack is refused drops its
table only when the match no longer lives with it (dissolved, or seated at another table);
while the match is pending elsewhere it leaves the table for the new holder to find.  What is
left: when the stalled creation commits only after the new holder looked, the new holder makes
a second table and the first is kept (the match was pending when its ack was refused); and in
a cluster a table the hub handed to another process at creation cannot be dropped from here
(logged).  Such a table waits for nobody: nobody is given its links and it holds no seat
(nothing is claimed at creation), but it does not expire either (waiting tables expire only
when a guest made them: ``server/waiting.py``).

**Seat links.**  No seat is claimed when the table is made.  Each matched person learns their
own seat link (``/play/ID?seat=N&token=…``; a seat token opens one seat) from
``GET /api/pool``, and nobody else does; the table waits until every human seat has been
taken up (docs/protocol.md, "A match waits for its players").

**Rated play.**  A rated pool takes accounts only, and checks each one as a rated table's
seat is checked (:mod:`burraco.server.rated`): no wait after an abandonment, no seat held at a
rated match not over, and no rated table of a match of the pool still to be played.  The
checks run again for every account when the table is made.

Ratings are the accounts' (the form's ``mu``; a newcomer's 1500); a guest, who may queue
casual only, counts 1500.  An account's entry keeps it apart from the accounts it blocked and
those that blocked it (``accounts.social.kept_apart``), as they stand when it joins.

**Parties.**  In form ``"4"`` an account may queue with a partner: a friend (each follows the
other, no block either way), named by username.  The join makes an *invitation*
(:meth:`Matchmaking.invite`), kept in the pools' store for a minute and holding both
accounts (neither may join elsewhere, invite or be invited meanwhile); the partner sees it
(``status``: ``invited``) and accepts it (:meth:`Matchmaking.accept`: the party's entry is
queued, both ratings and both block lists read then, the party's rating their mean) or
declines it (``leave``, which also withdraws one's own invitation).  A join of one's own
while invited declines the invitation first.  A rated party's two accounts pass the rated
checks at the invitation and again at the acceptance.  The party is one side of its table,
its partners across (seats 0 and 2, or 1 and 3); four singles make two pairs.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from typing import Any

from redis.asyncio import Redis
from redis.exceptions import RedisError

from burraco.accounts import screening, social
from burraco.accounts.identity import Guest
from burraco.accounts.names import username_key
from burraco.accounts.ratings import MU
from burraco.accounts.social import Someone
from burraco.community.pool_reads import (
    PoolRefused,
    names_of,
    partner_named,
    pool_body,
    rating_of,
    table_level,
    window_body,
)
from burraco.community.pool_seating import PoolSeating, request_for
from burraco.community.presence import Presence
from burraco.meet.entries import (
    DEFAULT,
    Entry,
    Invitation,
    PoolError,
    PoolKey,
    new_entry,
    new_invitation,
)
from burraco.meet.store import MemoryPool, Placement, PoolStore, RedisPool
from burraco.server.hub import Hub
from burraco.server.tables import (
    SeatRequest,
    TableConfig,
    TableConfigError,
    build_config,
)

log = logging.getLogger("burraco.community.matchmaking")

EVERY = 1.0
"""Seconds between two pairings of a process (a join here pairs at once too)."""
ABANDONED_SECONDS = 45.0
"""A waiting party none of whose players has asked where they are for this long leaves."""
WAITING_TTL = 1.0
"""Seconds the count of who waits in each pool is kept before it is read again."""
NAMES_KEPT = 10_000


# --- the service -----------------------------------------------------------------------------

class Matchmaking(PoolSeating):
    """The pools of a server, its pairing loop, and what the HTTP routes ask of them."""

    def __init__(self, hub: Hub, *, store: PoolStore | None = None,
                 clock: Callable[[], float] = time.time, every: float = EVERY,
                 abandoned_after: float | None = ABANDONED_SECONDS) -> None:
        self.hub = hub
        self.abandoned_after = abandoned_after
        """An entry whose player has not asked where they are for this long is taken out
        of its pool (``None``: never)."""
        self.clock = clock
        """The pools' clock (entry times, waits, leases): ``time.time``, the clock every
        process of a cluster shares; a test may give its own."""
        self.every = every
        self._redis: Redis | None = None
        if store is None:
            settings = hub.settings
            if settings.redis_url:
                self._redis = Redis.from_url(settings.redis_url)
                store = RedisPool(self._redis, settings.redis_prefix)
            else:
                store = MemoryPool()
        self.store: PoolStore = store
        self.polls = Presence(self._redis, hub.settings.redis_prefix, name="pool-polls")
        """When each waiting player last asked where they are (joining counts)."""
        self._configs: dict[PoolKey, TableConfig] = {}
        self._names: dict[str, str] = {}
        self._waiting: tuple[float, list[Entry]] | None = None
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self.tables_made = 0
        """Tables this process created for matches (a test reads it)."""

    # --- life ----------------------------------------------------------------------------

    @property
    def redis(self) -> Redis | None:
        """The cluster's Redis client the pools use (``None``: pools in memory)."""
        return self._redis

    async def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._run())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
        if self._redis is not None:
            await self._redis.aclose()

    async def _run(self) -> None:
        failing = False
        while True:
            self._wake.clear()
            try:
                await self.pair_once()
                failing = False
            except (RedisError, OSError) as exc:  # the cluster's Redis away: as the cluster
                # says it (a warning, once per outage), and the next round tries again
                if not failing:
                    log.warning("matchmaking: a pairing failed: %s", exc)
                else:
                    log.debug("matchmaking: a pairing failed again: %r", exc)
                failing = True
            except Exception as exc:  # the database away, or a fault: the next round tries again
                if not failing:  # once per outage, not every second
                    log.exception("matchmaking: a pairing failed")
                else:
                    log.debug("matchmaking: a pairing failed again: %r", exc)
                failing = True
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), self.every)

    # --- joining, leaving, where -----------------------------------------------------------

    def config_for(self, key: PoolKey) -> TableConfig:
        """The settings of a table of ``key`` (every seat a person's); :class:`PoolRefused`
        when this server makes no such table (a rated format below its rated minimum)."""
        config = self._configs.get(key)
        if config is not None:
            return config
        settings = self.hub.settings
        try:
            config = build_config(
                request_for(key, [SeatRequest(kind="human")] * key.seats),
                engines=tuple(settings.engine_commands),
                rated_minimum=(settings.rated_min_target, settings.rated_min_hands))
        except TableConfigError as exc:
            field = "format" if exc.field in ("target", "smazzate") else exc.field
            raise PoolRefused(422, "bad_field", f"this server has no {key.name} pool: "
                              f"{exc}", field=field) from None
        self._configs[key] = config
        return config

    async def join(self, guest: Guest, key: PoolKey,
                   bots_after: Any = DEFAULT, address: str | None = None) -> Entry:
        """Queue ``guest`` alone in ``key``'s pool; :class:`PoolRefused` says why not.
        ``address``: where the request came from, kept as a keyed hash for fair play's
        screening (:mod:`burraco.accounts.screening`)."""
        self.config_for(key)
        if key.rated:
            await self.check_rated(guest)
        incoming = await self._clear(guest)
        rating, blocked = MU, frozenset[str]()
        if guest.account:
            rating, blocked = await self.hub.read(lambda conn: (
                rating_of(conn, guest.id, key.form), social.kept_apart(conn, guest.id)))
        try:
            entry = new_entry(key, [(guest.id, rating)], since=self.clock(),
                              bots_after=bots_after, blocked=blocked)
            await self._decline(incoming)
            await self.store.join(entry)
        except PoolError as exc:
            if exc.field == "account":  # another request of the same person came first
                raise PoolRefused(409, "already_queued", exc.message) from None
            raise PoolRefused(422, "bad_field", exc.message, field=exc.field) from None
        await self._joined(guest, address)
        return entry

    async def _joined(self, guest: Guest, address: str | None) -> None:
        """``guest`` joined or invited: seen now, its address's hash kept for screening."""
        await self.polls.seen(guest.id, self.clock())
        if address is not None:
            hashed = screening.address_hash(self.hub.tokens, address)
            await self.hub.writer.run(lambda conn: screening.seen(conn, guest.id, "pool",
                                                                  hashed))
        self._names[guest.id] = guest.nickname
        self._waiting = None
        self._wake.set()

    async def _clear(self, guest: Guest) -> Invitation | None:
        """``guest`` may join or invite: it waits in no pool, no match of its is being made,
        no invitation of its own is open (:class:`PoolRefused` 409 otherwise).  The
        invitation open *to* it, if any: its own join declines it (:meth:`_decline`, once
        the join is sure to be tried)."""
        held = await self.store.where(guest.id)
        if held is not None:
            raise PoolRefused(409, "already_queued", f"you are waiting in pool "
                              f"{held.pool.name} already: leave it first (DELETE /api/pool)")
        placement = await self.store.matches_for(guest.id)
        if placement is not None and placement.table is None:
            raise PoolRefused(409, "being_seated", "you have been matched and your table is "
                              "being made: GET /api/pool says where to sit")
        invitation = await self.store.invitation_of(guest.id, self.clock())
        if invitation is not None and invitation.inviter == guest.id:
            partner = (await self.names([invitation.partner])).get(invitation.partner, "")
            raise PoolRefused(409, "already_queued", f"you have invited {partner} to queue "
                              "with you: withdraw it first (DELETE /api/pool)")
        return invitation

    async def _decline(self, invitation: Invitation | None) -> None:
        if invitation is not None:
            await self.store.withdraw(invitation.partner)

    # --- parties ---------------------------------------------------------------------------

    async def partner(self, guest: Guest, key: PoolKey, username: object) -> Someone:
        """The partner ``guest`` names to queue with in ``key``'s pool: :class:`PoolRefused`
        403 ``account_required`` for a guest, 422 naming ``partner`` for a form-2 pool, an
        unknown username, oneself or anyone not a friend."""
        if not guest.account:
            raise PoolRefused(403, "account_required", "a party is for accounts: register or "
                              "log in (a guest queues alone)", field="partner")
        if key.form != "4":
            raise PoolRefused(422, "bad_field", f"partners queue together in form \"4\" only, "
                              f"not in form {key.form!r}", field="partner")
        return await self.hub.read(lambda conn: partner_named(conn, guest.id, username))

    async def invite(self, guest: Guest, key: PoolKey, partner: object,
                     bots_after: Any = DEFAULT, address: str | None = None) -> Invitation:
        """Invite ``partner`` (a username, or the :class:`Someone` :meth:`partner` found) to
        queue with ``guest`` in ``key``'s pool (form ``"4"``); the invitation, open for a
        minute.  :class:`PoolRefused` says why not: as :meth:`partner`, as :meth:`join` for
        the caller, 409 ``partner_busy`` when the partner waits in a pool, is being seated or
        is in another open invitation, 409 ``partner_unavailable`` when, in a rated pool,
        the partner may not take a rated seat now."""
        self.config_for(key)
        mate = partner if isinstance(partner, Someone) else await self.partner(
            guest, key, partner)
        if key.rated:
            await self.check_rated(guest)
        incoming = await self._clear(guest)
        now = self.clock()
        held = await self.store.where(mate.player_id, now)
        placement = await self.store.matches_for(mate.player_id)
        theirs = await self.store.invitation_of(mate.player_id, now)
        if theirs is not None and theirs == incoming:
            theirs = None  # the mate's own invitation to the caller: declined, this one made
        if held is not None or (placement is not None and placement.table is None) or (
                theirs is not None):
            raise self._busy(mate)
        if key.rated:
            await self._check_partner(mate.player_id, mate.username)
        try:
            invitation = new_invitation(key, guest.id, mate.player_id, since=now,
                                        bots_after=bots_after)
            await self._decline(incoming)
            await self.store.invite(invitation, now)
        except PoolError as exc:
            if exc.field == "account" and exc.account == mate.player_id:  # raced
                raise self._busy(mate) from None
            if exc.field == "account":  # another request of the same person came first
                raise PoolRefused(409, "already_queued", exc.message) from None
            raise PoolRefused(422, "bad_field", exc.message, field=exc.field) from None
        self._names[mate.player_id] = mate.username
        await self._joined(guest, address)
        return invitation

    @staticmethod
    def _busy(mate: Someone) -> PoolRefused:
        return PoolRefused(409, "partner_busy", f"{mate.username} is waiting in a pool, being "
                           "seated or in another party's invitation now: try again later",
                           field="partner")

    async def _check_partner(self, player_id: str, username: str) -> None:
        """The partner of a rated party may take a rated seat now (409
        ``partner_unavailable`` otherwise; why is the partner's own to tell)."""
        try:
            await self.check_rated(Guest(player_id, username, account=True))
        except PoolRefused:
            raise PoolRefused(409, "partner_unavailable", f"{username} may not take a rated "
                              "seat now", field="partner") from None

    async def accept(self, guest: Guest, by: str | None = None,
                     address: str | None = None) -> Entry:
        """``guest`` accepts the invitation to it (from ``by``, a username, when given): the
        party's entry, queued.  :class:`PoolRefused` 409 ``no_invitation`` when none is open
        (withdrawn, expired, from someone else than ``by``, or no longer between friends),
        the rated checks of the caller as :meth:`join`'s, and 409 ``partner_unavailable``
        when, in a rated pool, the inviter may not take a rated seat now."""
        now = self.clock()
        invitation = await self.store.invitation_of(guest.id, now)
        if invitation is None or invitation.partner != guest.id:
            raise PoolRefused(409, "no_invitation", "no invitation to a party is open for "
                              "you (withdrawn, or past its minute)")
        inviter = invitation.inviter
        name = (await self.names([inviter])).get(inviter, "")
        if by is not None and username_key(by) != username_key(name):
            raise PoolRefused(409, "no_invitation", f"the invitation open for you is "
                              f"{name}'s, not {by[:30]!r}'s", field="by")
        key = invitation.pool
        self.config_for(key)
        if key.rated:
            await self.check_rated(guest)
            try:
                await self._check_partner(inviter, name)
            except PoolRefused:
                await self.store.withdraw(guest.id)
                raise
        partners = invitation.accounts
        still, ratings, blocked = await self.hub.read(lambda conn: (
            social.are_friends(conn, *partners),
            {a: rating_of(conn, a, key.form) for a in partners},
            social.kept_apart(conn, partners[0]) | social.kept_apart(conn, partners[1])))
        if not still:
            await self.store.withdraw(guest.id)
            raise PoolRefused(409, "no_invitation", f"{name}'s invitation no longer stands: "
                              "partners are friends, each following the other")
        try:
            entry = invitation.entry(ratings, self.clock(), blocked)
            await self.store.accept(invitation, entry)
        except PoolError as exc:
            if exc.field in ("invitation", "account"):
                raise PoolRefused(409, "no_invitation", exc.message) from None
            raise PoolRefused(422, "bad_field", exc.message, field=exc.field) from None
        await self.polls.seen(inviter, self.clock())
        await self._joined(guest, address)
        return entry

    async def leave(self, guest: Guest) -> bool:
        """Leave the pool at once (a pending match is dissolved, the others go back), and
        drop the invitation to a party that holds ``guest`` (withdrawn by its inviter,
        declined by its partner)."""
        withdrawn = await self.store.withdraw(guest.id)
        left = await self.store.leave(guest.id)
        if left is not None:
            self._waiting = None
        return left is not None or withdrawn is not None

    async def waiting(self) -> list[Entry]:
        """Who waits, in every pool (read again at most every :data:`WAITING_TTL` s)."""
        now = time.monotonic()
        if self._waiting is None or now - self._waiting[0] > WAITING_TTL:
            self._waiting = (now, await self.store.waiting())
        return self._waiting[1]

    async def status(self, guest: Guest) -> dict[str, Any]:
        """Where ``guest`` is: ``none``, ``waiting`` in a pool, or ``matched``."""
        now = self.clock()
        await self.polls.seen(guest.id, now)  # still there: not abandoned
        where = await self.store.where(guest.id, now)
        if where is not None:
            entries = await self.waiting()
            mine = next((e for e in entries if e.id == where.party[0]), None)
            if mine is None:  # joined since the count was read
                self._waiting = None
                entries = await self.waiting()
                mine = next((e for e in entries if e.id == where.party[0]), None)
            rating = mine.rating if mine is not None else MU
            return {"state": "waiting", "pool": pool_body(where.pool), "since": where.since,
                    "waited": round(where.waited, 1), "rating": round(rating, 1),
                    "window": window_body(rating, where.window),
                    "bots_after": mine.bots_after if mine is not None else None,
                    "waiting": sum(len(e.accounts) for e in entries if e.pool == where.pool),
                    "partner": await self.partner_name(where.party, guest.id)}
        invitation = await self.store.invitation_of(guest.id, now)
        if invitation is not None:
            return await self.invitation_body(invitation, guest.id, now)
        placement = await self.store.matches_for(guest.id)
        if placement is None:
            return {"state": "none"}
        return {"state": "matched", "match": await self.match_body(placement, guest.id)}

    async def partner_name(self, party: tuple[str, ...], player_id: str) -> str | None:
        """The name of ``player_id``'s partner in ``party`` (``None``: alone)."""
        others = [a for a in party if a != player_id]
        return (await self.names(others)).get(others[0]) if others else None

    async def invitation_body(self, invitation: Invitation, player_id: str,
                              now: float) -> dict[str, Any]:
        """An invitation as ``player_id`` is told it: ``inviting`` (its ``partner``) or
        ``invited`` (``by`` whom)."""
        names = await self.names(list(invitation.accounts))
        mine = invitation.inviter == player_id
        body: dict[str, Any] = {
            "state": "inviting" if mine else "invited", "pool": pool_body(invitation.pool),
            "since": invitation.since, "expires": invitation.expires,
            "expires_in": round(max(0.0, invitation.expires - now), 1),
            "bots_after": invitation.bots_after}
        if mine:
            body["partner"] = names.get(invitation.partner)
        else:
            body["by"] = names.get(invitation.inviter)
        return body

    async def match_body(self, placement: Placement, player_id: str) -> dict[str, Any]:
        """A match as its player ``player_id`` is told it: their own seat link, nobody else's."""
        match, table = placement.match, placement.table
        names = await self.names(list(match.accounts))
        seat = next(s for s in match.seats if s.account == player_id)
        seats = [{"seat": s.seat, "team": s.team,
                  "name": names.get(s.account) if s.account is not None else None,
                  "bot": table_level(match.form, s.bot) if s.bot is not None else None}
                 for s in match.seats]
        token = url = None
        if table is not None:
            token = self.hub.tokens.seat_token(table, seat.seat)
            url = f"{self.hub.settings.base_url}/play/{table}?seat={seat.seat}&token={token}"
        return {"id": match.id, "pool": pool_body(match.pool), "table": table,
                "pending": table is None, "seat": seat.seat, "team": seat.team, "url": url,
                "token": token, "rated": match.rated,
                "players": [s["name"] for s in seats if s["bot"] is None],
                "bots": [s["bot"] for s in seats if s["bot"] is not None], "seats": seats}

    async def names(self, ids: list[str]) -> dict[str, str]:
        missing = [pid for pid in ids if pid not in self._names]
        if missing:
            if len(self._names) > NAMES_KEPT:
                self._names.clear()
            self._names.update(await self.hub.read(lambda conn: names_of(conn, missing)))
        return {pid: self._names[pid] for pid in ids if pid in self._names}

def attach(hub: Hub, **options: Any) -> Matchmaking:
    """The pool service of ``hub``: its pairing loop runs while the hub does."""
    service = Matchmaking(hub, **options)
    hub.hooks.started.append(service.start)
    hub.hooks.stopping.append(service.stop)
    return service


__all__ = ["Matchmaking", "attach", "request_for"]
