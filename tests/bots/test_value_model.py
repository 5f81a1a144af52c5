"""The learned position value: its inputs, its file, its training, the expert's use of it."""

from __future__ import annotations

import json
import math
import random
from pathlib import Path

import pytest

from burraco.arena.value_training import generate, play_positions, train
from burraco.bots.base import make_bot
from burraco.bots.expert import leaf_value, learned_margin, rollout
from burraco.bots.position_features import FEATURES, SIDE_FEATURES, position_features
from burraco.bots.tuned import NumberedPolicy
from burraco.bots.value_model import ValueModel, ValueModelError, load_model, shipped_model
from burraco.engine.actions import Discard
from burraco.engine.deal import deal_seeded
from burraco.engine.legal import legal_actions
from burraco.engine.rules import FIBUR
from burraco.engine.state import HandState


def _midhand(seed: int, players: int = 4, discards: int = 10) -> HandState:
    """A hand played by the club player at every seat for a few turns."""
    rules = FIBUR.for_players(players)
    state = HandState.start(deal_seeded(seed, players=players, rules=rules), rules)
    policy = NumberedPolicy("tuned", {}).at(players)
    done = 0
    while done < discards and not state.is_over:
        action = policy.decide(state, state.turn, legal_actions(state))
        state.apply_in_place(action)
        done += isinstance(action, Discard)
    assert not state.is_over
    return state


def _judge(state: HandState, side: int) -> float:
    return leaf_value(state, side)


def _tiny_model(players: int = 4, hidden: int = 3) -> ValueModel:
    rng = random.Random(5)
    width = len(FEATURES)
    return ValueModel(
        players=players, features=FEATURES, mean=tuple(rng.uniform(-1, 1) for _ in FEATURES),
        scale=tuple(rng.uniform(0.5, 2) for _ in FEATURES),
        hidden=tuple(tuple(rng.uniform(-1, 1) for _ in range(width)) for _ in range(hidden)),
        bias=tuple(rng.uniform(-1, 1) for _ in range(hidden)),
        out=tuple(rng.uniform(-50, 50) for _ in range(hidden)), out_bias=7.0, info={},
    )


def test_a_side_and_its_rival_see_the_same_position_from_either_end() -> None:
    state = _midhand(3)
    width = len(SIDE_FEATURES)
    ours = position_features(state, 0, _judge)
    theirs = position_features(state, 1, _judge)
    assert len(ours) == len(FEATURES)
    assert ours[:width] == theirs[width:2 * width]
    assert ours[width:2 * width] == theirs[:width]
    assert ours[2 * width:] == theirs[2 * width:]
    held = sum(len(state.hands[s]) + len(state.pending[s]) for s in state.seats_of(0))
    assert ours[FEATURES.index("own_held")] == pytest.approx(held / 10)
    assert ours[FEATURES.index("own_judged")] == pytest.approx(leaf_value(state, 0) / 100)


def test_the_network_computes_what_its_weights_say() -> None:
    np = pytest.importorskip("numpy")
    model = _tiny_model()
    x = [random.Random(k).uniform(-3, 3) for k in range(len(FEATURES))]
    z = (np.array(x) - np.array(model.mean)) / np.array(model.scale)
    hidden = np.maximum(np.array(model.hidden) @ z + np.array(model.bias), 0.0)
    assert model.predict(x) == pytest.approx(float(hidden @ np.array(model.out)) + 7.0)


def test_a_model_file_round_trips_and_a_bad_one_is_refused(tmp_path: Path) -> None:
    model = _tiny_model()
    good = tmp_path / "good.json"
    good.write_text(json.dumps(model.to_json()))
    assert load_model(good) == model

    other_inputs = {**model.to_json(), "features": [*FEATURES[:-1], "something_else"]}
    (tmp_path / "other.json").write_text(json.dumps(other_inputs))
    with pytest.raises(ValueModelError, match="other inputs"):
        load_model(tmp_path / "other.json")
    short = {**model.to_json(), "bias": [0.0]}
    (tmp_path / "short.json").write_text(json.dumps(short))
    with pytest.raises(ValueModelError, match="shapes"):
        load_model(tmp_path / "short.json")
    (tmp_path / "garbage.json").write_text("{not json")
    with pytest.raises(ValueModelError, match="cannot read"):
        load_model(tmp_path / "garbage.json")
    with pytest.raises(ValueError, match=r"missing\.json"):
        make_bot(f"expert:value={tmp_path / 'missing.json'}", seed=1)


