"""Fair-play screening at four: do a player's discards fit the partner's *hidden* hand?

Partners sit across (seats 0 and 2, 1 and 3).  A player who can see the partner's cards
(a second screen, a call) throws what the partner can use.  Every discard of a rated
four-player match is replayed from the hand's stored record, and scored from the
discarder's seat:

* ``fit(c, h)`` says how well a face ``c`` goes with a face ``h`` for melding: 2 for the same
  rank (a set), 2 for the same suit one rank apart, 1 for two ranks apart (a sequence; the
  ace sits below the 2 and above the king); wild cards (jokers, pinelle) fit nothing here,
  since they fit everything;
* the *excess* of a card ``c`` is its fit with the partner's actual hidden cards, less the
  fit the discarder should expect: the partner's cards that everyone saw go in with the
  pile are public and count in neither, and the rest are, from the discarder's seat, a
  random draw from the cards it has not seen (the stock, the pozzetti, the other hands);
* a discard's *score* is the excess of the card thrown less the mean excess of the
  discarder's other choices (each natural face in the hand), so a hand's own shape
  cancels out.

Playing fair, the partner's unseen cards are no better known than any unseen card, and the
score averages about zero; a player who sees the partner's hand scores above it.  What the
partner's own play reveals (a face thrown, a pile left) is public information an honest
player may use; the baselines measure how much it is worth: discards by the bots, which
never see a hidden card, and the discards of every other partnership.  A partnership is
flagged when its mean score stands above both by more than chance allows over the
partnerships tested (Bonferroni).  The chance allowed for covers the scores' spread, the
clustering of one player's discards within a match, and how much players' styles differ.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from statistics import NormalDist
from typing import Any

from sqlalchemy import Connection, select

from burraco.engine.actions import ActionParseError, Discard, parse_action
from burraco.engine.cards import CARD_FACE, FACE_IS_WILD, FACES, face_rank, face_suit
from burraco.engine.records import RecordError, start_state
from burraco.engine.state import HandState, IllegalActionError
from burraco.engine.views import hidden_from
from burraco.server.storage.models import GameRow

BOT_MINIMUM = 100
"""Bot discards needed before the bots' baseline is used (fewer: the other partnerships'
baseline alone)."""
STYLE_MINIMUM = 30
"""Scored discards a player needs to count in the styles' variance."""
STYLE_PLAYERS = 5
"""Players needed for it (fewer: none is assumed)."""
CHUNK = 500
"""Table ids per ``IN (...)`` query."""


def _fit_table() -> tuple[tuple[int, ...], ...]:
    rows: list[tuple[int, ...]] = []
    for c in range(FACES):
        row = []
        for h in range(FACES):
            if FACE_IS_WILD[c] or FACE_IS_WILD[h]:
                row.append(0)
            elif face_rank(c) == face_rank(h):
                row.append(2)
            elif face_suit(c) != face_suit(h):
                row.append(0)
            else:
                a, b = face_rank(c), face_rank(h)
                gap = min(abs(a - b), abs((14 if a == 1 else a) - (14 if b == 1 else b)))
                row.append(3 - gap if gap <= 2 else 0)
        rows.append(tuple(row))
    return tuple(rows)


FIT: tuple[tuple[int, ...], ...] = _fit_table()
"""``FIT[c][h]``: how well face ``c`` goes with face ``h`` (see the module's text)."""
NEAR: tuple[tuple[tuple[int, int], ...], ...] = tuple(
    tuple((h, w) for h, w in enumerate(row) if w) for row in FIT)
"""The faces each face fits, with the fit: a row of ``FIT`` without its zeros."""


