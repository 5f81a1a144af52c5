"""Sample a full hand state consistent with everything a seat knows (its view).

``determinize(view, rng)`` is the bridge between hidden information and
search: the expert bot samples many states, searches each as if the cards
were face up, and aggregates.  A sample keeps every fact of the view:

* the seat's own hand, a pozzetto it may already look at, the melds, the
  pile, every counter and turn flag, and the public history;
* the cards an opponent took with the pile and still holds (``view.known``)
  sit in that opponent's hand;
* every other card the seat has not seen is dealt at random to the places
  it may be: the others' unknown hand cards, pozzetti taken with the discard
  and not yet seen, the untaken pozzetti and the stock.

The sample's card ids are the view's labels (its visible cards keep them; a card
another seat is known to hold is that label in its hand; the pool is the copies no label
names), so ``view(determinize(v, rng), v.seat) == v`` holds exactly, and 108 cards
are conserved.  With ``evidence=True`` (the default) the opponents' unknown
cards are drawn with the soft weights of
:func:`burraco.bots.knowledge.face_weights` (who discarded or declined what,
who picked up which pile); the rest is uniform.
"""

from __future__ import annotations

import random

from burraco.bots.knowledge import face_weights, hidden_hand_sizes, parse_move, unseen_cards
from burraco.engine.actions import Action, Discard, Draw, Pickup
from burraco.engine.cards import card_face
from burraco.engine.deal import Deal, pozzetto_sizes
from burraco.engine.meld_search import accepts_by_shape
from burraco.engine.rules import Rules
from burraco.engine.state import OVER, HandState
from burraco.engine.views import View


class DeterminizeError(ValueError):
    """The view is not one a determinization can be built from (e.g. the hand is over)."""


def rules_of(view: View) -> Rules:
    """The table's rules: the view's preset as it applies to its number of players."""
    return Rules.preset(view.rules).for_players(view.players)


def determinize(
    view: View, rng: random.Random, *, rules: Rules | None = None, evidence: bool = True,
    history: bool = True,
) -> HandState:
    """A full state drawn from the states ``view.seat`` cannot tell apart from the real one.

    ``rules`` defaults to the view's preset (pass the value when playing with
    custom options).  ``history=False`` skips rebuilding the action history
    (rollouts do not need it), which makes sampling cheaper.
    """
    if view.phase == OVER:
        raise DeterminizeError("the hand is over: every card is already shown")
    rules = (rules or Rules.preset(view.rules)).for_players(view.players)
    me = view.seat
    players = view.players
    pool = unseen_cards(view, rules)
    rng.shuffle(pool)

    unknown = hidden_hand_sizes(view)
    hidden_pending = [
        view.pending_counts[s] if s != me or not view.pozzetto_seen else 0
        for s in range(players)
    ]
    individual, sizes = _pozzetto_sizes(view, rules)
    pozzetto_cards = sum(sizes)
    need = sum(unknown) + sum(hidden_pending) + pozzetto_cards + view.stock_count
    if need != len(pool):
        raise DeterminizeError(
            f"the view hides {need} cards but {len(pool)} are unseen: inconsistent view")

    hands: list[list[int]] = []
    order = [s for s in range(players) if unknown[s] > 0]
    if evidence:
        rng.shuffle(order)
    drawn: dict[int, list[int]] = {}
    for seat in order:
        if evidence:
            fits: set[int] = set()
            for meld in view.melds[view.side_of[seat]]:
                fits |= accepts_by_shape(meld, rules)
            weights = face_weights(view, seat, frozenset(fits))
            drawn[seat] = _weighted_take(pool, unknown[seat], weights, rng)
        else:
            drawn[seat], pool = pool[: unknown[seat]], pool[unknown[seat]:]
    for seat in range(players):
        if seat == me:
            hands.append(list(view.hand))
        else:
            hands.append(list(view.known[seat]) + drawn.get(seat, []))
    pending: list[list[int]] = []
    for seat in range(players):
        if seat == me and view.pozzetto_seen:
            pending.append(list(view.pozzetto_seen))
        else:
            k = hidden_pending[seat]
            pending.append(pool[:k])
            pool = pool[k:]
    pozzetti = []
    for size in sizes:
        pozzetti.append(tuple(pool[:size]))
        pool = pool[size:]
    stock = tuple(pool)  # already shuffled; top card first

    deal = Deal(
        players=players, dealer=view.dealer, hands=tuple(tuple(h) for h in hands),
        pozzetti=tuple(pozzetti), stock=stock, pile=tuple(view.pile),
    )
    state = HandState.from_position(
        deal, rules, melds=[list(side) for side in view.melds],
        pozzetto_taker=[t if t >= 0 else None for t in view.pozzetto_taker],
        turn=view.turn, phase=view.phase,
    )
    state.side_of = list(view.side_of)
    state.mode = _mode(view, individual)
    counter = 0
    for side, melds in enumerate(view.melds):  # creation order within each side is kept
        state.meld_seq[side] = list(range(counter, counter + len(melds)))
        counter += len(melds)
    state.meld_counter = counter
    state.pile_from = _pile_from(view)
    state.picked, state.owes_meld = _owed(view, rules)
    state.pinella_duty = view.pinella_duty
    state.pending = pending
    state.pending_seen = list(view.pending_seen)
    state.known = [[card_face(c) for c in k] for k in view.known]
    state.barred = _barred(view, rules)
    state.final_turn = view.final_turn
    state.stall = view.stall
    state.turn_single_pickup = view.turn_single_pickup
    state.turn_melded = view.turn_melded
    state.time_left = view.time_left
    state.end_reason = ""
    state.closer = -1
    state.history = _history(view) if history else None
    return state


