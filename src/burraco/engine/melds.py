"""Melds: reading cards as a sequence or a set, attaching, classifying (RULES.md §4–5).

A meld is judged on its result alone (§4.3.11): the solver below tries every
reading of the cards (which same-suit 2 is natural, where an ace sits, which
card is the wild) under the constraints that naturals already on the table
keep their rank slot and a wild never leaves its meld, and keeps the preferred
legal reading (order of preference: ``_solve_sequence``).  The free wild always
goes to the low end, or to the high end when the run starts with the ace
(§4.3.5, binding).

>>> from burraco.engine.cards import parse_faces
>>> str(meld_from_faces(parse_faces("5H JK 6H 7H")))
'JK(=4H) 5H 6H 7H'
>>> str(attach_faces(meld_from_faces(parse_faces("6C JK 8C")), parse_faces("7C 10C")))
'6C 7C 8C JK(=9C) 10C'
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import product

from burraco.engine.cards import (
    ACE_HIGH,
    CARDS_PER_PACK,
    FACE_POINTS,
    JOKER,
    Face,
    card_face,
    face_rank,
    face_str,
    face_suit,
    free_card,
    make_face,
    parse_face,
)
from burraco.engine.rules import FIBUR, Rules

SEQUENCE = "sequence"
SET = "set"


class MeldError(ValueError):
    """A meld or an attachment breaks a rule; the message says which, for a player."""


class Meld:
    """A meld on the table.  Immutable; attaching returns a new meld.

    ``cards`` are physical card ids in table order: a sequence low to high by
    rank slot (``lo`` is the slot of ``cards[0]``, 1 = low ace, 14 = high ace),
    a set with its naturals first and its wild last.  ``wild`` is the slot of
    the acting wild in a sequence, 1 for a set holding a wild, 0 for none.
    """

    __slots__ = ("_accepts", "_accepts_rules", "cards", "kind", "lo", "rank", "suit", "wild")

    def __init__(
        self, kind: str, cards: tuple[int, ...], *, suit: int = -1, rank: int = 0,
        lo: int = 0, wild: int = 0,
    ) -> None:
        self.kind = kind
        self.cards = cards
        self.suit = suit
        self.rank = rank
        self.lo = lo
        self.wild = wild
        # faces of the last accepts() call, and the rules it was computed under
        self._accepts: frozenset[int] | None = None
        self._accepts_rules: Rules | None = None

    @property
    def hi(self) -> int:
        return self.lo + len(self.cards) - 1

    @property
    def is_sequence(self) -> bool:
        return self.kind == SEQUENCE

    @property
    def wild_card(self) -> int | None:
        """The physical card acting as wild, if any."""
        if not self.wild:
            return None
        return self.cards[self.wild - self.lo] if self.kind == SEQUENCE else self.cards[-1]

    @property
    def wild_count(self) -> int:
        return 1 if self.wild else 0

    @property
    def points(self) -> int:
        """Face value of the meld's cards (wilds at their own value, §1.3)."""
        return sum(FACE_POINTS[card_face(c)] for c in self.cards)

    def faces(self) -> list[Face]:
        return [card_face(c) for c in self.cards]

    def tokens(self) -> list[str]:
        """Card texts in table order, each wild with its role: ``JK(=4H)``."""
        out = []
        for i, card in enumerate(self.cards):
            text = face_str(card_face(card))
            if self.kind == SEQUENCE and self.lo + i == self.wild:
                text += f"(={face_str(slot_face(self.wild, self.suit))})"
            out.append(text)
        return out

    def __str__(self) -> str:
        return " ".join(self.tokens())

    def __repr__(self) -> str:
        return f"Meld({str(self)!r})"

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Meld) and self.kind == other.kind and self.cards == other.cards
            and self.lo == other.lo and self.wild == other.wild
        )

    def __hash__(self) -> int:
        return hash((self.kind, self.cards, self.lo, self.wild))


