"""What a seat knows about the hidden cards, read from its view alone.

Two kinds of knowledge, both computed from :class:`~burraco.engine.views.View`
and nothing else:

* **hard facts**: the cards this seat has never seen (``unseen``) and where
  hidden cards may be (each seat's unknown hand cards, unseen pozzetti, the
  stock).  Cards an opponent took with the pile are in ``view.known``.
* **soft evidence** from the public history ``view.moves``: who discarded what
  (a player rarely throws a card he collects), who declined which pile top,
  who picked up a pile for which top card.  :func:`face_weights` turns it into
  a weight per face for each seat, used to sample hidden hands.

The history parse is cached on the text of the moves, so a bot asked several
times in one turn reads it once.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

from burraco.engine.actions import Action, Attach, Discard, Draw, NewMeld, Pickup, parse_action
from burraco.engine.cards import CARDS_PER_PACK, FACES, JOKER, card_face, face_rank, face_suit
from burraco.engine.rules import Rules
from burraco.engine.views import View

UNKNOWN_FACE = -1


@lru_cache(maxsize=4096)
def parse_move(text: str) -> Action:
    """``parse_action`` with a cache: move texts repeat a lot within and across hands."""
    return parse_action(text)


@dataclass(slots=True)
class History:
    """The public history of a hand, per seat, as faces."""

    discards: list[list[int]]
    """Faces each seat discarded, in order."""
    declined: list[list[int]]
    """Pile top faces a seat saw at its draw and left (it drew from the stock)."""
    pickups: list[list[tuple[int, ...]]]
    """Faces of each pile a seat took, bottom first (the unknown first up-card is -1)."""
    melded: list[list[int]]
    """Faces each seat put on the table (melds and attachments)."""
    turns: list[int] = field(default_factory=list)
    """Turns begun by each seat."""


def read_history(view: View) -> History:
    """Parse ``view.moves`` into per-seat facts (cached on the moves' text)."""
    first = card_face(view.pile[0]) if view.pile else UNKNOWN_FACE
    return _read_history(view.players, view.moves, first)


@lru_cache(maxsize=256)
def _read_history(players: int, moves: tuple[tuple[int, str], ...], first: int) -> History:
    """``first``: the face at the bottom of today's pile, the first up-card if nobody has
    taken the pile yet (otherwise that card's face is not public knowledge any more)."""
    history = History(
        discards=[[] for _ in range(players)],
        declined=[[] for _ in range(players)],
        pickups=[[] for _ in range(players)],
        melded=[[] for _ in range(players)],
        turns=[0] * players,
    )
    picked = any(text == "pickup" for _, text in moves)
    pile: list[int] = [UNKNOWN_FACE if picked else first]  # the first up-card
    for seat, text in moves:
        action = parse_move(text)
        if isinstance(action, Draw):
            history.turns[seat] += 1
            if pile:
                history.declined[seat].append(pile[-1])
        elif isinstance(action, Pickup):
            history.turns[seat] += 1
            history.pickups[seat].append(tuple(pile))
            pile = []
        elif isinstance(action, Discard):
            history.discards[seat].append(int(action.face))
            pile.append(int(action.face))
        elif isinstance(action, NewMeld | Attach):
            history.melded[seat].extend(int(f) for f in action.faces)
    return history


def all_cards(rules: Rules) -> list[int]:
    cards = list(range(rules.packs * CARDS_PER_PACK))
    if not rules.jokers:
        cards = [c for c in cards if c % CARDS_PER_PACK < 52]
    return cards


def seen_cards(view: View) -> set[int]:
    """Every physical card this seat can locate: its hand, the table, the pile, known cards."""
    seen = set(view.hand) | set(view.pozzetto_seen) | set(view.pile)
    for side in view.melds:
        for meld in side:
            seen.update(meld.cards)
    for cards in view.known:
        seen.update(cards)
    return seen


def unseen_cards(view: View, rules: Rules) -> list[int]:
    """Physical cards the seat cannot locate, in id order."""
    seen = seen_cards(view)
    return [c for c in all_cards(rules) if c not in seen]


def unseen_face_counts(view: View, rules: Rules) -> list[int]:
    """How many copies of each face the seat cannot locate (the "live" cards)."""
    counts = [0] * FACES
    for card in unseen_cards(view, rules):
        counts[card_face(card)] += 1
    return counts


def hidden_hand_sizes(view: View) -> list[int]:
    """Unknown cards in each seat's hand (the pozzetto taken with the discard apart)."""
    out = []
    for seat in range(view.players):
        if seat == view.seat:
            out.append(0)
        else:
            out.append(view.hand_counts[seat] - view.pending_counts[seat] - len(view.known[seat]))
    return out


# --- soft evidence ---------------------------------------------------------------------------

DISCARD_SAME_FACE = 0.45
DISCARD_SAME_RANK = 0.7
DISCARD_NEIGHBOUR = 0.8
DECLINED_TOP = 0.75
DECLINED_NEIGHBOUR = 0.9
PICKUP_TOP_RANK = 1.5
PICKUP_TOP_NEIGHBOUR = 1.3
FITS_OWN_MELD = 0.6


def face_weights(view: View, seat: int, fits: frozenset[int] = frozenset()) -> list[float]:
    """A likelihood weight per face for the unknown cards of ``seat``'s hand.

    1.0 is neutral.  A player who discards a face is unlikely to collect it
    or its rank and neighbours; one who declined a pile top is slightly less
    likely to hold cards that go with it; one who picked up a pile probably
    wanted its top card, so cards around it are likelier.  ``fits`` are faces
    that attach to the seat's own melds: a player usually attaches them.
    Weights never reach zero: evidence is soft, a bluff or a plan may explain it.
    """
    history = read_history(view)
    weights = [1.0] * FACES
    for face in history.discards[seat]:
        _scale(weights, face, DISCARD_SAME_FACE, DISCARD_SAME_RANK, DISCARD_NEIGHBOUR)
    for face in history.declined[seat]:
        _scale(weights, face, DECLINED_TOP, DECLINED_NEIGHBOUR, DECLINED_NEIGHBOUR)
    for pile in history.pickups[seat]:
        top = pile[-1] if pile else UNKNOWN_FACE
        _scale(weights, top, PICKUP_TOP_RANK, PICKUP_TOP_RANK, PICKUP_TOP_NEIGHBOUR)
    for face in fits:
        if face != JOKER and face_rank(face) != 2:
            weights[face] *= FITS_OWN_MELD
    weights[JOKER] = 1.0  # nobody discards or declines because of a wild
    for suit in range(4):
        weights[suit * 13 + 1] = 1.0
    return weights


def _scale(weights: list[float], face: int, same: float, rank: float, near: float) -> None:
    if face < 0 or face == JOKER or face_rank(face) == 2:
        return
    r, s = face_rank(face), face_suit(face)
    weights[face] *= same
    for suit in range(4):
        if suit != s:
            weights[suit * 13 + r - 1] *= rank
    for d in (-2, -1, 1, 2):
        nr = r + d
        if nr == 0:
            nr = 13 if d == -1 else 0
        if nr == 14:
            nr = 1
        if 1 <= nr <= 13 and nr != 2:
            weights[s * 13 + nr - 1] *= near if abs(d) == 1 else (1 + near) / 2
