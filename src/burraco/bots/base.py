"""The bot interface: a view and the legal actions in, one action out.

A bot never receives the hand state, only ``view(state, seat)`` (its seat's
cards, the table, counters and the public history of the hand), so it cannot
peek; the legal actions are information its seat has anyway.  Bots are
seeded, so a game between bots replays exactly, and they run in-process.

Levels, weakest first (:data:`LEVELS`): ``random``, ``basic``, ``advanced``,
``expert``.  ``make_bot("expert:iterations=64", seed=1)`` passes options to a
level's constructor (``key=value`` pairs after a colon, comma-separated).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from burraco.bots.advanced import AdvancedBot
from burraco.bots.basic import BasicBot
from burraco.bots.expert import ExpertBot
from burraco.bots.external import external_from_spec
from burraco.bots.random_bot import RandomBot
from burraco.engine.actions import Action
from burraco.engine.rules import Rules
from burraco.engine.views import View


class Bot(Protocol):
    name: str

    def act(self, view: View, legal: Sequence[Action]) -> Action:
        """One of ``legal``, chosen from what ``view`` shows."""
        ...


@dataclass(frozen=True, slots=True)
class Level:
    """A bot level as players see it (docs/bots.md)."""

    name: str
    label_en: str
    label_it: str
    description: str


LEVELS: tuple[Level, ...] = (
    Level("random", "Random", "Casuale",
          "plays any legal move at random: a baseline, not an opponent"),
    Level("basic", "Beginner", "Principiante",
          "melds what it can, attaches, keeps its wilds, throws its least useful card"),
    Level("advanced", "Club player", "Giocatore di circolo",
          "counts the cards, weighs the pile, races to the pozzetto and to closing, "
          "does not feed the next player"),
    Level("expert", "Expert", "Esperto",
          "thinks ahead: imagines the hidden cards many times and plays each option out"),
)
LEVEL_NAMES = tuple(level.name for level in LEVELS)
RETIRED_LEVELS = ("expert-2026",)
"""Earlier versions of a level, kept so that old measurements can be repeated: ``expert-2026``
is the expert with the club player's hand-set numbers and judgement
(``expert:numbers=handset,value=judged``), the expert until its numbers were tuned and a
learned value ended its rollouts.  Not offered at a table."""


def parse_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """``"expert:iterations=64,seconds=0.5"`` -> ``("expert", {...})`` (numbers converted)."""
    name, _, rest = spec.partition(":")
    options: dict[str, Any] = {}
    for item in filter(None, rest.split(",")):
        key, eq, text = item.partition("=")
        if not eq:
            raise ValueError(f"bot option {item!r}: write key=value")
        value: Any = text
        for cast in (int, float):
            try:
                value = cast(text)
                break
            except ValueError:
                continue
        options[key.strip()] = value
    return name.strip(), options


def make_bot(level: str, *, seed: int | None = None, rules: Rules | None = None) -> Bot:
    """A bot by level name (``random``, ``basic``, ``advanced``, ``expert``, or a retired
    version such as ``expert-2026``), with options.

    ``cmd:COMMAND LINE`` is an outside program speaking the open bot protocol
    (:mod:`burraco.bots.external`); it starts at its first decision.
    """
    if level.startswith("cmd:"):
        return external_from_spec(level, rules=rules, seed=seed)
    name, options = parse_spec(level)
    factory = _FACTORIES.get(name)
    if factory is None:
        known = ", ".join(LEVEL_NAMES + RETIRED_LEVELS)
        raise ValueError(f"unknown bot level {name!r} ({known})")
    try:
        return factory(random.Random(seed), rules, options)
    except TypeError as exc:
        raise ValueError(f"bad options for bot {name!r}: {exc}") from None


def _random(rng: random.Random, rules: Rules | None, options: dict[str, Any]) -> Bot:
    return RandomBot(rng, **options)


def _basic(rng: random.Random, rules: Rules | None, options: dict[str, Any]) -> Bot:
    return BasicBot(rng, **options)


def _advanced(rng: random.Random, rules: Rules | None, options: dict[str, Any]) -> Bot:
    return AdvancedBot(rng, rules=rules, **_numbers(options))


def _expert(rng: random.Random, rules: Rules | None, options: dict[str, Any]) -> Bot:
    return ExpertBot(rng, rules=rules, **_numbers(options))


def _expert_2026(rng: random.Random, rules: Rules | None, options: dict[str, Any]) -> Bot:
    bot = _expert(rng, rules, {"numbers": "handset", "value": "judged", **options})
    bot.name = "expert-2026"
    return bot


def _numbers(options: dict[str, Any]) -> dict[str, Any]:
    """``numbers=NAME``: a named set of the judgement's numbers (burraco.bots.tuned), by name."""
    if "numbers" in options:
        options = {**options, "numbers": str(options["numbers"])}
    return options


_FACTORIES: dict[str, Callable[[random.Random, Rules | None, dict[str, Any]], Bot]] = {
    "random": _random,
    "basic": _basic,
    "advanced": _advanced,
    "expert": _expert,
    "expert-2026": _expert_2026,
}
