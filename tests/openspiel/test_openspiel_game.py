"""Burraco inside OpenSpiel (``python_burraco``): OpenSpiel's own checks of a Python game, the
research environment's masks and observations along the same hands, the tensors' shapes,
counterfactual secrecy of every string and tensor, resampling for IS-MCTS, and the example."""

from __future__ import annotations

import pickle
import random
import runpy
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import numpy as np
import pytest

pyspiel = pytest.importorskip(
    "pyspiel", reason="OpenSpiel is the 'openspiel' extra: pip install 'burraco[openspiel]'")

from open_spiel.python.observation import (  # noqa: E402
    INFO_STATE_OBS_TYPE,
    make_observation,
)

from burraco.engine.actions import Attach, Discard, NewMeld  # noqa: E402
from burraco.engine.cards import CARD_FACE, FACES  # noqa: E402
from burraco.engine.deal import Deal, deal_from_order  # noqa: E402
from burraco.engine.events import Discarded  # noqa: E402
from burraco.engine.state import HandState  # noqa: E402
from burraco.env.burraco_v0 import raw_env  # noqa: E402
from burraco.env.catalog import kind, size  # noqa: E402
from burraco.env.observation import OBS_SIZE  # noqa: E402
from burraco.openspiel import tensors  # noqa: E402
from burraco.openspiel.game import BurracoObserver  # noqa: E402
from burraco.openspiel.table import Table, deck_layout  # noqa: E402

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "openspiel_ismcts.py"
RECORD_SIZE = sum(int(np.prod(shape)) for _, shape in tensors.RECORD)


def load(players: int, rules: str = "fibur") -> Any:
    return pyspiel.load_game(f"python_burraco(players={players},rules={rules})")


def deal(state: Any, rng: np.random.RandomState) -> None:
    while state.is_chance_node():
        outcomes, probs = zip(*state.chance_outcomes(), strict=True)
        state.apply_action(int(rng.choice(outcomes, p=probs)))


def play_on(state: Any, rng: np.random.RandomState) -> None:
    """One random legal action; the stock rather than a lone discard four times in five (a
    hand played wholly at random often ends early by the stall rule, §8.3)."""
    legal = state.legal_actions()
    if legal == [0, 1] and rng.rand() < 0.8:
        state.apply_action(0)
    else:
        state.apply_action(int(rng.choice(legal)))


def chance_history(deal: Deal, table: Table) -> list[int]:
    """The chance outcomes that deal exactly these faces where ``deal`` has them."""
    layout = deal_from_order(list(range(table.size)), players=deal.players, dealer=deal.dealer,
                             rules=table.rules)
    order = [-1] * table.size
    for positions, cards in zip(
            (*layout.hands, *layout.pozzetti, layout.stock, layout.pile),
            (*deal.hands, *deal.pozzetti, deal.stock, deal.pile), strict=True):
        for position, card in zip(positions, cards, strict=True):
            order[position] = CARD_FACE[card]
    return [deal.dealer, *order]


@pytest.mark.parametrize("players", [2, 4])
def test_openspiel_s_random_simulation_test_passes(players: int) -> None:
    """OpenSpiel's checks of any game: sorted legal actions and masks, chance outcomes,
    clones, serialization round trips, tensor sizes, returns within the utility bounds."""
    pyspiel.random_sim_test(load(players), num_sims=2, serialize=True, verbose=False)


