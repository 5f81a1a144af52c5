"""What waits in a pool: an entry (a party of one or two accounts), checked field by field.

A pool is one kind of match: a format, a form of play and rated or casual play
(:class:`PoolKey`).  An entry is a *party*: one account, or in form ``"4"`` two accounts
that want to play as partners, each with its rating for the form.  Its rating in the pool
is the party's mean.  The entry also carries when it entered, after how many seconds of
waiting it accepts bots (casual pools only), and the accounts it must never be matched
with (those its members blocked and those who blocked them: the caller passes both as one
set).

How far an entry reaches grows with its wait (:func:`window`): ±100 at once, ±300 after
20 seconds, anyone after a minute.  Two entries may meet when each lies within the other's
window, each window by its own wait.

Everything is checked when the entry is made (:func:`new_entry`, and again when one is
read back from storage): a malformed entry raises :class:`PoolError` naming the field, so
nothing malformed ever reaches a pool.

A party of two forms before it waits: one account *invites* another to queue with it in a
form-``"4"`` pool (:class:`Invitation`, made by :func:`new_invitation`), and the party's
entry is made only when the partner accepts, from the invitation's pool and ``bots_after``
and both ratings as they stand then.  An invitation is open for
:data:`INVITATION_SECONDS`; it names its two accounts, the inviter first (the party's
entry keeps that order, so its id is the inviter's).
"""

from __future__ import annotations

import enum
import json
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from burraco.accounts.ratings import FORMS

FORMATS = ("hand", "505", "1005", "2005", "vp3")
"""The formats: one hand; free play to 505, 1005 or 2005; three hands scored in victory
points."""
FORMAT_TABLE: dict[str, dict[str, Any]] = {
    "hand": {"mode": "smazzate", "smazzate": 1},
    "505": {"mode": "free", "target": 505},
    "1005": {"mode": "free", "target": 1005},
    "2005": {"mode": "free", "target": 2005},
    "vp3": {"mode": "smazzate", "smazzate": 3},
}
"""Each format as the table request's fields (``mode``, ``target``, ``smazzate``)."""

WINDOWS: tuple[tuple[float, float], ...] = ((0.0, 100.0), (20.0, 300.0), (60.0, math.inf))
"""(seconds waited, half-width of the rating window from then on), in order."""
BOTS_AFTER = 45.0
"""A casual entry's default wait before it accepts bots, in seconds."""
BOTS_AFTER_MIN = 10.0
BOTS_AFTER_MAX = 600.0
ACCOUNT_CAP = 64
"""Longest account id an entry may name."""
BLOCKED_CAP = 10_000
"""Most accounts an entry's blocked set may hold."""
INVITATION_SECONDS = 60.0
"""How long an invitation to a party stays open."""


class PoolError(ValueError):
    """A malformed entry or a refused join; ``field`` names what is wrong, the message why,
    and ``account``, for a refused join or invitation, whose place refused it."""

    def __init__(self, field: str, message: str, account: str | None = None) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message
        self.account = account


class _Default(enum.Enum):
    DEFAULT = "default"


DEFAULT = _Default.DEFAULT
"""``bots_after`` left to the pool: :data:`BOTS_AFTER` when casual, never when rated."""


def window(waited: float) -> float:
    """Half-width of the rating window of an entry that has waited ``waited`` seconds
    (``math.inf``: anyone)."""
    width = WINDOWS[0][1]
    for after, half in WINDOWS:
        if waited >= after:
            width = half
    return width


