"""Table leases in Redis: one owner per table, renewed well within expiry.

A lease is the key ``PREFIX:lease:TABLE`` holding the owner's token
(``NODE.EPOCH``: a new epoch at each acquisition, so a door can tell that the
table was rebuilt even by the same process).  It is taken with ``SET NX PX``
and renewed or released only by its holder, with compare-and-set scripts.
The database's version compare-and-set stays the last guard: a holder that
lost its lease without knowing can never commit over the new owner.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable
from typing import Any

from redis.asyncio import Redis

_RENEW = """
if redis.call('get', KEYS[1]) == ARGV[1] then
  return redis.call('pexpire', KEYS[1], ARGV[2])
end
return 0
"""
_RELEASE = """
if redis.call('get', KEYS[1]) == ARGV[1] then
  return redis.call('del', KEYS[1])
end
return 0
"""
_HAND = """
if redis.call('get', KEYS[1]) == ARGV[1] then
  redis.call('set', KEYS[1], ARGV[2], 'PX', ARGV[3])
  return 1
end
return 0
"""


class Leases:
    """The leases this process may take, renew, hand over and release."""

    def __init__(self, redis: Redis, prefix: str, node_id: str, lease_ms: int, *,
                 renewer: Redis | None = None) -> None:
        self.redis = redis
        self.renewer = renewer or redis
        """The client renewals go through: a connection of their own, so that a burst of
        other Redis work (takes, joins) can never hold back the renewal of every lease."""
        self.prefix = prefix
        self.node_id = node_id
        self.lease_ms = lease_ms
        self._renew: Any = redis.register_script(_RENEW)
        self._release: Any = redis.register_script(_RELEASE)
        self._hand: Any = redis.register_script(_HAND)

    def key(self, table_id: str) -> str:
        return f"{self.prefix}:lease:{table_id}"

    def new_token(self, node_id: str | None = None) -> str:
        return f"{node_id or self.node_id}.{secrets.token_hex(6)}"

    async def acquire(self, table_id: str) -> str | None:
        """The new token if this process now holds the table, else ``None``."""
        token = self.new_token()
        ok = await self.redis.set(self.key(table_id), token, nx=True, px=self.lease_ms)
        return token if ok else None

    async def renew(self, held: dict[str, str]) -> set[str]:
        """Renew every held lease (table -> token) in one round trip; the tables kept."""
        if not held:
            return set()
        items = list(held.items())
        async with self.renewer.pipeline(transaction=False) as pipe:
            for table_id, token in items:
                await self._renew(keys=[self.key(table_id)], args=[token, self.lease_ms],
                                  client=pipe)
            results = await pipe.execute()
        return {table_id for (table_id, _), ok in zip(items, results, strict=True) if ok}

    async def release(self, table_id: str, token: str) -> bool:
        return bool(await self._release(keys=[self.key(table_id)], args=[token]))

    async def hand_over(self, table_id: str, token: str, node_id: str) -> str | None:
        """Give a held lease to ``node_id``; its new token, or ``None`` if it was not held."""
        new = self.new_token(node_id)
        ok = await self._hand(keys=[self.key(table_id)], args=[token, new, self.lease_ms])
        return new if ok else None

    async def owners(self, table_ids: Iterable[str]) -> dict[str, str | None]:
        """Each table's current token (``None``: nobody holds it)."""
        ids = list(table_ids)
        if not ids:
            return {}
        values = await self.redis.mget([self.key(t) for t in ids])
        return {t: (v.decode() if isinstance(v, bytes) else v)
                for t, v in zip(ids, values, strict=True)}


def node_of(token: str | None) -> str | None:
    """The process a lease token names."""
    return token.rsplit(".", 1)[0] if token else None
