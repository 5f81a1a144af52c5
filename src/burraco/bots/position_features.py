"""A full position described in a few numbers, for the learned position value.

The expert's search stops its rollouts after a few turns and asks what the
position is worth.  :mod:`burraco.bots.value_model` answers from these
numbers: for the side being judged and, averaged, for its rivals, what is on
the table (points, burraco, melds on their way), what is still held (cards,
points, wilds, cards that already fit), the race (pozzetto, closing, how soon
the side plays) and the club player's own judgement of it
(:func:`burraco.bots.expert.leaf_value`), plus the table's clock (stock,
pile, pozzetti left).

Only full states are described: in the search every imagined state is one.
The numbers are scaled to about one so that a small model learns them well.
"""

from __future__ import annotations

from collections.abc import Callable

from burraco.bots.evaluate import natural_fits
from burraco.engine.cards import CARD_FACE, FACE_IS_WILD, FACE_POINTS
from burraco.engine.melds import base_type
from burraco.engine.state import PLAY_PHASE, HandState, closing_ready

SIDE_FEATURES = (
    "judged", "table_points", "clean_burraco", "dirty_burraco", "clean_5_6", "dirty_5_6",
    "short_melds", "pozzetto", "closing_ready", "held", "fewest_held", "held_points",
    "held_wilds", "held_fits", "turns_to_play",
)
TABLE_FEATURES = ("stock", "pile", "pozzetti_left", "in_play")
FEATURES = (
    tuple(f"own_{name}" for name in SIDE_FEATURES)
    + tuple(f"rival_{name}" for name in SIDE_FEATURES)
    + TABLE_FEATURES
)
"""The model's inputs, in order: the side's, its rivals' (averaged), the table's."""

Judge = Callable[[HandState, int], float]
"""A side's value as the club player judges it (``leaf_value`` with the bot's numbers)."""


def side_features(state: HandState, side: int, judge: Judge) -> list[float]:
    """The numbers of :data:`SIDE_FEATURES` for one side."""
    rules = state.rules
    melds = state.melds[side]
    seats = state.seats_of(side)
    points = 0
    clean = dirty = clean_near = dirty_near = short = 0
    for meld in melds:
        points += meld.points
        n = len(meld.cards)
        if n >= 7:
            if base_type(meld, rules) == "clean":
                clean += 1
            else:
                dirty += 1
        elif n >= 5:
            if meld.wild:
                dirty_near += 1
            else:
                clean_near += 1
        else:
            short += 1
    fits = natural_fits(melds, rules)
    held = held_points = wilds = fitting = 0
    fewest = 99
    for seat in seats:
        cards = state.hands[seat] + state.pending[seat]
        fewest = min(fewest, len(state.hands[seat]))
        held += len(cards)
        for card in cards:
            face = CARD_FACE[card]
            held_points += FACE_POINTS[face]
            if FACE_IS_WILD[face]:
                wilds += 1
            elif face in fits:
                fitting += 1
    wait = min((seat - state.turn) % state.players for seat in seats)
    return [
        judge(state, side) / 100.0,
        points / 100.0,
        float(clean),
        float(dirty),
        float(clean_near),
        float(dirty_near),
        float(short),
        1.0 if state.pozzetto_taker[side] >= 0 else 0.0,
        1.0 if closing_ready(melds, rules) else 0.0,
        held / 10.0,
        fewest / 10.0,
        held_points / 100.0,
        float(wilds),
        fitting / 10.0,
        wait / state.players,
    ]


def position_features(state: HandState, side: int, judge: Judge) -> list[float]:
    """The numbers of :data:`FEATURES` for ``side`` in a full ``state``."""
    own = side_features(state, side, judge)
    rivals = [s for s in state.live_sides() if s != side]
    rival = [0.0] * len(SIDE_FEATURES)
    for other in rivals:
        for k, value in enumerate(side_features(state, other, judge)):
            rival[k] += value / len(rivals)
    table = [
        len(state.stock) / 100.0,
        len(state.pile) / 10.0,
        float(len(state.pozzetti)),
        1.0 if state.phase == PLAY_PHASE else 0.0,
    ]
    return own + rival + table
