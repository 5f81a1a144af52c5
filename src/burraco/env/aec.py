"""``raw_env``: the ``burraco_v0`` environment without PettingZoo's checking wrappers.

:mod:`burraco.env.burraco_v0` documents it and makes its checked forms (``env()``:
:class:`~burraco.env.checked.CheckedEnv`, ``gym_env()``:
:class:`~burraco.env.single_agent.SingleAgentEnv`), which are built on it.
"""

from __future__ import annotations

import random
from typing import Any, ClassVar, Literal

import gymnasium
import numpy as np
import numpy.typing as npt
from pettingzoo import AECEnv  # type: ignore[import-untyped]

from burraco.bots.determinize import determinize as _determinize
from burraco.engine.actions import Action
from burraco.engine.deal import deal_seeded
from burraco.engine.match import FreePlayMatch
from burraco.engine.result import HandResult, hand_result
from burraco.engine.rules import Rules
from burraco.engine.state import HandState
from burraco.engine.views import View, view
from burraco.env import catalog, masks
from burraco.env.catalog import describe
from burraco.env.global_state import StateEncoder
from burraco.env.observation import NO_MATCH, Encoder, MatchInfo

ENV_VERSION = 0
Reward = Literal["score", "win"]
Observation = dict[str, npt.NDArray[Any]]


def _rules(rules: str | Rules) -> Rules:
    return Rules.preset(rules) if isinstance(rules, str) else rules


