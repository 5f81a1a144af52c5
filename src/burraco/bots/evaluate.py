"""A club player's judgement in numbers: how much a side's table and a hand are worth.

Everything is in match points of the hand's final score (RULES.md §9), as an
expectation:

* a meld on the table is worth its cards plus the burraco bonus it holds or,
  below seven cards, the bonus it may still reach, discounted by its length
  and by how many cards that extend it are still live;
* a card in hand is worth what it may bring if it is melded, minus what it
  costs if it is still held when the hand ends; cards that already fit a meld
  or form a meld are likely to be melded, isolated ones are not;
* every card held also slows the race to the pozzetto and to closing.

:class:`Context` holds what a decision needs about the table (live cards,
how soon the hand may end) so that the per-position functions stay cheap:
the advanced bot evaluates dozens of positions per decision and the expert
thousands.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from burraco.engine.cards import CARD_FACE, FACE_IS_WILD, FACE_POINTS, FACES, JOKER
from burraco.engine.meld_search import accepts_by_shape
from burraco.engine.melds import SET, Meld, base_type
from burraco.engine.rules import Rules

# probability-like weight that a meld of n cards grows into a burraco
GROWTH = (0.0, 0.0, 0.0, 0.22, 0.32, 0.45, 0.62)


@dataclass(frozen=True, slots=True)
class Weights:
    """The judgement's numbers: the defaults are the club player's, a tuned set the champion's.

    Every field is a float that ``make_bot("advanced:clean_hope=180")`` may set, so the
    arena can compare sets and ``scripts/tune_weights.py`` can search them (CMA-ES).
    """

    clean_hope: float = 170.0
    """Expected bonus of a clean meld that reaches seven (clean or dirtied)."""
    dirty_hope: float = 105.0
    wild_value: float = 42.0
    """Worth of a wild in hand early in the hand (it falls as the end nears)."""
    meldable_extra: float = 9.0
    """Worth, beyond its points, of a card likely to be melded."""
    stuck_floor: float = 0.35
    """Weight of a held card's points as a loss when the end is far (1 when it is near)."""
    race_open: float = 9.0
    """Cost of one more card in hand before the pozzetto (plus ``race_open_urgency``)."""
    race_open_urgency: float = 10.0
    race_pozzetto: float = 5.0
    """The same after the pozzetto (plus ``race_pozzetto_urgency``): closing comes later."""
    race_pozzetto_urgency: float = 12.0
    lone_use: float = 0.14
    """Chance-like weight that an isolated natural card ends up melded."""
    pair_use: float = 0.55
    """The same for a card with one more of its rank in hand."""
    near_use: float = 0.48
    """The same for a card with a neighbour in its suit."""


WEIGHTS = Weights()

