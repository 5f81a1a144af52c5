"""Players who exist: the club's members and the player accounts a pair names.

A registration line may name, for each player, a player account (``@username``, or
``Rossi @username``: the account of the game server's database, the same one) or a
club member (``#NUMBER``, or ``Rossi #NUMBER``: membership number, name and category,
kept in ``tournament_members``; a member may have an account of his own).  The pair
is linked to the accounts (``tournament_pair_accounts``), so the results show in the
"tournaments" section of the players' profiles (:mod:`.profiles`), and
when both players are members of one category the pair is in it, for the prizes.

A member may hold a federation card (``tournament_member_cards``: its number, letters and
digits, and its type, a short free text such as FIBur's ``agonista``, ``ordinario``,
``promozionale``), which the federation's export (:mod:`.federation`) gives for him.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import Connection, delete, insert, inspect, select

from burraco.accounts.models import AccountRow
from burraco.accounts.names import username_key
from burraco.tournament.errors import TournamentError, excerpt
from burraco.tournament.i18n import Text
from burraco.tournament.storage import MemberCardRow, MemberRow, PairAccountRow

TOKEN = re.compile(r"^(?P<name>.*?)\s*(?P<tag>[@#])(?P<ref>[^\s@#]+)$")
NUMBER = re.compile(r"[A-Za-z0-9][A-Za-z0-9-]{0,19}")
CARD_NUMBER = re.compile(r"[A-Za-z0-9]{1,20}")
CARD_TYPE_LENGTH = 20
CARD_TYPES = ("agonista", "ordinario", "promozionale")
"""The card types a page suggests (FIBur's); any short text is taken."""


@dataclass(frozen=True, slots=True)
class Card:
    """A federation card: its number (letters and digits, at most 20) and its type ("": not
    said)."""

    number: str
    type: str = ""

    def to_dict(self) -> dict[str, str]:
        return {"number": self.number, "type": self.type}


def card(number: str, kind: str = "") -> Card | None:
    """A card as typed (None when both are empty), or a refusal naming what was wrong."""
    number, kind = number.strip(), " ".join(kind.split())
    if not number:
        if kind:
            raise TournamentError(Text("error.card_type_alone", type=excerpt(kind)))
        return None
    if not CARD_NUMBER.fullmatch(number):
        raise TournamentError(Text("error.card_number", number=excerpt(number)))
    if len(kind) > CARD_TYPE_LENGTH or not kind.isprintable():
        raise TournamentError(Text("error.card_type", type=excerpt(kind),
                                   n=CARD_TYPE_LENGTH))
    return Card(number, kind)


@dataclass(frozen=True, slots=True)
class Member:
    number: str
    name: str
    category: str
    username: str | None = None
    card: Card | None = None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"number": self.number, "name": self.name,
                               "category": self.category, "account": self.username}
        if self.card is not None:
            out["card"] = self.card.to_dict()
        return out


@dataclass(frozen=True, slots=True)
class Resolved:
    """One registration line with its accounts and members looked up."""

    name: str
    players: list[str]
    accounts: list[tuple[str, str]] = field(default_factory=list)
    """(player_id, username) of the players who have an account."""
    category: str | None = None
    members: tuple[str | None, ...] = ()
    """Each player's membership number (None: not a member), in the players' order."""


def has_table(conn: Connection, table: str) -> bool:
    return inspect(conn).has_table(table)


def account(conn: Connection, username: str) -> tuple[str, str]:
    """(player_id, username) of an account, or a clear refusal."""
    if not has_table(conn, "accounts"):
        raise TournamentError(Text("error.no_accounts", username=username))

    row = conn.execute(select(AccountRow.player_id, AccountRow.username).where(
        AccountRow.username_key == username_key(username))).first()
    if row is None:
        raise TournamentError(Text("error.no_account", username=username))
    return row.player_id, row.username


def _username(conn: Connection, player_id: str | None) -> str | None:
    if player_id is None or not has_table(conn, "accounts"):
        return None

    return conn.execute(select(AccountRow.username).where(
        AccountRow.player_id == player_id)).scalar()


def member_cards(conn: Connection) -> dict[str, Card]:
    """Every member's card, by membership number."""
    return {r.number: Card(r.card_number, r.card_type)
            for r in conn.execute(select(MemberCardRow))}


