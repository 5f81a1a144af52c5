"""A whole tournament played by bots: every match in a worker process, rounds in order.

Rounds run one after the other (a Danish round needs the standings), the tables
of a round in parallel (``jobs`` processes, as the arena does).  Seats 0 and 2
are the NS line, 1 and 3 the EW line: one pair, the two players partnered for
the round in an individual event, or in a team event one of the team's lines (a
team match is two table jobs, the home team NS at the first and EW at the
second).  Everything is seeded, so a run replays exactly whatever the number of
processes: the deals from ``(seed, round, table, smazzata)`` (and the room of a
team match), or in a duplicate event from ``(seed, round, smazzata)`` only, so
every table of a round plays the same cards.
"""

from __future__ import annotations

import multiprocessing
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from burraco.arena.duplicate import _mix as mix  # the arena's stable seed mixer
from burraco.arena.ray_runner import ray_map
from burraco.arena.runner import play_hand
from burraco.bots.base import make_bot
from burraco.engine.deal import Deal, deal_seeded
from burraco.engine.result import hand_result
from burraco.engine.rules import Rules
from burraco.engine.state import HandState
from burraco.tournament.model import Settings, Tournament
from burraco.tournament.standings import standings
from burraco.tournament.web_tables import match_score, web_tables

PLAYERS = 4
SHARED_DEALS = -1
"""The table number mixed into the deal seeds of a duplicate round: the same at every table."""


@dataclass(frozen=True, slots=True)
class TableJob:
    round: int
    table: int
    seat_bots: tuple[str, str, str, str]
    """The bot level at each seat (0 and 2 NS, 1 and 3 EW)."""
    hands: int
    rules: str
    seed: int
    duplicate: bool
    room: int = 0
    """Team events: 1 or 2, the match's table; 0 otherwise."""


@dataclass(frozen=True, slots=True)
class TableOutcome:
    round: int
    table: int
    hands: tuple[tuple[int, int], ...]
    seconds: float
    room: int = 0


def _table_key(job: TableJob) -> tuple[int, ...]:
    return (job.table,) if job.room == 0 else (job.table, job.room)


def deal_for(job: TableJob, k: int, rules: Rules) -> Deal:
    """Smazzata ``k`` of a match: the same at every table of a duplicate round."""
    deal_table = (SHARED_DEALS,) if job.duplicate else _table_key(job)
    dealer = (PLAYERS - 1 + k) % PLAYERS
    return deal_seeded(mix((job.seed, job.round, *deal_table, k)), players=PLAYERS,
                       dealer=dealer, rules=rules)


def play_table(job: TableJob) -> TableOutcome:
    """Play one match of ``job.hands`` smazzate between two bot lines (in this process)."""
    rules = Rules.preset(job.rules).for_players(PLAYERS)
    start = time.perf_counter()
    totals: list[tuple[int, int]] = []
    for k in range(job.hands):
        deal = deal_for(job, k, rules)
        bots = [make_bot(job.seat_bots[seat],
                         seed=mix((job.seed, job.round, *_table_key(job), k, seat)), rules=rules)
                for seat in range(PLAYERS)]
        state = play_hand(HandState.start(deal, rules), bots)
        ns, ew = hand_result(state).totals[:2]
        totals.append((ns, ew))
    return TableOutcome(job.round, job.table, tuple(totals), time.perf_counter() - start,
                        job.room)


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
    """(name, level) of each entrant: the levels are dealt out in turn."""
    return [(f"Bots {n} ({levels[(n - 1) % len(levels)]})", levels[(n - 1) % len(levels)])
            for n in range(1, count + 1)]


def _members(settings: Settings, name: str) -> list[str]:
    """A bot team's four players (pairs and individual entrants list none)."""
    if settings.kind != "teams":
        return []
    return [f"{name} #{k}" for k in range(1, 5)]


