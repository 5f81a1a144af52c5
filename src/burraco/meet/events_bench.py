"""The open events' benchmark: the CPU time of a pairing in a crowded arena and Swiss.

:func:`bench_arena`: ``players`` entrants (ratings around 1500, spread 250) start an arena
of ``minutes`` together; games last 3 to 12 simulated minutes (uniformly), the stronger
side wins with Elo's odds (a draw one time in twenty), and every ``tick`` simulated seconds
whoever is waiting is paired (the server pairs its pools every second).  Each call of
:func:`burraco.meet.arena.pair` is timed in CPU seconds (``time.process_time``): the first
(everyone waiting) on its own, then the median, the 95th percentile and the worst.

:func:`bench_swiss`: ``players`` entrants, ``rounds`` rounds, random results (a no-show one
time in a hundred); each :func:`burraco.meet.swiss.plan_round` is timed the same way.

Run: ``.venv/bin/python -c "from burraco.meet.events_bench import *;
print(describe(bench_arena())); print(describe(bench_swiss()))"``.
"""

from __future__ import annotations

import heapq
import random
import statistics
import time
from typing import Any

from burraco.meet import arena, swiss
from burraco.meet.events import (
    EventSpec,
    EventState,
    add_games,
    begin_round,
    no_show,
    open_event,
    record_result,
    register,
    start,
)

START = 1_000_000.0
"""The simulated start."""


def _field(spec: EventSpec, players: int, rng: random.Random) -> EventState:
    state = open_event(spec)
    for i in range(players):
        state = register(state, [(f"p{i:05}", rng.gauss(1500, 250))], START - players + i)
    return start(state, START)


def _points(rng: random.Random, a: float, b: float) -> tuple[int, int]:
    """Match points of a game between ratings ``a`` and ``b``: a draw 1 time in 20."""
    if rng.random() < 0.05:
        return 300, 300
    first_wins = rng.random() < 1 / (1 + 10 ** ((b - a) / 400))
    high, low = 5 * rng.randrange(101, 300), 5 * rng.randrange(-20, 100)
    return (high, low) if first_wins else (low, high)


def _figures(times: list[float]) -> dict[str, float]:
    ordered = sorted(times)
    return {"p50": statistics.median(ordered),
            "p95": ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))],
            "max": ordered[-1], "mean": statistics.fmean(ordered)}


def bench_arena(players: int = 500, seed: int = 1, minutes: int = 60,
                tick: float = 1.0) -> dict[str, Any]:
    """An arena of ``players`` for ``minutes``; the CPU seconds of each pairing call."""
    rng = random.Random(seed)
    spec = EventSpec(name="bench arena", starts=START, kind="arena", form="2",
                     minutes=minutes, format="hand", seed=seed,
                     max_entrants=max(players, 2))
    state = _field(spec, players, rng)
    rating = {e.id: e.rating for e in state.entrants}
    waiting = {e.id: START for e in state.entrants}
    ends: list[tuple[float, str]] = []  # (when a game ends, its id)
    times: list[float] = []
    sizes: list[int] = []
    now = START
    end = START + 60.0 * minutes
    while now < end or ends:
        while ends and ends[0][0] <= now:
            _, game_id = heapq.heappop(ends)
            game = state.game(game_id)
            a, b = game.sides
            state = record_result(state, game_id, _points(rng, rating[a], rating[b]), now)
            waiting[a] = waiting[b] = now
        if now < end and len(waiting) >= 2:
            began = time.process_time()
            pairs = arena.pair(state, waiting, now)
            times.append(time.process_time() - began)
            sizes.append(len(waiting))
            state = add_games(state, pairs, now)
            for game in state.games[len(state.games) - len(pairs):]:
                del waiting[game.sides[0]], waiting[game.sides[1]]
                heapq.heappush(ends, (now + rng.uniform(180, 720), game.id))
        now += tick
    top = arena.standings(state)[0]
    return {"bench": "arena", "players": players, "minutes": minutes, "tick": tick,
            "calls": len(times), "games": len(state.games), "first": times[0] if times else 0.0,
            "waiting_mean": statistics.fmean(sizes) if sizes else 0.0,
            **_figures(times[1:] or times or [0.0]), "winner_score": top.score}


def bench_swiss(players: int = 500, rounds: int = 7, seed: int = 1) -> dict[str, Any]:
    """A Swiss of ``players`` over ``rounds``; the CPU seconds of each round's pairing."""
    rng = random.Random(seed)
    spec = EventSpec(name="bench swiss", starts=START, kind="swiss", form="2", rounds=rounds,
                     format="505", seed=seed, max_entrants=max(players, 2))
    state = _field(spec, players, rng)
    rating = {e.id: e.rating for e in state.entrants}
    times: list[float] = []
    rematches = 0
    now = START
    for _ in range(rounds):
        began = time.process_time()
        plan = swiss.plan_round(state)
        times.append(time.process_time() - began)
        rematches += plan.rematches
        state = begin_round(state, plan.pairs, plan.byes, now)
        now += 1800
        for game in state.open_games():
            a, b = game.sides
            if rng.random() < 0.01:
                state = no_show(state, game.id, [b], now)
            else:
                state = record_result(state, game.id, _points(rng, rating[a], rating[b]), now)
    return {"bench": "swiss", "players": players, "rounds": rounds, "per_round": times,
            **_figures(times), "rematches": rematches,
            "winner_score": swiss.standings(state)[0].score}


def describe(result: dict[str, Any]) -> str:
    """The figures in a line or two."""
    ms = {k: 1000 * result[k] for k in ("p50", "p95", "max", "mean")}
    if result["bench"] == "arena":
        return (f"arena: {result['players']} players, {result['minutes']} min, "
                f"{result['calls']} pairing calls (every {result['tick']:g} s), "
                f"{result['games']} games, {result['waiting_mean']:.1f} waiting on average; "
                f"first call {1000 * result['first']:.1f} ms CPU; then per call p50 "
                f"{ms['p50']:.2f} ms, p95 {ms['p95']:.2f} ms, max {ms['max']:.2f} ms")
    rounds = ", ".join(f"{1000 * t:.0f}" for t in result["per_round"])
    return (f"swiss: {result['players']} players, {result['rounds']} rounds; pairing per "
            f"round p50 {ms['p50']:.1f} ms, p95 {ms['p95']:.1f} ms, max {ms['max']:.1f} ms "
            f"CPU (rounds: {rounds} ms); rematches {result['rematches']}")