def member(conn: Connection, number: str) -> Member:
    if not NUMBER.fullmatch(number):  # nothing else is anybody's number
        raise TournamentError(Text("error.no_member", number=excerpt(number)))
    row = conn.execute(select(MemberRow).where(MemberRow.number == number)).first()
    if row is None:
        raise TournamentError(Text("error.no_member", number=number))
    found = conn.execute(select(MemberCardRow).where(MemberCardRow.number == number)).first()
    held = Card(found.card_number, found.card_type) if found is not None else None
    return Member(row.number, row.name, row.category, _username(conn, row.player_id), held)


def members(conn: Connection) -> list[Member]:
    rows = conn.execute(select(MemberRow).order_by(MemberRow.name, MemberRow.number)).all()
    cards = member_cards(conn)
    return [Member(r.number, r.name, r.category, _username(conn, r.player_id),
                   cards.get(r.number)) for r in rows]


def save_member_card(conn: Connection, number: str, card_number: str,
                     card_type: str = "") -> Member:
    """Give a member his federation card (both empty: take it away); a refusal changes
    nothing."""
    held = card(card_number, card_type)
    found = member(conn, number.strip())
    conn.execute(delete(MemberCardRow).where(MemberCardRow.number == found.number))
    if held is not None:
        conn.execute(insert(MemberCardRow).values(number=found.number, card_number=held.number,
                                                  card_type=held.type))
    return member(conn, found.number)


def save_member(conn: Connection, number: str, name: str, category: str,
                username: str | None = None) -> Member:
    """Add or update a member (the membership number is the key; his card stays)."""
    number, name, category = number.strip(), " ".join(name.split()), " ".join(category.split())
    if not NUMBER.fullmatch(number):
        raise TournamentError(Text("error.member_number", number=repr(number)))
    if not name or len(name) > 80:
        raise TournamentError(Text("error.member_name"))
    if not category or len(category) > 40 or category.casefold() in ("overall", "ns", "ew"):
        raise TournamentError(Text("error.member_category", category=repr(category)))
    player_id = account(conn, username.lstrip("@"))[0] if username else None
    conn.execute(delete(MemberRow).where(MemberRow.number == number))
    conn.execute(insert(MemberRow).values(number=number, name=name, category=category,
                                          player_id=player_id))
    return member(conn, number)


def resolve_entries(conn: Connection,
                    entries: Sequence[tuple[str, Sequence[str]]]) -> list[Resolved]:
    """Look up the ``@username`` and ``#NUMBER`` players of each line (all or a refusal)."""
    out = []
    for name, players in entries:
        names: list[str] = []
        accounts: list[tuple[str, str]] = []
        categories: list[str | None] = []
        numbers: list[str | None] = []
        tagged = False
        for text in players:
            found = TOKEN.match(text.strip())
            if found is None:
                names.append(text)
                categories.append(None)
                numbers.append(None)
                continue
            tagged = True
            given, tag, ref = found["name"].strip(), found["tag"], found["ref"]
            if tag == "@":
                pid, username = account(conn, ref)
                names.append(given or username)
                accounts.append((pid, username))
                categories.append(_member_category(conn, pid))
                numbers.append(_member_number(conn, pid))
            else:
                m = member(conn, ref)
                names.append(given or m.name)
                categories.append(m.category)
                numbers.append(m.number)
                if m.username:
                    accounts.append(account(conn, m.username))
        ids = [a[0] for a in accounts]
        if len(set(ids)) != len(ids):
            raise TournamentError(Text("error.same_account", name=repr(name)))
        if tagged and ":" not in name:
            name = " / ".join(names)
        shared = categories[0] if categories and all(
            c is not None and c == categories[0] for c in categories) else None
        out.append(Resolved(name, names, accounts, shared, tuple(numbers)))
    return out


def _member_number(conn: Connection, player_id: str) -> str | None:
    return conn.execute(select(MemberRow.number).where(
        MemberRow.player_id == player_id).order_by(MemberRow.number)).scalars().first()


def _member_category(conn: Connection, player_id: str) -> str | None:
    return conn.execute(select(MemberRow.category).where(
        MemberRow.player_id == player_id)).scalar()


def link_accounts(conn: Connection, tid: str, pair: int,
                  accounts: Sequence[tuple[str, str]]) -> None:
    for player_id, username in accounts:
        conn.execute(insert(PairAccountRow).values(tournament_id=tid, pair=pair,
                                                   player_id=player_id, username=username))


def pair_accounts(conn: Connection, tid: str) -> dict[int, list[str]]:
    """Pair number → the usernames it names."""
    out: dict[int, list[str]] = {}
    for row in conn.execute(select(PairAccountRow).where(
            PairAccountRow.tournament_id == tid).order_by(PairAccountRow.pair,
                                                          PairAccountRow.username)):
        out.setdefault(row.pair, []).append(row.username)
    return out
