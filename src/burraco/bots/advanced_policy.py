"""The club player's policy: what the ``advanced`` bot plays, and the expert's rollouts.

What it does, in the order a turn asks:

* **pile or stock**: it judges the pile's cards in the hand they would join
  (:func:`pickup_gain`): what they add to the hand's value, plus what going
  down at once is worth (each card melded now is a step in the race, each new
  meld a start towards burraco), against an average stock card;
* **the way out**: with a small hand it searches its melds and attachments
  for a way to the pozzetto or to closing, and takes it;
* **melding**: natural melds and attachments first (the ones that reach
  seven cards first); a wild only to reach seven, to go out, or when the hand
  may end soon, never onto a clean burraco, so wilds are kept for burraco;
* **discard**: the card whose loss costs its hand least, plus the risk of
  feeding the next player (an opponent): cards that attach to his melds,
  above all one that would give him a burraco, or go with the cards he is
  known to hold (taken with the pile), weighed by the size of the pile he
  would get, discounted for ranks he threw himself.

It tracks the cards seen (discards, pile pickups, melds) to know which cards
are still live, and how soon the hand may end (an opponent with his
pozzetto, a burraco and few cards; a short stock), which shifts it from
building to shedding points.

The same policy, called with an imagined state (:meth:`Policy.decide`), is
the expert's rollout policy: it costs a fraction of a millisecond a move.
Whatever the state it is given, it reads only what the seat on turn may see
(:class:`~burraco.bots.advanced.AdvancedBot` gives it one sampled from its view).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from burraco.bots.evaluate import (
    Context,
    Weights,
    face_counts,
    hand_value,
    natural_fits,
    side_fits,
    usefulness,
)
from burraco.bots.knowledge import History
from burraco.engine.actions import DRAW, PICKUP, Action, Attach, Discard, Draw, NewMeld, Pickup
from burraco.engine.cards import CARD_FACE, CARDS_PER_PACK, FACE_IS_WILD, FACE_POINTS, FACES, JOKER
from burraco.engine.legal import legal_actions
from burraco.engine.meld_search import accepts_by_shape
from burraco.engine.melds import base_type
from burraco.engine.state import PLAY_PHASE, HandState, closing_ready

EXIT_SEARCH_NODES = 250


@dataclass(frozen=True, slots=True)
class Params(Weights):
    """The policy's tunable numbers (``make_bot("advanced:pickup_margin=5")`` overrides one).

    The evaluation's weights (:class:`~burraco.bots.evaluate.Weights`) are among them.
    """

    pickup_margin: float = -2.0
    """Take the pile when :func:`pickup_gain` exceeds this."""
    ready_bonus: float = 8.0
    """Worth, beyond the race, of each card the pile lets go down at once."""
    exit_cards: int = 7
    """Search for a way out only with at most this many cards in hand."""
    danger_scale: float = 1.0
    """Weight of the next player's gain in the choice of a discard."""
    late_urgency: float = 0.5
    """From this urgency (or ``late_hand`` cards) wilds may go down for points."""
    late_hand: int = 4


DEFAULT = Params()


class Policy:
    """The advanced policy on a state, for the seat on turn; remembers a found way out."""

    __slots__ = ("_plan", "params")

    def __init__(self, params: Params | None = None) -> None:
        self._plan: tuple[tuple[int, ...], list[Action]] | None = None
        self.params = params or Params()

    def decide(
        self, state: HandState, seat: int, legal: Sequence[Action], *,
        history: History | None = None,
    ) -> Action:
        """The action for ``seat`` on turn in ``state``, reading only what that seat may see."""
        if len(legal) == 1:
            return legal[0]
        params = self.params
        ctx = make_context(state, seat, params)
        if state.phase != PLAY_PHASE:
            gain = pickup_gain(state, seat, ctx, params) if PICKUP in legal else 0.0
            return PICKUP if PICKUP in legal and gain > params.pickup_margin else DRAW
        path = self._exit(state, seat, legal)
        if path:
            return path[0]
        meld = choose_meld(state, seat, legal, ctx, params)
        if meld is not None:
            return meld
        return choose_discard(state, seat, legal, ctx, history, params)

    def _exit(self, state: HandState, seat: int, legal: Sequence[Action]) -> list[Action]:
        """A path to the pozzetto or to closing from this hand, if one exists."""
        hand = state.hands[seat]
        if len(hand) > self.params.exit_cards:
            return []
        key = tuple(sorted(hand))
        if self._plan is not None and self._plan[0] == key and self._plan[1][0] in legal:
            path = self._plan[1]
        else:
            path = find_exit(state, seat)
        self._plan = None
        if len(path) >= 2:
            after = state.clone()
            after.apply_in_place(path[0])
            self._plan = (tuple(sorted(after.hands[seat])), path[1:])
        return path


