"""Fair-play screening: a report for moderators over the rated matches of a window.

It reads the history :mod:`burraco.community.results` wrote (``matches``,
``match_players``), the hands' records of the tables and the address hashes of
:mod:`burraco.accounts.screening`, and flags:

* ``pair_frequency``: two accounts that sat at the same rated matches more often than their
  activity explains.  Baseline: opponents and partners drawn at random among the accounts
  playing the same form on the same day, in proportion to how much each played; the count
  is compared with a Poisson tail;
* ``rating_transfer``: an account that loses to one opponent more than its results against
  everyone else and the opponent's results against everyone else explain (their log-odds
  added); binomial tail;
* ``abandon_favour``: an account whose abandonments hand the win to one opponent more often
  than its share of matches against that opponent explains (the abandoned matches drawn
  at random from all of its matches: a hypergeometric tail);
* ``partner_signal``: partners at four whose discards fit each other's hidden cards
  (:mod:`burraco.community.collusion_signal`);
* ``shared_address``: two accounts that asked to play from one address (the keyed hashes).

Each test is corrected for the number of pairs it tried (Bonferroni, ``alpha`` for the
whole family of a kind), so on honest play a kind flags nobody with probability at least
``1 - alpha``.  A flag carries its statistic, the baseline, the threshold it crossed and
the matches behind it.  The report only flags; it never changes a rating or a penalty
(docs/fair-play.md).
"""

from __future__ import annotations

import math
import time
from collections import defaultdict
from dataclasses import dataclass
from datetime import UTC, datetime
from itertools import combinations
from numbers import Real
from typing import Any

from sqlalchemy import Connection, select

from burraco.accounts.models import AccountRow, MatchPlayerRow, MatchRow
from burraco.accounts.screening import shared_tables
from burraco.community.collusion_signal import CHUNK, FourMatch, SignalResult, partner_signal

KINDS = ("partner_signal", "rating_transfer", "abandon_favour", "pair_frequency",
         "shared_address")
LABELS = {
    "partner_signal": "Partner signal",
    "rating_transfer": "Rating transfer",
    "abandon_favour": "Abandonments favouring one opponent",
    "pair_frequency": "Playing together unusually often",
    "shared_address": "Shared address",
}
DAY = 86400.0
ALPHA = 0.01
"""The chance, per kind of flag, of flagging anyone at all when everyone plays fair."""
MIN_MATCHES = 5
MIN_ABANDONS = 2
"""Abandonments in favour of one opponent below which nothing is a pattern."""


@dataclass(frozen=True, slots=True)
class Seat:
    seat: int
    side: int
    player_id: str | None
    """``None``: a bot."""
    result: str | None
    abandoned: bool
    rating_change: float


@dataclass(frozen=True, slots=True)
class Match:
    table_id: str
    form: str
    finished_at: float
    seats: tuple[Seat, ...]

    def people(self) -> list[str]:
        return sorted({s.player_id for s in self.seats if s.player_id is not None})

    def person(self, pid: str) -> Seat:
        return next(s for s in self.seats if s.player_id == pid)

    def opponents(self, pid: str) -> list[str]:
        side = self.person(pid).side
        return sorted({s.player_id for s in self.seats
                       if s.player_id is not None and s.side != side})


# --- tails ----------------------------------------------------------------------------------

def poisson_sf(k: int, mean: float) -> float:
    """P(X >= k) for X ~ Poisson(mean)."""
    if k <= 0:
        return 1.0
    if mean <= 0:
        return 0.0
    term = math.exp(-mean + k * math.log(mean) - math.lgamma(k + 1))
    if k > mean:
        total, x = 0.0, k
        while term > total * 1e-16 and x < k + 100000:
            total += term
            x += 1
            term *= mean / x
        return min(1.0, total)
    below, term, x = 0.0, math.exp(-mean), 0
    while x < k:
        below += term
        x += 1
        term *= mean / x
    return max(0.0, 1.0 - below)


def binom_sf(k: int, n: int, p: float) -> float:
    """P(X >= k) for X ~ Binomial(n, p)."""
    if k <= 0:
        return 1.0
    if k > n or p <= 0:
        return 0.0
    if p >= 1:
        return 1.0
    log_p, log_q = math.log(p), math.log1p(-p)
    total = sum(math.exp(math.lgamma(n + 1) - math.lgamma(x + 1) - math.lgamma(n - x + 1)
                         + x * log_p + (n - x) * log_q) for x in range(k, n + 1))
    return min(1.0, total)