def test_the_game_s_type_parameters_and_chance_nodes() -> None:
    game = load(4)
    kind = game.get_type()
    assert kind.short_name == "python_burraco"
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert kind.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert kind.utility == pyspiel.GameType.Utility.ZERO_SUM
    assert game.num_players() == 4 and game.num_distinct_actions() == size() == 16131
    assert game.max_chance_outcomes() == FACES and game.max_chance_nodes_in_history() == 109
    assert str(pyspiel.load_game("python_burraco")) == "python_burraco(players=2,rules=fibur)"
    for bad in ("python_burraco(players=3)", "python_burraco(rules=nope)"):
        with pytest.raises(ValueError):
            pyspiel.load_game(bad)
    state = game.new_initial_state()
    assert state.chance_outcomes() == [(seat, 0.25) for seat in range(4)]  # the dealer
    state.apply_action(1)
    chances = 1
    while state.is_chance_node():
        outcomes = dict(state.chance_outcomes())
        if chances == 1:  # two packs: two copies of a face, four jokers, of 108
            assert outcomes[0] == pytest.approx(2 / 108) and outcomes[52] == pytest.approx(4 / 108)
        assert sum(outcomes.values()) == pytest.approx(1.0)
        state.apply_action(min(outcomes))
        chances += 1
    assert chances == 109 and state.current_player() == 2  # the dealer's left plays first
    assert state.legal_actions() == [0, 1] and state.action_to_string(2, 1) == "pickup"


@pytest.mark.parametrize("players", [2, 4])
def test_legal_actions_observations_and_returns_are_the_environment_s(players: int) -> None:
    """The same hand dealt in both, played by the same random ids: at every decision the legal
    actions are the environment's mask and every seat's observation tensor is its observation;
    the returns are its rewards."""
    game = load(players)
    steps = 0
    for seed in range(3):
        env = raw_env(players)
        env.reset(seed=seed)
        state = game.new_initial_state()
        for outcome in chance_history(env.game_state.deal, state.table):
            state.apply_action(outcome)
        assert sorted(CARD_FACE[c] for c in state.table.hand.stock) == \
            sorted(CARD_FACE[c] for c in env.game_state.stock)
        rng = random.Random(seed)
        while not state.is_terminal():
            agent = env.agent_selection
            seat = int(agent.split("_")[1])
            assert state.current_player() == seat
            mask = env.observe(agent)["action_mask"]
            assert state.legal_actions() == np.flatnonzero(mask).tolist()
            for other in range(players):
                np.testing.assert_array_equal(
                    state.observation_tensor(other),
                    env.observe(f"player_{other}")["observation"])
            action = rng.choice(state.legal_actions())
            state.apply_action(action)
            env.step(action)
            steps += 1
        assert all(env.terminations.values())
        assert state.returns() == pytest.approx([env.rewards[a] for a in env.possible_agents])
        assert sum(state.returns()) == pytest.approx(0.0)
    assert steps > 150


def test_tensors_have_the_declared_shapes_and_record_the_hand() -> None:
    game = load(2)
    assert game.observation_tensor_shape() == [OBS_SIZE]
    assert game.information_state_tensor_shape() == [OBS_SIZE + RECORD_SIZE]
    info = make_observation(game, INFO_STATE_OBS_TYPE)
    assert [name for name, _ in tensors.RECORD] == list(info.dict)[-len(tensors.RECORD):]
    for name, shape in tensors.RECORD:
        assert info.dict[name].shape == shape
    rng = np.random.RandomState(3)
    state = game.new_initial_state()
    deal(state, rng)
    while not state.is_terminal() and state.table.moves < 150:
        play_on(state, rng)
    table = state.table
    for seat in range(2):
        tensor = np.asarray(state.information_state_tensor(seat))
        assert tensor.shape == (OBS_SIZE + RECORD_SIZE,)
        np.testing.assert_array_equal(tensor[:OBS_SIZE], state.observation_tensor(seat))
        info.set_from(state, seat)
        np.testing.assert_array_equal(info.tensor, tensor)
        discards = [s for s in table.steps if kind(s.action) == "discard"]
        mine = sum(1 for s in discards if s.seat == seat)
        assert info.dict["discarded"][0].sum() == mine
        assert info.dict["discarded"].sum() == len(discards)
        assert info.dict["pickups"][1] == sum(
            1 for s in table.steps if s.action == 1 and s.seat != seat)
        newest = CARD_FACE[next(e.card for e in discards[-1].events
                                if isinstance(e, Discarded))]
        assert info.dict["recent_discards"][0, newest] == 1.0
        assert info.dict["recent_discards"][min(len(discards), tensors.RECORD[-1][1][0]):].sum() \
            == 0
    assert state.information_state_string(0) != state.information_state_string(1)