def table_jobs(t: Tournament, levels: dict[int, str], rules: str) -> list[TableJob]:
    """The table jobs of the current round: one per table, two per team match."""
    s = t.settings
    current = t.current
    assert current is not None
    jobs = []
    for table in current.tables:
        for web in web_tables(s.kind, table):
            seats = (levels[web.seats[0]], levels[web.seats[1]], levels[web.seats[2]],
                     levels[web.seats[3]])
            jobs.append(TableJob(current.number, table.number, seats, s.hands, rules, s.seed,
                                 s.duplicate, room=web.room))
    return jobs


def simulate(settings: Settings, *, pairs: int, bots: Sequence[str], rules: str = "fibur",
             jobs: int = 1, progress: Callable[[], None] | None = None,
             on_round: Callable[[Tournament], None] | None = None,
             ray: str | None = None) -> Tournament:
    """Register ``pairs`` bot entrants (pairs, players or teams) and play every round
    (``jobs`` processes, or on the Ray cluster at ``ray``: ``local`` starts one)."""
    t = Tournament(settings)
    levels: dict[int, str] = {}
    for name, level in bot_pairs(pairs, bots):
        t, pair = t.register(name, _members(settings, name))
        levels[pair.number] = level
    if ray is not None:  # the tables on a Ray cluster (burraco.arena.ray_runner)
        run, close = ray_map(play_table, ray)
    else:
        run, close = _pool_map(jobs)
    try:
        while not t.finished:
            t = t.start_round()
            current = t.current
            assert current is not None
            waiting: dict[int, list[TableOutcome]] = {}
            for outcome in run(table_jobs(t, levels, rules)):
                if progress is not None:
                    progress()
                table = current.table(outcome.table)
                seating = {web.room: web for web in web_tables(settings.kind, table)}
                done = waiting.setdefault(outcome.table, [])
                done.append(outcome)
                if len(done) < len(seating):  # a team match: wait for its other table
                    continue
                ns, ew, hands, rooms = match_score([(seating[o.room], o.hands) for o in done])
                t = t.record(current.number, outcome.table, ns, ew, hands=hands, rooms=rooms,
                             source="bot")
            if on_round is not None:
                on_round(t)
    finally:
        close()
    return t


def matches_total(settings: Settings, pairs: int) -> int:
    """Tables the event will play (for the progress bar): byes are not played."""
    per_round = {"pairs": pairs // 2, "individual": pairs // 4, "teams": 2 * (pairs // 2)}
    return settings.schedule.total_rounds(pairs) * per_round[settings.kind]


def summary_json(t: Tournament) -> dict[str, Any]:
    """``{"standings": [...], "matches": [...]}`` as ``simulate --json`` writes it."""
    rows = []
    for s in standings(t):
        row: dict[str, Any] = {"rank": s.rank, "pair": s.pair, "name": s.name, "vp": s.vp,
                               "mp_diff": s.mp_diff}
        if s.dup is not None:
            row["dup"] = round(float(s.dup), 1)
        rows.append(row)
    matches = []
    for r in sorted(t.results, key=lambda r: (r.round, r.table)):
        match: dict[str, Any] = {"round": r.round, "table": r.table, "ns": r.ns, "ew": r.ew,
                                 "mp": list(r.mp), "vp": list(r.vp)}
        if r.ns_partner is not None:
            match["ns_partner"], match["ew_partner"] = r.ns_partner, r.ew_partner
        if r.rooms:
            match["rooms"] = [list(room) for room in r.rooms]
        matches.append(match)
    byes = [{"round": played.number, "pair": pair, "vp": t.settings.bye_vp,
             "mp_diff": t.settings.bye_mp} for played in t.rounds for pair in played.byes]
    return {"name": t.settings.name, "kind": t.settings.kind,
            "schedule": str(t.settings.schedule),
            "hands": t.settings.hands, "duplicate": t.settings.duplicate,
            "standings": rows, "matches": matches, "byes": byes}
