"""The club player's judgement on written positions, ``advanced``."""

from __future__ import annotations

import random

from botplay import position

from burraco.bots.advanced import AdvancedBot, find_exit, pickup_gain
from burraco.bots.advanced import make_context as context_of
from burraco.engine.actions import DRAW, PICKUP, Action, Discard, parse_action
from burraco.engine.legal import legal_actions
from burraco.engine.state import HandState
from burraco.engine.views import view


def choose(state: HandState) -> Action:
    bot = AdvancedBot(random.Random(0))
    return bot.act(view(state, state.turn), legal_actions(state))


def test_it_goes_out_to_the_pozzetto_when_the_hand_can_be_melded_away() -> None:
    state = position(hands=["5H 6H 7H KS KD KC 9C", "4D 4S 8D"])
    action = choose(state)
    path = find_exit(state, 0)
    assert path and action == path[0]
    for step in path:  # following the plan reaches the pozzetto (the last card is thrown)
        state.apply_in_place(step)
    assert state.pozzetto_taker[0] == 0


def test_it_closes_when_its_side_has_the_pozzetto_and_a_burraco() -> None:
    state = position(hands=["9S 9H 9D 4C", "4D 4S 8D"],
                     melds={0: ["3H 4H 5H 6H 7H 8H 9H"]}, pozzetto_taken={0: 0})
    seen: list[str] = []
    while not state.is_over and state.turn == 0:
        action = choose(state)
        seen.append(str(action))
        state.apply_in_place(action)
    assert state.end_reason == "closed" and state.closer == 0, seen


def test_it_does_not_throw_what_the_next_player_can_attach() -> None:
    """8S goes on the opponent's run of spades; the QD is as useless to itself and safe."""
    state = position(hands=["8S QD 4H 5H 6C 6D", "2C 3C 4C"],
                     melds={1: ["5S 6S 7S"]})
    action = choose(state)
    assert isinstance(action, Discard) and str(action) != "discard 8S"


def test_it_avoids_the_cards_that_go_with_what_the_opponent_took_from_the_pile() -> None:
    state = position(hands=["JC 3D 7H 8H 9H KS", "QC QD 5S 9D"], known={1: "QC QD"})
    costs = _discard_order(state)
    assert costs.index("discard 3D") < costs.index("discard JC")  # JC is the risk


def _discard_order(state: HandState) -> list[str]:
    from burraco.bots.advanced import discard_costs

    ctx = context_of(state, 0)
    scored = discard_costs(state, 0, legal_actions(state), ctx)
    return [str(a) for a, _ in sorted(scored, key=lambda p: p[1])]


def test_it_keeps_its_wilds_and_throws_the_useless_card() -> None:
    state = position(hands=["JK 2C KS 4H 5H 6H 9D", "3C 3D 3S"])
    action = choose(state)
    assert isinstance(action, Discard | type(parse_action("meld 4H 5H 6H")))
    while not isinstance(action, Discard):
        state.apply_in_place(action)
        action = choose(state)
    assert str(action) in ("discard KS", "discard 9D")


def test_it_takes_a_pile_that_builds_melds_and_leaves_one_of_dead_cards() -> None:
    good = position(hands=["7H 8H KS KD 4C 9D QS", "3C 3D 3S"], pile="5D 9H KC",
                    phase="draw")
    assert choose(good) == PICKUP
    bad = position(hands=["7H 8H KS KD 4C 9D QS", "3C 3D 3S"], pile="3D 6S 10C JH 4S",
                   phase="draw")
    assert choose(bad) == DRAW
    ctx = context_of(good, 0)
    assert pickup_gain(good, 0, ctx) > pickup_gain(bad, 0, ctx)


def test_natural_melds_go_down_before_wild_ones() -> None:
    state = position(hands=["5H 6H 7H 9S 9D JK 4C QD", "3C 3D 3S"])
    action = choose(state)
    assert str(action) == "meld 5H 6H 7H"
