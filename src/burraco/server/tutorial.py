"""The first-hand tutorial: a table against a bot whose one hand is dealt from a fixed deck.

A newcomer learns the turn by doing it, so the deal must let every step happen
in order within the first turn (RULES.md §3, §6, §7): draw the 9♥ from the
stock, meld 4♥–8♥, attach 9♥ 10♥ (a clean burraco, §5), meld the kings and
attach J♥ Q♥, which empties the hand and takes the pozzetto *in diretta*
(§6.3), then meld the pozzetto's cards and close by discarding the last one
(§7.1).  The tutorial seat plays first, so the bot only moves when the
player strays from the script; it is the simplest level, seeded, so it plays
the same way every time.

The deck is fixed but the salt is fresh, so the deal is committed to and
revealed like any other (:mod:`burraco.server.commitment`): the tutorial is an
ordinary table whose deck is known in advance, which is why it is a one-hand,
private, unrated table of its own kind (``TableConfig.tutorial``).
"""

from __future__ import annotations

import secrets
from functools import lru_cache

from burraco.engine.cards import CARDS_PER_PACK, deck, parse_face
from burraco.engine.deal import deal_from_order, pozzetto_sizes
from burraco.engine.rules import Rules
from burraco.server.commitment import DealSecret
from burraco.server.tables import SeatRequest, TableRequest

PLAYER_SEAT = 0
BOT_SEAT = 1
DEALER = 1
"""The bot deals, so the tutorial seat, on the dealer's left, plays first (§2.3)."""

PLAYER_HAND = "4H 5H 6H 7H 8H 10H JH QH KC KD KS"
"""The tutorial seat's eleven cards."""
FIRST_DRAW = "9H"
"""The stock's top card: what the first draw brings."""
UP_CARD = "2C"
"""The first up-card: a wild the player is told to leave (taking it is not in the script)."""
PLAYER_POZZETTO = "3S 4S 5S 6S 7C 7D 7S 9D 9C 9S 4D"
"""The pozzetto the player's side takes: three melds and a card to close with."""
BOT_HAND = "AC AD 3H 3D 5C 6C 8S 10S JD QC 2D"

TUTORIAL_BOT_SEED = 15
"""The tutorial's bot always plays from this seed, so it answers a stray move the same way."""

STEPS = ("draw", "meld", "attach", "pozzetto", "close")
"""What the tutorial teaches, in order (the client's hints follow the same list)."""


def tutorial_request() -> TableRequest:
    """The settings of a tutorial table: two seats, the player and a bot, one hand."""
    return TableRequest(players=2, mode="smazzate", smazzate=1, public=False, casual=True,
                        seats=[SeatRequest(kind="human"), SeatRequest(kind="bot", level="basic")],
                        creator_seat=PLAYER_SEAT, bot_delay=0.8, grace_seconds=600)


def _cards(text: str, used: set[int]) -> list[int]:
    """Card ids for the faces of ``text``, taking a pack's copy not used yet."""
    out = []
    for token in text.split():
        face = parse_face(token)
        for pack in range(2):
            card = pack * CARDS_PER_PACK + face
            if card not in used:
                used.add(card)
                out.append(card)
                break
        else:
            raise ValueError(f"the tutorial deck names {token} more than twice")
    return out


@lru_cache(maxsize=4)
def tutorial_order(rules: Rules, cut: int) -> tuple[int, ...]:
    """The deck order (top first) that ``deal_from_order`` deals into the tutorial's piles.

    The deal is a fixed permutation of deck positions, so dealing the positions
    themselves says where each pile's cards must lie in the deck.
    """
    cards_of_deck = [c for c in deck(rules.packs)
                     if rules.jokers or c % CARDS_PER_PACK < 52]
    size = len(cards_of_deck)
    dealt = deal_from_order(list(range(size)), players=2, dealer=DEALER, rules=rules, cut=cut)
    used: set[int] = set()
    hands = {PLAYER_SEAT: _cards(PLAYER_HAND, used), BOT_SEAT: _cards(BOT_HAND, used)}
    wanted: dict[int, int] = {}  # deck position -> card
    for seat, cards in hands.items():
        wanted.update(zip(dealt.hands[seat], cards, strict=True))
    # the first side to empty its hand takes the top pozzetto (§6)
    wanted.update(zip(dealt.pozzetti[0], _cards(PLAYER_POZZETTO, used), strict=True))
    wanted[dealt.pile[0]] = _cards(UP_CARD, used)[0]
    wanted[dealt.stock[0]] = _cards(FIRST_DRAW, used)[0]
    free = iter(c for c in cards_of_deck if c not in used)
    order = [wanted[p] if p in wanted else next(free) for p in range(size)]
    assert len(set(order)) == size, "the tutorial deck repeats a card"
    assert pozzetto_sizes(2, rules)[0] == len(PLAYER_POZZETTO.split())
    return tuple(order)


def tutorial_deal(number: int, rules: Rules, cut: int) -> DealSecret:
    """The deal source of a tutorial table: the fixed deck for its one hand."""
    del number  # a tutorial is one hand; were there more, each would teach the same
    return DealSecret(tutorial_order(rules, cut), secrets.token_hex(32), cut)
