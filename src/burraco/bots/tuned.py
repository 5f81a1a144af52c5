"""Named sets of the judgement's numbers, found by ``scripts/tune_weights.py`` (CMA-ES).

``make_bot("expert:numbers=tuned")`` (or ``advanced:numbers=tuned``) plays with a set;
options written beside it still win (``advanced:numbers=tuned,danger_scale=1``).  A set
holds numbers per player count, since what pays with two players does not with four (the
two-player numbers lost 55 match points a hand to the club player's own at four); at a
count the set has no numbers for, the bot plays with the club player's own.

``tuned``, 2 players: 15 generations of 10 candidates, each on 150 fresh duplicate matches of
one deal against today's ``advanced``, rules fibur (``scripts/tune_weights.py --players 2
--matches 150 --generations 15 --popsize 10 --jobs 2 --seed 1 --validate 400``; the log is
``docs/tuning/tune-2p.json``).  On 400 duplicate matches no generation saw it gained +177
match points a hand on ``advanced`` (95 % CI +137 to +218).  The same search at 4 players
(``--players 4 --seed 2``, ``docs/tuning/tune-4p.json``) found +17 (CI -4 to +38): not a
measured gain, so at 4 players (and 3, 5, 6) the set keeps the club player's own numbers.

``handset``: the club player's own hand-set numbers at every player count (no entries), what
``expert-2026`` plays with; ``expert`` plays with ``tuned``.
"""

from __future__ import annotations

from burraco.bots.advanced_policy import Params, Policy

NUMBER_SETS: dict[str, dict[int, dict[str, float]]] = {
    "handset": {},
    "tuned": {
        2: {
            "clean_hope": 167.956,
            "dirty_hope": 155.0296,
            "wild_value": 56.2367,
            "meldable_extra": 20.9838,
            "stuck_floor": 0.1844,
            "race_open": 1.3433,
            "race_open_urgency": 6.9946,
            "race_pozzetto": 0.0,
            "race_pozzetto_urgency": 14.1845,
            "lone_use": 0.3431,
            "pair_use": 0.5388,
            "near_use": 0.6139,
            "pickup_margin": 4.3192,
            "ready_bonus": 10.8226,
            "danger_scale": 1.755,
            "late_urgency": 0.5466,
        },
    },
}


def check_numbers(name: str) -> None:
    """Refuse an unknown set's name when the bot is made, not at its first move."""
    if name not in NUMBER_SETS:
        raise ValueError(f"unknown numbers {name!r} ({', '.join(NUMBER_SETS)})")


class NumberedPolicy:
    """The policy a bot plays with: its numbers, from a named set for the table's player count.

    ``overrides`` (the bot's other number options) win over the set.  The policy is made
    again only when the player count changes, so a found way out is remembered as before.
    """

    __slots__ = ("_players", "name", "overrides", "policy")

    def __init__(self, name: str | None, overrides: dict[str, float]) -> None:
        if name is not None:
            check_numbers(name)
        self.name = name
        self.overrides = overrides
        self.policy = Policy(Params(**overrides))  # type: ignore[arg-type]
        self._players = 0

    def at(self, players: int) -> Policy:
        """The policy for a table of ``players``."""
        if self.name is not None and players != self._players:
            numbers = {**NUMBER_SETS[self.name].get(players, {}), **self.overrides}
            self.policy = Policy(Params(**numbers))  # type: ignore[arg-type]
            self._players = players
        return self.policy