def slot_face(slot: int, suit: int) -> Face:
    return make_face(1 if slot == ACE_HIGH else slot, suit)


def _is_two(face: int) -> bool:
    return face != JOKER and face % 13 == 1


# --- the sequence solver -------------------------------------------------------------------

# roles a card can take in a reading: a natural slot (1–14) or WILD
_WILD = 0


def _solve_sequence(
    suit: int,
    fixed: dict[int, int],
    flexible: list[tuple[int, tuple[int, ...]]],
    rules: Rules,
    *,
    two_turned_wild: int | None = None,
    old_wild: int | None = None,
) -> Meld | str:
    """Best legal reading of ``fixed`` naturals (slot → card) plus ``flexible`` cards.

    Each flexible card comes with the roles it may take (slots, or ``_WILD``).
    Preferred, in order:

    1. most naturals (a same-suit 2 is natural whenever it can be);
    2. the higher burraco bonus under ``rules``: when a run fills 2–K the ace
       may sit at either end, and with a bound wild that end decides
       semi-clean or dirty (``2H…6H JK(=7H) 8H…KH`` + ``AH``: high gives
       8H…AH, seven naturals, semi-clean; low gives dirty).  A player would
       put the ace where it scores more, whatever the order the cards of
       one attachment are named in (project decision);
    3. a high ace (§4.3.5: 13 naturals + wild read with the natural ace high);
    4. ``old_wild`` (the meld's current wild) still acting as the wild, so a
       natural 2 attached beside a pinella of the same face takes the 2-slot
       instead of displacing the pinella (§4.3.7: a wild moves only when it must).

    Returns the meld, or the reason no reading is legal.
    """
    best: tuple[tuple[int, int, int, int], Meld] | None = None
    reason = "the cards do not form a sequence"
    for roles in product(*(options for _, options in flexible)):
        slots = dict(fixed)
        wilds: list[int] = []
        clash = 0
        for (card, _), role in zip(flexible, roles, strict=True):
            if role == _WILD:
                wilds.append(card)
            elif role in slots:
                clash = role
                break
            else:
                slots[role] = card
        if two_turned_wild is not None:
            wilds.append(two_turned_wild)
        if clash:
            # two aces clash in slot 1 or 14: name the ace rule, the clearer reason
            reason = (
                "a sequence holds one ace, low or high, never both" if clash in (1, ACE_HIGH)
                else "a sequence cannot hold two cards of the same rank")
            continue
        if len(wilds) > 1:
            reason = "two wild cards in one meld"
            continue
        if len(slots) < 2:
            reason = "a meld needs at least two natural cards"
            continue
        if 1 in slots and ACE_HIGH in slots:
            reason = "a sequence holds one ace, low or high, never both"
            continue
        low, high = min(slots), max(slots)
        gaps = high - low + 1 - len(slots)
        wild_slot = 0
        if gaps > 1 or (gaps == 1 and not wilds):
            reason = "the cards are not consecutive"
            continue
        if gaps == 1:
            wild_slot = next(s for s in range(low, high) if s not in slots)
        elif wilds:
            wild_slot = low - 1 if low > 1 else high + 1
            if wild_slot > ACE_HIGH:
                reason = "no room for the wild: the sequence already runs from ace to ace"
                continue
        if wild_slot == 2 and card_face(wilds[0]) == make_face(2, suit):
            continue  # a same-suit 2 in the 2-slot is natural: another reading covers it
        naturals = len(slots)
        ace_high = 1 if ACE_HIGH in slots else 0
        keeps_wild = 1 if old_wild is not None and wilds and wilds[0] == old_wild else 0
        if wild_slot:
            slots[wild_slot] = wilds[0]
        lo = min(slots)
        cards = tuple(slots[s] for s in range(lo, lo + len(slots)))
        meld = Meld(SEQUENCE, cards, suit=suit, lo=lo, wild=wild_slot)
        bonus = burraco_bonus(meld, rules) if len(cards) >= 7 else 0
        score = (naturals, bonus, ace_high, keeps_wild)
        if best is None or score > best[0]:
            best = (score, meld)
    return best[1] if best is not None else reason


