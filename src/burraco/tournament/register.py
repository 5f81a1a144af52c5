"""The evening's register: the players' cards, who paid the entry fee, who stays for dinner.

A club evening is paid at the door: an entry fee per person and, when the evening has one,
a dinner at a price per person (seed 001: "TORNEO+CENA Euro 15,00 a persona" — a fee of
15.00 with the dinner included, dinner price 0; or a fee of 10.00 and a dinner of 5.00 when
those who leave before dinner pay less).  The director sets both, and ticks for each player
of each pair whether he paid (how much: what is due unless another amount is written) and
whether he stays for dinner; the totals say what came in, what is still owed, how many dine
and what the dinners cost.

Each player may also be a club member (his federation card is then the member's, kept in
the members' list, :mod:`.members`) or carry a card of his own written here.  The same
page keeps what the federation's export (:mod:`.federation`) needs of the event: the club,
the date and the level.

Stored in ``tournament_register`` (a row per player: tournament, pair number, player's place
1, 2, … in the pair) and ``tournament_register_settings`` (a row per tournament); amounts are
whole cents.  Pairs are numbered in registration order: :func:`renumber_pairs` moves the
rows when a pair is removed before round 1.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import date
from decimal import Decimal

from babel.numbers import format_currency
from sqlalchemy import Connection, delete, insert, select

from burraco.tournament.errors import TournamentError, excerpt
from burraco.tournament.i18n import Lang, Text, language
from burraco.tournament.members import Card, card, member, member_cards
from burraco.tournament.model import Tournament
from burraco.tournament.storage import RegisterRow, RegisterSettingsRow

LEVELS = ("club", "federal", "regional", "national")
"""An event's level, after FIBur's kinds of tournament (Regolamento, Art. 4 in the 2015
edition): di circolo, federale, regionale, nazionale."""
CURRENCY = "EUR"
MAX_MONEY = 100_000
"""The most an amount may be, in cents (1000.00)."""
CLUB_LENGTH = 120
MONEY = re.compile(r"(?P<units>\d{1,6})(?:[.,](?P<cents>\d{1,2}))?")


@dataclass(frozen=True, slots=True)
class Terms:
    """What the director sets for the whole evening."""

    fee: int = 0
    """The entry fee per person, in cents."""
    dinner_price: int = 0
    """The dinner's price per person, in cents (0: included in the fee, or no dinner)."""
    club: str = ""
    date: date | None = None
    """The event's date for the federation (None: the day round 1 started)."""
    level: str = "club"


@dataclass(frozen=True, slots=True)
class Line:
    """One player of one pair in the register."""

    pair: int
    player: int
    """1, 2, …: his place among the pair's players."""
    name: str
    member: str | None = None
    """The club member he is (membership number), or None."""
    card: Card | None = None
    """A card written in the register (a member's card is in the members' list)."""
    paid: int | None = None
    """What he paid, in cents; None: nothing yet."""
    dinner: bool = False

    def due(self, terms: Terms) -> int:
        return terms.fee + (terms.dinner_price if self.dinner else 0)

    def owed(self, terms: Terms) -> int:
        return max(self.due(terms) - (self.paid or 0), 0)


@dataclass(frozen=True, slots=True)
class Totals:
    players: int
    paying: int
    """Players who paid something."""
    paid: int
    due: int
    owed: int
    """What is still owed (nobody's surplus makes up for another's debt)."""
    dinners: int
    dinner_money: int


@dataclass(frozen=True, slots=True)
class Register:
    terms: Terms
    lines: tuple[Line, ...]
    cards: Mapping[str, Card] = field(default_factory=dict)
    """The members' cards, by membership number."""

    def card_of(self, line: Line) -> Card | None:
        """The player's card: the one written in the register, else his member's."""
        if line.card is not None:
            return line.card
        return self.cards.get(line.member) if line.member else None

    def line(self, pair: int, player: int) -> Line:
        for one in self.lines:
            if (one.pair, one.player) == (pair, player):
                return one
        raise KeyError((pair, player))

    def totals(self) -> Totals:
        t = self.terms
        dinners = sum(1 for one in self.lines if one.dinner)
        return Totals(len(self.lines), sum(1 for one in self.lines if one.paid is not None),
                      sum(one.paid or 0 for one in self.lines),
                      sum(one.due(t) for one in self.lines),
                      sum(one.owed(t) for one in self.lines), dinners,
                      dinners * t.dinner_price)


