"""Duplicate matches between two bots, in parallel processes, and their statistics.

A *duplicate match* of K hands deals K hands; each deal is played twice on
the same cards with the sides swapped (bot A at side 0 then at side 1), so
the luck of the cards cancels out and what is left is the difference in
play.  A match is won by the bot with more match points (MP, the hands'
scores) over its 2K hands; equal MP count half.

Everything is seeded from ``(seed, match)``: the deals, and each bot's seed
at each table, so a run replays exactly whatever the number of processes.
"""

from __future__ import annotations

import multiprocessing
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from burraco.arena.runner import play_hand
from burraco.arena.stats import mean_interval, percentile, wilson
from burraco.bots.base import make_bot
from burraco.engine.deal import deal_seeded
from burraco.engine.result import hand_result
from burraco.engine.rules import Rules
from burraco.engine.state import HandState


@dataclass(frozen=True, slots=True)
class MatchSpec:
    a: str
    b: str
    players: int
    rules: str
    hands: int
    seed: int
    index: int


@dataclass(slots=True)
class MatchResult:
    """One duplicate match, seen from A's side."""

    index: int
    a_mp: int
    b_mp: int
    hands: int
    """Hands played (2K)."""
    seconds: float
    latency: dict[str, list[float]] = field(default_factory=dict)
    """Seconds per decision, by bot spec."""

    @property
    def score(self) -> float:
        """1 A won, 0.5 equal MP, 0 B won."""
        return 1.0 if self.a_mp > self.b_mp else 0.5 if self.a_mp == self.b_mp else 0.0


def _mix(parts: tuple[int, ...]) -> int:
    """A stable 31-bit seed from integers (``hash`` of ints is stable; of str is not)."""
    value = 0x9E3779B9
    for p in parts:
        value = (value * 1_000_003 + p + 0x7F4A7C15) % (2**61 - 1)
    return value % (2**31)


def play_match(spec: MatchSpec) -> MatchResult:
    """Play one duplicate match (2K hands) in this process."""
    rules = Rules.preset(spec.rules)
    n = spec.players
    a_mp = b_mp = 0
    latency: dict[str, list[float]] = {spec.a: [], spec.b: []}
    start = time.perf_counter()
    for k in range(spec.hands):
        dealer = (n - 1 + k) % n
        deal = deal_seeded(_mix((spec.seed, spec.index, k)), players=n, dealer=dealer, rules=rules)
        for table in (0, 1):
            a_side = table  # table 0: A at side 0 (seats 0, 2); table 1: A at side 1
            names = [spec.a if seat % 2 == a_side else spec.b for seat in range(n)]
            bots = [
                make_bot(names[seat], seed=_mix((spec.seed, spec.index, k, table, seat)),
                         rules=rules)
                for seat in range(n)
            ]

            def timed(seat: int, seconds: float, names: list[str] = names) -> None:
                latency[names[seat]].append(seconds)

            state = play_hand(HandState.start(deal, rules), bots, on_time=timed)
            totals = hand_result(state).totals
            a_mp += totals[a_side]
            b_mp += totals[1 - a_side]
    return MatchResult(spec.index, a_mp, b_mp, 2 * spec.hands, time.perf_counter() - start,
                       latency)


def run_matches(
    specs: list[MatchSpec], *, jobs: int = 1, progress: Callable[[], None] | None = None,
) -> list[MatchResult]:
    """Play the matches (``jobs`` processes); results come back in match order."""
    results: list[MatchResult] = []
    for result in _iterate(specs, jobs):
        results.append(result)
        if progress is not None:
            progress()
    results.sort(key=lambda r: r.index)
    return results


def _iterate(specs: list[MatchSpec], jobs: int) -> Iterator[MatchResult]:
    if jobs <= 1:
        for spec in specs:
            yield play_match(spec)
        return
    context = multiprocessing.get_context("spawn" if _needs_spawn() else "fork")
    with context.Pool(jobs) as pool:
        yield from pool.imap_unordered(play_match, specs, chunksize=1)


def _needs_spawn() -> bool:
    return "fork" not in multiprocessing.get_all_start_methods()


def summarize(a: str, b: str, players: int, results: list[MatchResult],
              wall_seconds: float) -> dict[str, Any]:
    """The figures ``burraco arena`` prints and writes with ``--json`` (A's side)."""
    n = len(results)
    wins = sum(r.score for r in results)
    diffs = [(r.a_mp - r.b_mp) / r.hands for r in results]
    mean, lo, hi = mean_interval(diffs)
    hands = sum(r.hands for r in results)
    latency: dict[str, dict[str, float]] = {}
    for name in dict.fromkeys((a, b)):
        samples = [s for r in results for s in r.latency.get(name, [])]
        latency[name] = {
            "p50": round(1000 * percentile(samples, 0.5), 3),
            "p95": round(1000 * percentile(samples, 0.95), 3),
        }
    win_lo, win_hi = wilson(wins, n)
    return {
        "a": a,
        "b": b,
        "players": players,
        "matches": n,
        "hands": hands,
        "win_rate": round(wins / n, 4) if n else 0.0,
        "win_rate_ci": [round(win_lo, 4), round(win_hi, 4)],
        "wins": wins,
        "mp_diff_per_hand": round(mean, 2),
        "mp_diff_ci": [round(lo, 2), round(hi, 2)],
        "hands_per_s": round(hands / wall_seconds, 3) if wall_seconds > 0 else 0.0,
        "latency_ms": latency,
    }
