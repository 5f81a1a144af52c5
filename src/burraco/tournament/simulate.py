"""A whole tournament played by bots: every match in a worker process, rounds in order.

Rounds run one after the other (a Danish round needs the standings), the tables
of a round in parallel (``jobs`` processes, as the arena does).  Seats 0 and 2
are the NS pair, 1 and 3 the EW pair.  Everything is seeded, so a run replays
exactly whatever the number of processes: the deals from ``(seed, round, table,
smazzata)``, or in a duplicate event from ``(seed, round, smazzata)`` only, so
every table of a round plays the same cards.
"""

from __future__ import annotations

import multiprocessing
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from burraco.arena.duplicate import _mix as mix  # the arena's stable seed mixer
from burraco.arena.runner import play_hand
from burraco.bots.base import make_bot
from burraco.engine.deal import Deal, deal_seeded
from burraco.engine.result import hand_result
from burraco.engine.rules import Rules
from burraco.engine.state import HandState
from burraco.tournament.model import Settings, Tournament
from burraco.tournament.standings import standings

PLAYERS = 4
SHARED_DEALS = -1
"""The table number mixed into the deal seeds of a duplicate round: the same at every table."""


@dataclass(frozen=True, slots=True)
class TableJob:
    round: int
    table: int
    ns_bot: str
    ew_bot: str
    hands: int
    rules: str
    seed: int
    duplicate: bool


@dataclass(frozen=True, slots=True)
class TableOutcome:
    round: int
    table: int
    hands: tuple[tuple[int, int], ...]
    seconds: float


def deal_for(job: TableJob, k: int, rules: Rules) -> Deal:
    """Smazzata ``k`` of a match: the same at every table of a duplicate round."""
    deal_table = SHARED_DEALS if job.duplicate else job.table
    dealer = (PLAYERS - 1 + k) % PLAYERS
    return deal_seeded(mix((job.seed, job.round, deal_table, k)), players=PLAYERS,
                       dealer=dealer, rules=rules)


def play_table(job: TableJob) -> TableOutcome:
    """Play one match of ``job.hands`` smazzate between two bot pairs (in this process)."""
    rules = Rules.preset(job.rules).for_players(PLAYERS)
    start = time.perf_counter()
    totals: list[tuple[int, int]] = []
    for k in range(job.hands):
        deal = deal_for(job, k, rules)
        bots = [make_bot(job.ns_bot if seat % 2 == 0 else job.ew_bot,
                         seed=mix((job.seed, job.round, job.table, k, seat)), rules=rules)
                for seat in range(PLAYERS)]
        state = play_hand(HandState.start(deal, rules), bots)
        ns, ew = hand_result(state).totals[:2]
        totals.append((ns, ew))
    return TableOutcome(job.round, job.table, tuple(totals), time.perf_counter() - start)


def _pool_map(jobs: int) -> tuple[Callable[[list[TableJob]], Iterator[TableOutcome]],
                                  Callable[[], None]]:
    if jobs <= 1:
        return (lambda specs: (play_table(s) for s in specs)), (lambda: None)
    method = "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
    pool = multiprocessing.get_context(method).Pool(jobs)

    def run(specs: list[TableJob]) -> Iterator[TableOutcome]:
        return pool.imap_unordered(play_table, specs, chunksize=1)

    def close() -> None:
        pool.close()
        pool.join()

    return run, close


def bot_pairs(count: int, levels: Sequence[str]) -> list[tuple[str, str]]:
    """(name, level) of each pair: the levels are dealt out in turn."""
    return [(f"Bots {n} ({levels[(n - 1) % len(levels)]})", levels[(n - 1) % len(levels)])
            for n in range(1, count + 1)]


def simulate(settings: Settings, *, pairs: int, bots: Sequence[str], rules: str = "fibur",
             jobs: int = 1, progress: Callable[[], None] | None = None,
             on_round: Callable[[Tournament], None] | None = None) -> Tournament:
    """Register ``pairs`` bot pairs and play every round of the schedule."""
    t = Tournament(settings)
    levels: dict[int, str] = {}
    for name, level in bot_pairs(pairs, bots):
        t, pair = t.register(name)
        levels[pair.number] = level
    run, close = _pool_map(jobs)
    try:
        while not t.finished:
            t = t.start_round()
            current = t.current
            assert current is not None
            specs = [TableJob(current.number, table.number, levels[table.ns], levels[table.ew],
                              settings.hands, rules, settings.seed, settings.duplicate)
                     for table in current.tables]
            for outcome in run(specs):
                ns = sum(h[0] for h in outcome.hands)
                ew = sum(h[1] for h in outcome.hands)
                t = t.record(outcome.round, outcome.table, ns, ew, hands=outcome.hands,
                             source="bot")
                if progress is not None:
                    progress()
            if on_round is not None:
                on_round(t)
    finally:
        close()
    return t


def matches_total(settings: Settings, pairs: int) -> int:
    """Matches the event will play (for the progress bar): byes are not matches."""
    return settings.schedule.total_rounds(pairs) * (pairs // 2)


def summary_json(t: Tournament) -> dict[str, Any]:
    """``{"standings": [...], "matches": [...]}`` as ``simulate --json`` writes it."""
    rows = []
    for s in standings(t):
        row: dict[str, Any] = {"rank": s.rank, "pair": s.pair, "name": s.name, "vp": s.vp,
                               "mp_diff": s.mp_diff}
        if s.dup is not None:
            row["dup"] = round(float(s.dup), 1)
        rows.append(row)
    matches = [{"round": r.round, "table": r.table, "ns": r.ns, "ew": r.ew,
                "mp": list(r.mp), "vp": list(r.vp)}
               for r in sorted(t.results, key=lambda r: (r.round, r.table))]
    byes = [{"round": played.number, "pair": pair, "vp": t.settings.bye_vp,
             "mp_diff": t.settings.bye_mp} for played in t.rounds for pair in played.byes]
    return {"name": t.settings.name, "schedule": str(t.settings.schedule),
            "hands": t.settings.hands, "duplicate": t.settings.duplicate,
            "standings": rows, "matches": matches, "byes": byes}
