"""Cards on a terminal: the project's notation with suit symbols, colour where there is some.

A card reads the same without colour: the rank and the suit's symbol (or
letter, with ``suits = "letters"`` for terminals without the symbols) say
everything; red suits are red and wild cards stand out in gold when the
terminal has colours.  Wild roles keep the notation ``2C(=7H)``.  In a meld on
the table only the cards acting as wild are gold (a joker, a card with a role,
a two in a set): a natural two of a sequence (``A♥ 2♥ 3♥``) has its suit's
colour.  Elsewhere (a hand, the pile, the turns) every joker and two is gold:
each may yet act as wild.
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


def face_markup(text: str, *, symbols: bool = True, wild: bool | None = None) -> str:
    """The card's label as Textual markup: red suits red, wilds in the wild colour.

    ``wild``: whether the card acts as wild, when its meld says (:func:`meld_markup`);
    ``None`` marks every joker and two."""
    label = face_label(text, symbols=symbols)
    head = text.partition("(=")[0]
    if wild is None:
        wild = head == "JK" or head[:-1] == "2"
    if wild:
        return f"[bold {WILD}]{label}[/]"
    if head[-1:] in ("H", "D"):
        return f"[{RED}]{label}[/]"
    return label


def meld_markup(text: str, *, symbols: bool = True) -> str:
    """A meld's cards (the engine's text: ``8S 9S 2C(=10S) JS``) as markup, gold only for the
    card acting as wild."""
    tokens = text.split()
    roles = any("(=" in token for token in tokens)
    naturals = {token[:-1] for token in tokens if token != "JK" and token[:-1] != "2"}
    # the engine writes a sequence's wild with its role; a set's wild (always last) without
    in_set = not roles and len(naturals) <= 1
    return " ".join(face_markup(token, symbols=symbols, wild=(
        token == "JK" or "(=" in token or (in_set and token[:-1] == "2"))) for token in tokens)


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
