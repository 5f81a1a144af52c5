"""Cards, faces and their text notation (RULES.md §0.1, §1).

Two levels are kept apart on purpose:

* a *face* (0–52) is what a player names: ``7H`` or ``JK``.  Two packs hold two
  copies of every face, so actions, records and legal-action lists speak faces;
* a *card* (0–107, or 0–161 with three packs) is one physical card.  Ids are
  stable, so the two 7♥ are distinct and card conservation can be checked.

Both are plain ``int`` at run time: the engine copies and compares them
thousands of times per decision, and ints are the cheapest Python value.

>>> parse_face("10H") == parse_face("TH")
True
>>> face_str(parse_face("jk"))
'JK'
>>> [card_str(c) for c in (0, 53, 54)]
['AH', 'JK', 'AH']
"""

from __future__ import annotations

from enum import IntEnum
from typing import TypeAlias

Face: TypeAlias = int
"""A card face, 0–52: ``suit * 13 + rank - 1``, and 52 for the joker."""
CardId: TypeAlias = int
"""A physical card, ``pack * 54 + k``: k is the face, or 52–53 for the pack's two jokers."""


class Suit(IntEnum):
    """Suits in the FIBur tie-break order H > D > C > S (RULES.md §1.5)."""

    HEARTS = 0
    DIAMONDS = 1
    CLUBS = 2
    SPADES = 3

    @property
    def letter(self) -> str:
        return SUIT_LETTERS[self]


class Rank(IntEnum):
    """Natural ranks, ace low.  In a sequence an ace may also sit in slot 14."""

    ACE = 1
    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13


SUIT_LETTERS = "HDCS"
RANK_TEXT = ("", "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
JOKER: Face = 52
FACES = 53
CARDS_PER_PACK = 54  # 52 faces + 2 jokers
ACE_HIGH = 14  # sequence slot of a high ace

_POINTS_BY_RANK = (0, 15, 20, 5, 5, 5, 5, 5, 10, 10, 10, 10, 10, 10)


class CardParseError(ValueError):
    """A card token could not be read; the message names the token."""

    def __init__(self, token: str, why: str = "") -> None:
        self.token = token
        detail = f": {why}" if why else ""
        super().__init__(f"cannot read card {token!r}{detail}")


def make_face(rank: int, suit: int) -> Face:
    return suit * 13 + rank - 1


def face_rank(face: int) -> int:
    """Rank 1–13 of a face; 0 for the joker."""
    return 0 if face == JOKER else face % 13 + 1


def face_suit(face: int) -> int:
    """Suit 0–3 of a face; -1 for the joker."""
    return -1 if face == JOKER else face // 13


def is_wild_face(face: int) -> bool:
    """Jokers and pinelle (any 2) are the cards that may act as wilds."""
    return face == JOKER or face % 13 == 1


def face_points(face: int) -> int:
    """Card value for scoring (§1.2): JK 30, 2 20, A 15, K–8 10, 7–3 5."""
    return 30 if face == JOKER else _POINTS_BY_RANK[face % 13 + 1]


FACE_POINTS: tuple[int, ...] = tuple(face_points(f) for f in range(FACES))
CARD_FACE: tuple[int, ...] = tuple(
    (k if k < 52 else 52) for _ in range(3) for k in range(CARDS_PER_PACK))
"""Face of every physical card id (up to three packs), for the hot paths."""
FACE_IS_WILD: tuple[bool, ...] = tuple(is_wild_face(f) for f in range(FACES))


def card_face(card: int) -> Face:
    k = card % CARDS_PER_PACK
    return JOKER if k >= 52 else k


def card_pack(card: int) -> int:
    """Pack 0, 1 (or 2): the packs have different backs at a real table."""
    return card // CARDS_PER_PACK


def free_card(face: int, used: set[int], packs: int) -> int | None:
    """The lowest physical card of ``face`` not in ``used`` (pack 0 first), or ``None``."""
    for pack in range(packs):
        base = pack * CARDS_PER_PACK
        for card in ((base + 52, base + 53) if face == JOKER else (base + face,)):
            if card not in used:
                return card
    return None


def deck(packs: int = 2) -> list[CardId]:
    """All physical cards of ``packs`` packs, in id order."""
    return list(range(packs * CARDS_PER_PACK))


def face_str(face: int) -> str:
    if face == JOKER:
        return "JK"
    if not 0 <= face < 52:
        raise ValueError(f"no such face: {face}")
    return RANK_TEXT[face % 13 + 1] + SUIT_LETTERS[face // 13]


def card_str(card: int) -> str:
    return face_str(card_face(card))


_RANK_BY_TEXT = {text: rank for rank, text in enumerate(RANK_TEXT) if text}
_RANK_BY_TEXT["T"] = 10
_RANK_BY_TEXT["1"] = 1  # never produced; "1H" is read as the ace


def parse_face(token: str) -> Face:
    """Read ``7H``, ``10h``, ``TH`` or ``JK``; raise :class:`CardParseError` otherwise."""
    text = token.strip().upper()
    if text == "JK":
        return JOKER
    if len(text) < 2:
        raise CardParseError(token, "expected a rank and a suit, like 7H or JK")
    suit_letter = text[-1]
    rank_text = text[:-1]
    if suit_letter not in SUIT_LETTERS:
        raise CardParseError(token, f"unknown suit {suit_letter!r} (use H, D, C or S)")
    rank = _RANK_BY_TEXT.get(rank_text)
    if rank is None or rank_text == "1":
        raise CardParseError(token, f"unknown rank {rank_text!r} (use A 2-10 J Q K, or T)")
    return make_face(rank, SUIT_LETTERS.index(suit_letter))


def parse_faces(text: str | list[str]) -> list[Face]:
    """Read a space- or comma-separated list of faces."""
    tokens = text.replace(",", " ").split() if isinstance(text, str) else text
    return [parse_face(t) for t in tokens]


def faces_str(faces: list[Face] | tuple[Face, ...] | list[int] | tuple[int, ...]) -> str:
    return " ".join(face_str(f) for f in faces)


def sort_key(face: int) -> tuple[int, int]:
    """Order for showing a hand: by suit, then rank, jokers last."""
    return (4, 0) if face == JOKER else (face // 13, face % 13)