def players_of(t: Tournament) -> Iterator[tuple[int, int, str]]:
    """(pair, player, name) of every player registered: a pair's players, or the entrant's
    own name when it names none (an individual event's player)."""
    for p in t.pairs:
        for k, name in enumerate(p.players or (p.name,), start=1):
            yield p.number, k, name


# --- reading ------------------------------------------------------------------------------

def terms_of(conn: Connection, tid: str) -> Terms:
    row = conn.execute(select(RegisterSettingsRow).where(
        RegisterSettingsRow.tournament_id == tid)).first()
    if row is None:
        return Terms()
    return Terms(row.fee, row.dinner_price, row.club, row.event_date, row.level)


def load(conn: Connection, tid: str, t: Tournament) -> Register:
    """The register of every player of ``t`` (a player nobody wrote about: a blank line)."""
    rows = {(r.pair, r.player): r for r in conn.execute(
        select(RegisterRow).where(RegisterRow.tournament_id == tid))}
    lines = []
    for pair, player, name in players_of(t):
        r = rows.get((pair, player))
        if r is None:
            lines.append(Line(pair, player, name))
            continue
        own = Card(r.card_number, r.card_type or "") if r.card_number else None
        lines.append(Line(pair, player, name, r.member, own, r.paid, bool(r.dinner)))
    return Register(terms_of(conn, tid), tuple(lines), member_cards(conn))


# --- writing ------------------------------------------------------------------------------