class raw_env(AECEnv):  # type: ignore[misc]  # pettingzoo ships no type information
    """The environment without PettingZoo's checking wrappers (see
    :func:`burraco.env.burraco_v0.env`)."""

    metadata: ClassVar[dict[str, Any]] = {
        "name": "burraco_v0",
        "render_modes": ["human", "ansi"],
        "is_parallelizable": False,
    }

    def __init__(
        self, players: int = 4, rules: str | Rules = "fibur", *, match: bool = False,
        target: int | None = None, reward: Reward = "score", reward_scale: float = 1000.0,
        max_hands: int = 50, max_steps: int = 5000, render_mode: str | None = None,
    ) -> None:
        """``players`` 2 to 6; ``rules`` a preset name or a ``Rules`` value; ``match``:
        hands until a side reaches ``target`` (default the rules'), truncated after
        ``max_hands``; ``max_steps`` truncates a hand that never ends (e.g. no stall rule)."""
        super().__init__()
        if players not in (2, 3, 4, 5, 6):
            raise ValueError(f"burraco_v0 is for 2 to 6 players, not {players!r}")
        if reward not in ("score", "win"):
            raise ValueError(f"reward is 'score' or 'win', not {reward!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode is 'human' or 'ansi', not {render_mode!r}")
        table = _rules(rules).for_players(players)
        if target is not None:  # 3 and 5 players play to their own targets (§13.2, §13.3)
            key = {3: "three_player_target", 5: "five_player_target"}.get(players, "target")
            table = table.with_options(**{key: target})
        if table.packs not in (2, 3):
            raise ValueError(f"the catalog of burraco_v0 is for two or three packs, not "
                             f"{table.packs}")
        self.packs = table.packs
        self.rules = table
        self.players = players
        self.match = match
        self.reward_kind: Reward = reward
        self.reward_scale = float(reward_scale)
        self.max_hands = max_hands
        self.max_steps = max_steps
        self.render_mode = render_mode
        self.possible_agents = [f"player_{seat}" for seat in range(players)]
        self.agents = self.possible_agents[:]
        self.agent_selection: str = self.possible_agents[0]
        self._seat = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        n = catalog.size(table.packs)
        self.encoder = Encoder(table, players)
        self.layout = lay = self.encoder.layout
        self.observation_spaces = {
            agent: gymnasium.spaces.Dict({
                "observation": gymnasium.spaces.Box(lay.low, lay.high, (lay.size,), np.float32),
                "action_mask": gymnasium.spaces.Box(0, 1, (n,), np.int8),
            })
            for agent in self.possible_agents
        }
        self.action_spaces = {
            agent: gymnasium.spaces.Discrete(n) for agent in self.possible_agents}
        self.state_encoder = StateEncoder(self.encoder)
        whole = self.state_encoder.layout
        self.state_space = gymnasium.spaces.Box(whole.low, whole.high, (whole.size,), np.float32)
        """The space of :meth:`state`: the FULL state, for centralised critics only."""
        self._rng = random.Random()
        self._state: HandState | None = None
        self._match: FreePlayMatch | None = None
        self._legal: dict[int, Action] | None = None
        self._mask: npt.NDArray[np.int8] | None = None
        self._mask_buffer = np.zeros(n, dtype=np.int8)
        self._mask_ids = np.zeros(0, dtype=np.intp)
        self._zero_mask = np.zeros(n, dtype=np.int8)
        self._zero_mask.flags.writeable = False
        self._hand_steps = 0
        self._rewarded = False
        self.deal_seed = 0
        self.last_result: HandResult | None = None

    # --- PettingZoo API ------------------------------------------------------------------------

    def observation_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._rng = random.Random(seed)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._rewarded = False
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        first_dealer = self._rng.randrange(self.players)
        self._match = (
            FreePlayMatch(players=self.players, rules=self.rules, first_dealer=first_dealer)
            if self.match else None)
        self.last_result = None
        self._deal(first_dealer)

    def observe(self, agent: str) -> Observation:
        seat = self._seat[agent]
        return {
            "observation": self.encoder.encode_state(
                self.game_state, seat, self._match_info(seat)),
            "action_mask": self._mask_for(agent),
        }

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} is on turn: None is only for finished agents")
        chosen = self.legal_actions().get(int(action))
        if chosen is None:
            raise ValueError(
                f"action {int(action)} ({describe(int(action), self.packs)}) is not legal for "
                f"{agent}")
        self._cumulative_rewards[agent] = 0.0
        if self._rewarded:  # rewards come only when a hand ends: skip the zero passes between
            self._clear_rewards()
            self._rewarded = False
        state = self.game_state
        state.apply_in_place(chosen)
        self._legal = None
        self._mask = None
        self._hand_steps += 1
        if state.is_over:
            self._end_hand(state)
        elif self._hand_steps >= self.max_steps:
            self.truncations = dict.fromkeys(self.agents, True)
        else:
            self.agent_selection = self.possible_agents[state.turn]
        if self._rewarded:
            self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def state(self) -> npt.NDArray[np.float32]:
        """**The FULL state: every hidden card. For centralised critics in training only.**

        Every hand, the pending and untaken pozzetti, the stock in order, the pile,
        and the public table (:mod:`burraco.env.global_state` gives the layout,
        ``state_encoder.layout.slices`` the slices).  It breaks the table's secrecy on
        purpose, for a value function trained with the whole state (centralised
        critic, decentralised actors): **never give it, or anything computed from it,
        to a policy that acts** — a policy acts on ``observe(agent)``.
        """
        return self.state_encoder.encode(self.game_state, self._match_info(0))

    def render(self) -> str | None:
        """A text picture of the table as a spectator sees it (``ansi``: returned)."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode")
            return None
        v = view(self.game_state, None)
        lines = [f"burraco_v0 {self.players}p {self.rules.name}: seat {v.turn} to play "
                 f"({v.phase}), stock {v.stock_count}, pile {len(v.pile)}"]
        for side, melds in enumerate(v.melds):
            lines.append(f"  side {side}: " + (" / ".join(str(m) for m in melds) or "-"))
        lines.append("  hands: " + " ".join(str(k) for k in v.hand_counts))
        text = "\n".join(lines)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass

    # --- the engine, for search and analysis --------------------------------------------------

    @property
    def game_state(self) -> HandState:
        """The true hand state (every card): for oracles and debugging, not for agents."""
        if self._state is None:
            raise RuntimeError("call reset() first")
        return self._state

    def view(self, agent: str) -> View:
        """The raw engine view of ``agent``'s seat (what the observation is built from)."""
        return view(self.game_state, self._seat[agent])

    def legal_actions(self) -> dict[int, Action]:
        """The legal actions of the agent on turn, by catalog id, in the engine's order."""
        if self._legal is None:
            state = self.game_state
            self._legal = {} if state.is_over else masks.legal_ids(state)
        return self._legal

    def determinize(self, agent: str, rng: random.Random | None = None,
                    **options: Any) -> HandState:
        """A full state sampled from those ``agent`` cannot tell from the real one.

        The bots' :func:`burraco.bots.determinize.determinize` on the agent's view,
        under this table's rules (``options``: ``evidence``, ``history``).  The
        sample's ``masks.legal_ids`` and ``Encoder.encode(view(sample, seat))``
        give masks and observations for search.
        """
        return _determinize(self.view(agent), rng or self._rng, rules=self.rules, **options)

    def encode(self, state: HandState, seat: int) -> Observation:
        """Observation and mask of ``seat`` in any state of this table (e.g. a sample)."""
        mask = masks.action_mask(state) if state.turn == seat and not state.is_over \
            else self._zero_mask.copy()
        return {"observation": self.encoder.encode_state(state, seat, self._match_info(seat)),
                "action_mask": mask}

    # --- inside ------------------------------------------------------------------------------

    def _mask_for(self, agent: str) -> npt.NDArray[np.int8]:
        if (agent != self.agent_selection or self.terminations[agent]
                or self.truncations[agent] or self.game_state.is_over):
            return self._zero_mask.copy()
        if self._mask is None:  # one preallocated mask: clear the last ids, set the new ones
            mask = self._mask_buffer
            mask[self._mask_ids] = 0
            ids = np.fromiter(self.legal_actions(), dtype=np.intp)
            mask[ids] = 1
            self._mask_ids = ids
            self._mask = mask
        return self._mask.copy()

    def unit_of(self, seat: int) -> int:
        """The scorer a seat belongs to: its fixed side (2, 4, 6 players) or itself (3, 5),
        whose partnerships change from hand to hand and whose scores are kept per seat."""
        n = self.players
        if n in (3, 5):
            return seat
        return seat % (n // 2) if n > 2 else seat

    def _match_info(self, seat: int) -> MatchInfo:
        m = self._match
        if m is None:
            return NO_MATCH
        unit = self.unit_of(seat)
        scores = m.scores
        other = max(score for k, score in enumerate(scores) if k != unit)
        return MatchInfo(scores[unit], other, m.target, len(m.hands))

    def _deal(self, dealer: int) -> None:
        self.deal_seed = self._rng.getrandbits(63)
        individual = self._match is not None and self._match.individual
        deal = deal_seeded(self.deal_seed, players=self.players, dealer=dealer, rules=self.rules,
                           individual=individual)
        self._state = HandState.start(deal, self.rules)
        self._legal = None
        self._mask = None
        self._hand_steps = 0
        self.agent_selection = self.possible_agents[self._state.turn]

    def _end_hand(self, state: HandState) -> None:
        result = hand_result(state)
        self.last_result = result
        info = {"end_reason": result.reason, "side_totals": list(result.totals),
                "seat_totals": list(result.seat_totals), "redeal": result.redeal}
        for agent in self.agents:
            self.infos[agent] = dict(info)
        # the scores of the hand per scorer: seats at 3 and 5 players (halves for a pair), sides
        units = (list(result.seat_totals) if self.players in (3, 5) else list(result.totals))
        m = self._match
        if m is None:
            if not result.redeal:
                self._give(units)
            self.terminations = dict.fromkeys(self.agents, True)
            return
        if not result.redeal:
            m = m.record_hand(units)
            self._match = m
            if self.reward_kind == "score":
                self._give(units)
        if m.finished:
            if self.reward_kind == "win":
                winner = m.winner
                self._give([1 if k == winner else 0 for k in range(len(units))])
            self.terminations = dict.fromkeys(self.agents, True)
        elif len(m.hands) >= self.max_hands:
            self.truncations = dict.fromkeys(self.agents, True)
        else:
            self._deal(m.dealer)

    def _give(self, scores: list[int]) -> None:
        """Every agent's reward from its scorer's result against the others'.

        ``score``: own score minus the mean of the other scorers' (2 and 4 players:
        the side's score minus the opponents'), over ``reward_scale``; ``win``: +1
        to the scorer alone on top, 0 to several level on top, -1 to the rest.
        """
        self._rewarded = True
        k = len(scores)
        best = max(scores)
        alone = scores.count(best) == 1
        for seat, agent in enumerate(self.possible_agents):
            own = scores[self.unit_of(seat)]
            if self.reward_kind == "win":
                self.rewards[agent] = 0.0 if own == best and not alone else \
                    1.0 if own == best else -1.0
            else:
                lead = own - (sum(scores) - own) / (k - 1)
                self.rewards[agent] = lead / self.reward_scale