@dataclass(frozen=True, slots=True)
class PoolKey:
    """One pool: format, form of play and whether the matches are rated."""

    format: str
    form: str
    rated: bool

    def __post_init__(self) -> None:
        if self.format not in FORMATS:
            raise PoolError("format", f"unknown format {self.format!r}: one of "
                            f"{', '.join(FORMATS)}")
        if self.form not in FORMS:
            raise PoolError("form", f"unknown form {self.form!r}: one of {', '.join(FORMS)}")
        if not isinstance(self.rated, bool):
            raise PoolError("rated", "rated is true or false")

    @property
    def seats(self) -> int:
        return int(self.form)

    @property
    def name(self) -> str:
        """``505/2/rated``, ``hand/4/casual``: how logs, keys and messages name the pool."""
        return f"{self.format}/{self.form}/{'rated' if self.rated else 'casual'}"

    @classmethod
    def parse(cls, name: str) -> PoolKey:
        parts = name.split("/")
        if len(parts) != 3 or parts[2] not in ("rated", "casual"):
            raise PoolError("pool", f"{name!r} is not a pool: FORMAT/FORM/rated|casual")
        return cls(parts[0], parts[1], parts[2] == "rated")


@dataclass(frozen=True, slots=True)
class Member:
    """One account of a party, with its rating for the pool's form."""

    account: str
    rating: float


@dataclass(frozen=True, slots=True)
class Entry:
    """A party waiting in a pool.  Made by :func:`new_entry`; checked again on creation."""

    pool: PoolKey
    party: tuple[Member, ...]
    since: float
    """When it entered, in seconds (the callers' common clock: ``time.time()``)."""
    bots_after: float | None
    """Seconds of waiting after which bots may fill the other seats (``None``: never)."""
    blocked: frozenset[str]
    """Accounts this party must never be matched with."""
    accounts: tuple[str, ...] = field(init=False, repr=False, compare=False)
    """The party's accounts, in order."""
    rating: float = field(init=False, repr=False, compare=False)
    """The party's rating: its members' mean."""

    def __post_init__(self) -> None:
        _check(self)
        object.__setattr__(self, "accounts", tuple(m.account for m in self.party))
        object.__setattr__(self, "rating",
                           sum(m.rating for m in self.party) / len(self.party))

    @property
    def id(self) -> str:
        """The entry's id in its pool: its first account (one pool per person)."""
        return self.party[0].account

    def waited(self, now: float) -> float:
        """Seconds waited at ``now`` (never negative, whatever the clocks say)."""
        return max(0.0, now - self.since)

    def window(self, now: float) -> float:
        """Half-width of the rating window at ``now``."""
        return window(self.waited(now))

    def wants_bots(self, now: float) -> bool:
        """Whether bots may fill the other seats at ``now`` (casual pools only)."""
        return (not self.pool.rated and self.bots_after is not None
                and self.waited(now) >= self.bots_after)

    def to_dict(self) -> dict[str, Any]:
        return {"pool": self.pool.name,
                "party": [{"account": m.account, "rating": m.rating} for m in self.party],
                "since": self.since, "bots_after": self.bots_after,
                "blocked": sorted(self.blocked)}

    def to_json(self) -> str:
        """The stored form: compact and in a fixed key order, so equal entries store equal."""
        return json.dumps(self.to_dict(), separators=(",", ":"), sort_keys=True)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Entry:
        try:
            return new_entry(PoolKey.parse(data["pool"]),
                             [(m["account"], m["rating"]) for m in data["party"]],
                             since=data["since"], bots_after=data["bots_after"],
                             blocked=data["blocked"])
        except (KeyError, TypeError, AttributeError) as exc:
            raise PoolError("entry", f"not a stored entry: {exc!r}") from None

    @classmethod
    def from_json(cls, text: str | bytes) -> Entry:
        return cls.from_dict(json.loads(text))