def make_context(state: HandState, seat: int, weights: Weights | None = None) -> Context:
    """Live cards and urgency as ``seat`` sees them (no hidden card is read)."""
    rules = state.rules
    side = state.side_of[seat]
    live = [0] * FACES
    for card in range(rules.packs * CARDS_PER_PACK):
        if rules.jokers or card % CARDS_PER_PACK < 52:
            live[CARD_FACE[card]] += 1
    seen: list[int] = list(state.hands[seat]) + state.pile
    if state.pending_seen[seat]:
        seen += state.pending[seat]
    for melds in state.melds:
        for meld in melds:
            seen += meld.cards
    for other in range(state.players):
        if other != seat:
            seen += state.known[other]
    for card in seen:
        live[CARD_FACE[card]] -= 1
    return Context(
        rules=rules, live=live, urgency=urgency(state, seat),
        has_pozzetto=state.pozzetto_taker[side] >= 0,
        side_has_burraco=closing_ready(state.melds[side], rules),
        weights=weights or DEFAULT,
    )


def urgency(state: HandState, seat: int) -> float:
    """How soon the hand may end, 0–1, from public facts only."""
    side = state.side_of[seat]
    level = 0.1
    for other in range(state.players):
        other_side = state.side_of[other]
        if other_side == side:
            continue
        count = len(state.hands[other]) + len(state.pending[other])
        if state.pozzetto_taker[other_side] >= 0:
            if closing_ready(state.melds[other_side], state.rules):
                level = max(level, 0.85 if count <= 3 else 0.6 if count <= 6 else 0.4)
            else:
                level = max(level, 0.3 if count <= 5 else 0.22)
        elif count <= 3:
            level = max(level, 0.3)
    stock = len(state.stock)
    if stock < 8:
        level = max(level, 0.75)
    elif stock < 16:
        level = max(level, 0.4)
    return level


def pickup_gain(
    state: HandState, seat: int, ctx: Context, params: Params | None = None,
) -> float:
    """What taking the pile adds to the hand, against a stock card, without trying it out.

    The hand's value with and without the pile's cards, plus what melding at
    once is worth beyond holding: each card that would go down at once saves
    its place in the race, and each new meld starts a burraco.
    """
    side = state.side_of[seat]
    fits = natural_fits(state.melds[side], ctx.rules)
    counts = face_counts(state.hands[seat])
    before = hand_value(counts, fits, ctx)
    ready_before = _ready(counts, fits)
    for card in state.pile:
        counts[CARD_FACE[card]] += 1
    after = hand_value(counts, fits, ctx)
    ready_after = _ready(counts, fits)
    bonus = (params or DEFAULT).ready_bonus
    return after - before + (ready_after - ready_before) * (ctx.race + bonus)


def _ready(counts: list[int], fits: frozenset[int]) -> float:
    """Natural cards that could go down this turn: fits, sets of three, runs of three."""
    ready = 0.0
    for face in range(52):
        k = counts[face]
        if not k or FACE_IS_WILD[face]:
            continue
        if face in fits or usefulness(counts, fits, face) >= 0.85:
            ready += k
    return ready


def choose_meld(
    state: HandState, seat: int, legal: Sequence[Action], ctx: Context,
    params: Params | None = None,
) -> Action | None:
    """The natural meld or attachment to make now, or a wild where it pays; ``None``: stop."""
    side = state.side_of[seat]
    melds = state.melds[side]
    hand_size = len(state.hands[seat])
    params = params or DEFAULT
    late = ctx.urgency >= params.late_urgency or hand_size <= params.late_hand
    best: Action | None = None
    best_score = 0.0
    for action in legal:
        if isinstance(action, Attach):
            target = melds[action.meld]
            n = len(target.cards)
            wild = any(FACE_IS_WILD[f] for f in action.faces)
            if not wild:
                score = 100.0 + (30.0 if n == 6 else 0.0) + n
            elif n >= 7:
                continue  # never dirty a burraco; a dirty one gains only points
            elif n == 6 and not target.wild:
                score = 60.0 if (late or ctx.has_pozzetto) else 0.0
            elif late and not target.wild:
                score = 20.0
            else:
                continue
        elif isinstance(action, NewMeld):
            wilds = sum(1 for f in action.faces if FACE_IS_WILD[f])
            if wilds == 0:
                score = 80.0 + len(action.faces)
            elif late or _wilds_in_hand(state, seat) >= 2:
                score = 30.0 + len(action.faces)
            else:
                continue
        else:
            continue
        if score > best_score:
            best, best_score = action, score
    return best


def _wilds_in_hand(state: HandState, seat: int) -> int:
    return sum(1 for c in state.hands[seat] if FACE_IS_WILD[CARD_FACE[c]])


def choose_discard(
    state: HandState, seat: int, legal: Sequence[Action], ctx: Context,
    history: History | None = None, params: Params | None = None,
) -> Action:
    """The discard that costs the hand least and feeds the next player least."""
    scored = discard_costs(state, seat, legal, ctx, history, params)
    if not scored:
        return legal[-1]
    return min(scored, key=lambda pair: pair[1])[0]


