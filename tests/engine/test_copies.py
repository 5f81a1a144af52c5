"""Which copy of a face moved is never shown (docs/decisions.md, "Which copy").

Each face has two copies (RULES.md §1).  Cards taken with the pile are public (§3.1.1), but
once in a hand nobody can tell them from the player's other copies of the same face: what the
others know of a hand is a multiset of faces.  The one exception is §3.1.4: a player who took
a one-card pile and discards its twin shows both, so the card taken stays known.
"""

from __future__ import annotations

from burraco.audit.faces import view_problems
from burraco.engine.actions import parse_action
from burraco.engine.cards import CARD_FACE, card_str, parse_face
from burraco.engine.deal import Deal, ids_from_faces, pozzetto_sizes
from burraco.engine.rules import FIBUR
from burraco.engine.state import HandState
from burraco.engine.views import view

# seat 0 holds no 3H; seat 1 holds one and throws it; the other 3H is the 4th card of the stock
HANDS = ("5C 7D 9S KS QD JD 4C 6C 8H 10S 4S", "3H 5D 7C 9D KD QC JC 4D 6D 8C 10D")
UP_CARD = "AC"
STOCK = "KH 5H QH 3H 6S 7S"


def _deal(hands: tuple[str, str] = HANDS, up_card: str = UP_CARD, stock: str = STOCK) -> Deal:
    rules = FIBUR.for_players(2)
    groups = [[parse_face(f) for f in h.split()] for h in hands]
    groups += [[parse_face(up_card)], [parse_face(f) for f in stock.split()]]
    ids = ids_from_faces(groups, rules)
    used = {c for g in ids for c in g}
    rest = [c for c in range(rules.packs * 54) if c not in used]
    pozzetti = []
    for size in pozzetto_sizes(2, rules, individual=False):
        pozzetti.append(tuple(rest[:size]))
        rest = rest[size:]
    return Deal(2, 1, (tuple(ids[0]), tuple(ids[1])), tuple(pozzetti), tuple(ids[3] + rest),
                tuple(ids[2]))


def _play(state: HandState, *moves: str) -> HandState:
    for move in moves:
        state.apply_in_place(parse_action(move))
    return state


def _known_text(state: HandState, seat: int, of: int) -> list[str]:
    return sorted(card_str(c) for c in view(state, seat).known[of])


def _swap(state: HandState, a: int, b: int) -> HandState:
    other = state.clone()
    other.hands = [[b if c == a else a if c == b else c for c in h] for h in other.hands]
    other.stock = [b if c == a else a if c == b else c for c in other.stock]
    other.pile = [b if c == a else a if c == b else c for c in other.pile]
    return other


def test_which_copy_seat_0_discards_does_not_tell_seat_1_whether_it_holds_another() -> None:
    """Seat 0 takes a pile holding seat 1's 3H, later draws the other 3H, and discards "3H".
    Seat 1 must not learn which 3H went: its view is the same whether seat 0 still holds the
    drawn 3H (the real deal) or drew something else (the drawn card swapped with the stock's
    next card, a world seat 1 cannot tell from the real one)."""
    state = _play(HandState.start(_deal(), FIBUR),
                  "draw", "discard KH",        # seat 0
                  "draw", "discard 3H",        # seat 1: the pile is AC KH 3H
                  "pickup", "discard 4S",      # seat 0: the 3H is now public
                  "draw", "discard QH",        # seat 1
                  "draw")                      # seat 0 draws the other 3H (hidden)
    drawn = state.hands[0][-1]
    assert card_str(drawn) == "3H"
    other_world = _swap(state, drawn, state.stock[-1])
    assert view(state, 1) == view(other_world, 1)  # seat 1 cannot tell the worlds apart
    assert _known_text(state, 1, 0) == ["3H", "AC", "KH"]
    for world in (state, other_world):
        _play(world, "discard 3H")
        assert not view_problems(world, 1)
    assert view(state, 1) == view(other_world, 1)
    assert _known_text(state, 1, 0) == ["AC", "KH"]  # seat 0 may or may not hold a 3H
    assert [CARD_FACE[c] for c in state.hands[0]].count(parse_face("3H")) == 1


def test_s3_1_4_discarding_the_twin_of_a_one_card_pile_keeps_the_card_taken_known() -> None:
    """§3.1.4: seat 0 takes the one-card pile 9S and discards its own 9S (the twin): the
    9S taken may not be discarded this turn, so everyone knows it is still held."""
    hands = ("9S 5C 7D KS QD JD 4C 6C 8H 10S 4S", "9S 5D 7C 9D KD QC JC 4D 6D 8C 10D")
    state = _play(HandState.start(_deal(hands, "AC", "KH 5H QH"), FIBUR),
                  "draw", "discard KH",        # seat 0: the pile is AC KH
                  "pickup", "discard 9S",      # seat 1: the pile is one card, 9S
                  "pickup")                    # seat 0 takes it
    taken = state.barred
    assert card_str(taken) == "9S"
    assert _known_text(state, 1, 0) == ["9S"]
    _play(state, "discard 9S")  # the twin: the 9S taken stays (§3.1.4)
    assert taken not in state.pile and taken in state.hands[0]
    assert _known_text(state, 1, 0) == ["9S"]
    assert not view_problems(state, 1)


def test_a_views_ids_are_labels_that_name_no_physical_copy() -> None:
    """Two worlds that differ only in which copy of a face is where give every seat and a
    spectator the same view, label for label."""
    state = _play(HandState.start(_deal(), FIBUR), "draw", "discard KH", "draw", "discard 3H")
    copies = [c for c in state.all_cards() if card_str(c) == "3H"]
    assert len(copies) == 2
    other_world = _swap(state, *copies)  # the pile's 3H and the stock's 3H trade places
    assert other_world.pile != state.pile
    for seat in (None, 0, 1):
        assert view(state, seat) == view(other_world, seat)