def discard_score(state: HandState, seat: int, face: int) -> float | None:
    """The score of ``seat`` throwing ``face`` now (the state before the discard); ``None``
    when the discard says nothing: no partner, a wild card thrown, fewer than two natural
    faces to choose from, or no hidden card in the partner's hand."""
    partner = state.partner_of(seat)
    if partner is None or FACE_IS_WILD[face]:
        return None
    options = sorted({CARD_FACE[c] for c in state.hands[seat] if not FACE_IS_WILD[CARD_FACE[c]]})
    if len(options) < 2 or face not in options:
        return None
    unseen = [0] * FACES
    for card in hidden_from(state, seat):
        unseen[CARD_FACE[card]] += 1
    for other in range(state.players):
        if other != seat:
            for known in state.known[other]:
                unseen[known] = max(0, unseen[known] - 1)
    pool = sum(unseen)
    hidden = [CARD_FACE[c] for c in state.hands[partner]]
    for known in state.known[partner]:
        if known in hidden:
            hidden.remove(known)
    if not hidden or pool == 0:
        return None
    excess: dict[int, float] = {}
    for option in options:
        row = FIT[option]
        expected = sum(w * unseen[h] for h, w in NEAR[option]) / pool
        excess[option] = sum(row[h] for h in hidden) - len(hidden) * expected
    return excess[face] - sum(excess.values()) / len(excess)


def hand_scores(record: dict[str, Any]) -> list[tuple[int, float]] | None:
    """(seat, score) of every scored discard of a hand's record; ``None`` when the record
    cannot be replayed."""
    try:
        state = start_state(record)
        moves = record.get("moves", [])
        out: list[tuple[int, float]] = []
        for text in moves:
            action = parse_action(text)
            if isinstance(action, Discard):
                score = discard_score(state, state.turn, action.face)
                if score is not None:
                    out.append((state.turn, score))
            state.apply_in_place(action)
    except (RecordError, ActionParseError, IllegalActionError, ValueError, TypeError,
            KeyError):
        return None
    return out


@dataclass(slots=True)
class Moments:
    """Running sums of scores, with the sums per cluster (a table and a seat: one player's
    discards in one match are not independent of each other)."""

    n: int = 0
    total: float = 0.0
    squares: float = 0.0
    clusters: dict[tuple[str, int], list[float]] = field(default_factory=dict)

    def add(self, cluster: tuple[str, int], score: float) -> None:
        self.n += 1
        self.total += score
        self.squares += score * score
        self.clusters.setdefault(cluster, []).append(score)

    @property
    def mean(self) -> float:
        return self.total / self.n if self.n else 0.0

    @property
    def variance(self) -> float:
        if self.n < 2:
            return 0.0
        return max(0.0, (self.squares - self.n * self.mean ** 2) / (self.n - 1))

    def mean_variance(self) -> float:
        """The variance of the mean, clusters kept whole (a sandwich estimate)."""
        if self.n == 0:
            return 0.0
        mean = self.mean
        spread = sum(sum(s - mean for s in scores) ** 2 for scores in self.clusters.values())
        return spread / self.n ** 2

    def design_effect(self) -> float:
        """How much clustering widens the mean's variance over independent scores (>= 1)."""
        iid = self.variance / self.n if self.n else 0.0
        return max(1.0, self.mean_variance() / iid) if iid > 0 else 1.0


@dataclass(slots=True)
class PairSignal:
    """A partnership whose discards fit the partner's hidden cards beyond both baselines."""

    players: tuple[str, str]
    n: int
    """Scored discards of either partner, in their matches as partners."""
    mean: float
    others: float
    """The mean score of every other partnership's discards (the human baseline)."""
    tables: list[str]
    z_bots: float | None
    z_pairs: float
    z: float
    """The smaller of the two: the pair must stand out from both baselines."""
    p_value: float
    """Bonferroni-corrected over the partnerships tested."""
    threshold: float
    """The mean score at which the pair would have been flagged."""


@dataclass(slots=True)
class SignalResult:
    bots: Moments
    bot_baseline: bool
    """Enough bot discards (``BOT_MINIMUM``) to compare with."""
    humans: Moments
    pairs_tested: int
    flagged: list[PairSignal]
    hands: int
    unreadable: int
    z_critical: float
    style: float
    """The between-player variance of mean scores (styles), added to each pair's."""


@dataclass(frozen=True, slots=True)
class FourMatch:
    """A rated four-player match: its table and who held each seat (``None``: a bot)."""

    table_id: str
    holders: tuple[str | None, ...]


