"""The open bot protocol (docs/bot-protocol.md): well-behaved, slow, crashing, lying and mute
outside programs play whole hands; every misdeed loses one decision to the fallback and is
recorded, and nothing raises."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from burraco.arena.runner import play_hand
from burraco.bots.base import make_bot
from burraco.bots.external import ExternalBot
from burraco.engine.cards import card_str
from burraco.engine.deal import deal_seeded
from burraco.engine.rules import Rules
from burraco.engine.state import HandState

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "bot_protocol_example.py"
MISBEHAVING = Path(__file__).with_name("outside") / "misbehaving.py"
RULES = Rules.preset("fibur")


def _hand(bot: ExternalBot, *, seed: int = 3, players: int = 2) -> HandState:
    deal = deal_seeded(seed, players=players, rules=RULES)
    others = [make_bot("basic", seed=seat) for seat in range(1, players)]
    try:
        return play_hand(HandState.start(deal, RULES), [bot, *others])
    finally:
        bot.close()


def _outside(mode: str, every: int = 3, **options: object) -> ExternalBot:
    return ExternalBot([sys.executable, str(MISBEHAVING), mode, str(every)], rules=RULES,
                       seed=1, **options)  # type: ignore[arg-type]


def test_the_example_bot_plays_a_whole_hand_without_a_fault() -> None:
    bot = make_bot(f"cmd:{sys.executable} {EXAMPLE}", seed=1, rules=RULES)
    assert isinstance(bot, ExternalBot)
    state = _hand(bot)
    assert state.is_over
    assert bot.engine_name == "example"
    assert bot.decisions > 5 and bot.faults == []
    assert bot._process is None  # closed: quit sent, process gone


def test_the_program_sees_only_its_seats_view(tmp_path: Path) -> None:
    """A recording program: every decide carries the seat's view and nothing of other hands."""
    log = tmp_path / "seen.jsonl"
    script = tmp_path / "recorder.py"
    script.write_text(
        "import json, sys\n"
        f"log = open({str(log)!r}, 'w')\n"
        "for line in sys.stdin:\n"
        "    log.write(line); log.flush()\n"
        "    m = json.loads(line)\n"
        "    if m['type'] == 'hello': print(json.dumps({'type': 'ready', 'name': 'rec'}))\n"
        "    elif m['type'] == 'decide':\n"
        "        print(json.dumps({'type': 'action', 'id': m['id'], 'action': m['legal'][0]}))\n"
        "    sys.stdout.flush()\n")
    bot = ExternalBot([sys.executable, str(script)], rules=RULES, seed=1)
    deal = deal_seeded(8, players=2, rules=RULES)
    _hand(bot, seed=8)
    messages = [json.loads(line) for line in log.read_text().splitlines()]
    hello = messages[0]
    assert hello == {"type": "hello", "protocol": 1, "seat": 0, "players": 2,
                     "rules": json.loads(json.dumps(RULES.for_players(2).to_dict()))}
    decides = [m for m in messages if m["type"] == "decide"]
    assert decides and all(m["view"]["seat"] == 0 for m in decides)
    first = decides[0]["view"]
    assert first["hand"] == [card_str(c) for c in deal.hands[0]]
    assert [card_str(c) for c in first["hand_ids"]] == first["hand"]
    assert first["revealed"] == []
    events = [m["event"] for m in messages if m["type"] == "event"]
    drawn_by_opponent = [e for e in events if e["type"] == "Drew" and e["seat"] == 1]
    assert drawn_by_opponent and all(
        e["card_text"] is None and "card" not in e for e in drawn_by_opponent)
    assert messages[-1] == {"type": "quit"}
    assert bot.faults == []


def test_a_slow_program_loses_the_late_decisions_only() -> None:
    bot = _outside("slow", 4, deadline_ms=300)
    state = _hand(bot)
    assert state.is_over
    kinds = {f.kind for f in bot.faults}
    assert kinds == {"timeout"}, bot.faults
    late = set(range(4, bot.decisions + 1, 4))
    timed_out = {f.decision for f in bot.faults}
    assert late <= timed_out  # every late answer lost its decision
    # and the prompt ones kept theirs: on a loaded machine a prompt answer may rarely miss the
    # deadline too, so a couple of extra timeouts are tolerated, never a pattern of them
    assert len(timed_out - late) <= 2, sorted(timed_out - late)


def test_a_crashing_program_is_replaced_by_the_fallback_for_the_rest_of_the_hand() -> None:
    bot = _outside("crash", 5)
    state = _hand(bot)
    assert state.is_over
    assert bot.faults[0].kind == "crash" and bot.faults[0].decision == 6
    assert "exit code 3" in bot.faults[0].detail and "giving up" in bot.faults[0].detail
    assert {f.kind for f in bot.faults[1:]} == {"dead"}
    assert len(bot.faults) == bot.decisions - 5


def test_a_lying_program_loses_its_illegal_and_garbled_answers() -> None:
    bot = _outside("liar", 3)
    state = _hand(bot)
    assert state.is_over
    by_kind: dict[str, list[int]] = {}
    for fault in bot.faults:
        by_kind.setdefault(fault.kind, []).append(fault.decision)
    assert by_kind["illegal"] == list(range(3, bot.decisions + 1, 3))
    assert by_kind["garbage"] == list(range(4, bot.decisions + 1, 3))
    assert "not among the legal actions" in next(
        f.detail for f in bot.faults if f.kind == "illegal")
    assert "not JSON" in next(f.detail for f in bot.faults if f.kind == "garbage")


def test_a_program_that_never_gets_ready_or_cannot_start_never_stops_the_hand() -> None:
    mute = _outside("mute", start_seconds=0.5)
    assert _hand(mute).is_over
    assert mute.faults[0].kind == "crash" and "no ready answer" in mute.faults[0].detail
    missing = ExternalBot(["/nonexistent/engine"], rules=RULES, seed=1)
    assert _hand(missing).is_over
    assert missing.faults[0].kind == "crash" and "cannot start" in missing.faults[0].detail
    assert all(f.kind == "dead" for f in missing.faults[1:])


@pytest.mark.parametrize("spec", ["cmd:", "cmd:   "])
def test_an_empty_command_is_refused_clearly(spec: str) -> None:
    with pytest.raises(ValueError, match="needs a command line"):
        make_bot(spec)


def test_the_documented_example_is_the_shipped_one() -> None:
    doc = (ROOT / "docs" / "bot-protocol.md").read_text()
    block = doc.split("## An example bot", 1)[1].split("```python\n", 1)[1].split("```", 1)[0]
    shipped = EXAMPLE.read_text()
    assert shipped.endswith(block)
    assert len(block.strip().splitlines()) <= 21
