"""Cards on a terminal: the project's notation with suit symbols, colour where there is some.

A card reads the same without colour: the rank and the suit's symbol (or
letter, with ``suits = "letters"`` for terminals without the symbols) say
everything; red suits are red and wild cards (jokers and twos) stand out when
the terminal has colours.  Wild roles keep the notation ``2C(=7H)``.
"""

from __future__ import annotations

from burraco.engine.cards import JOKER, card_face, face_rank, face_str, face_suit, sort_key

SYMBOLS = {"H": "♥", "D": "♦", "C": "♣", "S": "♠"}
RED = "#e05050"
WILD = "#e0b000"


def face_label(text: str, *, symbols: bool = True) -> str:
    """``7H`` -> ``7♥``; ``2C(=7H)`` -> ``2♣(=7♥)``; ``JK`` stays ``JK``."""
    if not symbols:
        return text
    head, sep, role = text.partition("(=")
    out = _one(head)
    if sep:
        out += "(=" + _one(role.rstrip(")")) + ")"
    return out


def _one(text: str) -> str:
    if len(text) >= 2 and text[-1] in SYMBOLS:
        return text[:-1] + SYMBOLS[text[-1]]
    return text


def face_markup(text: str, *, symbols: bool = True) -> str:
    """The card's label as Textual markup: red suits red, wilds in the wild colour."""
    label = face_label(text, symbols=symbols)
    head = text.partition("(=")[0]
    if head == "JK" or head[:-1] == "2":
        return f"[bold {WILD}]{label}[/]"
    if head[-1:] in ("H", "D"):
        return f"[{RED}]{label}[/]"
    return label


def card_text(card: int) -> str:
    return face_str(card_face(card))


def by_suit(card: int) -> tuple[int, int, int]:
    face = card_face(card)
    return (*sort_key(face), card)


def by_rank(card: int) -> tuple[int, int, int]:
    """Rank order, ace low, twos and jokers (the wilds) last."""
    face = card_face(card)
    if face == JOKER:
        return (15, 4, card)
    rank = face_rank(face)
    return (14 if rank == 2 else rank, face_suit(face), card)


def sorted_hand(cards: tuple[int, ...] | list[int], mode: str) -> list[int]:
    """The hand as shown: ``suit`` (suits, then ranks) or ``rank`` (ranks, then suits)."""
    return sorted(cards, key=by_rank if mode == "rank" else by_suit)