def hypergeom_sf(k: int, total: int, marked: int, drawn: int) -> float:
    """P(X >= k) for X the marked items among ``drawn`` taken without replacement from
    ``total`` items of which ``marked`` are marked."""
    if k <= max(0, drawn - (total - marked)):
        return 1.0
    top = min(marked, drawn)
    if k > top:
        return 0.0

    def log_comb(n: int, r: int) -> float:
        return math.lgamma(n + 1) - math.lgamma(r + 1) - math.lgamma(n - r + 1)

    whole = log_comb(total, drawn)
    return min(1.0, sum(math.exp(log_comb(marked, x) + log_comb(total - marked, drawn - x)
                                 - whole) for x in range(k, top + 1)))


def poisson_threshold(mean: float, level: float) -> int:
    """The smallest count whose Poisson tail is at most ``level``."""
    k = max(1, int(mean))
    while poisson_sf(k, mean) > level:
        k += 1
    return k


def binom_threshold(n: int, p: float, level: float) -> int:
    """The smallest count whose binomial tail is at most ``level`` (``n + 1``: none is)."""
    k = max(1, int(n * p))
    while k <= n and binom_sf(k, n, p) > level:
        k += 1
    return k


def hypergeom_threshold(total: int, marked: int, drawn: int, level: float) -> int:
    """The smallest count whose hypergeometric tail is at most ``level``."""
    k = 1
    while k <= min(marked, drawn) and hypergeom_sf(k, total, marked, drawn) > level:
        k += 1
    return k


def _logit(p: float) -> float:
    return math.log(p / (1 - p))


# --- the report -----------------------------------------------------------------------------

def _check(now: float | None, since_days: float, min_matches: int, alpha: float) -> None:
    def number(value: object) -> bool:
        return isinstance(value, Real) and not isinstance(value, bool) and math.isfinite(
            float(value))

    if now is not None and not number(now):
        raise ValueError(f"now: expected seconds since the epoch, got {now!r}")
    if not number(since_days) or float(since_days) <= 0:
        raise ValueError(f"since_days: expected a positive number of days, got {since_days!r}")
    if isinstance(min_matches, bool) or not isinstance(min_matches, int) or min_matches < 2:
        raise ValueError(f"min_matches: expected a whole number of at least 2, got "
                         f"{min_matches!r}")
    if not number(alpha) or not 0 < float(alpha) < 0.5:
        raise ValueError(f"alpha: expected a probability between 0 and 0.5, got {alpha!r}")


def screening_report(conn: Connection, *, now: float | None = None, since_days: float = 90,
                     min_matches: int = MIN_MATCHES, alpha: float = ALPHA) -> dict[str, Any]:
    """The screening of the rated matches finished in the ``since_days`` before ``now``.

    ``min_matches``: the fewest matches two accounts must share before their frequency,
    their results or their partnership is tested.  ``alpha``: the chance, per kind of flag,
    of flagging anybody when everybody plays fair.  JSON-ready.
    """
    _check(now, since_days, min_matches, alpha)
    now = time.time() if now is None else float(now)
    since = now - float(since_days) * DAY
    matches = load_matches(conn, since, now)
    flags: list[dict[str, Any]] = []
    found, tests = _pair_frequency(matches, min_matches, alpha)
    flags += found
    transfers, transfer_tests = _rating_transfer(matches, min_matches, alpha)
    flags += transfers
    abandons, abandon_tests = _abandon_favour(matches, alpha)
    flags += abandons
    fours = [FourMatch(m.table_id, tuple(s.player_id for s in m.seats))
             for m in matches if m.form == "4" and len(m.seats) == 4]
    signal = partner_signal(conn, fours, min_matches=min_matches, alpha=alpha)
    flags += _signal_flags(signal)
    flags += _shared_address(conn, {m.table_id for m in matches})
    names = usernames(conn, sorted({p for f in flags for p in f["players"]}))
    for flag in flags:
        ids = flag["players"]
        flag["players"] = [{"player_id": p, "username": names.get(p, p)} for p in ids]
        flag["explanation"] = flag["explanation"].format(*[names.get(p, p) for p in ids])
    flags.sort(key=lambda f: (KINDS.index(f["kind"]), f["p_value"] if f["p_value"] is not None
                              else 1.0, [p["player_id"] for p in f["players"]]))
    players = {p for m in matches for p in m.people()}
    met = {pair for m in matches for pair in combinations(m.people(), 2)}
    return {
        "since": since,
        "now": now,
        "settings": {"since_days": float(since_days), "min_matches": min_matches,
                     "alpha": float(alpha)},
        "flags": flags,
        "checked": {
            "matches": len(matches),
            "matches_two": sum(1 for m in matches if m.form == "2"),
            "matches_four": sum(1 for m in matches if m.form == "4"),
            "players": len(players),
            "pairs": len(met),
            "tests": {"pair_frequency": tests, "rating_transfer": transfer_tests,
                      "abandon_favour": abandon_tests, "partner_signal": signal.pairs_tested},
            "hands_replayed": signal.hands,
            "hands_unreadable": signal.unreadable,
            "discards": signal.humans.n + signal.bots.n,
            "bot_discards": signal.bots.n,
        },
        "baselines": {
            "partner_signal": {
                "bot_partners": round(signal.bots.mean, 4) if signal.bot_baseline else None,
                "all_partnerships": round(signal.humans.mean, 4) if signal.humans.n else None,
                "style_variance": round(signal.style, 5),
                "z_threshold": round(signal.z_critical, 3),
            },
        },
    }