def _roles_for(card: int, suit: int) -> tuple[int, ...] | str:
    face = card_face(card)
    if face == JOKER:
        return (_WILD,)
    rank = face_rank(face)
    if rank == 2:
        return (2, _WILD) if face_suit(face) == suit else (_WILD,)
    if face_suit(face) != suit:
        return f"{face_str(face)} is not of the sequence's suit"
    return (1, ACE_HIGH) if rank == 1 else (rank,)


def _new_sequence(cards: Sequence[int], suit: int, rules: Rules) -> Meld | str:
    flexible: list[tuple[int, tuple[int, ...]]] = []
    for card in cards:
        roles = _roles_for(card, suit)
        if isinstance(roles, str):
            return roles
        flexible.append((card, roles))
    return _solve_sequence(suit, {}, flexible, rules)


def _attach_sequence(meld: Meld, cards: Sequence[int], rules: Rules) -> Meld | str:
    suit = meld.suit
    fixed: dict[int, int] = {}
    flexible: list[tuple[int, tuple[int, ...]]] = []
    natural_two: int | None = None
    for i, card in enumerate(meld.cards):
        slot = meld.lo + i
        if slot == meld.wild:
            # a wild stays in its meld; a same-suit pinella may drop to its 2-slot (§4.3.8)
            roles: tuple[int, ...] = (2, _WILD) if card_face(card) == make_face(2, suit) else (
                _WILD,)
            flexible.append((card, roles))
        elif slot == 2:
            natural_two = card
            fixed[slot] = card
        else:
            fixed[slot] = card
    for card in cards:
        new_roles = _roles_for(card, suit)
        if isinstance(new_roles, str):
            return new_roles
        flexible.append((card, new_roles))
    old_wild = meld.wild_card
    result = _solve_sequence(suit, fixed, flexible, rules, old_wild=old_wild)
    if isinstance(result, Meld):
        return result
    # §4.3.9: a natural 2 may become the meld's wild, only when nothing else works
    if (
        natural_two is not None and rules.natural_two_to_wild and not meld.wild
        and 1 not in fixed
    ):
        fixed.pop(2)
        alt = _solve_sequence(suit, fixed, flexible, rules, two_turned_wild=natural_two)
        if isinstance(alt, Meld):
            return alt
    return result


# --- sets ----------------------------------------------------------------------------------

def _max_set_naturals(rules: Rules) -> int:
    return 4 * rules.packs


def _new_set(cards: Sequence[int], rank: int, rules: Rules) -> Meld | str:
    if rules.set_ranks is not None and rank not in rules.set_ranks:
        allowed = " and ".join(_rank_name(r) for r in rules.set_ranks)
        return f"sets of {_rank_name(rank)} are not allowed (only {allowed})"
    naturals = [c for c in cards if face_rank(card_face(c)) == rank]
    wilds = [c for c in cards if face_rank(card_face(c)) != rank]
    for card in wilds:
        face = card_face(card)
        if face != JOKER and not _is_two(face):
            return "the cards do not form a set or a sequence"
    if len(wilds) > 1:
        return "two wild cards in one meld"
    if len(naturals) < 2:
        return "a meld needs at least two natural cards"
    if len(naturals) > _max_set_naturals(rules):
        return "too many cards for one set"
    ordered = tuple(sorted(naturals, key=lambda c: (face_suit(card_face(c)), c))) + tuple(wilds)
    return Meld(SET, ordered, rank=rank, wild=1 if wilds else 0)


def _rank_name(rank: int) -> str:
    return {1: "aces", 3: "threes"}.get(rank, f"{face_str(make_face(rank, 0))[:-1]}s")