def _pozzetto_sizes(view: View, rules: Rules) -> tuple[bool, tuple[int, ...]]:
    """(individual mode?, sizes of the pozzetti still on the table, top first)."""
    taken = sum(1 for t in view.pozzetto_taker if t >= 0)
    total = taken + view.pozzetti_left
    individual = view.players in (3, 5) and total == view.players
    sizes = pozzetto_sizes(view.players, rules, individual=individual)
    return individual, tuple(sizes[len(sizes) - view.pozzetti_left:])


def _mode(view: View, individual: bool) -> str:
    if view.players not in (3, 5):
        return "fixed"
    if individual:
        return "individual"
    return "pairs" if len(set(view.side_of)) < view.players else "solo-then-pairs"


def _pile_from(view: View) -> list[int]:
    """Who discarded each card of the pile (-1: the first up-card), from the public history."""
    origin = [-1]
    for seat, text in view.moves:
        action = parse_move(text)
        if isinstance(action, Discard):
            origin.append(seat)
        elif isinstance(action, Pickup):
            origin = []
    if len(origin) != len(view.pile):
        return [-1] * len(view.pile)
    return origin


def _owed(view: View, rules: Rules) -> tuple[list[int], bool]:
    """The cards taken with the pile this turn (Champion §14.3, and the International code's
    collected pinella §14.1 read them), and whether a Champion meld is owed."""
    champion = rules.pile_pickup == "must-meld-picked"
    reads_picked = champion or rules.collected_pinella != "free" or rules.pile_use != "hand-or-pile"
    if not reads_picked or view.phase != "play":
        return [], False
    size = -1
    pile = 1
    for _seat, text in view.moves:  # the pile's size when this turn's pickup happened
        action = parse_move(text)
        if isinstance(action, Discard):
            pile += 1
        elif isinstance(action, Pickup):
            size, pile = pile, 0
        elif isinstance(action, Draw):
            size = -1
    if size <= 0:
        return [], False
    known = view.known[view.turn]
    picked = list(known[-size:]) if len(known) >= size else list(known)
    return picked, champion and not view.turn_melded


def _weighted_take(
    pool: list[int], k: int, weights: list[float], rng: random.Random,
) -> list[int]:
    """Take ``k`` cards out of ``pool`` (in place), each drawn with probability ∝ its weight.

    Efraimidis–Spirakis: key u^(1/w), keep the k largest keys.
    """
    if k <= 0:
        return []
    keyed = sorted(
        ((rng.random() ** (1.0 / weights[card_face(c)]), c) for c in pool), reverse=True)
    taken = [c for _, c in keyed[:k]]
    chosen = set(taken)
    pool[:] = [c for c in pool if c not in chosen]
    return taken


def _barred(view: View, rules: Rules) -> int:
    """The card the seat on turn took from a one-card pile (hidden from others' views).

    The pickup appended that card last to the seat's known cards; it matters
    only while it is still held, and then it is still the last known card.
    """
    if view.seat == view.turn:
        return view.barred
    if not (view.turn_single_pickup and rules.single_card_pile_rule and view.phase == "play"):
        return -1
    known = view.known[view.turn]
    if not known:
        return -1
    top = -1  # the pile taken this turn was the previous discard (or the first up-card)
    for _seat, text in reversed(view.moves):
        action = parse_move(text)
        if isinstance(action, Discard):
            top = int(action.face)
            break
    candidate = known[-1]
    return candidate if top < 0 or card_face(candidate) == top else -1


def _history(view: View) -> tuple[Action, object] | None:
    node: tuple[Action, object] | None = None
    for _seat, text in view.moves:
        node = (parse_move(text), node)
    return node
