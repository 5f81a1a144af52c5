"""Provably fair deals: a CSPRNG deck order, committed to before play, revealed after.

At a hand's start the server shuffles with the operating system's CSPRNG
(``random.SystemRandom``) and draws a 32-byte salt from ``secrets``.  Every seat
is sent ``commitment = SHA-256(text)`` where ``text`` is the ASCII string::

    burraco-deal-v1:<salt: 64 lowercase hex digits>:<deck card ids, top first, comma-separated>

At the hand's end the order, the salt and the cut are revealed, so anyone can
recompute the hash and redeal the order (``burraco.engine.deal.deal_from_order``
with the hand's dealer and cut) to check that the deal was fixed before play.

Tables of a *deal group* (duplicate play, "carte uguali") take hand *n*'s order
from the group's secret instead: the order is ``shuffled_order`` seeded with
``HMAC-SHA256(group secret, "burraco-deal-group-v1:hand:<n>")``, so every table of
the group gets the same order for hand *n* while nobody without the secret can
foresee it (one hand's order says nothing about another's).  The salt is still
fresh per table and hand, so the commitments of the group's tables differ and the
scheme above holds unchanged at each of them.

>>> secret = DealSecret.fresh()
>>> verify(secret.commitment, secret.order, secret.salt)
True
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass
from typing import Any

from burraco.engine.deal import DEFAULT_CUT, shuffled_order
from burraco.engine.rules import FIBUR, Rules

SCHEME = "burraco-deal-v1"
GROUP_SCHEME = "burraco-deal-group-v1"


def commit(order: tuple[int, ...] | list[int], salt: str) -> str:
    """The commitment (hex SHA-256) to a deck order under a salt (hex)."""
    text = f"{SCHEME}:{salt}:{','.join(str(card) for card in order)}"
    return hashlib.sha256(text.encode("ascii")).hexdigest()


def verify(commitment: str, order: tuple[int, ...] | list[int], salt: str) -> bool:
    return secrets.compare_digest(commit(order, salt), commitment)


@dataclass(frozen=True, slots=True)
class DealSecret:
    """A hand's deck order (top first), salt and cut; secret until the hand is over."""

    order: tuple[int, ...]
    salt: str
    cut: int = DEFAULT_CUT

    @property
    def commitment(self) -> str:
        return commit(self.order, self.salt)

    @classmethod
    def fresh(cls, *, rules: Rules = FIBUR, cut: int = DEFAULT_CUT) -> DealSecret:
        """A new order from the OS's CSPRNG and a new salt (``rules`` fix the packs)."""
        return cls(tuple(shuffled_order(None, rules)), secrets.token_hex(32), cut)

    @classmethod
    def grouped(cls, group_secret: bytes, number: int, *, rules: Rules = FIBUR,
                cut: int = DEFAULT_CUT) -> DealSecret:
        """Hand ``number`` of a deal group: the group's order, a fresh salt of this table's."""
        return cls(group_order(group_secret, number, rules), secrets.token_hex(32), cut)

    def reveal(self) -> dict[str, Any]:
        return {"scheme": SCHEME, "commitment": self.commitment, "order": list(self.order),
                "salt": self.salt, "cut": self.cut}


def group_order(group_secret: bytes, number: int, rules: Rules = FIBUR) -> tuple[int, ...]:
    """The deck order (top first) of hand ``number`` at every table of a deal group."""
    if len(group_secret) < 16:
        raise ValueError("a deal group's secret has at least 16 bytes")
    message = f"{GROUP_SCHEME}:hand:{number}".encode("ascii")
    seed = int.from_bytes(hmac.new(group_secret, message, hashlib.sha256).digest(), "big")
    return tuple(shuffled_order(seed, rules))


def new_group_secret() -> str:
    """A deal group's secret: 32 bytes from the OS's CSPRNG, as hex (stored, never sent)."""
    return secrets.token_hex(32)