def test_serialization_round_trips_and_pickles() -> None:
    game = load(4)
    rng = np.random.RandomState(5)
    state = game.new_initial_state()
    checked = 0
    while not state.is_terminal():
        if state.is_chance_node() or state.table.moves % 37 == 0:
            text = pyspiel.serialize_game_and_state(game, state)
            game2, copy = pyspiel.deserialize_game_and_state(text)
            again = pickle.loads(pickle.dumps(state))
            for other in (copy, again, game.deserialize_state(state.serialize())):
                assert str(other) == str(state) and other.history() == state.history()
                assert other.legal_actions() == state.legal_actions()
            if not state.is_chance_node():
                for seat in range(4):
                    assert copy.information_state_string(seat) == \
                        state.information_state_string(seat)
                    assert copy.information_state_tensor(seat) == \
                        state.information_state_tensor(seat)
            assert str(game2) == str(game)
            checked += 1
        if state.is_chance_node():
            deal(state, rng)
        else:
            play_on(state, rng)
    assert checked > 3


def world_pair(players: int, seed: int) -> tuple[Any, Any, int, tuple[int, int]]:
    """Two states dealt alike but for one card: a card of seat 1's hand traded with the
    bottom card of the stock (never drawn: the hand ends with two stock cards left)."""
    game = load(players)
    rng = random.Random(seed)
    table = Table(players)
    faces = [f for f, n in enumerate(table.copies) for _ in range(n)]
    rng.shuffle(faces)
    table.dealer = 0
    layout = deck_layout(table)
    hidden = layout.hands[1][rng.randrange(len(layout.hands[1]))]
    bottom = layout.stock[-1]
    while faces[hidden] == faces[bottom]:
        rng.shuffle(faces)
    other = faces[:]
    other[hidden], other[bottom] = faces[bottom], faces[hidden]
    states = []
    for order in (faces, other):
        state = game.new_initial_state()
        for outcome in (0, *order):
            state.apply_action(outcome)
        states.append(state)
    return states[0], states[1], 1, (faces[hidden], faces[bottom])


def outputs(state: Any, seat: int) -> tuple[Any, ...]:
    return (state.information_state_string(seat), state.information_state_tensor(seat),
            state.observation_string(seat), state.observation_tensor(seat))


def uses(action: Any, faces: tuple[int, int]) -> bool:
    if isinstance(action, Discard):
        return action.face in faces
    return isinstance(action, NewMeld | Attach) and bool(set(action.faces) & set(faces))


@pytest.mark.parametrize("players", [2, 4])
def test_a_seat_cannot_tell_two_deals_apart_that_differ_in_a_card_it_never_saw(
        players: int) -> None:
    """Counterfactual secrecy: along the same actions (the seat holding the card never plays
    either face), every other seat's information state and observation, strings and tensors,
    are equal in both worlds; the holder's own differ (the check can fail)."""
    compared = 0
    for seed in range(3):
        real, fake, holder, faces = world_pair(players, seed)
        assert outputs(real, holder) != outputs(fake, holder)
        rng = random.Random(seed)
        while not real.is_terminal() and not fake.is_terminal():
            for seat in range(players):
                if seat != holder:
                    assert outputs(real, seat) == outputs(fake, seat)
                    compared += 1
            a, b = real.legal_engine_actions(), fake.legal_engine_actions()
            if real.current_player() != holder:
                assert list(a) == list(b)
            both = sorted(i for i in a.keys() & b.keys()
                          if real.current_player() != holder or not uses(a[i], faces))
            if not both:
                break
            action = rng.choice(both)
            real.apply_action(action)
            fake.apply_action(action)
    assert compared > 300


