"""``burraco analyze``'s words follow its statistics: a difference is "within the noise" only
up to 2 standard errors; beyond them the line says how many, and which move did better."""

from __future__ import annotations

import re

import pytest

from burraco.analysis.cli import format_analysis
from burraco.analysis.review import Analysis, Decision, Settings, analyze
from burraco.arena.runner import play_hand
from burraco.bots.base import make_bot
from burraco.engine.deal import deal_seeded
from burraco.engine.records import record_of
from burraco.engine.rules import Rules
from burraco.engine.state import HandState


def decision(index: int, gain: float, se: float, *, loss: float = 0.0,
             best: str = "discard 3H") -> Decision:
    return Decision(index, "play", "discard AD", best, loss, gain, se, 32)


def lines_of(*decisions: Decision) -> list[str]:
    result = Analysis(seat=1, players=2, rules="fibur", level="expert",
                      decisions=list(decisions))
    return format_analysis(result, Settings()).splitlines()[1:]


def test_each_case_is_said_as_the_statistics_say_it() -> None:
    agree, marked, small, played_better, noise, flat, tiny = lines_of(
        decision(0, 0, 0, best="discard AD"),
        decision(1, 40, 10, loss=40),
        decision(2, 4, 1),
        decision(3, -40, 10),
        decision(4, 16, 15),
        decision(5, 0, 0),
        decision(6, 0.3, 0.3))
    assert agree.endswith("discard AD                   ok")
    assert marked.endswith("?  better discard 3H (-40 MP, ± 10, 4.0 standard errors)")
    assert small.endswith(
        "ok (or discard 3H: +4 ± 1, 4.0 standard errors, but below the 5-point margin)")
    assert played_better.endswith(
        "ok (or discard 3H: -40 ± 10, the move played did better: 4.0 standard errors)")
    assert noise.endswith("ok (or discard 3H: +16 ± 15, within the noise: 1.1 standard errors)")
    assert flat.endswith("ok (or discard 3H: +0 ± 0, within the noise: the same on every deal)")
    assert tiny.endswith("ok (or discard 3H: +0.3 ± 0.3, within the noise: 1.0 standard errors)")


@pytest.mark.parametrize("se", [0.5, 3.0, 12.0])
def test_within_the_noise_exactly_up_to_two_standard_errors(se: float) -> None:
    for tenths in range(-60, 61):
        gain = tenths / 10 * se
        [line] = lines_of(decision(0, gain, se))
        assert ("within the noise" in line) == (abs(gain) <= 2 * se), line
        if abs(gain) > 2 * se:
            assert f"{abs(gain) / se:.1f} standard errors" in line, line
            assert ("did better" in line) == (gain < 0), line


def test_a_real_analysis_says_what_its_numbers_say() -> None:
    rules = Rules.preset("fibur")
    bots = [make_bot("advanced", seed=0), make_bot("basic", seed=1)]
    record = record_of(play_hand(HandState.start(deal_seeded(5, players=2, rules=rules), rules),
                                 bots))
    settings = Settings(level="expert:iterations=4", samples=4, seed=3)
    result = analyze(record, 1, settings)
    lines = format_analysis(result, settings).splitlines()[1:]
    assert len(lines) == len(result.decisions)
    judged = [(d, line) for d, line in zip(result.decisions, lines, strict=True)
              if d.played != d.best]
    assert judged
    for d, line in judged:
        said = re.search(r"(\d+\.\d) standard errors", line)
        if d.se > 0:
            assert said is not None and float(said.group(1)) == pytest.approx(
                abs(d.gain) / d.se, abs=0.05), line
        assert ("within the noise" in line) == (d.loss == 0 and abs(d.gain) <= 2 * d.se), line