def new_entry(pool: PoolKey | tuple[str, str, bool], party: Sequence[tuple[str, float]], *,
              since: float, bots_after: float | _Default | None = DEFAULT,
              blocked: Iterable[str] = ()) -> Entry:
    """An entry of ``party`` (``[(account, rating), ...]``) in ``pool``, checked.

    ``bots_after``: :data:`DEFAULT` takes the pool's default (casual: :data:`BOTS_AFTER`;
    rated: never); ``None`` never accepts bots; a number of seconds (10 to 600) is for
    casual pools only.  Raises :class:`PoolError` naming the first bad field.
    """
    key = pool if isinstance(pool, PoolKey) else _pool_key(pool)
    if isinstance(party, str | bytes) or not isinstance(party, Sequence):
        raise PoolError("party", "a party is a list of (account, rating) pairs")
    members = []
    for item in party:
        if isinstance(item, str | bytes) or not isinstance(item, Sequence) or len(item) != 2:
            raise PoolError("party", "each member is an (account, rating) pair")
        account, rating = item
        members.append(Member(account, float(rating) if _number(rating) else rating))
    if isinstance(blocked, str | bytes):
        raise PoolError("blocked", "blocked is a set of account ids, not one string")
    try:
        blocked_set = frozenset(blocked)
    except TypeError:
        raise PoolError("blocked", "blocked is a set of account ids") from None
    if bots_after is DEFAULT:
        bots_after = None if key.rated else BOTS_AFTER
    if _number(since):
        since = float(since)
    if isinstance(bots_after, int | float) and _number(bots_after):
        bots_after = float(bots_after)
    return Entry(key, tuple(members), since, bots_after, blocked_set)


def _pool_key(parts: tuple[str, str, bool]) -> PoolKey:
    if not isinstance(parts, tuple) or len(parts) != 3:
        raise PoolError("pool", "a pool is (format, form, rated)")
    return PoolKey(*parts)


def _number(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) \
        and math.isfinite(value)


def _check(entry: Entry) -> None:
    """Raise :class:`PoolError` for the first malformed field of ``entry``."""
    if not isinstance(entry.pool, PoolKey):
        raise PoolError("pool", "the pool is a PoolKey")
    party = entry.party
    if not isinstance(party, tuple) or not all(isinstance(m, Member) for m in party):
        raise PoolError("party", "a party is a tuple of members")
    form = entry.pool.form
    sizes = (1,) if form == "2" else (1, 2)
    if len(party) not in sizes:
        what = "one account" if form == "2" else "one or two accounts (partners)"
        raise PoolError("party", f"a party of form {form} is {what}, not {len(party)}")
    for member in party:
        account = member.account
        if not isinstance(account, str) or not 0 < len(account) <= ACCOUNT_CAP:
            raise PoolError("account", f"an account id is a string of 1 to {ACCOUNT_CAP} "
                            "characters")
        if not _number(member.rating):
            raise PoolError("rating", f"the rating of {account!r} is not a finite number: "
                            f"{member.rating!r}")
    accounts = [m.account for m in party]
    if len(set(accounts)) != len(accounts):
        raise PoolError("party", f"an account appears twice in the party: {accounts}")
    if not _number(entry.since):
        raise PoolError("since", f"since is a finite number of seconds, not {entry.since!r}")
    _check_bots(entry)
    blocked = entry.blocked
    if not isinstance(blocked, frozenset) or not all(isinstance(a, str) for a in blocked):
        raise PoolError("blocked", "blocked is a set of account ids")
    if len(blocked) > BLOCKED_CAP:
        raise PoolError("blocked", f"at most {BLOCKED_CAP} blocked accounts")
    inside = sorted(blocked.intersection(accounts))
    if inside:
        raise PoolError("blocked", f"the party's own members are blocked: {inside}")


def _check_bots(entry: Entry | Invitation) -> None:
    bots_after = entry.bots_after
    if bots_after is None:
        return
    if entry.pool.rated:
        raise PoolError("bots_after", "a rated pool never seats bots")
    if not _number(bots_after) or not BOTS_AFTER_MIN <= bots_after <= BOTS_AFTER_MAX:
        raise PoolError("bots_after", f"bots come after {BOTS_AFTER_MIN:g} to "
                        f"{BOTS_AFTER_MAX:g} seconds of waiting, not {bots_after!r}")


