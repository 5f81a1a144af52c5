"""Dealing a hand (RULES.md §2.4–2.10): from a seed, a deck order, or explicit piles.

The deal is part of the record, so every hand replays exactly.  A deck order
(top card first) is turned into piles the way a real table does it: the
cutter lifts the top part, builds the pozzetti from its bottom alternately,
the dealer deals 11 to each player from the rest starting at his left, and
the dealer's remaining cards go on top of the cutter's leftover as the stock,
whose top card is turned up as the first discard.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from burraco.engine.cards import CARDS_PER_PACK, card_str, deck, free_card
from burraco.engine.rules import FIBUR, Rules

DEFAULT_CUT = 40


class DealError(ValueError):
    """An explicit deal is inconsistent; the message says how."""


@dataclass(frozen=True, slots=True)
class Deal:
    """The cards of one hand before the first turn.

    ``stock`` is listed top card first; ``pile`` bottom card first (its last
    card is the up-card); ``pozzetti`` top pozzetto first.
    """

    players: int
    dealer: int
    hands: tuple[tuple[int, ...], ...]
    pozzetti: tuple[tuple[int, ...], ...]
    stock: tuple[int, ...]
    pile: tuple[int, ...]
    seed: int | None = None

    @property
    def first_player(self) -> int:
        return (self.dealer + 1) % self.players

    @property
    def individual(self) -> bool:
        """3 and 5 players: everyone has an ordinary pozzetto and plays alone all hand."""
        return self.players in (3, 5) and len(self.pozzetti) == self.players

    def all_cards(self) -> list[int]:
        out = [c for h in self.hands for c in h]
        out += [c for p in self.pozzetti for c in p]
        return out + list(self.stock) + list(self.pile)


PLAYER_COUNTS = (2, 3, 4, 5, 6)


def pozzetto_sizes(
    players: int, rules: Rules = FIBUR, *, individual: bool = False,
) -> tuple[int, ...]:
    """Pozzetto sizes, top first (§2.5, §13).

    3 and 5 players start each alone and the first to run out takes the big
    pozzetto on top; with ``individual`` (once a score passes the threshold)
    everyone has an ordinary pozzetto of his own.
    """
    small = rules.pozzetto_size
    if players in (2, 4):
        return (small, small)
    if players == 6:
        return (small, small, small)
    if players in (3, 5):
        if individual:
            return (small,) * players
        return (rules.big_pozzetto_size,) + (small,) * (players // 2)
    raise DealError(f"{players} players are not supported (2 to 6)")


def shuffled_order(seed: int | None, rules: Rules = FIBUR) -> list[int]:
    """A shuffled deck of ``rules.packs`` packs, top card first; ``None``: the OS's randomness."""
    cards = deck(rules.packs)
    if not rules.jokers:
        cards = [c for c in cards if c % CARDS_PER_PACK < 52]
    rng = random.Random(seed) if seed is not None else random.SystemRandom()
    rng.shuffle(cards)
    return cards


def deal_from_order(
    order: list[int], *, players: int, dealer: int, rules: Rules = FIBUR,
    cut: int | None = None, seed: int | None = None, individual: bool = False,
) -> Deal:
    """Deal a deck order (top first) as a real table would (§2.4–2.9).

    ``rules`` must already be the table's (``rules.for_players(players)``).
    """
    sizes = pozzetto_sizes(players, rules, individual=individual)
    if cut is None:
        cut = max(DEFAULT_CUT, sum(sizes) + 10)
    need_dealt = players * rules.hand_size + 1
    if not sum(sizes) <= cut <= len(order) - need_dealt:
        raise DealError(f"cut {cut} leaves too few cards for the pozzetti or the deal")
    upper, lower = order[:cut], order[cut:]
    # the cutter deals from the bottom of his part, alternately onto the pozzetti
    piles: list[list[int]] = [[] for _ in sizes]
    source = list(reversed(upper))
    i = 0
    while any(len(p) < s for p, s in zip(piles, sizes, strict=True)):
        k = i % len(piles)
        if len(piles[k]) < sizes[k]:
            piles[k].append(source.pop(0))
        i += 1
    leftover = list(reversed(source))  # back in top-first order
    hands: list[list[int]] = [[] for _ in range(players)]
    position = 0
    for _ in range(rules.hand_size):
        for j in range(players):
            hands[(dealer + 1 + j) % players].append(lower[position])
            position += 1
    rest = lower[position:] + leftover  # dealer's cards on top of the cutter's leftover
    upcard, stock = rest[0], rest[1:]
    return Deal(
        players=players, dealer=dealer,
        hands=tuple(tuple(h) for h in hands),
        pozzetti=tuple(tuple(p) for p in piles),
        stock=tuple(stock), pile=(upcard,), seed=seed,
    )


def deal_seeded(
    seed: int | None, *, players: int = 4, dealer: int | None = None, rules: Rules = FIBUR,
    individual: bool = False,
) -> Deal:
    """A fresh deal from a seed (``None``: the OS's randomness, not replayable by seed)."""
    if dealer is None:
        dealer = players - 1
    table = rules.for_players(players)
    return deal_from_order(
        shuffled_order(seed, table), players=players, dealer=dealer, rules=table, seed=seed,
        individual=individual)


def check_deal(deal: Deal, rules: Rules = FIBUR) -> None:
    """Raise :class:`DealError` unless the deal uses every card of the packs exactly once."""
    if deal.players not in PLAYER_COUNTS:
        raise DealError(f"{deal.players} players are not supported (2 to 6)")
    if not 0 <= deal.dealer < deal.players:
        raise DealError(f"dealer {deal.dealer} is not a seat of {deal.players} players")
    if len(deal.hands) != deal.players:
        raise DealError(f"{len(deal.hands)} hands for {deal.players} players")
    shapes = {pozzetto_sizes(deal.players, rules, individual=i) for i in (False, True)}
    if len(deal.pozzetti) not in {len(s) for s in shapes}:
        counts = " or ".join(str(n) for n in sorted({len(s) for s in shapes}))
        raise DealError(f"{len(deal.pozzetti)} pozzetti, expected {counts}")
    cards = deal.all_cards()
    expected = deck(rules.packs)
    if not rules.jokers:
        expected = [c for c in expected if c % CARDS_PER_PACK < 52]
    if sorted(cards) != expected:
        seen: set[int] = set()
        for card in cards:
            if card in seen:
                raise DealError(f"card {card_str(card)} (id {card}) appears twice")
            seen.add(card)
        missing = sorted(set(expected) - seen)
        extra = sorted(seen - set(expected))
        if extra:
            raise DealError(f"card id {extra[0]} is not in a {rules.packs}-pack deck")
        raise DealError(f"{len(missing)} cards missing, e.g. {card_str(missing[0])}")


def ids_from_faces(faces_by_pile: list[list[int]], rules: Rules = FIBUR) -> list[list[int]]:
    """Give each face of several piles a distinct physical id (pack 0 first)."""
    used: set[int] = set()
    out: list[list[int]] = []
    for faces in faces_by_pile:
        ids = []
        for face in faces:
            card = free_card(face, used, rules.packs)
            if card is None:
                raise DealError(f"more copies of {card_str(face)} than {rules.packs} packs hold")
            used.add(card)
            ids.append(card)
        out.append(ids)
    return out
