"""What a table's rules options may be: the engine's own limits, checked before a table exists.

A client chooses every rules option of its table (``options`` of ``POST
/api/tables``).  A value the engine cannot play must be refused with the field
named, before anything is stored: a table created with ``packs: 4`` would deal,
then fail at its first move, and ``packs: 100000`` would hold the event loop
while building the deck.  The bounds come from the engine wherever it can tell
them: the packs its card tables cover, the burraco types it scores, the suits
and ranks of a pack, the VP table shape it accepts and the player counts it
deals for.  Where the engine sets no limit (scores, targets), the cap is the one
the table request puts on its own ``target`` field, so no option is larger than
the field a client sees.

Every check here costs O(1) or O(length of a list), and lists are bounded by
their number of distinct allowed values, so a request cannot make it slow.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from burraco.engine.cards import CARD_FACE, CARDS_PER_PACK, SUIT_LETTERS, Rank
from burraco.engine.deal import DEFAULT_CUT, PLAYER_COUNTS, pozzetto_sizes
from burraco.engine.rules import BURRACO_TYPES, Rules
from burraco.engine.vp import check_table

MAX_PACKS = len(CARD_FACE) // CARDS_PER_PACK
"""Packs the engine can deal: its card-to-face table covers this many (3)."""
SCORE_CAP = 100_000
"""Largest target, threshold, bonus or penalty (the cap of the table request's ``target``)."""
SMAZZATE_CAP = 50
"""Largest number of smazzate in a match (the cap of the table request's ``smazzate``)."""
STALL_ROUNDS_CAP = 100
"""Largest ``stall_rounds`` (more rounds than any hand has cards for: the same as 0, never)."""
RANKS = tuple(int(r) for r in Rank)


class OptionError(ValueError):
    """A rules option is out of what the engine supports; ``field`` names it."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field


def _int_range(low: int, high: int) -> Callable[[str, Any], None]:
    def check(name: str, value: Any) -> None:
        if not low <= value <= high:
            raise OptionError(f"options.{name}", f"must be from {low} to {high} (got {value})")

    return check


def _types(name: str, value: Any, *, pairs: bool) -> None:
    names = [v[0] for v in value] if pairs else list(value)
    unknown = [n for n in names if n not in BURRACO_TYPES]
    if unknown:
        raise OptionError(f"options.{name}", f"unknown burraco type {unknown[0]!r} (known: "
                          f"{', '.join(BURRACO_TYPES)})")
    if len(set(names)) != len(names):
        raise OptionError(f"options.{name}", "a burraco type is listed twice")
    if pairs:
        for kind, points in value:
            if not 0 <= points <= SCORE_CAP:
                raise OptionError(f"options.{name}", f"the {kind} bonus must be from 0 to "
                                  f"{SCORE_CAP} (got {points})")


def _bonuses(name: str, value: Any) -> None:
    _types(name, value, pairs=True)


def _alternatives(name: str, value: Any) -> None:
    _types(name, value, pairs=False)


def _set_ranks(name: str, value: Any) -> None:
    if value is None:
        return
    if not value:
        raise OptionError(f"options.{name}", "list at least one rank (or null: every rank)")
    bad = [r for r in value if r not in RANKS]
    if bad:
        raise OptionError(f"options.{name}", f"{bad[0]} is not a rank ({RANKS[0]} to "
                          f"{RANKS[-1]})")
    if len(set(value)) != len(value):
        raise OptionError(f"options.{name}", "a rank is listed twice")


def _suits(name: str, value: Any) -> None:
    if sorted(value) != sorted(SUIT_LETTERS):
        raise OptionError(f"options.{name}", f"must name each suit once, like {SUIT_LETTERS!r} "
                          f"(got {value!r})")


def _vp_tables(name: str, value: Any) -> None:
    if len(value) > SMAZZATE_CAP:
        raise OptionError(f"options.{name}", f"at most {SMAZZATE_CAP} tables")
    counts = [count for count, _ in value]
    if len(set(counts)) != len(counts):
        raise OptionError(f"options.{name}", "a number of smazzate has two tables")
    for count, bounds in value:
        if not 1 <= count <= SMAZZATE_CAP:
            raise OptionError(f"options.{name}", f"a table is for 1 to {SMAZZATE_CAP} smazzate "
                              f"(got {count})")
        try:
            check_table(bounds)
        except ValueError as exc:
            raise OptionError(f"options.{name}", str(exc)) from None
        if bounds[-1] > SCORE_CAP:
            raise OptionError(f"options.{name}", f"bounds are at most {SCORE_CAP}")


_CARDS_CAP = MAX_PACKS * CARDS_PER_PACK
INT_BOUNDS: dict[str, tuple[int, int]] = {
    "packs": (1, MAX_PACKS),
    "three_player_packs": (1, MAX_PACKS),
    "five_six_player_packs": (1, MAX_PACKS),
    "hand_size": (1, _CARDS_CAP),
    "pozzetto_size": (1, _CARDS_CAP),
    "big_pozzetto_size": (1, _CARDS_CAP),
    "stall_rounds": (0, STALL_ROUNDS_CAP),
    "closing_bonus": (0, SCORE_CAP),
    "pozzetto_penalty": (0, SCORE_CAP),
    "target": (1, SCORE_CAP),
    "individual_from": (0, SCORE_CAP),
    "five_player_individual_from": (0, SCORE_CAP),
    "three_player_target": (1, SCORE_CAP),
    "five_player_target": (1, SCORE_CAP),
}
"""The smallest and largest value of every integer option (the card counts are then checked
against the table's packs by :func:`check_cards`)."""
CHECKS: dict[str, Callable[[str, Any], None]] = {
    **{name: _int_range(low, high) for name, (low, high) in INT_BOUNDS.items()},
    "bonuses": _bonuses,
    "closing_alternatives": _alternatives,
    "set_ranks": _set_ranks,
    "tie_break_suits": _suits,
    "vp_tables": _vp_tables,
}
"""A check for every option whose type alone does not bound it (the others are enums, bools)."""


def check_option(name: str, value: Any) -> None:
    """Raise :class:`OptionError` unless ``value`` (already of the option's type) is playable."""
    check = CHECKS.get(name)
    if check is not None:
        check(name, value)


def deal_cut(players: int, rules: Rules, individual: bool) -> int:
    """Where the deck is cut: as ``deal_from_order`` cuts when not told (§2.4)."""
    return max(DEFAULT_CUT, sum(pozzetto_sizes(players, rules, individual=individual)) + 10)


def check_cards(rules: Rules, players: int, chosen: set[str]) -> None:
    """Raise :class:`OptionError` unless the packs hold the pozzetti, the hands and a stock.

    ``rules`` are the preset with the table's options, before ``for_players``;
    ``chosen`` are the options the client set (the error names one of them).
    """
    if players not in PLAYER_COUNTS:
        raise OptionError("players", f"{players} players are not supported (2 to 6)")
    table = rules.for_players(players)
    packs_field = {3: "three_player_packs", 5: "five_six_player_packs",
                   6: "five_six_player_packs"}.get(players, "packs")
    deck = table.packs * (CARDS_PER_PACK if table.jokers else CARDS_PER_PACK - 2)
    # as the deal does it: the cut holds the pozzetti, then every hand and the up-card
    need = max(deal_cut(players, table, individual) for individual in (False, True)) + (
        players * table.hand_size + 1)
    if need > deck:
        candidates = (packs_field, "jokers", "hand_size", "pozzetto_size", "big_pozzetto_size")
        field = next((f for f in candidates if f in chosen), packs_field)
        raise OptionError(
            f"options.{field}",
            f"{players} hands of {table.hand_size} cards and pozzetti of "
            f"{max(sum(pozzetto_sizes(players, table, individual=i)) for i in (False, True))} "
            f"need {need} cards with the cut; {table.packs} packs hold {deck}")
