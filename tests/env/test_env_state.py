"""``state()``: the whole hand for centralised critics (every hidden card; never for a policy)."""

from __future__ import annotations

import random
import warnings
from pathlib import Path

import numpy as np
import pytest
from envplay import states_of_hand
from pettingzoo.test.state_test import (  # type: ignore[import-untyped]
    test_state as pettingzoo_state_test,
)
from pettingzoo.test.state_test import (
    test_state_space as pettingzoo_state_space_test,
)

from burraco.engine.cards import CARD_FACE, FACES
from burraco.engine.rules import FIBUR
from burraco.engine.state import HandState
from burraco.env import burraco_v0
from burraco.env.aec import raw_env
from burraco.env.global_state import StateEncoder


def _random_steps(env: raw_env, steps: int, rng: random.Random) -> None:
    for _ in range(steps):
        agent = env.agent_selection
        if env.terminations[agent] or env.truncations[agent]:
            return
        env.step(rng.choice(list(env.legal_actions())))


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_the_state_fits_its_space_and_holds_every_card(players: int) -> None:
    env = burraco_v0.env(players=players)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # PettingZoo's checks only warn: make them fail here
        pettingzoo_state_space_test(env)
    rng = random.Random(players)
    env.reset(seed=players)
    lay = env.state_encoder.layout
    cards = 54 * env.rules.packs
    for _ in range(120):
        whole = env.state()
        assert whole.dtype == env.state_space.dtype == np.float32
        assert whole.shape == env.state_space.shape == (lay.size,)
        assert env.state_space.contains(whole)
        game = env.game_state
        # every physical card is somewhere: hands, pending, pozzetti, stock, pile, melds
        placed = sum(whole[lay.slices[name]].sum() for name in ("hands", "pending", "pozzetti",
                                                               "stock"))
        melded = sum(len(m.cards) for side in game.melds for m in side)
        assert placed + len(game.pile) + melded == cards
        assert np.count_nonzero(whole[lay.slices["stock_order"]]) == len(game.stock)
        top = game.stock[-1] if game.stock else None
        if top is not None:
            assert whole[lay.slices["stock_order"]][0] == CARD_FACE[top] + 1
        assert np.array_equal(whole[lay.slices["public"]], env.observe("player_0")["observation"])
        _random_steps(env, 1, rng)
        if env.terminations[env.agent_selection]:
            assert env.state_space.contains(env.state())  # the final state too
            break


def test_pettingzoos_state_test_passes() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # it samples illegal ids, which end the episode
        pettingzoo_state_test(burraco_v0.env(players=4), num_cycles=50, seed=3)


def test_the_state_is_the_same_for_the_same_seed_and_actions() -> None:
    first, second = burraco_v0.raw_env(4), burraco_v0.raw_env(4)
    first.reset(seed=11)
    second.reset(seed=11)
    rng = random.Random(0)
    assert np.array_equal(first.state(), second.state())
    for _ in range(200):
        agent = first.agent_selection
        if first.terminations[agent]:
            break
        action = rng.choice(list(first.legal_actions()))
        first.step(action)
        second.step(action)
        assert np.array_equal(first.state(), second.state())
    other = burraco_v0.raw_env(4)
    other.reset(seed=12)
    assert not np.array_equal(other.state(), first.state())


def _swap_with_stock(state: HandState, owner: int, rng: random.Random) -> HandState | None:
    """A copy where a card ``owner`` holds, unknown to the others, trades places with a stock
    card of another face (None if there is none)."""
    known = set(state.known[owner])
    mine = [c for c in state.hands[owner] if CARD_FACE[c] not in known]
    rng.shuffle(mine)
    for card in mine:
        others = [c for c in state.stock if CARD_FACE[c] != CARD_FACE[card]]
        if others:
            other = rng.choice(others)
            copy = state.clone()
            copy.hands[owner][copy.hands[owner].index(card)] = other
            copy.stock[copy.stock.index(other)] = card
            return copy
    return None


@pytest.mark.parametrize("players", [2, 4, 5])
def test_the_state_shows_a_hidden_change_that_no_other_seat_sees(players: int) -> None:
    """What the state is for: swap a hidden card of one seat with a stock card; every other
    seat's observation and mask stay equal, the state changes."""
    env = raw_env(players)
    env.reset(seed=0)
    rules = FIBUR.for_players(players)
    encoder = StateEncoder(env.encoder)
    rng = random.Random(players)
    checked = 0
    for state in states_of_hand(40 + players, players, rules, "melder"):
        if state.is_over:
            break
        owner = rng.randrange(players)
        swapped = _swap_with_stock(state, owner, rng)
        if swapped is None:
            continue
        for seat in range(players):
            if seat == owner:
                continue
            real, other = env.encode(state, seat), env.encode(swapped, seat)
            assert np.array_equal(real["observation"], other["observation"])
            assert np.array_equal(real["action_mask"], other["action_mask"])
        before, after = encoder.encode(state), encoder.encode(swapped)
        assert not np.array_equal(before, after)
        hands = encoder.layout.slices["hands"]
        diff = (after[hands] - before[hands]).reshape(encoder.layout.seats, FACES)
        assert np.count_nonzero(diff[owner]) == 2 and not np.delete(diff, owner, 0).any()
        checked += 1
    assert checked > 50, checked


def test_the_doc_names_every_state_slice_and_size_and_warns() -> None:
    doc = (Path(__file__).resolve().parents[2] / "docs" / "research-env.md").read_text(
        encoding="utf-8")
    section = doc.split("## The whole state, for centralised critics only")[1].split("\n## ")[0]
    layout = burraco_v0.raw_env(2).state_encoder.layout
    for name in layout.slices:
        assert f"| `{name}` |" in section, name
    for players in (2, 3, 4, 5, 6):
        assert str(burraco_v0.raw_env(players).state_encoder.layout.size) in section
    assert "Never give it" in section and "**`state()` holds every hidden card**" in section
    assert "never give it" in (raw_env.state.__doc__ or "")  # and the docstring says so too