def discard_costs(
    state: HandState, seat: int, legal: Sequence[Action], ctx: Context,
    history: History | None = None, params: Params | None = None,
) -> list[tuple[Action, float]]:
    """(discard, cost) for every legal discard, lowest cost best."""
    side = state.side_of[seat]
    counts = face_counts(state.hands[seat])
    fits = natural_fits(state.melds[side], ctx.rules)
    danger = Danger(state, seat, history)
    scale = (params or DEFAULT).danger_scale
    out: list[tuple[Action, float]] = []
    for action in legal:
        if isinstance(action, Discard):
            face = int(action.face)
            cost = _discard_loss(counts, fits, ctx, face) + scale * danger.of(face)
            out.append((action, cost - 0.01 * FACE_POINTS[face]))
    return out


def _discard_loss(counts: list[int], fits: frozenset[int], ctx: Context, face: int) -> float:
    before = hand_value(counts, fits, ctx)
    counts[face] -= 1
    after = hand_value(counts, fits, ctx)
    counts[face] += 1
    return before - after


class Danger:
    """How much a discard may help the next player to act (an opponent)."""

    __slots__ = ("fits", "grows", "known", "pile", "thrown", "thrown_ranks")

    def __init__(self, state: HandState, seat: int, history: History | None) -> None:
        rules = state.rules
        nxt = (seat + 1) % state.players
        melds = state.melds[state.side_of[nxt]]
        self.fits = side_fits(melds, rules)
        self.grows: set[int] = set()
        for meld in melds:
            if len(meld.cards) == 6 or (
                len(meld.cards) >= 7 and base_type(meld, rules) == "clean"
            ):
                self.grows |= accepts_by_shape(meld, rules)
        self.known = face_counts(state.known[nxt])
        self.pile = len(state.pile)
        self.thrown: set[int] = set()
        self.thrown_ranks: set[int] = set()
        if history is not None:
            self.thrown = set(history.discards[nxt])
            self.thrown_ranks = {f % 13 for f in self.thrown if f != JOKER}

    def of(self, face: int) -> float:
        if FACE_IS_WILD[face]:
            risk = 45.0
        else:
            risk = 4.0
            if face in self.fits:
                risk += 30.0
            if face in self.grows:
                risk += 40.0
            known = self.known
            rank = face % 13
            same_rank = known[rank] + known[13 + rank] + known[26 + rank] + known[39 + rank]
            if same_rank >= 2:
                risk += 30.0
            elif same_rank == 1:
                risk += 10.0
            base = face - rank
            for d, w in ((1, 14.0), (2, 7.0)):
                for r in (rank - d, rank + d):
                    if 0 <= r < 13 and r != 1 and known[base + r]:
                        risk += w
            if face in self.thrown:
                risk *= 0.45
            elif rank in self.thrown_ranks:
                risk *= 0.7
        return risk * (1.0 + 0.1 * self.pile)


def find_exit(state: HandState, seat: int) -> list[Action]:
    """Melds and attachments (and a last discard) that take ``seat`` to the pozzetto or close.

    A depth-first search over the legal plays, cut after a fixed number of
    positions; returns ``[]`` when none is found.
    """
    side = state.side_of[seat]
    has_pozzetto = state.pozzetto_taker[side] >= 0
    if not has_pozzetto and not state.pozzetti:
        return []
    seen: set[tuple[int, ...]] = set()
    nodes = 0

    def search(node: HandState) -> list[Action] | None:
        nonlocal nodes
        nodes += 1
        if nodes > EXIT_SEARCH_NODES:
            return None
        legal = legal_actions(node)
        hand = node.hands[seat]
        if len(hand) == 1:
            for action in legal:
                if isinstance(action, Discard):
                    return [action]
            return None
        for action in legal:
            if isinstance(action, Discard | Draw | Pickup):
                continue
            child = node.clone()
            child.apply_in_place(action)
            if _went_out(node, child, seat):
                return [action]
            key = tuple(sorted(CARD_FACE[c] for c in child.hands[seat])) + tuple(
                len(m.cards) for m in child.melds[side])
            if key in seen:
                continue
            seen.add(key)
            rest = search(child)
            if rest is not None:
                return [action, *rest]
        return None

    if not _may_empty(state, seat):
        return []
    return search(state) or []


def _went_out(before: HandState, after: HandState, seat: int) -> bool:
    side = before.side_of[seat]
    return before.pozzetto_taker[side] < 0 <= after.pozzetto_taker[side]


def _may_empty(state: HandState, seat: int) -> bool:
    """Cheap test: at most one card of the hand can be neither melded nor attached this turn."""
    counts = face_counts(state.hands[seat])
    fits = natural_fits(state.melds[state.side_of[seat]], state.rules)
    wilds = sum(counts[f] for f in range(FACES) if FACE_IS_WILD[f])
    dead = 0
    for face in range(FACES):
        if counts[face] and not FACE_IS_WILD[face] and face not in fits:
            rank = face % 13
            same = counts[rank] + counts[13 + rank] + counts[26 + rank] + counts[39 + rank]
            base = face - rank
            near = any(
                0 <= r < 13 and r != 1 and counts[base + r]
                for r in (rank - 2, rank - 1, rank + 1, rank + 2)
            ) or (rank == 0 and (counts[base + 12] or counts[base + 11])) or (
                rank >= 11 and counts[base])
            if same >= 3 or (same == 2 and wilds) or near:
                continue
            dead += counts[face]
    return dead <= 1