@dataclass(frozen=True, slots=True)
class Invitation:
    """``inviter`` asked ``partner`` to queue with it, as partners, in ``pool`` (form
    ``"4"``), until ``expires``.  Made by :func:`new_invitation`; checked again on creation."""

    pool: PoolKey
    inviter: str
    partner: str
    since: float
    """When it was made (the callers' common clock, as an entry's)."""
    expires: float
    bots_after: float | None
    """The party's ``bots_after``, as the inviter chose it."""

    def __post_init__(self) -> None:
        if not isinstance(self.pool, PoolKey):
            raise PoolError("pool", "the pool is a PoolKey")
        if self.pool.form != "4":
            raise PoolError("partner", f"partners queue together in form 4 only, not in "
                            f"form {self.pool.form}")
        for account in (self.inviter, self.partner):
            if not isinstance(account, str) or not 0 < len(account) <= ACCOUNT_CAP:
                raise PoolError("account", f"an account id is a string of 1 to "
                                f"{ACCOUNT_CAP} characters")
        if self.inviter == self.partner:
            raise PoolError("partner", "one cannot be one's own partner")
        if not _number(self.since):
            raise PoolError("since", f"since is a finite number of seconds, not "
                            f"{self.since!r}")
        if not _number(self.expires) or self.expires <= self.since:
            raise PoolError("expires", f"an invitation expires after it was made, not at "
                            f"{self.expires!r}")
        _check_bots(self)

    @property
    def id(self) -> str:
        """The invitation's id: its inviter (one invitation per person)."""
        return self.inviter

    @property
    def accounts(self) -> tuple[str, str]:
        return self.inviter, self.partner

    def open(self, now: float) -> bool:
        """Whether it may still be accepted at ``now``."""
        return now < self.expires

    def entry(self, ratings: dict[str, float], since: float,
              blocked: Iterable[str] = ()) -> Entry:
        """The party's entry, as the partner accepts at ``since``: the inviter first,
        each with its rating now; ``blocked``: both partners' blocks, as one set."""
        return new_entry(self.pool, [(a, ratings[a]) for a in self.accounts], since=since,
                         bots_after=self.bots_after, blocked=blocked)

    def to_dict(self) -> dict[str, Any]:
        return {"pool": self.pool.name, "inviter": self.inviter, "partner": self.partner,
                "since": self.since, "expires": self.expires, "bots_after": self.bots_after}

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), separators=(",", ":"), sort_keys=True)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Invitation:
        try:
            return cls(PoolKey.parse(data["pool"]), data["inviter"], data["partner"],
                       data["since"], data["expires"], data["bots_after"])
        except (KeyError, TypeError, AttributeError) as exc:
            raise PoolError("invitation", f"not a stored invitation: {exc!r}") from None

    @classmethod
    def from_json(cls, text: str | bytes) -> Invitation:
        return cls.from_dict(json.loads(text))


def new_invitation(pool: PoolKey | tuple[str, str, bool], inviter: str, partner: str, *,
                   since: float, bots_after: float | _Default | None = DEFAULT,
                   seconds: float = INVITATION_SECONDS) -> Invitation:
    """``inviter``'s invitation to ``partner`` to queue in ``pool`` as partners, open for
    ``seconds`` from ``since``; ``bots_after`` as for :func:`new_entry`.  Raises
    :class:`PoolError` naming the first bad field (``partner``: not form 4, or oneself)."""
    key = pool if isinstance(pool, PoolKey) else _pool_key(pool)
    if bots_after is DEFAULT:
        bots_after = None if key.rated else BOTS_AFTER
    if isinstance(bots_after, int | float) and _number(bots_after):
        bots_after = float(bots_after)
    if _number(since):
        since = float(since)
    expires = since + seconds if _number(since) and _number(seconds) else math.nan
    return Invitation(key, inviter, partner, since, expires, bots_after)


def compatible(a: Entry, b: Entry, now: float) -> bool:
    """Whether ``a`` and ``b`` may sit at one table at ``now``: same pool, no account in
    common, neither blocks the other, and each lies within the other's window."""
    if a.pool != b.pool:
        return False
    accounts_a, accounts_b = a.accounts, b.accounts
    if any(x in accounts_b for x in accounts_a):
        return False
    if any(x in b.blocked for x in accounts_a) or any(x in a.blocked for x in accounts_b):
        return False
    gap = abs(a.rating - b.rating)
    return gap <= a.window(now) and gap <= b.window(now)
