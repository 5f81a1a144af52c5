"""Another deal a seat cannot tell from the real one: OpenSpiel's ``resample_from_infostate``.

Search over hidden information (OpenSpiel's IS-MCTS) needs histories drawn from those a
seat cannot tell apart.  Here a history is a deal (the faces of the deck, position by
position) and the players' actions, so a sample is a new deal under which the same actions
are legal and show the seat exactly what it saw.  :func:`resampled_deal` builds one from
what the seat saw only:

* every deck position is a *token* that moves as the hand's public story says: a draw takes
  the stock's top position, a pickup the pile's tokens, a pozzetto its positions, and a
  pozzetto taken with the discard joins its taker's hand when he next draws;
* the seat's own tokens (dealt, drawn, its pozzetto once seen) and the up-card keep the
  faces the seat saw;
* when another seat plays a face, it comes out of the faces the others knew it held (those
  it took with the pile, as the engine counts them: ``Step.known``) or else out of its
  unknown cards: then one of its unknown tokens, chosen at random, *is* that face;
* every other position gets the faces nobody has shown, shuffled.

Nothing of the real deal enters the sample but what the seat saw, and where the deck's
positions went (which every player knows), so two real deals the seat cannot tell apart
give the same samples from the same random numbers.  The caller replays the actions under
the new deal and keeps it when the seat's information state is unchanged: a hidden card can
decide whether an action was legal (a conditional pickup, a last card that may not be a
wild), and such a sample is drawn again.
"""

from __future__ import annotations

import random
from collections import Counter

from burraco.engine.cards import CARD_FACE
from burraco.engine.events import (
    Attached,
    Discarded,
    Drew,
    Melded,
    PickedUp,
    PozzettoSeen,
    PozzettoTaken,
)
from burraco.openspiel.table import Table, deck_layout

UNKNOWN = -1


class ResampleError(ValueError):
    """No deal could be built (a hand not dealt yet or over, or a story that does not add up)."""


class _Story:
    """Where each deck position is, and the face the seat knows it to be (or UNKNOWN)."""

    def __init__(self, table: Table, seat: int, rng: random.Random) -> None:
        layout = deck_layout(table)
        self.table = table
        self.seat = seat
        self.rng = rng
        self.face = [UNKNOWN] * table.size
        self.hands = [list(hand) for hand in layout.hands]
        self.pending: list[list[int]] = [[] for _ in range(table.players)]
        self.pile = list(layout.pile)
        self.reveal(self.hands[seat] + self.pile)

    def reveal(self, tokens: list[int]) -> None:
        """The seat sees these positions: they keep their real faces."""
        for token in tokens:
            self.face[token] = self.table.order[token]

    def gain(self, actor: int, tokens: list[int]) -> None:
        self.hands[actor] += tokens
        if actor == self.seat:
            self.reveal(tokens)

    def play(self, actor: int, f: int, covered: Counter[int]) -> int:
        """The token ``actor`` played face ``f`` from; an unknown one becomes ``f``."""
        hand = self.hands[actor]
        face = self.face
        if actor == self.seat or covered[f] > 0:
            covered[f] -= 1
            for i, token in enumerate(hand):
                if face[token] == f:
                    return hand.pop(i)
            raise ResampleError(f"no card of face {f} where the story puts one")
        unknown = [i for i, token in enumerate(hand) if face[token] == UNKNOWN]
        if not unknown:
            raise ResampleError("a seat played a card it could not have held")
        token = hand.pop(unknown[self.rng.randrange(len(unknown))])
        face[token] = f
        return token

    def step(self, actor: int, events: tuple[object, ...], known: tuple[int, ...]) -> None:
        covered = Counter(known)
        pos_of = self.table.pos_of
        for event in events:
            if isinstance(event, Drew):
                self.gain(actor, [pos_of[event.card]])  # an untouched stock card
                self._pending_joins(actor)
            elif isinstance(event, PickedUp):
                self.hands[actor] += self.pile  # public tokens: their faces are known
                self.pile = []
                self._pending_joins(actor)
            elif isinstance(event, Melded | Attached):
                for card in event.cards:
                    self.play(actor, CARD_FACE[card], covered)
            elif isinstance(event, Discarded):
                self.pile.append(self.play(actor, CARD_FACE[event.card], covered))
            elif isinstance(event, PozzettoTaken):
                tokens = [pos_of[c] for c in event.cards]  # untouched until now
                if event.live:
                    self.gain(event.seat, tokens)
                else:
                    self.pending[event.seat] = tokens
            elif isinstance(event, PozzettoSeen) and event.seat == self.seat:
                self.reveal(self.pending[self.seat])

    def _pending_joins(self, actor: int) -> None:
        """A pozzetto taken with the discard joins the hand after the draw (§6.4)."""
        if self.pending[actor]:
            self.gain(actor, self.pending[actor])
            self.pending[actor] = []

    def filled(self) -> list[int]:
        """The deck: the unknown positions dealt the faces nobody has shown, shuffled."""
        rest = list(self.table.copies)
        for f in self.face:
            if f != UNKNOWN:
                rest[f] -= 1
                if rest[f] < 0:
                    raise ResampleError("more cards of a face were shown than the deck holds")
        pool = [f for f, n in enumerate(rest) for _ in range(n)]
        self.rng.shuffle(pool)
        out = self.face[:]
        cards = iter(pool)
        for position, f in enumerate(out):
            if f == UNKNOWN:
                out[position] = next(cards)
        return out


def resampled_deal(table: Table, seat: int, rng: random.Random) -> list[int]:
    """A deck order (faces, top first) that ``seat`` cannot tell from ``table``'s."""
    if table.state is None or table.is_terminal():
        raise ResampleError("only a hand being played can be resampled")
    story = _Story(table, seat, rng)
    for step in table.steps:
        story.step(step.seat, step.events, step.known)
    return story.filled()


def resampled_history(table: Table, seat: int, rng: random.Random) -> list[int]:
    """The whole history with a resampled deal: the dealer, the deck's faces, the actions."""
    deck = resampled_deal(table, seat, rng)
    return [table.dealer, *deck, *table.history[1 + table.size:]]
