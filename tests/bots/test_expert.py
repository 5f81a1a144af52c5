"""The expert: determinized search over the advanced policy's candidates (issue §2)."""

from __future__ import annotations

import random

from botplay import position, random_state

from burraco.bots.advanced import Policy
from burraco.bots.expert import ExpertBot, leaf_value, rollout
from burraco.engine.actions import DRAW, PICKUP, Discard, parse_action
from burraco.engine.legal import legal_actions
from burraco.engine.result import hand_result
from burraco.engine.views import view


def test_it_keeps_the_policy_move_unless_another_is_clearly_better() -> None:
    bot = ExpertBot(random.Random(0), margin=5.0, z=1.0)
    options = [parse_action("discard 5H"), parse_action("discard KS"), parse_action("discard 9C")]
    base = [0.0, 10.0, -10.0, 20.0, 5.0, -5.0]
    noisy = [b + d for b, d in zip(base, [40, -30, 35, -40, 30, -35], strict=True)]  # mean 0
    better = [b + 25 + d for b, d in zip(base, [3, -2, 1, -3, 2, -1], strict=True)]
    assert bot._choose(options, [base, noisy, base]) == options[0]
    assert bot._choose(options, [base, noisy, better]) == options[2]
    assert bot._choose(options, [base, [], better]) == options[2]  # a dropped option is ignored


def test_candidates_are_the_pile_choice_and_the_best_few_discards() -> None:
    bot = ExpertBot(random.Random(0))
    draw = position(hands=["7H 8H KS KD 4C 9D QS", "3C 3D 3S"], pile="5D 9H KC",
                    phase="draw")
    options = bot._candidates(draw, 0, legal_actions(draw), PICKUP, None)
    assert options == [PICKUP, DRAW]
    play = position(hands=["7H 8H KS KD 4C 9D QS JC", "3C 3D 3S"])
    legal = legal_actions(play)
    default = Policy().decide(play, 0, legal)
    options = bot._candidates(play, 0, legal, default, None)
    assert len(options) == 3 and options[0] == default
    assert all(isinstance(o, Discard) for o in options)
    meld = parse_action("meld 7H 8H 9H")
    assert bot._candidates(play, 0, legal, meld, None) == []  # melds follow the policy


def test_with_meld_search_a_meld_is_weighed_against_stopping_with_the_policy_discard() -> None:
    play = position(hands=["7H 8H 9H KS KD 4C 9D QS JC JK 5D", "3C 3D 3S"])
    legal = legal_actions(play)
    meld = parse_action("meld 7H 8H 9H")
    assert meld in legal
    options = ExpertBot(random.Random(0), meld_search=1)._candidates(play, 0, legal, meld, None)
    assert len(options) == 2 and options[0] == meld and isinstance(options[1], Discard)
    # a hand on its way out keeps the policy's path: no search
    short = position(hands=["7H 8H 9H 5D", "3C 3D 3S"], melds={0: ["KS KD KC"]})
    out = legal_actions(short)
    path = parse_action("meld 7H 8H 9H")
    assert ExpertBot(random.Random(0), meld_search=1)._candidates(short, 0, out, path, None) == []


def test_the_pile_choice_may_have_more_samples_than_a_discard() -> None:
    draw = position(hands=["7H 8H KS KD 4C 9D QS", "3C 3D 3S"], pile="5D 9H KC",
                    phase="draw")
    seen = view(draw, 0)
    # a margin nothing falls short of: no option is dropped early
    bot = ExpertBot(random.Random(3), iterations=4, pickup_iterations=10, margin=-1e9)
    values = bot._search(seen, draw.rules, 0, [PICKUP, DRAW])
    assert len(values[0]) == 10
    play = position(hands=["7H 8H KS KD 4C 9D QS JC", "3C 3D 3S"])
    discards = [parse_action("discard 4C"), parse_action("discard QS")]
    assert len(bot._search(view(play, 0), play.rules, 0, discards)[0]) == 4


def test_a_rollout_to_the_end_scores_the_real_result() -> None:
    state = random_state(8, 2, 20)
    end = state.clone()
    margin = rollout(end, 0, 0)
    assert end.is_over
    totals = hand_result(end).seat_totals
    assert margin == totals[0] - totals[1]


def test_a_short_rollout_is_judged_by_the_evaluation() -> None:
    state = random_state(9, 4, 10)
    cut = state.clone()
    margin = rollout(cut, 1, 3)
    if not cut.is_over:
        assert margin == leaf_value(cut, 1) - leaf_value(cut, 0)


def test_the_search_drops_options_that_fall_clearly_behind() -> None:
    state = position(hands=["7H 8H 9H KS KD 4C 9D QS JC JK", "3C 3D 3S 4S 5S"],
                     melds={1: ["9S 10S JS"]})
    bot = ExpertBot(random.Random(1), iterations=24)
    seen = view(state, 0)
    options = [parse_action("discard 4C"), parse_action("discard JK"),
               parse_action("discard 8H")]
    values = bot._search(seen, state.rules, 0, options)
    assert len(values[0]) >= 8
    assert values[1] == [] or len(values[1]) == len(values[0])


def test_a_time_budget_still_answers_legally() -> None:
    state = random_state(4, 2, 30)
    bot = ExpertBot(random.Random(2), seconds=0.05)
    legal = legal_actions(state)
    assert bot.act(view(state, state.turn), legal) in legal
