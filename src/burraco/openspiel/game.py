"""``python_burraco``: the hand as an OpenSpiel Python game (registered when this module loads).

OpenSpiel's Python-game pattern (its ``python/games/kuhn_poker.py``): a ``GameType`` and a
``GameInfo``, a ``pyspiel.Game`` whose ``new_initial_state`` makes a ``pyspiel.State``, and
an observer made by ``make_py_observer`` that OpenSpiel's C++ side calls for every string
and tensor.  The state's only attribute is its :class:`~burraco.openspiel.table.Table`,
which OpenSpiel deep-copies to clone a state and pickles to serialize one.

``pyspiel.load_game("python_burraco(players=4,rules=fibur)")``; docs/openspiel.md.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import numpy.typing as npt
import pyspiel  # type: ignore[import-not-found]  # OpenSpiel ships no type information

from burraco.engine.actions import Action
from burraco.engine.cards import FACES
from burraco.engine.views import View, view
from burraco.env import catalog
from burraco.env.observation import Encoder, layout_for
from burraco.openspiel import tensors
from burraco.openspiel.resample import ResampleError, resampled_history
from burraco.openspiel.table import MAX_MOVES, Table, table_rules, utility_bound

SHORT_NAME = "python_burraco"
DEFAULTS: dict[str, Any] = {"players": 2, "rules": "fibur"}
RESAMPLE_TRIES = 50
"""Deals drawn before giving up on one the seat cannot tell from the real one."""

GAME_TYPE = pyspiel.GameType(
    short_name=SHORT_NAME,
    long_name="Python Burraco",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=4,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=DEFAULTS,
)


class BurracoGame(pyspiel.Game):  # type: ignore[misc]  # pyspiel's classes are untyped
    """One hand of Burraco: ``players`` 2 or 4 (partners opposite), ``rules`` a preset name."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        given = {**DEFAULTS, **(params or {})}
        players, preset = int(given["players"]), str(given["rules"])
        rules = table_rules(players, preset)
        bound = utility_bound(rules)
        info = pyspiel.GameInfo(
            num_distinct_actions=catalog.size(rules.packs),
            max_chance_outcomes=FACES,
            num_players=players,
            min_utility=-bound,
            max_utility=bound,
            utility_sum=0.0,
            max_game_length=MAX_MOVES,
        )
        super().__init__(GAME_TYPE, info, {"players": players, "rules": preset})
        self.players = players
        self.preset = preset
        self.rules = rules
        self.encoder = Encoder(rules, players)

    def new_initial_state(self) -> BurracoState:
        return BurracoState(self)

    def make_py_observer(self, iig_obs_type: Any = None,
                         params: dict[str, Any] | None = None) -> BurracoObserver:
        return BurracoObserver(self, iig_obs_type, params)

    def max_chance_nodes_in_history(self) -> int:
        return 1 + Table(self.players, self.preset).size


class BurracoState(pyspiel.State):  # type: ignore[misc]  # pyspiel's classes are untyped
    """A hand: chance deals, then the seats play catalog ids; ``table`` holds it all."""

    def __init__(self, game: BurracoGame) -> None:
        super().__init__(game)
        self.table = Table(game.players, game.preset)

    # --- OpenSpiel's API -----------------------------------------------------------------

    def current_player(self) -> int:
        player = self.table.current_player()
        if player == -1:
            return int(pyspiel.PlayerId.CHANCE)
        if player == -4:
            return int(pyspiel.PlayerId.TERMINAL)
        return player

    def _legal_actions(self, player: int) -> list[int]:
        return sorted(self.table.legal_ids())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return self.table.chance_outcomes()

    def _apply_action(self, action: int) -> None:
        self.table.apply(action)

    def _action_to_string(self, player: int, action: int) -> str:
        return self.table.action_text(player, action)

    def is_terminal(self) -> bool:
        return self.table.is_terminal()

    def returns(self) -> list[float]:
        return self.table.returns()

    def __str__(self) -> str:
        return str(self.table)

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> BurracoState:
        """A state ``player_id`` cannot tell from this one, drawn from the deals it allows
        (:mod:`burraco.openspiel.resample`); ``probability_sampler()`` gives the randomness."""
        rng = random.Random(int(float(probability_sampler()) * 2**53))
        wanted = tensors.information_state_string(self.table, player_id)
        game = self.get_game()
        for _ in range(RESAMPLE_TRIES):
            history = resampled_history(self.table, player_id, rng)
            sample = game.new_initial_state()
            try:
                for action in history:
                    sample.apply_action(action)
            except (ValueError, RuntimeError):  # an action the new deal does not allow
                continue
            if tensors.information_state_string(sample.table, player_id) == wanted:
                return sample  # type: ignore[no-any-return]
        raise ResampleError(f"no deal found in {RESAMPLE_TRIES} tries that seat {player_id} "
                            "cannot tell from this one")

    # --- for bots of this project (a seat's window, never the state) ---------------------

    def view(self, seat: int) -> View:
        """What ``seat`` may see (:func:`burraco.engine.views.view`)."""
        return view(self.table.hand, seat)

    def legal_engine_actions(self) -> dict[int, Action]:
        """The legal actions of the seat on turn by id, as engine actions."""
        return self.table.legal_ids()


class BurracoObserver:
    """OpenSpiel's observer: the observation (no ``perfect_recall``) or the information state.

    ``tensor`` is one flat float32 array; ``dict`` its named pieces, in order (OpenSpiel
    copies them one after the other), shaped: the environment's observation slices, then for
    the information state the record of :data:`burraco.openspiel.tensors.RECORD`.
    """

    def __init__(self, game: BurracoGame, iig_obs_type: Any, params: dict[str, Any] | None
                 ) -> None:
        if params:
            raise ValueError(f"python_burraco's observer takes no parameters, not {params}")
        recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        if iig_obs_type is not None and (
                not iig_obs_type.public_info
                or iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER):
            raise ValueError("python_burraco observes one seat's public and private "
                             "information only")
        self.game = game
        self.perfect_recall = recall
        layout = layout_for(game.players, game.rules.packs)
        parts = tensors.pieces(layout, recall)
        total = sum(int(np.prod(shape)) for _, shape in parts)
        self.tensor: npt.NDArray[np.float32] = np.zeros(total, np.float32)
        self.dict: dict[str, npt.NDArray[np.float32]] = {}
        start = 0
        for name, shape in parts:
            size = int(np.prod(shape))
            self.dict[name] = self.tensor[start:start + size].reshape(shape)
            start += size
        self._observation = self.tensor[:layout.size]

    def set_from(self, state: BurracoState, player: int) -> None:
        table = state.table
        tensors.write_observation(self._observation, self.game.encoder, table, player)
        if self.perfect_recall:
            tensors.write_record(self.dict, table, player)

    def string_from(self, state: BurracoState, player: int) -> str:
        if self.perfect_recall:
            return tensors.information_state_string(state.table, player)
        return tensors.observation_string(state.table, player)


pyspiel.register_game(GAME_TYPE, BurracoGame)
