"""What a seat may see, face by face: the oracle the secrecy tests hold views and frames to.

A view's card ids are labels (:mod:`burraco.engine.views`), so "no hidden card in a view"
cannot be checked by comparing ids with the state's physical cards.  It is checked by faces:
:func:`view_problems` holds every field of ``view(state, seat)`` to exactly the faces the
seat may see there, and the labels to being a consistent naming (unique, each naming its own
face).  :func:`visible_faces` is the multiset of faces a seat may see anywhere, for frames
that name cards by text.  Which copy is where is a different question, answered by
counterfactual worlds (:mod:`burraco.audit.secrecy`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from burraco.engine.cards import CARD_FACE
from burraco.engine.state import DRAW_PHASE, OVER, HandState
from burraco.engine.views import view


def _faces(cards: Sequence[int]) -> list[int]:
    return [CARD_FACE[c] for c in cards]


def visible_faces(state: HandState, seat: int | None) -> Counter[int]:
    """Every face ``seat`` may see now, with its count: its hand and the pozzetto it may look
    at, the melds, the pile (every discard was seen when it was made), the faces others are
    known to hold and, once the hand is over, every hand laid down."""
    out: Counter[int] = Counter(_faces(state.pile))
    for side in state.melds:
        for meld in side:
            out.update(_faces(meld.cards))
    if state.phase == OVER:
        for hand, pending in zip(state.hands, state.pending, strict=True):
            out.update(_faces(hand + pending))
        return out
    for other in range(state.players):
        if other == seat:
            out.update(_faces(state.hands[other]))
            if state.pending_seen[other]:
                out.update(_faces(state.pending[other]))
        else:
            out.update(state.known[other])
    return out


def view_problems(state: HandState, seat: int | None) -> list[str]:
    """Where ``view(state, seat)`` shows more (or other) than the seat may see; empty: none."""
    v = view(state, seat)
    over = state.phase == OVER
    me = -1 if seat is None else seat
    problems: list[str] = []

    def expect(name: str, shown: Sequence[int], faces: Sequence[int]) -> None:
        if _faces(shown) != list(faces):
            problems.append(f"{name} shows {_faces(shown)}, the seat may see {list(faces)}")

    expect("hand", v.hand, _faces(state.hands[me]) if me >= 0 else [])
    seen = state.pending[me] if me >= 0 and state.pending_seen[me] else []
    expect("pozzetto_seen", v.pozzetto_seen, _faces(seen))
    if len(v.melds) != len(state.melds):
        problems.append("melds: wrong number of sides")
    for side, (ours, real) in enumerate(zip(v.melds, state.melds, strict=False)):
        if len(ours) != len(real):
            problems.append(f"melds of side {side}: {len(ours)} shown, {len(real)} on the table")
        for i, (a, b) in enumerate(zip(ours, real, strict=False)):
            expect(f"meld {side}.{i}", a.cards, _faces(b.cards))
    pile = state.pile
    if state.rules.pile_view == "on-turn" and not over and not (
            me == state.turn and state.phase == DRAW_PHASE):
        pile = pile[-1:]
    expect("pile", v.pile, _faces(pile))
    for other in range(state.players):
        expect(f"known[{other}]", v.known[other], state.known[other])
    if over:
        for other in range(state.players):
            expect(f"revealed[{other}]", v.revealed[other],
                   _faces(state.hands[other] + state.pending[other]))
    elif v.revealed:
        problems.append("hands are revealed before the hand is over")
    barred = state.barred if me >= 0 and me == state.turn and state.barred in state.hands[
        me] else -1
    if (v.barred < 0) != (barred < 0) or (barred >= 0 and CARD_FACE[v.barred] != CARD_FACE[
            barred]):
        problems.append(f"barred is {v.barred}, the seat may see {barred}")
    # labels: one name per card, unique, each naming its own face (checked above by face);
    # cards others are known to hold get labels of their own, never one of a shown card
    shown: list[int] = list(v.hand) + list(v.pozzetto_seen) + list(v.pile)
    for melds in v.melds:
        for meld in melds:
            shown += meld.cards
    if over:
        shown = [c for r in v.revealed for c in r] + [
            c for melds in v.melds for meld in melds for c in meld.cards] + list(v.pile)
    else:
        shown += [c for other, k in enumerate(v.known) if other != me for c in k]
    if len(set(shown)) != len(shown):
        problems.append("two cards of the view share a label")
    if me >= 0 and not set(v.known[me]) <= set(v.hand):
        problems.append("the seat's own known cards are not labels of its hand")
    for other in range(state.players):
        if Counter(state.known[other]) - Counter(_faces(state.hands[other])):
            problems.append(f"seat {other} is known to hold faces it does not hold")
    return problems
