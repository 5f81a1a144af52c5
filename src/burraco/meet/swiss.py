"""The Swiss of an open event (:mod:`burraco.meet.events`): each round's pairing, the
scores and the final standings; pure and deterministic.

**Scores.**  A game scores 1 for a win, ½ for a draw, 0 for a loss (game points); in the
``vp3`` format an entrant scores the VP of its games instead (their sum; the 3-hand table of
RULES.md §11.2, §11.5 "Ranking = sum of VP").  A game won by default (the opponent did not
sit down) scores a win: 1 point, or :data:`burraco.meet.events.BYE_VP` in ``vp3``; the absent
entrant scores 0.

**Byes.**  With an odd field the bye goes to the lowest-ranked entrant that has had no bye
yet (while anyone has had none; then the fewest byes), as in Danish pairing
(:func:`burraco.tournament.danish.bye_for`) and as FIDE's basic Swiss rules (C.04.1 d) keep a
second bye from anyone; an entrant that missed a game (did not sit down) gets it only after
every candidate that did not, since a bye is a free win.  A bye scores as the federations
score one, a win (C.04.1 c): 1 point; ``EventSpec.bye_points`` changes it.  In VP,
RULES.md §11.5's club rule gives a bye 14 VP and +355 MP (a local rule): 14 VP is the
``vp3`` default, and the MP, which an online event does not keep, are dropped.

**Pairing.**  The active entrants are ranked by score, then rating (at registration), then
the lot (:func:`burraco.meet.events.lot`).  From the top, the best-ranked entrant still free
meets, within its score group, the one halfway down the group (1 v 5, 2 v 6, ... in a group
of eight: the Dutch system's top half against bottom half), then the others of its group
going down and then up; failing those, the best-ranked of the lower groups (it floats
down).  A pair that met before (at a table, or paired in a game lost by default) is never
made while the field can be paired without one: each choice is taken only if the others can
still all be paired without a rematch, which a perfect matching of them decides
(:mod:`burraco.meet.matching`), so a rematch-free round is found whenever one exists, by
search, without trying pairings one by one.  When none exists (a small field late in the
event), pairs that met once are allowed, the previous round's opponents last, then twice,
and so on; each entrant takes the opponent it met the fewest times first.  The bye is
chosen first, among the lowest-ranked entrants without one, as the first whose absence
leaves such a pairing.

**Tie-breaks** (the final standings): score, then Buchholz (the sum of the scores of the
opponents it was paired with, forfeits included, byes adding nothing), then
Sonneborn–Berger (each opponent's score times the share of that game the entrant won: 1, ½
or 0; in ``vp3`` its VP out of 20), then the rating, then the lot.  RULES.md §11.5 gives the
club's own tie-breaks (VP, MP difference, head-to-head, lot); an online Swiss uses the ones
its players know from Swiss events.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction

from burraco.meet.events import EventError, EventState, begin_round, lot
from burraco.meet.matching import pairing

WIN, DRAW, LOSS = 1.0, 0.5, 0.0
VP_WHOLE = 20
"""The VP of a whole game (both sides' VP add up to it)."""


@dataclass(frozen=True, slots=True)
class Line:
    """One round of one entrant: a game (``opponent`` set) or a bye."""

    round: int
    opponent: str | None
    got: float
    """What it scored."""
    share: Fraction
    """The share of the game it won (1, ½, 0; VP out of 20); a bye's is 0."""
    outcome: str
    """``W``, ``D``, ``L``, or ``B`` for a bye."""
    played: bool
    """False for a bye or a game won or lost by default."""


@dataclass(frozen=True, slots=True)
class RoundPlan:
    """A round's pairing: the pairs in table order (the better-ranked first) and the bye."""

    pairs: tuple[tuple[str, str], ...]
    byes: tuple[str, ...]
    rematches: int
    """Pairs that met before: 0 unless the field could not be paired otherwise."""


@dataclass(frozen=True, slots=True)
class Standing:
    rank: int
    entrant: str
    accounts: tuple[str, ...]
    score: float
    buchholz: float
    sonneborn_berger: float
    rating: float
    lot: int
    games: int
    wins: int
    draws: int
    losses: int
    byes: int
    withdrawn: bool


def lines(state: EventState) -> dict[str, list[Line]]:
    """Every entrant's closed games and byes, round by round."""
    spec = state.spec
    out: dict[str, list[Line]] = {e.id: [] for e in state.entrants}
    for game in state.games:
        result = game.result
        if result is None:
            continue
        for side, entrant in enumerate(game.sides):
            other = game.sides[1 - side]
            if side in result.absent:
                line = Line(game.round, other, 0.0, Fraction(0), "L", False)
            elif result.absent:
                line = Line(game.round, other, spec.win, Fraction(1), "W", False)
            else:
                outcome = "D" if result.winner is None else "W" if result.winner == side else "L"
                if result.vp is not None:
                    got = float(result.vp[side])
                    share = Fraction(result.vp[side], VP_WHOLE)
                else:
                    share = {"W": Fraction(1), "D": Fraction(1, 2), "L": Fraction(0)}[outcome]
                    got = float(share)
                line = Line(game.round, other, got, share, outcome, True)
            out[entrant].append(line)
    for bye in state.byes:
        out[bye.entrant].append(Line(bye.round, None, spec.bye, Fraction(0), "B", False))
    for rows in out.values():
        rows.sort(key=lambda line: line.round)
    return out


def scores(state: EventState) -> dict[str, float]:
    """Every entrant's score."""
    return {entrant: sum(line.got for line in rows) for entrant, rows in lines(state).items()}


def ranking(state: EventState) -> list[str]:
    """The active entrants in pairing order: score, then rating, then the lot."""
    score = scores(state)
    spec = state.spec
    return [e.id for e in sorted(state.active(),
                                 key=lambda e: (-score[e.id], -e.rating, lot(spec, e.id)))]


def _levels(most: int) -> Iterator[tuple[int, bool]]:
    """(meetings allowed, whether last round's opponents are still kept apart), from the
    strictest; the last allows every pair."""
    yield 0, False
    for times in range(1, most + 1):
        yield times, True
        yield times, False


def plan_round(state: EventState) -> RoundPlan:
    """The next round's pairing (see the module's docstring)."""
    if state.spec.kind != "swiss":
        raise EventError("kind", "only a Swiss is paired by rounds")
    if state.phase != "running":
        raise EventError("phase", f"cannot pair: the event is {state.phase}")
    if state.open_games():
        raise EventError("round", f"round {state.round} is not over")
    ranked = ranking(state)
    count = len(ranked)
    if count < 2:
        raise EventError("entrants", "fewer than two entrants are left to pair")
    index = {entrant: i for i, entrant in enumerate(ranked)}
    score_of = scores(state)
    score = [score_of[entrant] for entrant in ranked]
    met: Counter[tuple[int, int]] = Counter()
    last: set[tuple[int, int]] = set()
    for game in state.games:
        a, b = (index.get(side) for side in game.sides)
        if a is None or b is None:
            continue
        key = (min(a, b), max(a, b))
        met[key] += 1
        if game.round == state.round:
            last.add(key)
    byes = Counter(bye.entrant for bye in state.byes)
    sit_out: list[int] = []
    if count % 2:
        fewest = min(byes[entrant] for entrant in ranked)
        candidates = [i for i in reversed(range(count)) if byes[ranked[i]] == fewest]
        present = [i for i in candidates if not state.entrant(ranked[i]).missed]
        sit_out = present + [i for i in candidates if i not in present]
    strict = True

    def choices(p: int, rest: Sequence[int]) -> list[int]:
        group = [q for q in rest if score[q] == score[p]]
        middle = max(0, (len(group) + 1) // 2 - 1)
        order = group[middle:] + group[:middle][::-1] + [q for q in rest if score[q] != score[p]]
        if not strict:
            order.sort(key=lambda q: (met[min(p, q), max(p, q)], (min(p, q), max(p, q)) in last))
        return order

    found = None
    for times, apart in _levels(max(met.values(), default=0)):
        strict = times == 0
        forbidden: list[set[int]] = [set() for _ in range(count)]
        for (a, b), n in met.items():
            if n > times or (apart and (a, b) in last):
                forbidden[a].add(b)
                forbidden[b].add(a)
        found = pairing(count, forbidden, choices, sit_out)
        if found is not None:
            break
    if found is None:  # pragma: no cover - the last level forbids nothing
        raise AssertionError("a field with nothing forbidden is always paired")
    pairs, left = found
    named = tuple((ranked[a], ranked[b]) for a, b in pairs)
    rematches = sum(1 for a, b in pairs if met[min(a, b), max(a, b)])
    return RoundPlan(named, tuple(ranked[u] for u in left), rematches)


def next_round(state: EventState, now: float) -> EventState:
    """The state with the next round paired and begun at ``now``."""
    plan = plan_round(state)
    return begin_round(state, plan.pairs, plan.byes, now)


def standings(state: EventState) -> tuple[Standing, ...]:
    """Every entrant that took part (withdrawn ones included, flagged), best first."""
    rows = lines(state)
    score = {entrant: sum(line.got for line in got) for entrant, got in rows.items()}
    spec = state.spec
    table = []
    for entrant in state.entrants:
        if not entrant.joined:
            continue
        mine = rows[entrant.id]
        opponents = [line for line in mine if line.opponent is not None]
        buchholz = sum(score[line.opponent] for line in opponents if line.opponent)
        berger = sum((Fraction(score[line.opponent]) * line.share
                      for line in opponents if line.opponent), Fraction(0))
        outcomes = Counter(line.outcome for line in mine)
        table.append(Standing(
            0, entrant.id, entrant.accounts, score[entrant.id], float(buchholz), float(berger),
            entrant.rating, lot(spec, entrant.id), len(opponents), outcomes["W"],
            outcomes["D"], outcomes["L"], outcomes["B"], entrant.withdrawn))
    table.sort(key=lambda s: (-s.score, -s.buchholz, -s.sonneborn_berger, -s.rating, s.lot))
    return tuple(replace(row, rank=rank) for rank, row in enumerate(table, 1))