def load_matches(conn: Connection, since: float, now: float) -> list[Match]:
    """The rated matches finished in ``[since, now]``, oldest first."""
    window = (MatchRow.rated.is_(True), MatchRow.finished_at >= since,
              MatchRow.finished_at <= now)
    results: dict[tuple[str, str], tuple[str, bool, float]] = {}
    for row in conn.execute(
            select(MatchPlayerRow.table_id, MatchPlayerRow.player_id, MatchPlayerRow.result,
                   MatchPlayerRow.abandoned, MatchPlayerRow.rating_before,
                   MatchPlayerRow.rating_after)
            .join(MatchRow, MatchRow.table_id == MatchPlayerRow.table_id).where(*window)):
        change = (row.rating_after - row.rating_before
                  if row.rating_after is not None and row.rating_before is not None else 0.0)
        results[(row.table_id, row.player_id)] = (row.result, bool(row.abandoned), change)
    out = []
    for row in conn.execute(select(MatchRow.table_id, MatchRow.form, MatchRow.finished_at,
                                   MatchRow.seats).where(*window)
                            .order_by(MatchRow.finished_at, MatchRow.table_id)):
        seats = []
        for spec in row.seats or []:
            pid = spec.get("player_id") if spec.get("bot") is None else None
            result, abandoned, change = results.get((row.table_id, pid), (None, False, 0.0)) \
                if pid else (None, False, 0.0)
            seats.append(Seat(int(spec["seat"]), int(spec["side"]), pid, result, abandoned,
                              change))
        out.append(Match(row.table_id, row.form, float(row.finished_at),
                         tuple(sorted(seats, key=lambda s: s.seat))))
    return out


def usernames(conn: Connection, ids: list[str]) -> dict[str, str]:
    out: dict[str, str] = {}
    for start in range(0, len(ids), CHUNK):
        out.update((r.player_id, r.username) for r in conn.execute(
            select(AccountRow.player_id, AccountRow.username).where(
                AccountRow.player_id.in_(ids[start:start + CHUNK]))))
    return out


def _flag(kind: str, players: list[str], statistic: float, baseline: float,
          threshold: float, p_value: float | None, explanation: str, tables: list[str],
          **details: float | int | None) -> dict[str, Any]:
    """A flag; ``explanation`` names the players as ``{0}``, ``{1}`` (filled in later)."""
    return {"kind": kind, "players": players, "statistic": round(float(statistic), 4),
            "baseline": round(float(baseline), 4), "threshold": round(float(threshold), 4),
            "p_value": p_value, "explanation": explanation, "matches": sorted(tables),
            "details": details}


# --- pairs that meet too often ----------------------------------------------------------------

