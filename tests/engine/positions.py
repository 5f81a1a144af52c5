"""Explicit positions for engine tests: deals written in card text, and played-out states.

Deals are written the way RULES.md writes cards (§0.1).  Every card a test
does not name is placed by the helper, so a test names only what matters:

>>> state = start(players=2, hands=["5H 6H 7H", "KS KS"], pile="9C", stock="4D")
>>> [str(a) for a in legal(state)]
['draw', 'pickup']
>>> state = play(state, "draw", "meld 5H 6H 7H")
>>> hand_text(state, 0)
'4D'

Hands may have any size (the deal checker only wants every card exactly once),
which is the cheapest way to reach a late-game situation with real play.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import burraco.engine.state as state_module
from burraco.engine import HandState, legal_actions, parse_action
from burraco.engine.actions import Action
from burraco.engine.cards import card_face, face_str, parse_faces, sort_key
from burraco.engine.deal import Deal, ids_from_faces
from burraco.engine.events import Event
from burraco.engine.melds import Meld, read_meld
from burraco.engine.rules import FIBUR, Rules

POZZETTO_SIZE = 11


def faces(text: str) -> list[int]:
    """``"7H 7H JK"`` -> faces."""
    return [int(f) for f in parse_faces(text)] if text.strip() else []


def make_deal(
    *, players: int = 2, hands: Sequence[str], pile: str = "", stock: str = "",
    pozzetti: Sequence[str] | None = None, stock_size: int | None = None,
    dealer: int | None = None, rules: Rules = FIBUR,
) -> Deal:
    """A deal with the named cards where a test wants them.

    ``stock`` lists the top of the stock, top card first; ``pile`` the discard
    pile, bottom card first (its last card is the up-card).  Pozzetti not given
    are filled with 11 unnamed cards each; the remaining unnamed cards go under
    the named stock cards.  With ``stock_size`` the stock is cut to that many
    cards and the surplus goes to the *bottom* of the discard pile (so a test
    of the stock's end needs no long play).  The dealer defaults to the last
    seat, so seat 0 plays first (§2.3).
    """
    if len(hands) != players:
        raise ValueError(f"{len(hands)} hands for {players} players")
    groups = [faces(h) for h in hands]
    named_pozzetti = [faces(p) for p in pozzetti] if pozzetti is not None else []
    groups += named_pozzetti
    groups.append(faces(pile))
    groups.append(faces(stock))
    ids = ids_from_faces(groups, rules)
    used = {c for group in ids for c in group}
    rest = [c for c in range(rules.packs * 54) if c not in used]
    hand_ids = ids[:players]
    pozzetto_ids = ids[players:players + len(named_pozzetti)]
    pile_ids, stock_ids = ids[-2], ids[-1]
    if pozzetti is None:
        pozzetto_ids = []
        for _ in range(2):
            pozzetto_ids.append(rest[:POZZETTO_SIZE])
            rest = rest[POZZETTO_SIZE:]
    stock_all = stock_ids + rest
    if stock_size is not None:
        if stock_size < len(stock_ids):
            raise ValueError("stock_size is smaller than the named stock cards")
        pile_ids = stock_all[stock_size:] + pile_ids
        stock_all = stock_all[:stock_size]
    return Deal(
        players=players,
        dealer=players - 1 if dealer is None else dealer,
        hands=tuple(tuple(h) for h in hand_ids),
        pozzetti=tuple(tuple(p) for p in pozzetto_ids),
        stock=tuple(stock_all),
        pile=tuple(pile_ids),
    )


def start(rules: Rules = FIBUR, **deal: Any) -> HandState:
    """``HandState.start`` of :func:`make_deal` (same keywords)."""
    return HandState.start(make_deal(rules=rules, **deal), rules)


def play(state: HandState, *texts: str) -> HandState:
    """The state after the actions written as text (``"draw"``, ``"meld 5H 6H 7H"``...)."""
    for text in texts:
        state, _ = state.apply(parse_action(text))
    return state


def play_events(state: HandState, text: str) -> tuple[HandState, list[Event]]:
    return state.apply(parse_action(text))


def legal(state: HandState) -> list[Action]:
    return legal_actions(state)


def legal_texts(state: HandState) -> list[str]:
    return [str(a) for a in legal_actions(state)]


def hand_text(state: HandState, seat: int) -> str:
    """The seat's hand in display order (by suit, then rank, jokers last)."""
    return " ".join(face_str(f) for f in sorted(
        (card_face(c) for c in state.hands[seat]), key=sort_key))


def pile_text(state: HandState) -> str:
    return " ".join(face_str(card_face(c)) for c in state.pile)


def cards_text(cards: Iterable[int]) -> str:
    return " ".join(face_str(card_face(c)) for c in cards)


def put_melds(state: HandState, side: int, *texts: str) -> HandState:
    """Move the named cards from the stock onto ``side``'s table as melds, in order.

    Edits a copy of the state (its ``deal`` then no longer describes it): the
    cards are taken from the stock, so the 108 cards stay conserved.  Each text
    is read canonically (free wild low, §4.3.5).
    """
    state = state.clone()
    for text in texts:
        cards = []
        for face in faces(text):
            card = next(c for c in state.stock  # from the bottom of the stock
                        if card_face(c) == face and c not in cards)
            cards.append(card)
        for card in cards:
            state.stock.remove(card)
        meld = read_meld(cards, state.rules)
        if not isinstance(meld, Meld):
            raise ValueError(f"{text!r}: {meld}")
        state.melds[side] = [*state.melds[side], meld]
    return state


def give_pozzetto(state: HandState, side: int, seat: int) -> HandState:
    """Mark that ``side`` has already taken (and played) the top pozzetto, taken by ``seat``.

    The pozzetto's cards go to the bottom of the stock, so they stay conserved.
    """
    state = state.clone()
    taken = state.pozzetti.pop(0)
    state.stock = list(taken) + state.stock  # the stock's top is the end of the list
    state.pozzetto_taker[side] = seat
    return state


def cut_stock(state: HandState, size: int) -> HandState:
    """Keep the top ``size`` cards of the stock; the rest go under the discard pile."""
    state = state.clone()
    state.pile = state.stock[:-size] + state.pile  # stock: top card last; pile: top card last
    state.stock = state.stock[-size:]
    return state


def snapshot(state: HandState, *, skip: Iterable[str] = ()) -> tuple[Any, ...]:
    """Every slot of a state but ``skip`` as plain comparable values (melds by contents)."""
    out: list[Any] = []
    for name in STATE_FIELDS:
        if name in skip:
            continue
        value = getattr(state, name)
        if name == "melds":
            value = tuple(tuple((m.kind, m.cards, m.lo, m.wild, m.suit, m.rank) for m in side)
                          for side in value)
        elif isinstance(value, list):
            value = tuple(tuple(v) if isinstance(v, list) else v for v in value)
        out.append((name, value))
    return tuple(out)


# the fields of HandState that change during play, in a fixed order
STATE_FIELDS = sorted(set(getattr(state_module, "STATE_FIELDS", ())) - {"rules", "deal"})


def skip_draw(state: HandState) -> HandState:
    """The same position in the play phase without a draw.

    For rules the guard of §7.3 makes unreachable in play (e.g. a lone wild in
    the hand of a side with its pozzetto): the discard rule is then tested on
    its own.
    """
    state = state.clone()
    state.phase = "play"
    return state


def same_state(a: HandState, b: HandState) -> bool:
    """``snapshot(a) == snapshot(b)``, faster (melds are immutable values)."""
    return all(getattr(a, name) == getattr(b, name) for name in STATE_FIELDS)


def deal_to_json(deal: Deal) -> dict[str, Any]:
    """A deal as card text, the form of ``tests/data/perft/*.json``."""
    return {
        "players": deal.players,
        "dealer": deal.dealer,
        "hands": [cards_text(h) for h in deal.hands],
        "pozzetti": [cards_text(p) for p in deal.pozzetti],
        "stock": cards_text(deal.stock),
        "pile": cards_text(deal.pile),
    }


def deal_from_json(data: dict[str, Any], rules: Rules = FIBUR) -> Deal:
    """The inverse of :func:`deal_to_json` (faces get ids pack 0 first)."""
    players = int(data["players"])
    groups = [faces(h) for h in data["hands"]] + [faces(p) for p in data["pozzetti"]]
    groups += [faces(data["stock"]), faces(data["pile"])]
    ids = ids_from_faces(groups, rules)
    n_poz = len(data["pozzetti"])
    return Deal(
        players=players,
        dealer=int(data["dealer"]),
        hands=tuple(tuple(h) for h in ids[:players]),
        pozzetti=tuple(tuple(p) for p in ids[players:players + n_poz]),
        stock=tuple(ids[-2]),
        pile=tuple(ids[-1]),
    )


def replay(data: dict[str, Any], moves: Sequence[str] = ()) -> HandState:
    """The state of a JSON deal after the moves (action texts)."""
    state = HandState.start(deal_from_json(data))
    for text in moves:
        state.apply_in_place(parse_action(text))
    return state