def _attach_set(meld: Meld, cards: Sequence[int], rules: Rules) -> Meld | str:
    for card in cards:
        face = card_face(card)
        if face != JOKER and not _is_two(face) and face_rank(face) != meld.rank:
            return f"{face_str(face)} does not belong to a set of {_rank_name(meld.rank)}"
    naturals = [c for c in meld.cards if face_rank(card_face(c)) == meld.rank]
    wilds = [c for c in meld.cards if face_rank(card_face(c)) != meld.rank]
    return _new_set([*naturals, *cards, *wilds], meld.rank, rules)


# --- public API ----------------------------------------------------------------------------

def make_meld(cards: Sequence[int], rules: Rules = FIBUR) -> Meld:
    """Read new cards as a meld, or raise :class:`MeldError` with the reason."""
    result = read_meld(cards, rules)
    if isinstance(result, str):
        raise MeldError(result)
    return result


def read_meld(cards: Sequence[int], rules: Rules = FIBUR) -> Meld | str:
    """Like :func:`make_meld` but returns the reason instead of raising (hot path)."""
    if len(cards) < 3:
        return "a meld needs at least three cards"
    if len(set(cards)) != len(cards):
        return "the same physical card is named twice"
    if not rules.jokers and any(card_face(c) == JOKER for c in cards):
        return "jokers are not in play under these rules"
    naturals = [card_face(c) for c in cards if not _wild_capable(card_face(c))]
    if not naturals:
        twos = [card_face(c) for c in cards if _is_two(card_face(c))]
        if len({face_suit(f) for f in twos}) == 1 and len(twos) >= 2:
            # only a same-suit 2 could be natural, and a sequence needs another natural
            return "a meld needs at least two natural cards"
        return "a meld needs at least two natural cards; a set of twos is not allowed"
    ranks = {face_rank(f) for f in naturals}
    suits = {face_suit(f) for f in naturals}
    if len(ranks) == 1 and len(naturals) >= 2:
        return _new_set(cards, naturals[0] % 13 + 1, rules)
    if len(suits) == 1:
        return _new_sequence(cards, naturals[0] // 13, rules)
    return "the cards form neither a sequence (one suit) nor a set (one rank)"


def attach(meld: Meld, cards: Sequence[int], rules: Rules = FIBUR) -> Meld:
    """The meld after attaching ``cards`` (§4.3.6–11), or raise :class:`MeldError`."""
    result = read_attach(meld, cards, rules)
    if isinstance(result, str):
        raise MeldError(result)
    return result


def read_attach(meld: Meld, cards: Sequence[int], rules: Rules = FIBUR) -> Meld | str:
    if not cards:
        return "attach at least one card"
    if len(set(cards)) != len(cards) or set(cards) & set(meld.cards):
        return "the same physical card is named twice"
    if not rules.jokers and any(card_face(c) == JOKER for c in cards):
        return "jokers are not in play under these rules"
    if meld.kind == SEQUENCE:
        return _attach_sequence(meld, cards, rules)
    return _attach_set(meld, cards, rules)


def accepts(meld: Meld, rules: Rules = FIBUR) -> frozenset[int]:
    """Faces that can be attached to ``meld`` one at a time (cached on the meld).

    The cache remembers the rules it was computed under (a stale answer for
    other rules, e.g. ``natural_two_to_wild=False``, was a bug); a cached
    answer without its rules is recomputed.
    """
    cached, cached_rules = meld._accepts, meld._accepts_rules
    if cached is not None and cached_rules is not None and (
        cached_rules is rules or cached_rules == rules
    ):
        return cached
    candidates: set[int] = {JOKER} if rules.jokers else set()
    candidates.update(make_face(2, s) for s in range(4))
    if meld.kind == SET:
        candidates.update(make_face(meld.rank, s) for s in range(4))
    else:
        reach = {meld.lo - 2, meld.lo - 1, meld.hi + 1, meld.hi + 2, meld.wild}
        for slot in reach:
            if 1 <= slot <= ACE_HIGH:
                candidates.add(slot_face(slot, meld.suit))
    spare = _spare_card_ids(meld)
    result = frozenset(
        face for face in candidates
        if isinstance(read_attach(meld, [spare[face]], rules), Meld)
    )
    meld._accepts = result
    meld._accepts_rules = rules
    return result


def _spare_card_ids(meld: Meld) -> dict[int, int]:
    """A physical id for each face that is not in the meld (only faces matter for legality)."""
    used = meld.cards
    spare: dict[int, int] = {}
    for face, ids in _IDS_OF_FACE:
        for card in ids:
            if card not in used:
                spare[face] = card
                break
    return spare


# physical ids of each face, pack 0 first: one pack more than a table uses, so a meld holding
# every copy of a face still leaves a spare id
_IDS_OF_FACE: tuple[tuple[int, tuple[int, ...]], ...] = tuple(
    (face, tuple(pack * CARDS_PER_PACK + k for pack in range(4)
                 for k in ((52, 53) if face == JOKER else (face,))))
    for face in range(JOKER + 1))


# --- classification (§5, §15) --------------------------------------------------------------

def base_type(meld: Meld, rules: Rules = FIBUR) -> str | None:
    """clean / semi-clean / dirty, or ``None`` below seven cards (§5)."""
    n = len(meld.cards)
    if n < 7:
        return None
    if not meld.wild:
        return "clean"
    if not rules.semi_clean:
        return "dirty"
    if meld.kind == SET:
        naturals = n - 1
        semi = naturals >= 7 and (rules.semi_clean_set_of_nine or n == 8)
        return "semi-clean" if semi else "dirty"
    left, right = meld.wild - meld.lo, meld.hi - meld.wild
    if rules.semi_clean_inner_wild:
        semi = max(left, right) >= 7
    else:
        semi = (left == 0 or right == 0) and n - 1 >= 7
    return "semi-clean" if semi else "dirty"


def burraco_type(meld: Meld, rules: Rules = FIBUR) -> str | None:
    """The most specific burraco type the rules score (§15), or ``None``."""
    base = base_type(meld, rules)
    if base is None:
        return None
    scored = {name for name, _ in rules.bonuses}
    for kind in _special_types(meld, rules):
        if kind in scored:
            return kind
    return base


def _special_types(meld: Meld, rules: Rules) -> list[str]:
    """Extra types this meld qualifies for, most specific first (§14.3, §15)."""
    n = len(meld.cards)
    if meld.kind == SET:
        naturals = n - meld.wild_count
        if naturals >= 8:
            if meld.wild:
                return ["dirty-super"]
            champion = rules.champion_burraco == "clean-set-of-eight"
            return ["champion", "super"] if champion else ["super"]
        return []
    kinds = []
    if n == 14:
        kinds.append("complete")
    covers_royal = (meld.lo <= 1 and meld.hi >= 13) or (meld.lo <= 2 and meld.hi >= ACE_HIGH)
    if covers_royal:
        kinds.append("dirty-royal" if meld.wild else "royal")
    return kinds


def burraco_bonus(meld: Meld, rules: Rules = FIBUR) -> int:
    kind = burraco_type(meld, rules)
    return 0 if kind is None else rules.bonus(kind)


# --- faces-only helpers (tests, CLI, legal-action enumeration) -----------------------------

def ids_for_faces(faces: Iterable[int], *, avoid: Iterable[int] = ()) -> list[int]:
    """Distinct physical ids for ``faces`` (lowest first), skipping ``avoid``."""
    used = set(avoid)
    out = []
    for face in faces:
        card = free_card(face, used, 6)
        if card is None:
            raise MeldError(f"too many copies of {face_str(face)}")
        used.add(card)
        out.append(card)
    return out


def meld_from_faces(faces: Sequence[int], rules: Rules = FIBUR) -> Meld:
    return make_meld(ids_for_faces(faces), rules)


def attach_faces(meld: Meld, faces: Sequence[int], rules: Rules = FIBUR) -> Meld:
    return attach(meld, ids_for_faces(faces, avoid=meld.cards), rules)


def parse_meld(text: str, rules: Rules = FIBUR) -> Meld:
    """Read a table meld such as ``5H 6H JK(=7H) 8H``.

    The cards must form a legal meld.  A sequence written low to high, each
    natural in its own slot and the wild (if any) annotated with its role, is
    kept exactly as written: a free wild stays at the end where it is written,
    and an ace keeps its end (``AH 2H … KH`` stays ace-low, as ``str`` prints a
    run whose ace was attached low).  Any other writing without annotations
    gets the canonical reading; an annotation that cannot hold raises.
    """
    tokens = text.replace(",", " ").split()
    faces: list[int] = []
    roles: dict[int, int] = {}
    for i, token in enumerate(tokens):
        if "(" in token:
            head, _, tail = token.partition("(")
            if not tail.startswith("=") or not tail.endswith(")"):
                raise MeldError(f"cannot read wild role in {token!r}; write it as JK(=7H)")
            faces.append(parse_face(head))
            roles[i] = parse_face(tail[1:-1])
        else:
            faces.append(parse_face(token))
    meld = meld_from_faces(faces, rules)
    if len(roles) > 1:
        raise MeldError("two wild cards in one meld")
    for index, role in roles.items():
        if not _wild_capable(faces[index]):
            raise MeldError(f"{tokens[index]}: only a joker or a 2 can stand for another card")
        if meld.kind == SET and (role == JOKER or face_rank(role) != meld.rank):
            raise MeldError(f"{tokens[index]}: the wild of a set stands for the set's rank")
        if meld.kind == SEQUENCE and face_suit(role) != meld.suit:
            raise MeldError(
                f"{tokens[index]}: the wild must stand for a card of the sequence's suit")
    if meld.kind == SET:
        return meld
    written = _written_sequence(faces, roles, meld.suit)
    if written is None:
        if roles:
            (index, _), = roles.items()
            raise MeldError(f"{tokens[index]} cannot stand there")
        return meld
    lo, wild = written
    cards = tuple(ids_for_faces(faces))
    return Meld(SEQUENCE, cards, suit=meld.suit, lo=lo, wild=wild)


def _written_sequence(
    faces: Sequence[int], roles: dict[int, int], suit: int,
) -> tuple[int, int] | None:
    """``(lo, wild slot)`` if ``faces`` as written are a sequence read low to high.

    Every unannotated card must be the natural of its slot (a same-suit 2 only
    in the 2-slot, an ace in slot 1 or 14); the annotated card is the wild and
    stands for its slot, but never for its own 2-slot (there it is natural).
    The caller has checked that the cards form a legal meld.
    """
    n = len(faces)
    for lo in range(1, ACE_HIGH - n + 2):
        wild = 0
        natural_aces = 0
        for i, face in enumerate(faces):
            slot = lo + i
            role = roles.get(i)
            shown = role if role is not None else face
            if face_suit(shown) != suit or _slot_of(face_rank(shown), slot) != slot:
                break
            if role is not None:
                if face == make_face(2, suit) and slot == 2:
                    break
                wild = slot
            elif face_rank(face) == 1:
                natural_aces += 1
        else:
            if natural_aces < 2:
                return lo, wild
    return None


def _slot_of(rank: int, slot: int) -> int:
    """The slot a card of ``rank`` fills when it is written at ``slot``."""
    return ACE_HIGH if rank == 1 and slot == ACE_HIGH else rank


def _wild_capable(face: int) -> bool:
    return face == JOKER or face % 13 == 1
