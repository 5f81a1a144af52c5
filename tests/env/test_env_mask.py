"""The action mask is exactly the engine's legal actions.

Thousands of states of random hands, every rules preset, 2 to 6 players:
every legal engine action has an id, no two share one, the mask holds exactly
those ids, each masked id decodes to its engine action, and applying it
succeeds.  The rare whole-hand attachment is checked on a built position.
"""

from __future__ import annotations

import os
from collections import Counter
from itertools import product

import numpy as np
import pytest
from envplay import states_of_hand

from burraco.engine import HandState, legal_actions, parse_action
from burraco.engine.cards import card_face, parse_faces
from burraco.engine.deal import Deal, ids_from_faces
from burraco.engine.rules import FIBUR, PRESETS
from burraco.env import catalog, masks
from burraco.env.catalog import ATTACH_HAND, action_id, action_of

SCALE = max(1, int(os.environ.get("BURRACO_ENV_HANDS", "1")))  # more hands: BURRACO_ENV_HANDS=10


def check_state(state: HandState, kinds: Counter[str], slots: Counter[int]) -> None:
    legal = legal_actions(state)
    hand = state.hands[state.turn]
    packs = state.rules.packs
    ids = [action_id(a, hand, packs) for a in legal]
    assert len(set(ids)) == len(ids), "two legal actions share an id"
    mask = masks.action_mask(state)
    assert mask.dtype == np.int8 and mask.shape == (catalog.size(packs),)
    assert set(np.flatnonzero(mask).tolist()) == set(ids)
    for i, action in zip(ids, legal, strict=True):
        assert action_of(i, hand, packs) == action
        trial = state.clone()
        trial.apply_in_place(action_of(i, hand, packs))  # every masked id is legal
        kinds[catalog.kind(i, packs)] += 1
        if catalog.tables(packs).slot[i] >= 0:
            slots[int(catalog.tables(packs).slot[i])] += 1


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_the_mask_is_the_legal_actions_in_random_states(players: int) -> None:
    kinds: Counter[str] = Counter()
    slots: Counter[int] = Counter()
    states = 0
    modes: Counter[str] = Counter()
    for k, (_name, rules) in enumerate(sorted(PRESETS.items())):
        for policy, repeat in product(("uniform", "melder"), range(SCALE)):
            seed = 100 * k + (7 if policy == "melder" else 0) + players + 1000 * repeat
            for state in states_of_hand(seed, players, rules, policy):
                if state.is_over:
                    assert not masks.legal_ids(state)
                    break
                check_state(state, kinds, slots)
                modes[state.mode] += 1
                states += 1
    assert states >= 2500 * SCALE, states
    if players in (3, 5):  # partnerships formed mid-hand in many states
        assert modes["pairs"] >= 300, modes
    assert {"draw", "pickup", "discard", "attach", "meld"} <= set(kinds), kinds
    assert max(slots) >= 5, slots  # attachments reach meld slots well past the first


def _position() -> HandState:
    """Seat 0 holds 9H and the 10H it just took from a one-card pile; side 0 has 4H–8H."""
    hands = [parse_faces("4H 5H 6H 7H 8H 9H"), parse_faces("KS 8S 10H")]
    groups = ids_from_faces([*hands, parse_faces("3C"), parse_faces("JD 7D")])
    used = {c for g in groups for c in g}
    rest = [c for c in range(108) if c not in used]
    deal = Deal(players=2, dealer=1, hands=(tuple(groups[0]), tuple(groups[1])),
                pozzetti=(tuple(rest[:11]), tuple(rest[11:22])),
                stock=tuple(groups[3]) + tuple(rest[22:]), pile=tuple(groups[2]))
    state = HandState.start(deal, FIBUR)
    for text in ("draw", "meld 4H 5H 6H 7H 8H", "discard JD", "pickup", "discard 10H", "pickup"):
        state.apply_in_place(parse_action(text))
    return state


def test_the_whole_hand_attachment_has_an_id() -> None:
    state = _position()
    assert sorted(card_face(c) for c in state.hands[0]) == sorted(parse_faces("9H 10H"))
    legal = legal_actions(state)
    whole = parse_action("attach 1 9H 10H")
    assert whole in legal
    assert action_id(whole) == ATTACH_HAND
    check_state(state, Counter(), Counter())
    mask = masks.action_mask(state)
    assert mask[ATTACH_HAND] == 1 and mask[ATTACH_HAND + 1] == 0
    assert catalog.describe(ATTACH_HAND) == "attach 1 *"
