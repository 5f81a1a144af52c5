"""Helpers for the bot tests: hands played by bots, and the states met along the way."""

from __future__ import annotations

import random
from collections.abc import Iterator

from burraco.bots.base import make_bot
from burraco.engine.deal import deal_seeded
from burraco.engine.legal import legal_actions
from burraco.engine.rules import Rules
from burraco.engine.state import HandState
from burraco.engine.views import view

LEVEL_MIX = ("random", "basic", "advanced")


def start(seed: int, players: int, rules: Rules | None = None) -> HandState:
    rules = rules or Rules.preset("fibur")
    individual = players in (3, 5) and seed % 3 == 0
    return HandState.start(
        deal_seeded(seed, players=players, rules=rules, individual=individual), rules)


def states_of_hand(seed: int, players: int, *, rules: Rules | None = None,
                   levels: tuple[str, ...] = LEVEL_MIX) -> Iterator[HandState]:
    """Every state of one hand played by a mix of bots (the state is yielded before each move)."""
    rules = rules or Rules.preset("fibur")
    state = start(seed, players, rules)
    bots = [make_bot(levels[(seed + s) % len(levels)], seed=seed * 10 + s, rules=rules)
            for s in range(players)]
    while not state.is_over:
        yield state
        legal = legal_actions(state)
        state = state.clone()
        state.apply_in_place(bots[state.turn].act(view(state, state.turn), legal))
    yield state


def random_state(seed: int, players: int, steps: int) -> HandState:
    rng = random.Random(seed)
    state = start(seed, players)
    for _ in range(steps):
        if state.is_over:
            break
        state.apply_in_place(rng.choice(legal_actions(state)))
    return state


def position(
    *, hands: list[str], players: int = 2, melds: dict[int, list[str]] | None = None,
    pile: str = "", pozzetto_taken: dict[int, int] | None = None, phase: str = "play",
    turn: int = 0, known: dict[int, str] | None = None, stock_size: int | None = None,
) -> HandState:
    """A position written in card text: hands, each side's melds, the pile (bottom first).

    Cards not named fill the untaken pozzetti and the stock; ``pozzetto_taken`` maps a side
    to the seat that took (and played) its pozzetto; ``known`` names cards a seat took with the
    pile; ``stock_size`` cuts the stock (the rest goes under the pile).
    """
    from burraco.engine.cards import card_face, parse_faces
    from burraco.engine.deal import Deal, ids_from_faces
    from burraco.engine.melds import Meld, read_meld

    rules = Rules.preset("fibur")
    melds = melds or {}
    taken = pozzetto_taken or {}
    sides = 2
    groups: list[list[int]] = [[int(f) for f in parse_faces(h)] if h else [] for h in hands]
    meld_texts = [(side, text) for side in range(sides) for text in melds.get(side, [])]
    groups += [[int(f) for f in parse_faces(text)] for _, text in meld_texts]
    groups.append([int(f) for f in parse_faces(pile)] if pile else [])
    ids = ids_from_faces(groups, rules)
    used = {c for group in ids for c in group}
    rest = [c for c in range(rules.packs * 54) if c not in used]
    pozzetti = []
    for _ in range(sides - len(taken)):
        pozzetti.append(tuple(rest[:11]))
        rest = rest[11:]
    pile_ids = list(ids[-1])
    if stock_size is not None:
        pile_ids = rest[stock_size:] + pile_ids
        rest = rest[:stock_size]
    deal = Deal(players=players, dealer=players - 1, hands=tuple(tuple(h) for h in ids[:players]),
                pozzetti=tuple(pozzetti), stock=tuple(rest), pile=tuple(pile_ids))
    table: list[list[Meld]] = [[] for _ in range(sides)]
    for (side, text), cards in zip(meld_texts, ids[players:-1], strict=True):
        meld = read_meld(cards, rules)
        assert isinstance(meld, Meld), (text, meld)
        table[side].append(meld)
    state = HandState.from_position(
        deal, rules, melds=table,
        pozzetto_taker=[taken.get(side) for side in range(sides)], turn=turn, phase=phase)
    for seat, text in (known or {}).items():
        wanted = [int(f) for f in parse_faces(text)]
        for face in wanted:
            card = next(c for c in state.hands[seat]
                        if card_face(c) == face and c not in state.known[seat])
            state.known[seat].append(card)
    return state
