"""Duplicate matches between two bots, in parallel processes, and their statistics.

A *duplicate match* of K hands deals K hands; each deal is played at several
tables on the same cards with the bots in different places, so the luck of
the cards cancels out and what is left is the difference in play:

* 2 and 4 players (two sides): twice, A at side 0 then at side 1;
* 3, 5 and 6 players (three or more units: each seat at 3 and 5, where
  pairs form during the hand, each pair at 6): once with A alone at each unit
  and B at all the others, and once with B alone at each unit and A at all
  the others (2 x units tables per deal).

A bot's match points (MP) at a table are the mean of what its seats score
(``seat_totals``: a side's total, or half a pair's total at 3 and 5 players),
so each table counts once for each bot however many seats it holds.  A match
is won by the bot with more MP over its tables; equal MP count half.

Everything is seeded from ``(seed, match)``: the deals, and each bot's seed
at each table, so a run replays exactly whatever the number of processes.
An outside program (``cmd:...``) is started once per seat and table for the
whole match; decisions it lost to the fallback are counted in ``faults``.
"""

from __future__ import annotations

import multiprocessing
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from burraco.arena.runner import play_hand
from burraco.arena.stats import mean_interval, percentile, wilson
from burraco.bots.base import Bot, make_bot
from burraco.bots.external import DEFAULT_DEADLINE_MS, ExternalBot, external_from_spec, is_external
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
    deadline_ms: int = DEFAULT_DEADLINE_MS
    """Time an outside program has for each decision."""


@dataclass(slots=True)
class MatchResult:
    """One duplicate match, seen from A's side."""

    index: int
    a_mp: float
    b_mp: float
    hands: int
    """Hands played (tables x K)."""
    seconds: float
    latency: dict[str, list[float]] = field(default_factory=dict)
    """Seconds per decision, by bot spec."""
    faults: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    """Decisions an outside program lost to the fallback, by bot spec (empty: none)."""

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


def units_of(players: int) -> list[list[int]]:
    """The seats of each scoring unit at the start of a hand: sides, or seats at 3 and 5."""
    if players in (3, 5):
        return [[seat] for seat in range(players)]
    sides = players // 2 if players > 2 else 2
    return [[seat for seat in range(players) if seat % sides == side] for side in range(sides)]


def tables_of(players: int) -> list[frozenset[int]]:
    """The seats where A plays at each table of a deal (B plays the others)."""
    units = units_of(players)
    every = frozenset(range(players))
    alone = [frozenset(unit) for unit in units]
    if len(units) == 2:
        return alone
    return alone + [every - seats for seats in alone]


def play_match(spec: MatchSpec) -> MatchResult:
    """Play one duplicate match (tables x K hands) in this process."""
    rules = Rules.preset(spec.rules)
    n = spec.players
    a_mp = b_mp = 0.0
    latency: dict[str, list[float]] = {spec.a: [], spec.b: []}
    outside: dict[tuple[int, int], ExternalBot] = {}
    tables = tables_of(n)
    start = time.perf_counter()
    try:
        for k in range(spec.hands):
            dealer = (n - 1 + k) % n
            deal = deal_seeded(_mix((spec.seed, spec.index, k)), players=n, dealer=dealer,
                               rules=rules)
            for table, a_seats in enumerate(tables):
                names = [spec.a if seat in a_seats else spec.b for seat in range(n)]
                bots = [_bot(spec, names[seat], (k, table, seat), rules, outside, table, seat)
                        for seat in range(n)]

                def timed(seat: int, seconds: float, names: list[str] = names) -> None:
                    latency[names[seat]].append(seconds)

                state = play_hand(HandState.start(deal, rules), bots, on_time=timed)
                totals = hand_result(state).seat_totals
                b_seats = [seat for seat in range(n) if seat not in a_seats]
                a_mp += sum(totals[seat] for seat in a_seats) / len(a_seats)
                b_mp += sum(totals[seat] for seat in b_seats) / len(b_seats)
    finally:
        for bot in outside.values():
            bot.close()
    faults: dict[str, list[dict[str, Any]]] = {}
    for (table, seat), bot in sorted(outside.items()):
        for fault in bot.faults:
            faults.setdefault(bot.name, []).append(
                {"table": table, "seat": seat, **fault.to_dict()})
    return MatchResult(spec.index, a_mp, b_mp, len(tables) * spec.hands,
                       time.perf_counter() - start, latency, faults)


def _bot(spec: MatchSpec, name: str, where: tuple[int, int, int], rules: Rules,
         outside: dict[tuple[int, int], ExternalBot], table: int, seat: int) -> Bot:
    """An in-process bot for one hand, or the table's outside program for the match."""
    seed = _mix((spec.seed, spec.index, *where))
    if not is_external(name):
        return make_bot(name, seed=seed, rules=rules)
    key = (table, seat)
    if key not in outside:
        outside[key] = external_from_spec(name, rules=rules, seed=seed,
                                          deadline_ms=spec.deadline_ms)
    return outside[key]


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
    faults: dict[str, int] = {}
    for r in results:
        for bot, lost in r.faults.items():
            faults[bot] = faults.get(bot, 0) + len(lost)
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
        "faults": faults,
        "marked_matches": [r.index for r in results if r.faults],
    }
