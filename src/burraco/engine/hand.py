"""What the legal actions read of a hand, and the rules they share with the state.

:mod:`burraco.engine.legal` lists a hand's actions and :mod:`burraco.engine.state`
applies them, and each needs the other: a conditional pickup is allowed only if a play
would follow it (RULES.md §14.1), and a play owed to a collected pinella is listed only
if applying it succeeds.  So the listing reads a hand through :class:`HandBase`, which
:class:`~burraco.engine.state.HandState` extends, and the state calls the listing.  Here
too are the phases of a turn and the two tests both make: the pinella, and whether a
side's melds allow it to close (§7.1).
"""

from __future__ import annotations

from burraco.engine.actions import Action
from burraco.engine.cards import CARD_FACE, JOKER
from burraco.engine.events import Event
from burraco.engine.melds import Meld, base_type, burraco_type
from burraco.engine.rules import Rules

DRAW_PHASE = "draw"
PLAY_PHASE = "play"
OVER = "over"


class HandBase:
    """The fields of a hand in progress that the legal actions read, and the moves they try.

    :class:`~burraco.engine.state.HandState` is the one implementation (its fields are
    documented there).  A base class, not a ``typing.Protocol``: the compiled engine reads
    a base class's fields directly, a protocol's by name, which made ``legal_actions``
    some 5 % slower.
    """

    __slots__ = ()

    rules: Rules
    hands: list[list[int]]
    pozzetti: list[tuple[int, ...]]
    pozzetto_taker: list[int]
    side_of: list[int]
    melds: list[list[Meld]]
    pile: list[int]
    pile_from: list[int]
    turn: int
    phase: str
    barred: int
    picked: list[int]
    owes_meld: bool
    pinella_duty: bool

    def clone(self) -> HandBase:
        raise NotImplementedError

    def apply_in_place(self, action: Action) -> list[Event]:
        """Apply ``action``, or raise ``IllegalActionError`` (a ``ValueError``) unchanged."""
        raise NotImplementedError

    def partner_wild_in_pile(self, seat: int) -> bool:
        raise NotImplementedError

    def _take_pile(self, seat: int, events: list[Event]) -> None:
        raise NotImplementedError

    def _take_cards(self, seat: int, faces: tuple[int, ...], *,
                    prefer_barred: bool) -> list[int]:
        raise NotImplementedError


def is_pinella(card: int) -> bool:
    """A 2 of any suit (the joker is not a pinella)."""
    face = CARD_FACE[card]
    return face != JOKER and face % 13 == 1


def closing_ready(melds: list[Meld], rules: Rules) -> bool:
    """Does a side with these melds have the burraco its closing needs (§7.1, §13.4, §14)?"""
    kinds = [k for k in (base_type(m, rules) for m in melds) if k is not None]
    if rules.closing_alternatives:
        specials = {burraco_type(m, rules) for m in melds}
        if specials & set(rules.closing_alternatives):
            return True
    if rules.closing == "any":
        return bool(kinds)
    if rules.closing == "clean":
        return "clean" in kinds
    # clean-and-other / two: one clean plus another burraco that is not clean
    return "clean" in kinds and any(k != "clean" for k in kinds)


def closing_need(rules: Rules) -> str:
    return {
        "any": "a burraco",
        "clean": "a clean burraco",
        "clean-and-other": "a clean and a non-clean burraco",
    }[rules.closing]