_RANK = tuple(0 if f == JOKER else f % 13 + 1 for f in range(FACES))
_SUIT = tuple(-1 if f == JOKER else f // 13 for f in range(FACES))


@dataclass(slots=True)
class Context:
    """What one decision knows about the table, beyond the hand being judged."""

    rules: Rules
    live: list[int]
    """Copies of each face the deciding seat cannot locate (they may still come)."""
    urgency: float = 0.2
    """0–1: how soon the hand may end (an opponent close to closing, a short stock)."""
    has_pozzetto: bool = False
    side_has_burraco: bool = False
    cache: dict[Meld, float] = field(default_factory=dict)
    """Meld values already computed in this decision (melds are immutable)."""
    weights: Weights = WEIGHTS

    @property
    def stuck(self) -> float:
        """Weight of a held card's points as a loss."""
        floor = self.weights.stuck_floor
        return floor + (1.0 - floor) * self.urgency

    @property
    def race(self) -> float:
        """Cost of one more card in hand: the pozzetto or closing comes later."""
        w = self.weights
        if not self.has_pozzetto:
            return w.race_open + w.race_open_urgency * self.urgency
        return w.race_pozzetto + w.race_pozzetto_urgency * self.urgency


def meld_value(meld: Meld, ctx: Context) -> float:
    """The meld's expected contribution to its side's score (cached in ``ctx``)."""
    cached = ctx.cache.get(meld)
    if cached is not None:
        return cached
    value = float(meld.points)
    n = len(meld.cards)
    rules = ctx.rules
    if n >= 7:
        kind = base_type(meld, rules)
        value += rules.bonus(kind) if kind else 0
    else:
        hope = ctx.weights.clean_hope if not meld.wild else ctx.weights.dirty_hope
        live = 0
        for face in accepts_by_shape(meld, rules):
            if not FACE_IS_WILD[face]:
                live += ctx.live[face]
        if not meld.wild:
            live += 2  # a wild may still complete it (dirty)
        if meld.kind == SET:
            live = min(live, 8 - n + 2)
        reach = min(1.0, live / (2.0 * (7 - n)))
        value += GROWTH[n] * hope * reach
    ctx.cache[meld] = value
    return value


def table_value(melds: Sequence[Meld], ctx: Context) -> float:
    total = 0.0
    for meld in melds:
        total += meld_value(meld, ctx)
    return total


def face_counts(cards: Sequence[int]) -> list[int]:
    counts = [0] * FACES
    for card in cards:
        counts[CARD_FACE[card]] += 1
    return counts


def usefulness(counts: Sequence[int], fits: frozenset[int] | set[int], face: int,
               weights: Weights = WEIGHTS) -> float:
    """Chance-like weight that a natural card of ``face`` in this hand ends up melded."""
    if face in fits:
        return 0.95
    r, s = _RANK[face], _SUIT[face]
    rank_count = counts[r - 1] + counts[13 + r - 1] + counts[26 + r - 1] + counts[39 + r - 1]
    u = weights.lone_use
    if rank_count >= 3:
        u = 0.9
    elif rank_count == 2:
        u = weights.pair_use
    base = s * 13
    # sequence neighbours (the ace also sits above the king); 2s are wild-capable, skip them
    lo1 = counts[base + r - 2] if r >= 4 else (counts[base] if r == 3 else 0)
    lo2 = counts[base + r - 3] if r >= 5 else (counts[base] if r == 4 else 0)
    if r == 1:
        hi1, hi2 = counts[base + 12], counts[base + 11]
        lo1, lo2 = 0, counts[base + 2]
    else:
        hi1 = counts[base + r] if r <= 12 else counts[base]
        hi2 = counts[base + r + 1] if r <= 11 else (counts[base] if r == 12 else 0)
    if (lo1 and hi1) or (lo1 and lo2) or (hi1 and hi2):
        u = max(u, 0.85)
    elif (lo1 and hi2) or (hi1 and lo2):
        u = max(u, 0.7)
    elif lo1 or hi1:
        u = max(u, weights.near_use)
    elif lo2 or hi2:
        u = max(u, 0.36)
    return u


def hand_value(counts: Sequence[int], fits: frozenset[int] | set[int], ctx: Context) -> float:
    """Expected worth of holding these cards (negative for a hand of dead weight)."""
    stuck = ctx.stuck
    race = ctx.race
    total = 0.0
    weights = ctx.weights
    wild_value = weights.wild_value * (1.0 - 0.6 * ctx.urgency)
    extra = weights.meldable_extra
    for face in range(FACES):
        k = counts[face]
        if not k:
            continue
        points = FACE_POINTS[face]
        if FACE_IS_WILD[face]:
            total += k * (wild_value - race - points * stuck * ctx.urgency * 0.5)
            continue
        u = usefulness(counts, fits, face, weights)
        total += k * (u * (points + extra) - (1.0 - u) * points * stuck - race)
    return total


def side_fits(melds: Sequence[Meld], rules: Rules) -> set[int]:
    """Faces that attach, one at a time, to one of these melds."""
    fits: set[int] = set()
    for meld in melds:
        fits |= accepts_by_shape(meld, rules)
    return fits


def natural_fits(melds: Sequence[Meld], rules: Rules) -> frozenset[int]:
    return frozenset(f for f in side_fits(melds, rules) if not FACE_IS_WILD[f])