def test_no_output_tells_which_copy_of_a_face_is_where() -> None:
    """A card of seat 1's hand traded with the other copy of its face (unseen by seat 0):
    the chance history cannot even say so (it names faces), and every seat's strings and
    tensors are the same along the same actions."""
    game = load(2)
    rng = np.random.RandomState(11)
    state = game.new_initial_state()
    deal(state, rng)
    for _ in range(40):
        play_on(state, rng)
    table = state.table
    hand = table.hand
    twin = {c: c + 54 if c < 54 else c - 54 for c in range(108) if CARD_FACE[c] < 52}
    card = next(c for c in hand.hands[1] if c in twin and twin[c] in hand.stock)
    swapped = table.clone()
    swapped.state = swap(hand, card, twin[card])
    worlds = [SimpleNamespace(table=table), SimpleNamespace(table=swapped)]
    observers = [BurracoObserver(game, None, None), BurracoObserver(game, INFO_STATE_OBS_TYPE,
                                                                     None)]
    play = random.Random(11)
    for _ in range(60):
        if table.is_terminal():
            break
        for seat in range(2):
            for observer in observers:
                seen = []
                for world in worlds:
                    observer.set_from(world, seat)
                    seen.append((observer.tensor.copy(), observer.string_from(world, seat)))
                np.testing.assert_array_equal(seen[0][0], seen[1][0])
                assert seen[0][1] == seen[1][1]
        action = play.choice(sorted(table.legal_ids()))
        assert sorted(swapped.legal_ids()) == sorted(table.legal_ids())
        table.apply(action)
        swapped.apply(action)


def swap(state: HandState, a: int, b: int) -> HandState:
    """The state with physical cards ``a`` and ``b`` trading places (hidden places only)."""
    other = state.clone()

    def traded(cards: list[int]) -> list[int]:
        return [b if c == a else a if c == b else c for c in cards]
    other.hands = [traded(h) for h in other.hands]
    other.pending = [traded(p) for p in other.pending]
    other.pozzetti = [tuple(traded(list(p))) for p in other.pozzetti]
    other.stock = traded(other.stock)
    return other


@pytest.mark.parametrize("players", [2, 4])
def test_a_resampled_state_is_one_the_seat_cannot_tell_apart(players: int) -> None:
    game = load(players)
    rng = np.random.RandomState(players)
    state = game.new_initial_state()
    deal(state, rng)
    for _ in range(70):
        play_on(state, rng)
    seat = state.current_player()
    chances = game.max_chance_nodes_in_history()
    others_differ = 0
    for k in range(4):
        sample = state.resample_from_infostate(seat, pyspiel.UniformProbabilitySampler(k, 0., 1.))
        assert sample.information_state_string(seat) == state.information_state_string(seat)
        assert sample.information_state_tensor(seat) == state.information_state_tensor(seat)
        assert sample.legal_actions() == state.legal_actions()
        assert sample.history()[chances:] == state.history()[chances:]  # the same actions
        assert sample.history()[0] == state.history()[0]  # the same dealer
        others_differ += sample.observation_tensor((seat + 1) % players) != \
            state.observation_tensor((seat + 1) % players)
    assert others_differ >= 3  # the other hands are drawn again


def test_resampling_reads_nothing_the_seat_did_not_see() -> None:
    """From two worlds the seat cannot tell apart, the same random numbers draw the same
    sample: nothing hidden from the seat enters it."""
    real, fake, holder, faces = world_pair(2, 4)
    rng = random.Random(4)
    while len(real.history()) < 170 or real.current_player() == holder:
        legal = real.legal_engine_actions()
        action = rng.choice(sorted(
            i for i in legal.keys() & fake.legal_engine_actions().keys()
            if real.current_player() != holder or not uses(legal[i], faces)))
        real.apply_action(action)
        fake.apply_action(action)
    seat = real.current_player()
    a = real.resample_from_infostate(seat, lambda: 0.3125)
    b = fake.resample_from_infostate(seat, lambda: 0.3125)
    assert a.history() == b.history()
    assert a.history() not in (real.history(), fake.history())


def test_the_ismcts_example_plays_a_hand_against_the_basic_bot() -> None:
    main = runpy.run_path(str(EXAMPLE))["main"]
    result = main(["--hands", "1", "--simulations", "2", "--players", "4", "--seed", "3"])
    assert len(result["leads"]) == 1 and result["decisions"] > 10
    assert abs(result["leads"][0]) < load(4).max_utility()