def money(text: str, what: Text) -> int:
    """An amount as typed (``15``, ``15,50``, ``7.5``, ``€ 15``) in cents, or a refusal."""
    typed = text.strip().removeprefix("€").removesuffix("€").strip()
    found = MONEY.fullmatch(typed)
    if found is None:
        raise TournamentError(Text("error.money", what=what, value=excerpt(text)))
    cents = int(found["units"]) * 100 + int((found["cents"] or "0").ljust(2, "0"))
    if cents > MAX_MONEY:
        raise TournamentError(Text("error.money_high", what=what, value=excerpt(text),
                                   most=MAX_MONEY // 100))
    return cents


def money_text(lang: Lang, cents: int) -> str:
    """An amount as ``lang`` writes money: ``15,00 €``, ``€15.00``."""
    return format_currency(Decimal(cents) / 100, CURRENCY, locale=language(lang))


def save_terms(conn: Connection, tid: str, *, fee: str = "", dinner_price: str = "",
               club: str = "", day: str = "", level: str = "club") -> Terms:
    """Set the evening's terms from what the director typed (all of it, or a refusal)."""
    club = " ".join(club.split())
    if len(club) > CLUB_LENGTH or not club.isprintable():
        raise TournamentError(Text("error.club_name", n=CLUB_LENGTH))
    level = level.strip() or "club"
    if level not in LEVELS:
        raise TournamentError(Text("error.level", level=excerpt(level),
                                   levels=", ".join(LEVELS)))
    when = None
    if day.strip():
        when = _day(day.strip())
    terms = Terms(money(fee, Text("what.fee")) if fee.strip() else 0,
                  money(dinner_price, Text("what.dinner_price")) if dinner_price.strip() else 0,
                  club, when, level)
    conn.execute(delete(RegisterSettingsRow).where(RegisterSettingsRow.tournament_id == tid))
    conn.execute(insert(RegisterSettingsRow).values(
        tournament_id=tid, fee=terms.fee, dinner_price=terms.dinner_price, club=terms.club,
        event_date=terms.date, level=terms.level))
    return terms


def _day(text: str) -> date:
    """A date as a form's date field sends it: ``2027-03-03``."""
    try:
        if re.fullmatch(r"\d{4}-\d{2}-\d{2}", text):
            return date.fromisoformat(text)
    except ValueError:
        pass
    raise TournamentError(Text("error.event_date", value=excerpt(text)))


@dataclass(frozen=True, slots=True)
class Typed:
    """One player's line as the director's form sent it."""

    member: str = ""
    card_number: str = ""
    card_type: str = ""
    paid: bool = False
    amount: str = ""
    """What he paid, when not what is due."""
    dinner: bool = False


def read_line(conn: Connection, line: Line, typed: Typed, terms: Terms) -> Line:
    """``line`` as ``typed`` says, or a refusal naming the pair, the player and the field."""
    try:
        number = typed.member.strip().removeprefix("#").strip() or None
        if number is not None:
            number = member(conn, number).number
        own = card(typed.card_number, typed.card_type)
        after = replace(line, member=number, card=own, dinner=typed.dinner, paid=None)
        if typed.paid:
            paid = (money(typed.amount, Text("what.amount_paid")) if typed.amount.strip()
                    else after.due(terms))
            after = replace(after, paid=paid)
    except TournamentError as exc:
        problem = exc.text if exc.text is not None else str(exc)
        raise TournamentError(Text("error.register_line", pair=line.pair, name=line.name,
                                   problem=problem)) from None
    return after


def save_lines(conn: Connection, tid: str, t: Tournament,
               typed: Mapping[tuple[int, int], Typed]) -> Register:
    """Write the lines the form sent (by (pair, player)); every line is checked before any
    is written, and a player the form left out keeps his line."""
    register = load(conn, tid, t)
    known = {(one.pair, one.player) for one in register.lines}
    unknown = sorted(set(typed) - known)
    if unknown:
        pair, player = unknown[0]
        raise TournamentError(Text("error.register_unknown", pair=pair, player=player))
    lines = [read_line(conn, one, typed[one.pair, one.player], register.terms)
             if (one.pair, one.player) in typed else one for one in register.lines]
    for one in lines:
        if (one.pair, one.player) in typed:
            _put(conn, tid, one)
    return load(conn, tid, t)


def _put(conn: Connection, tid: str, line: Line) -> None:
    conn.execute(delete(RegisterRow).where(
        RegisterRow.tournament_id == tid, RegisterRow.pair == line.pair,
        RegisterRow.player == line.player))
    conn.execute(insert(RegisterRow).values(
        tournament_id=tid, pair=line.pair, player=line.player, member=line.member,
        card_number=line.card.number if line.card else None,
        card_type=line.card.type if line.card else None, paid=line.paid, dinner=line.dinner))


def link_members(conn: Connection, tid: str, pair: int,
                 numbers: Sequence[str | None]) -> None:
    """Note which players of a newly registered pair are club members (``#NUMBER`` on the
    registration line: :attr:`.members.Resolved.members`), so their cards are the members'."""
    rows = {r.player: r for r in conn.execute(select(RegisterRow).where(
        RegisterRow.tournament_id == tid, RegisterRow.pair == pair))}
    for player, number in enumerate(numbers, start=1):
        if number is None:
            continue
        r = rows.get(player)
        own = Card(r.card_number, r.card_type or "") if r is not None and r.card_number else None
        _put(conn, tid, Line(pair, player, "", number, own, r.paid if r else None,
                             bool(r.dinner) if r else False))


def renumber_pairs(conn: Connection, tid: str, mapping: Mapping[int, int | None]) -> None:
    """Move the register's lines when pairs are removed or renumbered before round 1.

    ``mapping``: old pair number → new number, or None for a pair removed (its lines go);
    a pair not in it keeps its number.  Two pairs given the same number raise
    :class:`ValueError` and nothing changes.
    """
    targets = [n for n in mapping.values() if n is not None]
    if len(set(targets)) != len(targets) or any(n < 1 for n in targets):
        raise ValueError(f"tournament {tid!r}: not a renumbering: {dict(mapping)}")
    rows = conn.execute(select(RegisterRow).where(RegisterRow.tournament_id == tid)).all()
    moved: dict[tuple[int, int], dict[str, object]] = {}
    for r in rows:
        target = mapping.get(r.pair, r.pair)
        if target is None:
            continue
        if (target, r.player) in moved:
            raise ValueError(f"tournament {tid!r}: two pairs renumbered {target}: {mapping}")
        moved[target, r.player] = dict(
            tournament_id=tid, pair=target, player=r.player, member=r.member,
            card_number=r.card_number, card_type=r.card_type, paid=r.paid, dinner=r.dinner)
    conn.execute(delete(RegisterRow).where(RegisterRow.tournament_id == tid))
    for values in moved.values():
        conn.execute(insert(RegisterRow).values(**values))