def test_the_shipped_four_player_model_beats_the_hand_set_judgement_on_held_out_hands() -> None:
    model = shipped_model(4)
    assert model is not None and model.players == 4
    assert model.info["r2_model"] > model.info["r2_judged"]
    assert shipped_model(6) is None  # no model: the expert keeps the club player's judgement


def test_a_rollout_cut_short_ends_on_the_network_and_reads_both_sides() -> None:
    model = _tiny_model()
    state = _midhand(8, discards=4)
    policy = NumberedPolicy("tuned", {}).at(4).params
    own = model.predict(position_features(state, 0, _judge))
    rival = model.predict(position_features(state, 1, _judge))
    assert learned_margin(state, 0, [1], model, policy) == pytest.approx(0.5 * (own - rival))
    assert learned_margin(state, 1, [0], model, policy) == pytest.approx(-0.5 * (own - rival))

    cut = state.clone()
    judged = rollout(cut, 0, 1)
    assert not cut.is_over  # one turn on, the hand goes on: the rollout was cut short
    learned = rollout(state.clone(), 0, 1, None, model)
    assert learned == pytest.approx(learned_margin(cut, 0, [1], model, policy))
    assert judged != learned  # same play, the cut-off position judged another way


def test_self_play_positions_carry_each_sides_final_margin() -> None:
    got = play_positions(11, 4, every=1)
    assert got.rows and len(got.rows) == len(got.margins) == len(got.hands)
    assert all(len(row) == len(FEATURES) for row in got.rows)
    # rows come in pairs (one per side) and the margins of a pair are opposite
    for k in range(0, len(got.margins), 2):
        assert got.margins[k] == -got.margins[k + 1]


def test_training_writes_a_model_the_expert_plays_with(tmp_path: Path) -> None:
    pytest.importorskip("numpy")
    data = generate(players=4, hands=24, seed=100, jobs=1, every=1)
    fit = train(data, players=4, hidden=4, epochs=3, seed=2, test_share=0.25)
    assert fit.rows_train > 0 and fit.rows_test > 0
    assert math.isfinite(fit.r2_model) and math.isfinite(fit.r2_judged)
    path = tmp_path / "value.json"
    path.write_text(json.dumps(fit.model.to_json()))
    assert load_model(path) == fit.model

    bot = make_bot(f"expert:value={path},iterations=4", seed=3)
    state = _midhand(21, discards=6)
    from burraco.engine.views import view

    seat = state.turn
    action = bot.act(view(state, seat), legal_actions(state))
    assert action in legal_actions(state)


def test_the_expert_ends_its_rollouts_on_the_network_where_one_is_shipped() -> None:
    from burraco.bots.expert import ExpertBot

    expert = make_bot("expert", seed=1)
    retired = make_bot("expert-2026", seed=1)
    assert isinstance(expert, ExpertBot) and isinstance(retired, ExpertBot)
    # four players: the shipped network, one round on 128 deals (docs/bots.md: 62.4 % of 400
    # duplicate matches against the expert of 2026, where 64 deals won 58.6 %)
    assert expert.value.at(4) is shipped_model(4)
    assert expert._shape(4, True) == (4, 128)
    # two players (no network shipped): the club player's judgement, two rounds on 32
    assert expert.value.at(2) is None
    assert expert._shape(2, False) == (4, 32)
    # the expert of 2026 keeps its judgement everywhere
    assert retired.value.at(4) is None
    assert retired._shape(4, False) == (8, 32)
    # options written out still win
    custom = make_bot("expert:horizon=-1,iterations=16", seed=1)
    assert isinstance(custom, ExpertBot) and custom._shape(4, True) == (8, 16)