def _records(conn: Connection, table_ids: list[str]) -> Iterable[tuple[str, dict[str, Any]]]:
    for start in range(0, len(table_ids), CHUNK):
        chunk = table_ids[start:start + CHUNK]
        yield from ((row.table_id, row.record) for row in conn.execute(
            select(GameRow.table_id, GameRow.record).where(
                GameRow.table_id.in_(chunk), GameRow.record.is_not(None))
            .order_by(GameRow.table_id, GameRow.number)))


def partner_signal(conn: Connection, matches: list[FourMatch], *, min_matches: int,
                   alpha: float) -> SignalResult:
    """Score every discard of ``matches`` and test each partnership of two accounts that
    sat together in ``min_matches`` matches or more."""
    by_table = {m.table_id: m for m in matches}
    bots, humans = Moments(), Moments()
    players: dict[str, Moments] = defaultdict(Moments)
    pairs: dict[tuple[str, str], Moments] = defaultdict(Moments)
    shares: dict[tuple[str, str], dict[str, int]] = defaultdict(lambda: defaultdict(int))
    pair_tables: dict[tuple[str, str], set[str]] = defaultdict(set)
    hands = unreadable = 0
    for table_id, record in _records(conn, sorted(by_table)):
        holders = by_table[table_id].holders
        scored = hand_scores(record) if isinstance(record, dict) and record.get(
            "players") == len(holders) else None
        if scored is None:
            unreadable += 1
            continue
        hands += 1
        for seat, score in scored:
            me, partner = holders[seat], holders[(seat + 2) % 4]
            if me is None:
                bots.add((table_id, seat), score)
                continue
            humans.add((table_id, seat), score)
            players[me].add((table_id, seat), score)
            if partner is not None and partner != me:
                key = (min(me, partner), max(me, partner))
                pairs[key].add((table_id, seat), score)
                shares[key][me] += 1
                pair_tables[key].add(table_id)
    tested = {key: m for key, m in pairs.items() if len(pair_tables[key]) >= min_matches}
    z_critical = -NormalDist().inv_cdf(alpha / max(1, len(tested)))
    with_bots = bots.n >= BOT_MINIMUM
    deff = max(humans.design_effect(), bots.design_effect() if with_bots else 1.0)
    spread = max(humans.variance, bots.variance if with_bots else 0.0)
    style = style_variance(players, spread * deff)
    flagged = []
    for key in sorted(tested):
        moments = tested[key]
        rest = humans.n - moments.n
        if rest < 2:
            continue
        weights = [n / moments.n for n in shares[key].values()]
        pair_var = spread * deff / moments.n + style * sum(w * w for w in weights)
        others = (humans.total - moments.total) / rest
        pairs_se = math.sqrt(pair_var + humans.mean_variance())
        z_pairs = (moments.mean - others) / pairs_se
        limit = others + z_critical * pairs_se
        z_bots = None
        if with_bots:
            bots_se = math.sqrt(pair_var + bots.mean_variance())
            z_bots = (moments.mean - bots.mean) / bots_se
            limit = max(limit, bots.mean + z_critical * bots_se)
        z = z_pairs if z_bots is None else min(z_pairs, z_bots)
        if z >= z_critical:
            p_value = min(1.0, len(tested) * NormalDist().cdf(-z))
            flagged.append(PairSignal(key, moments.n, moments.mean, others,
                                      sorted(pair_tables[key]), z_bots, z_pairs, z, p_value,
                                      limit))
    return SignalResult(bots, with_bots, humans, len(tested), flagged, hands, unreadable,
                        z_critical, style)


def style_variance(players: dict[str, Moments], noise: float) -> float:
    """How much players' mean scores differ beyond chance (their styles: some throw what
    the pile already shows, some their highest card): the between-player variance, by the
    method of moments over players with ``STYLE_MINIMUM`` scored discards or more."""
    means = [(m.mean, m.n) for m in players.values() if m.n >= STYLE_MINIMUM]
    if len(means) < STYLE_PLAYERS:
        return 0.0
    centre = sum(mean for mean, _ in means) / len(means)
    between = sum((mean - centre) ** 2 for mean, _ in means) / (len(means) - 1)
    chance = sum(noise / n for _, n in means) / len(means)
    return max(0.0, between - chance)
