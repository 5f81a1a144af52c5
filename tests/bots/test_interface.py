"""The bot interface: views in, one legal action out, seeded.

A bot that peeks is a defect, so these tests check the window itself: what a
bot is handed is a ``View`` from which no hand state can be reached, and
every level, at every supported player count, only ever returns one of the
legal actions it was given.
"""

from __future__ import annotations

import gc
import os
import types
from collections.abc import Sequence

import pytest
from botplay import start

from burraco.arena.runner import play_hand
from burraco.bots.base import LEVEL_NAMES, LEVELS, Bot, make_bot, parse_spec
from burraco.engine.actions import Action
from burraco.engine.rules import Rules
from burraco.engine.state import HandState
from burraco.engine.views import View

PLAYER_COUNTS = (2, 3, 4, 5, 6)
HANDS = int(os.environ.get("BURRACO_BOT_HANDS", "0"))  # set for a longer soak


class Spy:
    """Wraps a bot and checks what it is handed, and what it answers."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.name = bot.name
        self.calls = 0

    def act(self, view: View, legal: Sequence[Action]) -> Action:
        assert type(view) is View
        assert view.seat == view.turn
        assert not _reaches_a_state(view)
        self.calls += 1
        action = self.bot.act(view, legal)
        assert action in legal
        return action


def _reaches_a_state(root: object) -> bool:
    """Is any HandState (or one of its mutable lists) reachable from ``root``'s object graph?"""
    stack = [root]
    seen: set[int] = set()
    while stack:
        obj = stack.pop()
        if id(obj) in seen or isinstance(obj, type | types.ModuleType | types.FunctionType):
            continue
        seen.add(id(obj))
        if isinstance(obj, HandState | list | dict):
            return True  # a view is made of immutable values only
        stack.extend(gc.get_referents(obj))
    return False


def test_a_view_reaches_no_state_object() -> None:
    state = start(1, 4)
    from burraco.engine.legal import legal_actions
    from burraco.engine.views import view

    for _ in range(80):
        if state.is_over:
            break
        state.apply_in_place(legal_actions(state)[-1])
        assert not _reaches_a_state(view(state, 0))
    assert _reaches_a_state(state)  # the check itself can see a state


@pytest.mark.parametrize("level", LEVEL_NAMES)
@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_every_level_only_receives_views_and_answers_legally(level: str, players: int) -> None:
    spec = "expert:iterations=2" if level == "expert" else level
    hands = 1 if level == "expert" else 2
    for seed in range(hands):
        bots = [Spy(make_bot(spec if s % 2 == 0 else "basic", seed=seed + s))
                for s in range(players)]
        play_hand(start(seed, players), bots)
        assert bots[0].calls > 0


@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_no_illegal_action_over_many_hands(players: int) -> None:
    """Hundreds of hands per player count (thousands in all) with the fast levels mixed:
    ``play_hand`` raises on any action not among the legal ones."""
    levels = ("random", "basic", "advanced")
    hands = HANDS or (100 if players in (2, 4) else 40)
    for seed in range(hands):
        bots = [make_bot(levels[(seed + s) % 3], seed=seed * 7 + s) for s in range(players)]
        state = play_hand(start(1000 + seed, players), bots)
        assert state.is_over


@pytest.mark.parametrize("preset", ["champion", "fibur-international", "fibur-revolution"])
def test_legal_under_other_rules(preset: str) -> None:
    rules = Rules.preset(preset)
    for players in (2, 4):
        for seed in range(6):
            bots = [make_bot(("random", "basic", "advanced")[(seed + s) % 3], seed=seed + s,
                             rules=rules) for s in range(players)]
            play_hand(start(seed, players, rules), bots)


@pytest.mark.parametrize("level", LEVEL_NAMES)
@pytest.mark.parametrize("players", [2, 4])
def test_same_seed_same_game(level: str, players: int) -> None:
    spec = "expert:iterations=2" if level == "expert" else level

    def moves(seed: int) -> list[str]:
        bots = [make_bot(spec if s == 0 else "advanced", seed=seed + s) for s in range(players)]
        return [str(a) for a in play_hand(start(7, players), bots).moves()]

    assert moves(1) == moves(1)
    if level in ("random", "expert"):
        assert moves(1) != moves(2)


def test_levels_are_listed_weakest_first_with_labels_in_both_languages() -> None:
    assert LEVEL_NAMES == ("random", "basic", "advanced", "expert")
    for level in LEVELS:
        assert level.label_en and level.label_it and level.description


def test_bot_specs_and_their_errors() -> None:
    assert parse_spec("expert:iterations=8,seconds=0.5,evidence=x") == (
        "expert", {"iterations": 8, "seconds": 0.5, "evidence": "x"})
    assert make_bot("expert:iterations=8", seed=1).name == "expert"
    with pytest.raises(ValueError, match="unknown bot level"):
        make_bot("grandmaster")
    with pytest.raises(ValueError, match="bad options"):
        make_bot("advanced:depth=3")
    with pytest.raises(ValueError, match="key=value"):
        make_bot("expert:fast")