def _pair_frequency(matches: list[Match], min_matches: int,
                    alpha: float) -> tuple[list[dict[str, Any]], int]:
    together: dict[tuple[str, str], list[str]] = defaultdict(list)
    seats: dict[tuple[str, int], int] = defaultdict(int)
    # per stratum (form, day): each player's matches and other people met, all people seated
    played: dict[tuple[str, int], dict[str, list[int]]] = defaultdict(dict)
    for match in matches:
        people = match.people()
        stratum = (match.form, int(match.finished_at // DAY))
        seats[stratum] += len(people)
        for pid in people:
            counts = played[stratum].setdefault(pid, [0, 0])
            counts[0] += 1
            counts[1] += len(people) - 1
        for pair in combinations(people, 2):
            together[pair].append(match.table_id)
    players = {p for s in played.values() for p in s}
    tests = len(players) * (len(players) - 1) // 2
    level = alpha / max(1, tests)
    flags = []
    for (a, b), tables in sorted(together.items()):
        if len(tables) < min_matches:
            continue
        expected = 0.0
        for stratum, active in played.items():
            if a in active and b in active:
                (na, oa), (nb, ob), total = active[a], active[b], seats[stratum]
                expected += 0.5 * (oa * nb / (total - na) + ob * na / (total - nb))
        p = poisson_sf(len(tables), expected)
        if p > level:
            continue
        threshold = max(min_matches, poisson_threshold(expected, level))
        flags.append(_flag(
            "pair_frequency", [a, b], len(tables), expected, threshold, min(1.0, p * tests),
            f"{{0}} and {{1}} sat at {len(tables)} rated matches together, where random "
            f"pairing among the players of the same days would give {expected:.1f}; "
            f"{threshold} or more is flagged ({tests} pairs tested).", tables))
    return flags, tests


# --- one account losing to another ------------------------------------------------------------

def _rating_transfer(matches: list[Match], min_matches: int,
                     alpha: float) -> tuple[list[dict[str, Any]], int]:
    total: dict[str, int] = defaultdict(int)
    lost: dict[str, int] = defaultdict(int)
    won: dict[str, int] = defaultdict(int)
    met: dict[tuple[str, str], list[Match]] = defaultdict(list)
    for match in matches:
        for pid in match.people():
            result = match.person(pid).result
            total[pid] += 1
            lost[pid] += result == "lost"
            won[pid] += result == "won"
            for other in match.opponents(pid):
                met[(pid, other)].append(match)
    tested = sorted(pair for pair, ms in met.items() if len(ms) >= min_matches)
    level = alpha / max(1, len(tested))
    flags = []
    for loser, winner in tested:
        games = met[(loser, winner)]
        n = len(games)
        losses = [m for m in games if m.person(loser).result == "lost"]
        wins_back = sum(1 for m in games if m.person(winner).result == "won")
        loss_rate = (lost[loser] - len(losses) + 1) / (total[loser] - n + 2)
        win_rate = (won[winner] - wins_back + 1) / (total[winner] - n + 2)
        p0 = 1 / (1 + math.exp(-(_logit(loss_rate) + _logit(win_rate))))
        p = binom_sf(len(losses), n, p0)
        if p > level:
            continue
        threshold = binom_threshold(n, p0, level)
        given = -sum(m.person(loser).rating_change for m in losses)
        flags.append(_flag(
            "rating_transfer", [loser, winner], len(losses), n * p0, threshold,
            min(1.0, p * len(tested)),
            f"{{0}} lost {len(losses)} of {n} rated matches against {{1}}, where "
            f"{{0}}'s loss rate of {loss_rate:.0%} against others and {{1}}'s win rate of "
            f"{win_rate:.0%} against others give {n * p0:.1f}, and gave up {given:.0f} "
            f"rating points in those losses; {threshold} or more of {n} is flagged.",
            [m.table_id for m in losses], met=n, rating_given=round(given, 1)))
    return flags, len(tested)


# --- abandonments handing the win to one opponent ---------------------------------------------

def _abandon_favour(matches: list[Match], alpha: float) -> tuple[list[dict[str, Any]], int]:
    played: dict[str, int] = defaultdict(int)
    met: dict[tuple[str, str], int] = defaultdict(int)
    left: dict[str, list[Match]] = defaultdict(list)
    for match in matches:
        for pid in match.people():
            played[pid] += 1
            for other in match.opponents(pid):
                met[(pid, other)] += 1
            if match.person(pid).abandoned:
                left[pid].append(match)
    tested = sorted(pair for pair in met if len(left[pair[0]]) >= MIN_ABANDONS)
    level = alpha / max(1, len(tested))
    flags = []
    for leaver, favoured in tested:
        gifts = [m for m in left[leaver] if favoured in m.opponents(leaver)
                 and m.person(favoured).result == "won"]
        if len(gifts) < MIN_ABANDONS:
            continue
        abandons, total, against = len(left[leaver]), played[leaver], met[(leaver, favoured)]
        p = hypergeom_sf(len(gifts), total, against, abandons)
        if p > level:
            continue
        expected = abandons * against / total
        threshold = max(MIN_ABANDONS, hypergeom_threshold(total, against, abandons, level))
        flags.append(_flag(
            "abandon_favour", [leaver, favoured], len(gifts), expected, threshold,
            min(1.0, p * len(tested)),
            f"{len(gifts)} of {{0}}'s {abandons} abandoned rated matches handed the win to "
            f"{{1}}, whom {{0}} met in {against} of {total} matches, so {expected:.1f} were "
            f"expected; {threshold} or more is flagged.",
            [m.table_id for m in gifts], abandons=abandons))
    return flags, len(tested)


# --- the partner signal, the shared addresses -------------------------------------------------

def _signal_flags(signal: SignalResult) -> list[dict[str, Any]]:
    flags = []
    for pair in signal.flagged:
        if signal.bot_baseline:
            baseline, compared = signal.bots.mean, f"bot partners {signal.bots.mean:+.2f}, "
        else:
            baseline, compared = pair.others, "no bot partners to compare, "
        flags.append(_flag(
            "partner_signal", list(pair.players), pair.mean, baseline, pair.threshold,
            pair.p_value,
            f"{{0}} and {{1}}'s discards fitted the partner's hidden cards by {pair.mean:+.2f} "
            f"per discard beyond what the cards in sight explain, over {pair.n} discards in "
            f"{len(pair.tables)} matches as partners ({compared}other partnerships "
            f"{pair.others:+.2f}); above {pair.threshold:+.2f} is flagged (z = {pair.z:.1f}).",
            pair.tables, discards=pair.n, other_partnerships=round(pair.others, 4),
            z=round(pair.z, 2)))
    return flags


def _shared_address(conn: Connection, window: set[str]) -> list[dict[str, Any]]:
    shared: dict[tuple[str, str], list[str]] = defaultdict(list)
    for table_id, _hash, players in shared_tables(conn):
        if table_id in window:
            for pair in combinations(sorted(set(players)), 2):
                shared[pair].append(table_id)
    return [_flag("shared_address", list(pair), len(tables), 0, 1, None,
                  f"{{0}} and {{1}} asked to play from one address at {len(tables)} rated "
                  "matches: one household or club does, and so does one person with two "
                  "accounts.", tables) for pair, tables in sorted(shared.items())]


# --- the text ------------------------------------------------------------------------------

def _when(ts: float) -> str:
    return datetime.fromtimestamp(ts, UTC).strftime("%Y-%m-%d %H:%M UTC")


def _number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:.3g}"


def render_text(report: dict[str, Any]) -> str:
    """The report as plain text for a terminal."""
    checked = report["checked"]
    lines = [
        f"Fair-play screening: rated matches from {_when(report['since'])} to "
        f"{_when(report['now'])}",
        f"{checked['matches']} matches ({checked['matches_two']} at two, "
        f"{checked['matches_four']} at four), {checked['players']} players, "
        f"{checked['pairs']} pairs who met, {checked['discards']} discards scored "
        f"({checked['bot_discards']} by bots).",
        "Each flag is a reason to look at the matches, not a verdict: the screening "
        "changes no rating and gives no penalty.",
        "",
    ]
    if not report["flags"]:
        lines.append("No flags.")
    for index, flag in enumerate(report["flags"], 1):
        names = ", ".join(p["username"] for p in flag["players"])
        lines.append(f"{index}. {LABELS[flag['kind']]}: {names}")
        lines.append(f"   {flag['explanation']}")
        chance = ("" if flag["p_value"] is None
                  else f"; chance on fair play {flag['p_value']:.2g}")
        lines.append(f"   statistic {_number(flag['statistic'])}, baseline "
                     f"{_number(flag['baseline'])}, threshold "
                     f"{_number(flag['threshold'])}{chance}")
        lines.append(f"   matches: {', '.join(flag['matches'])}")
    tests = checked["tests"]
    lines += ["", "Tests made: " + ", ".join(f"{LABELS[k].lower()} {n}"
                                             for k, n in tests.items()) + "."]
    if checked["hands_unreadable"]:
        lines.append(f"{checked['hands_unreadable']} hand records could not be replayed.")
    return "\n".join(lines) + "\n"
