"""Melds: sequences, sets, wilds, attaching, burraco classification (RULES.md §4, §5, §15).

Every test names the RULES.md section it checks.  The hypothesis tests at the
end compare the solver with an independent brute-force reading of §4 and check
the properties of attaching (order of naming, one-card acceptance, round trip of
the printed notation).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from burraco.engine.cards import (
    FACES,
    JOKER,
    card_face,
    face_rank,
    face_str,
    face_suit,
    is_wild_face,
    make_face,
    parse_faces,
)
from burraco.engine.melds import (
    SEQUENCE,
    SET,
    Meld,
    MeldError,
    accepts,
    attach,
    attach_faces,
    base_type,
    burraco_bonus,
    burraco_type,
    ids_for_faces,
    make_meld,
    meld_from_faces,
    parse_meld,
    read_attach,
    read_meld,
)
from burraco.engine.rules import FIBUR, Rules

# --- helpers -------------------------------------------------------------------------------


def M(text: str, rules: Rules = FIBUR) -> Meld:
    """A new meld from the faces in ``text`` (canonical reading)."""
    return meld_from_faces(parse_faces(text), rules)


def new(text: str, rules: Rules = FIBUR) -> Meld | str:
    """read_meld on the faces of ``text``: the meld, or the reason it is rejected."""
    return read_meld(ids_for_faces(parse_faces(text)), rules)


def add(meld: Meld | str, text: str, rules: Rules = FIBUR) -> Meld | str:
    """read_attach of the faces of ``text`` on ``meld`` (a Meld or its notation)."""
    if isinstance(meld, str):
        meld = parse_meld(meld, rules)
    return read_attach(meld, ids_for_faces(parse_faces(text), avoid=meld.cards), rules)


def shown(result: Meld | str) -> str:
    """The printed arrangement of a meld, or ``rejected: <reason>``."""
    return str(result) if isinstance(result, Meld) else f"rejected: {result}"


def key(meld: Meld) -> tuple[str, tuple[int, ...], int, int]:
    """A meld seen through faces (physical copies of one face are interchangeable)."""
    return (meld.kind, tuple(meld.faces()), meld.lo, meld.wild)


def slot_face(slot: int, suit: int) -> int:
    return make_face(1 if slot == 14 else slot, suit)


CARD_NAMES = {face_str(f) for f in range(FACES)}


def is_reason(result: Meld | str) -> bool:
    """A rejection reason is a readable sentence: it starts with a word or a card name,
    holds no code or Python reprs, and has no trailing junk."""
    return (
        isinstance(result, str) and len(result) >= 15 and " " in result
        and (result[0].islower() or result.split()[0] in CARD_NAMES)
        and not result.endswith((".", " "))
        and "None" not in result and "[" not in result and "<" not in result
    )


def check_table_meld(meld: Meld, rules: Rules = FIBUR) -> None:
    """Structural invariants of a legal table meld (§4.1–§4.3), checked card by card."""
    faces = meld.faces()
    assert len(faces) >= 3
    if meld.kind == SET:
        natural_faces = [f for f in faces if f != JOKER and face_rank(f) == meld.rank]
        assert meld.rank != 2
        assert 2 <= len(natural_faces) <= 4 * rules.packs
        assert faces[: len(natural_faces)] == natural_faces  # naturals first, wild last (§4.3.5)
        wilds = faces[len(natural_faces):]
        assert len(wilds) == (1 if meld.wild else 0)
        assert all(is_wild_face(f) for f in wilds)
        assert meld.wild_card == (meld.cards[-1] if meld.wild else None)
        return
    assert meld.kind == SEQUENCE
    assert meld.lo >= 1 and meld.hi <= 14 and meld.hi - meld.lo + 1 == len(faces)
    naturals = 0
    for i, face in enumerate(faces):
        slot = meld.lo + i
        if slot == meld.wild:
            assert is_wild_face(face)
            assert not (slot == 2 and face == make_face(2, meld.suit))  # §4.3.3: natural there
            assert meld.wild_card == meld.cards[i]
        else:
            assert face == slot_face(slot, meld.suit), (str(meld), slot)
            naturals += 1
    assert naturals >= 2
    if meld.wild and meld.wild == meld.hi:
        # §4.3.5: a free wild goes low unless the run starts with the (natural) ace
        assert meld.lo == 1


TWOS_SET = "a meld needs at least two natural cards; a set of twos is not allowed"


# --- §4.1 sequences ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("cards", "arranged"),
    [
        ("3H 4H 5H", "3H 4H 5H"),
        ("5C 3C 4C", "3C 4C 5C"),  # naming order does not matter
        ("9S 10S JS QS KS", "9S 10S JS QS KS"),
        ("7D 8D 9D 10D JD QD KD", "7D 8D 9D 10D JD QD KD"),
    ],
)
def test_s4_1_1_sequence_three_consecutive_of_one_suit(cards: str, arranged: str) -> None:
    """§4.1.1: at least 3 cards of one suit in consecutive rank order, shown low to high."""
    meld = new(cards)
    assert isinstance(meld, Meld) and meld.kind == SEQUENCE
    assert str(meld) == arranged
    check_table_meld(meld)


@pytest.mark.parametrize(
    ("cards", "reason"),
    [
        ("3H 4H", "a meld needs at least three cards"),
        ("3H 4H 6H", "the cards are not consecutive"),
        ("3H 4H 5S", "the cards form neither a sequence (one suit) nor a set (one rank)"),
        ("3H 3H 4H", "a sequence cannot hold two cards of the same rank"),
        ("3H 4H 5H 5H", "a sequence cannot hold two cards of the same rank"),
    ],
)
def test_s4_1_1_not_a_sequence(cards: str, reason: str) -> None:
    """§4.1.1: fewer than 3 cards, a gap, two suits or a repeated rank are rejected, with why."""
    result = new(cards)
    assert result == reason
    assert is_reason(result)
    with pytest.raises(MeldError, match=reason.replace("(", r"\(").replace(")", r"\)")):
        make_meld(ids_for_faces(parse_faces(cards)))


def test_s4_1_2_ace_low_or_high_no_wrap() -> None:
    """§4.1.2: one ace, low (A-2-3) or high (Q-K-A), never wrapping (K-A-2)."""
    low = M("AC 2C 3C")
    assert str(low) == "AC 2C 3C" and (low.lo, low.hi) == (1, 3)
    high = M("QC KC AC")
    assert str(high) == "QC KC AC" and (high.lo, high.hi) == (12, 14)
    assert new("KC AC 2C 3C") == "the cards are not consecutive"
    assert new("KC AC 3C") == "the cards are not consecutive"
    assert shown(new("KC AC 2C")) == "2C(=QC) KC AC"  # legal only with the 2 as a wild
    # with a wild the ace still sits at one end only
    assert shown(new("KH AH JK")) == "JK(=QH) KH AH"
    assert shown(new("AH JK 3H")) == "AH JK(=2H) 3H"
    assert new("KH JK 2H 3H") == "two wild cards in one meld"
    assert new("KH AH 2S 3H") == "the cards are not consecutive"  # no wrap through a wild


def test_s4_1_2_attached_ace_goes_to_the_reachable_end() -> None:
    """§4.1.2: an ace attached to a run sits below the 2 or above the K, never wrapping."""
    assert shown(add("2H 3H 4H", "AH")) == "AH 2H 3H 4H"
    assert shown(add("JH QH KH", "AH")) == "JH QH KH AH"
    assert add("AH 2H 3H", "KH") == "the cards are not consecutive"
    assert shown(add("QH KH AH", "2H")) == "2H(=JH) QH KH AH"


def test_s4_1_2_one_ace_per_sequence() -> None:
    """§4.1.2: never both aces (a 14-card run needs the wild as one ace)."""
    full = "AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH"
    assert new(full + " AH") == "a sequence holds one ace, low or high, never both"
    assert add(full, "AH") == "a sequence holds one ace, low or high, never both"
    assert is_reason(add(full, "AH"))


def test_s4_1_3_thirteen_naturals_plus_wild_is_the_maximum() -> None:
    """§4.1.3: at most 13 naturals + the one wild; a wild extends A–K only as the other ace."""
    full = "AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH"
    # attached to an ace-low run, the wild takes the high-ace end
    fourteen = add(parse_meld(full), "JK")
    assert shown(fourteen) == full + " JK(=AH)"
    assert isinstance(fourteen, Meld) and len(fourteen.cards) == 14
    check_table_meld(fourteen)
    assert add(fourteen, "3S") == "3S is not of the sequence's suit"
    assert add(fourteen, "2S") == "two wild cards in one meld"
    assert accepts(fourteen) == frozenset()
    # a 2–A run (natural 2, high ace) takes the wild as the low ace
    two_to_ace = M("2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS")
    assert shown(add(two_to_ace, "2D")) == "2D(=AS) 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS"


def test_s4_1_3_new_run_of_13_naturals_and_wild_reads_wild_low_ace_natural_ace_high() -> None:
    """§4.1.3/§4.3.5 (project decision): 13 naturals + a wild: wild = low ace, natural ace high."""
    meld = M("AD 2D 3D 4D 5D 6D 7D 8D 9D 10D JD QD KD JK")
    assert str(meld) == "JK(=AD) 2D 3D 4D 5D 6D 7D 8D 9D 10D JD QD KD AD"
    assert (meld.lo, meld.hi, meld.wild) == (1, 14, 1)
    check_table_meld(meld)
    other_two = M("KC QC JC 10C 9C 8C 7C 6C 5C 4C 3C 2C AC 2H")
    assert str(other_two) == "2H(=AC) 2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC AC"


def test_s4_1_2_ace_takes_the_end_that_scores_more() -> None:
    """§4.1.2 + §5 (project decision): when a run fills 2–K, an ace may sit at either end;
    with a bound wild the end decides semi-clean or dirty, and the engine takes the end that
    scores more (a player would), whatever the order the cards are named in."""
    table = parse_meld("2H 3H 4H 5H 6H JK(=7H) 8H 9H 10H JH QH")
    high = add(table, "AH KH")
    assert shown(high) == "2H 3H 4H 5H 6H JK(=7H) 8H 9H 10H JH QH KH AH"
    assert isinstance(high, Meld) and base_type(high) == "semi-clean"  # 8H…AH: 7 naturals
    assert shown(add(table, "KH AH")) == shown(high)
    other = parse_meld("3H 4H 5H 6H 7H JK(=8H) 9H 10H JH QH KH")
    low = add(other, "2H AH")
    assert shown(low) == "AH 2H 3H 4H 5H 6H 7H JK(=8H) 9H 10H JH QH KH"
    assert isinstance(low, Meld) and base_type(low) == "semi-clean"  # AH…7H: 7 naturals
    # the same for a new meld
    assert str(M("AH 2H 3H 4H 5H 6H 7H JK 9H 10H JH QH KH")) == str(low)
    assert str(M("AH 2H 3H 4H 5H 6H JK 8H 9H 10H JH QH KH")) == str(high)
    # attached one at a time the ace goes where it fits at that moment
    forced = attach_faces(attach_faces(table, parse_faces("AH")), parse_faces("KH"))
    assert str(forced) == "AH 2H 3H 4H 5H 6H JK(=7H) 8H 9H 10H JH QH KH"
    assert base_type(forced) == "dirty"


def test_s4_1_2_ace_end_tie_keeps_the_ace_high() -> None:
    """§4.1.2/§4.3.5: when both ends score the same, the ace goes high (as for 13 naturals
    plus a wild); a clean 13-card run named A…K is read 2…A."""
    assert str(M("AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH")) == (
        "2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH")
    assert str(M("AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH JK")) == (
        "2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH JK(=KH) AH")
    assert shown(add("2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH", "AH")) == (
        "2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH")


def test_s4_1_4_two_runs_of_one_suit_are_never_joined() -> None:
    """§4.1.4: 3-4-5H and 9-10-JH are both legal melds; they never merge."""
    low, high = M("3H 4H 5H"), M("9H 10H JH")
    assert low.suit == high.suit == 0
    assert add(low, "9H 10H JH") == "the cards are not consecutive"
    assert add(high, "3H 4H 5H") == "the cards are not consecutive"
    # naming a card already on the table is not an attachment
    assert read_attach(low, list(low.cards[:1])) == "the same physical card is named twice"


# --- §4.2 sets -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("cards", "arranged"),
    [
        ("7H 7S 7D", "7H 7D 7S"),  # shown in suit order H D C S
        ("7S 7H 7H", "7H 7H 7S"),  # suits may repeat
        ("AS AD AH AC", "AH AD AC AS"),
        ("KC KC KD KD KS KS KH", "KH KD KD KC KC KS KS"),
    ],
)
def test_s4_2_1_set_three_or_more_of_one_rank(cards: str, arranged: str) -> None:
    """§4.2.1: at least 3 cards of one rank; suits may repeat."""
    meld = new(cards)
    assert isinstance(meld, Meld) and meld.kind == SET
    assert str(meld) == arranged
    assert meld.rank == face_rank(parse_faces(cards)[0])
    check_table_meld(meld)


def test_s4_2_1_two_cards_are_not_a_set() -> None:
    """§4.2.1: a set needs three cards."""
    assert new("7H 7S") == "a meld needs at least three cards"


def test_s4_2_2_at_most_eight_naturals_and_one_wild() -> None:
    """§4.2.2: the largest set is the 8 naturals of a rank plus a wild (9 cards)."""
    eight = "9H 9H 9D 9D 9C 9C 9S 9S"
    full = new(eight + " JK")
    assert isinstance(full, Meld) and len(full.cards) == 9
    assert str(full) == eight + " JK"
    assert add(full, "2C") == "two wild cards in one meld"
    assert add(M(eight), "9H") == "too many cards for one set"  # a ninth 9 (third pack)
    assert new(eight + " 9H") == "too many cards for one set"
    assert is_reason(new(eight + " 9H"))
    three_packs = FIBUR.with_options(packs=3)
    assert isinstance(new(eight + " 9H", three_packs), Meld)


def test_s4_2_4_no_set_of_twos_a_two_in_a_set_is_wild() -> None:
    """§4.2.4: no set of 2s; a 2 in a set is always the wild, placed last."""
    assert new("2H 2S 2D") == TWOS_SET
    assert new("2H 2S JK") == TWOS_SET
    assert new("2H 2H JK") == "a meld needs at least two natural cards"
    meld = M("2H 5S 5D")
    assert str(meld) == "5D 5S 2H"
    assert meld.wild == 1 and card_face(meld.wild_card or 0) == make_face(2, 0)
    assert new("5H 5S 2H 2S") == "two wild cards in one meld"
    # a 2 of the same suit as a natural is still a wild in a set
    assert M("5H 5H 2H").wild == 1


def test_s4_2_set_rejections_name_the_card() -> None:
    """§4.2.1: a card of another rank cannot join a set; the reason names it."""
    assert add("7H 7S 7D", "8H") == "8H does not belong to a set of 7s"
    assert add("AH AS AD", "KH") == "KH does not belong to a set of aces"
    assert add("3H 3S 3D", "10H") == "10H does not belong to a set of threes"
    assert shown(add("7H 7S 7D", "7C 7H")) == "7H 7H 7D 7C 7S"


# --- §4.3 wild cards -----------------------------------------------------------------------


def test_s4_3_1_one_wild_per_meld() -> None:
    """§4.3.1: at most one wild in a meld, new or attached."""
    assert new("5H 6H JK 2S") == "two wild cards in one meld"
    assert new("5H 5S JK 2S") == "two wild cards in one meld"
    assert add("JK 5H 6H", "2C") == "two wild cards in one meld"
    assert add("7H 7S JK", "JK") == "two wild cards in one meld"
    assert add("6C JK 8C", "2D") == "two wild cards in one meld"
    assert is_reason(new("5H 6H JK 2S"))


def test_s4_3_2_natural_two_allows_a_further_wild() -> None:
    """§4.3.2: example ``AC 2C 3C 2S(=4C) 5C``: the 2C is natural, the 2S the wild."""
    meld = M("AC 2C 3C 2S 5C")
    assert str(meld) == "AC 2C 3C 2S(=4C) 5C"
    assert meld.wild == 4 and card_face(meld.wild_card or 0) == make_face(2, 3)
    check_table_meld(meld)
    assert parse_meld("AC 2C 3C 2S(=4C) 5C") == meld
    assert shown(new("2C 3C 4C JK")) == "JK(=AC) 2C 3C 4C"
    assert shown(new("2D 2D 3D")) == "2D(=AD) 2D 3D"  # the other copy may be the wild


def test_s4_3_3_other_suit_two_in_the_two_slot_is_wild() -> None:
    """§4.3.3: a 2 of another suit in the 2-slot is a wild standing for the natural 2."""
    meld = M("AC 2S 3C")
    assert str(meld) == "AC 2S(=2C) 3C" and meld.wild == 2
    assert base_type(M("AC 2S 3C 4C 5C 6C 7C")) == "dirty"
    assert base_type(M("AC 2S 3C 4C 5C 6C 7C 8C 9C")) == "semi-clean"


@pytest.mark.parametrize(
    ("cards", "arranged"),
    [
        ("AH 2H JK", "AH 2H JK(=3H)"),  # the 3 is the wild: the 2 is still natural
        ("2H JK 4H", "2H JK(=3H) 4H"),
        ("2H 2S 4H", "2H 2S(=3H) 4H"),
        ("2H 3H 4H", "2H 3H 4H"),
        ("2H 4H 5H", "2H(=3H) 4H 5H"),  # not in its slot: a wild
    ],
)
def test_s4_3_3_same_suit_two_in_position_two_is_natural(cards: str, arranged: str) -> None:
    """§4.3.3 default (UNVERIFIED): positional: a same-suit 2 in rank position 2 is natural."""
    meld = M(cards)
    assert str(meld) == arranged
    check_table_meld(meld)


@pytest.mark.parametrize(
    "cards", ["JK 2S 5H", "5H JK JK", "2H 2S 2D", "JK JK 2C", "5H 2S 2D 2C", "JK 5H"],
)
def test_s4_3_4_at_least_two_naturals(cards: str) -> None:
    """§4.3.4: a meld holds at least two natural cards; melds of wilds only are forbidden."""
    result = new(cards)
    assert isinstance(result, str) and is_reason(result)


def test_s4_3_4_reason_for_one_natural() -> None:
    """§4.3.4: the reason says what is missing."""
    assert new("2H 2H JK") == "a meld needs at least two natural cards"
    assert new("JK 5H 2H") == "two wild cards in one meld"  # the 2H cannot be natural there
    assert new("JK JK 2C") == TWOS_SET


@pytest.mark.parametrize(
    ("cards", "arranged"),
    [
        ("5H JK 6H 7H", "JK(=4H) 5H 6H 7H"),  # free wild: low end
        ("6S 7S 2D", "2D(=5S) 6S 7S"),
        ("AH 2H 3H JK", "AH 2H 3H JK(=4H)"),  # low end impossible: high end
        ("AH 2H 2S", "AH 2H 2S(=3H)"),
        ("QC KC JK", "JK(=JC) QC KC"),
        ("3D JK 2D", "JK(=AD) 2D 3D"),  # wild below a natural 2
        ("JK 7H 7S", "7H 7S JK"),  # set: the wild last
        ("2C 7H 7S 7D", "7H 7D 7S 2C"),
    ],
)
def test_s4_3_5_free_wild_placement(cards: str, arranged: str) -> None:
    """§4.3.5: a free wild sits at the low end (high end if the run starts with the ace)."""
    meld = M(cards)
    assert str(meld) == arranged
    check_table_meld(meld)


def test_s4_3_5_naturals_keep_their_slot() -> None:
    """§4.3.5 (project decision): a natural card never changes its rank slot."""
    run = M("AH 2H 3H")
    for faces in ("4H 5H 6H 7H 8H", "9H 10H JH QH KH"):
        run = attach_faces(run, parse_faces(faces))
    assert str(run) == "AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH"  # the ace stays low
    assert run.lo == 1
    high = M("JH QH KH AH")
    grown = attach_faces(high, parse_faces("2H 3H 4H 5H 6H 7H 8H 9H 10H"))
    assert str(grown) == "2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH"  # the ace stays high
    assert shown(add(grown, "JK")) == "JK(=AH) 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH"


def test_s4_3_5_set_keeps_its_wild_for_the_hand() -> None:
    """§4.3.5: in a set, attaching naturals never frees the wild; the set is never clean."""
    meld = M("7H 7S JK")
    for face in ("7D", "7C", "7H", "7S", "7D", "7C"):
        meld = attach_faces(meld, parse_faces(face))
        assert meld.wild == 1 and card_face(meld.wild_card or 0) == JOKER
        assert str(meld).endswith(" JK")
    assert len(meld.cards) == 9
    assert base_type(meld) == "semi-clean"  # 8 naturals + wild: never clean


def test_s4_3_6_free_wild_moves_to_the_other_end() -> None:
    """§4.3.6: example ``2C(=4C) 5C 6C`` + ``8C`` → ``5C 6C 2C(=7C) 8C``."""
    meld = parse_meld("2C(=4C) 5C 6C")
    assert meld == M("2C 5C 6C")
    result = add(meld, "8C")
    assert shown(result) == "5C 6C 2C(=7C) 8C"
    assert isinstance(result, Meld) and result.wild_card == meld.wild_card
    check_table_meld(result)
    # the wild stays put when the card attaches without it moving
    assert shown(add(meld, "7C")) == "2C(=4C) 5C 6C 7C"
    assert shown(add(meld, "3C")) == "3C 2C(=4C) 5C 6C"


def test_s4_3_6_bound_wild_moves_only_with_its_natural() -> None:
    """§4.3.6: on ``6C JK(=7C) 8C``, ``10C`` alone is rejected, but ``7C 10C`` together
    give ``6C 7C 8C JK(=9C) 10C``."""
    meld = M("6C JK 8C")
    assert str(meld) == "6C JK(=7C) 8C"
    assert add(meld, "10C") == "the cards are not consecutive"
    assert is_reason(add(meld, "10C"))
    assert shown(add(meld, "7C 10C")) == "6C 7C 8C JK(=9C) 10C"
    assert shown(add(meld, "10C 7C")) == "6C 7C 8C JK(=9C) 10C"  # naming order is irrelevant
    assert shown(add(meld, "9C")) == "6C JK(=7C) 8C 9C"  # the bound wild stays bound
    assert shown(add(meld, "5C")) == "5C 6C JK(=7C) 8C"


def test_s4_3_6_freed_wild_goes_to_the_bottom_or_top_if_needed() -> None:
    """§4.3.6: a bound wild freed by its natural goes to the bottom, the top if the ace is low."""
    assert shown(add("6C JK(=7C) 8C", "7C")) == "JK(=5C) 6C 7C 8C"
    assert shown(add("AC JK(=2C) 3C", "2C")) == "AC 2C 3C JK(=4C)"
    assert shown(add("AH 2S(=2H) 3H", "2H")) == "AH 2H 3H 2S(=4H)"  # §4.3.7: the natural 2
    assert shown(add("QC JK(=KC) AC", "KC")) == "JK(=JC) QC KC AC"


def test_s4_3_6_same_suit_two_landing_in_its_slot_becomes_natural() -> None:
    """§4.3.6/§4.3.3: a freed same-suit pinella that lands in the 2-slot is natural."""
    meld = M("3S 2S 5S")
    assert str(meld) == "3S 2S(=4S) 5S"
    result = add(meld, "4S")
    assert shown(result) == "2S 3S 4S 5S"
    assert isinstance(result, Meld) and result.wild == 0
    dirty = M("3S 4S 2S 6S 7S 8S 9S")
    assert str(dirty) == "3S 4S 2S(=5S) 6S 7S 8S 9S" and base_type(dirty) == "dirty"
    clean = add(dirty, "5S")
    assert shown(clean) == "2S 3S 4S 5S 6S 7S 8S 9S"
    assert isinstance(clean, Meld) and base_type(clean) == "clean"  # §5: judged as it stands


def test_s4_3_6_wild_never_leaves_its_meld() -> None:
    """§4.3.6: the wild stays in its meld after any attachment (no way to take it back)."""
    for table, cards in [
        ("6C JK(=7C) 8C", "7C"), ("2C(=4C) 5C 6C", "8C"), ("5H 5S JK", "5D 5C"),
        ("3S 4S 2S(=5S) 6S", "JK"), ("3H 4H 2H(=5H) 6H", "5H"),
    ]:
        meld = parse_meld(table)
        result = add(meld, cards)
        assert isinstance(result, Meld)
        assert set(meld.cards) <= set(result.cards)


def test_s4_3_7_wild_replaced_only_by_the_card_it_represents() -> None:
    """§4.3.7: a bound wild is displaced only by its own natural (or §4.3.8)."""
    meld = M("6C JK 8C")
    for other in ("7D", "7H", "7S"):
        assert add(meld, other) == f"{other} is not of the sequence's suit"
    assert add(meld, "2C") == "two wild cards in one meld"
    # a pinella in the 2-slot is displaced by the natural same-suit 2
    assert shown(add("AH 2S(=2H) 3H 4H", "2H")) == "AH 2H 3H 4H 2S(=5H)"


def test_s4_3_7_natural_two_beside_a_pinella_of_the_same_face_leaves_the_pinella() -> None:
    """§4.3.7: attaching the other copy of a wild pinella's face puts the new card in the
    2-slot; the pinella already acting as wild keeps its role (it moves only if it must)."""
    meld = parse_meld("3H 4H 2H(=5H) 6H")
    result = add(meld, "2H")
    assert shown(result) == "2H 3H 4H 2H(=5H) 6H"
    assert isinstance(result, Meld) and result.wild_card == meld.wild_card


def test_s4_3_8_joker_takes_over_from_a_same_suit_pinella() -> None:
    """§4.3.8: example ``3S 4S 2S(=5S) 6S`` + ``JK`` → ``2S 3S 4S JK(=5S) 6S``."""
    meld = M("3S 4S 2S 6S")
    assert str(meld) == "3S 4S 2S(=5S) 6S"
    result = add(meld, "JK")
    assert shown(result) == "2S 3S 4S JK(=5S) 6S"
    assert isinstance(result, Meld)
    check_table_meld(result)
    assert result.wild == 5 and card_face(result.wild_card or 0) == JOKER


def test_s4_3_8_also_for_a_free_pinella_and_another_suits_two() -> None:
    """§4.3.8: bound or free pinella; a 2 of another suit may take over (project decision)."""
    assert shown(add("2S(=3S) 4S 5S", "JK")) == "2S JK(=3S) 4S 5S"
    assert shown(add("3S 4S 2S(=5S) 6S", "2H")) == "2S 3S 4S 2H(=5S) 6S"
    assert shown(add("3S 4S 2S(=5S) 6S", "2D")) == "2S 3S 4S 2D(=5S) 6S"


def test_s4_3_8_needs_the_two_slot_to_join_the_run() -> None:
    """§4.3.8: the take-over is legal only if the 2-slot joins the run (cards added at once
    may bridge the gap, §4.3.11)."""
    table = "5S 6S 2S(=7S) 8S"
    assert add(table, "JK") == "two wild cards in one meld"
    assert shown(add(table, "JK 3S 4S")) == "2S 3S 4S 5S 6S JK(=7S) 8S"
    assert shown(add(table, "4S 3S JK")) == "2S 3S 4S 5S 6S JK(=7S) 8S"
    assert add(table, "JK 4S") == "two wild cards in one meld"
    # a pinella of another suit never becomes natural
    assert add("3S 4S 2H(=5S) 6S", "JK") == "two wild cards in one meld"


def test_s4_3_9_natural_two_becomes_the_wild_pagat_example() -> None:
    """§4.3.9: ``2H 3H 4H 5H 6H 7H`` + ``9H`` → ``3H 4H 5H 6H 7H 2H(=8H) 9H`` (dirty)."""
    meld = M("2H 3H 4H 5H 6H 7H")
    assert meld.wild == 0
    result = add(meld, "9H")
    assert shown(result) == "3H 4H 5H 6H 7H 2H(=8H) 9H"
    assert isinstance(result, Meld)
    check_table_meld(result)
    assert base_type(result) == "dirty"
    assert burraco_bonus(result) == 100
    assert 8 in accepts(meld)  # 9H (face 8) is attachable alone


def test_s4_3_9_rules_flag_off_forbids_it() -> None:
    """§4.3.9: the move is a rules option (``natural_two_to_wild``)."""
    strict = FIBUR.with_options(natural_two_to_wild=False)
    meld = M("2H 3H 4H 5H 6H 7H", strict)
    assert add(meld, "9H", strict) == "the cards are not consecutive"
    assert 8 not in accepts(meld, strict)
    assert shown(add(meld, "8H", strict)) == "2H 3H 4H 5H 6H 7H 8H"


def test_s4_3_9_conditions() -> None:
    """§4.3.9 default: not with another wild, not with an ace below the 2, and only when
    the attached cards cannot be placed with the 2 natural."""
    assert add("2H JK(=3H) 4H 5H", "7H") == "the cards are not consecutive"
    assert shown(add("JK(=AH) 2H 3H 4H", "6H")) == "2H 3H 4H JK(=5H) 6H"  # §4.3.6 instead
    assert add("AH 2H 3H 4H 5H 6H 7H", "9H") == "the cards are not consecutive"
    assert shown(add("2H 3H 4H 5H 6H 7H", "8H")) == "2H 3H 4H 5H 6H 7H 8H"
    assert shown(add("2H 3H 4H", "JK")) == "JK(=AH) 2H 3H 4H"  # the 2 stays natural
    assert shown(add("2H 3H 4H", "6H 7H")) == "3H 4H 2H(=5H) 6H 7H"
    assert add("2H 3H 4H", "7H") == "the cards are not consecutive"  # two gaps


def test_s4_3_9_the_turned_two_returns_natural_when_its_gap_fills() -> None:
    """§4.3.9 + §4.3.6: the 2 turned wild is freed by its natural and lands back in its slot."""
    turned = add("2H 3H 4H 5H 6H 7H", "9H")
    assert isinstance(turned, Meld)
    assert shown(add(turned, "8H")) == "2H 3H 4H 5H 6H 7H 8H 9H"
    assert shown(add(turned, "JK")) == "2H 3H 4H 5H 6H 7H JK(=8H) 9H"  # §4.3.8


def test_s4_3_11_several_cards_judged_on_the_result() -> None:
    """§4.3.11: several cards go on one meld in one action, judged on the result alone."""
    assert shown(add("5H 6H 7H", "9H 8H 10H")) == "5H 6H 7H 8H 9H 10H"
    assert shown(add("5H 6H 7H", "3H 4H JK")) == "JK(=2H) 3H 4H 5H 6H 7H"
    assert shown(add("5H 6H 7H", "3H JK")) == "3H JK(=4H) 5H 6H 7H"
    assert shown(add("7H 7S 7D", "JK 7C 7C")) == "7H 7D 7C 7C 7S JK"
    # a card that cannot be attached alone fits together with another (§4.3.6 example)
    assert isinstance(add("6C JK(=7C) 8C", "10C"), str)
    assert isinstance(add("6C JK(=7C) 8C", "7C 10C"), Meld)
    assert isinstance(add("5S 6S 2S(=7S) 8S", "3S"), str)
    assert isinstance(add("5S 6S 2S(=7S) 8S", "JK"), str)
    assert shown(add("5S 6S 2S(=7S) 8S", "3S JK 4S")) == "2S 3S 4S 5S 6S JK(=7S) 8S"


def test_s4_3_11_rejected_whole_with_the_reason() -> None:
    """§4.3.11: an attachment that does not give one legal meld is rejected whole."""
    meld = M("5H 6H 7H")
    assert add(meld, "8H 9S") == "9S is not of the sequence's suit"
    assert add(meld, "8H 10H") == "the cards are not consecutive"
    assert add(meld, "8H JK 2S") == "two wild cards in one meld"
    assert add(meld, "") == "attach at least one card"
    assert read_attach(meld, [99, 99]) == "the same physical card is named twice"
    with pytest.raises(MeldError, match="the cards are not consecutive"):
        attach(meld, ids_for_faces(parse_faces("10H"), avoid=meld.cards))
    for reason in (add(meld, "8H 9S"), add(meld, "8H 10H"), add(meld, "")):
        assert is_reason(reason)


def test_s4_rejection_reasons_are_sentences() -> None:
    """§4 (engine): every rejection is a readable sentence for a player."""
    jokerless = FIBUR.with_options(jokers=False)
    international = FIBUR.with_options(set_ranks=(1, 3))
    cases: list[Meld | str] = [
        new("3H"), new("3H 4H 6H"), new("3H 4S 5D"), new("2H 2S 2D"), new("JK 5H 2S"),
        new("5H 6H JK 2S"), new("3H 3H 4H"), new("9H 9H 9D 9D 9C 9C 9S 9S 9D"),
        new("5H 6H JK", jokerless), new("7H 7S 7D", international),
        add("5H 6H 7H", "9S"), add("7H 7S 7D", "8H"), add("5H 6H 7H", ""),
        add("AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH JK(=AH)", "2S"),
        read_meld(ids_for_faces(parse_faces("5H 6H")) * 2),
    ]
    for reason in cases:
        assert is_reason(reason), reason
    assert new("7H 7S 7D", international) == "sets of 7s are not allowed (only aces and threes)"
    assert new("5H 6H JK", jokerless) == "jokers are not in play under these rules"


# --- Meld value and notation ---------------------------------------------------------------


def test_s1_3_meld_points_wilds_at_their_own_value() -> None:
    """§1.3: a wild scores its own value; a natural pinella still scores 20."""
    assert M("JK 5H 6H").points == 30 + 5 + 5
    assert M("AH 2H 3H").points == 15 + 20 + 5
    assert M("QS KS AS 2D").points == 20 + 10 + 10 + 15
    assert M("7H 7S 2H").points == 5 + 5 + 20


def test_s0_1_meld_tokens_and_attributes() -> None:
    """§0.1: a meld prints its cards in table order, each wild with its role."""
    meld = M("5H 6H JK 8H")
    assert meld.tokens() == ["5H", "6H", "JK(=7H)", "8H"]
    assert str(meld) == "5H 6H JK(=7H) 8H"
    assert repr(meld) == "Meld('5H 6H JK(=7H) 8H')"
    assert (meld.kind, meld.suit, meld.lo, meld.hi, meld.wild) == (SEQUENCE, 0, 5, 8, 7)
    assert meld.wild_card is not None and card_face(meld.wild_card) == JOKER
    set_meld = M("QD QS 2C")
    assert set_meld.tokens() == ["QD", "QS", "2C"]
    assert (set_meld.kind, set_meld.rank, set_meld.wild) == (SET, 12, 1)
    assert M("QD QS QC").wild_card is None


def test_s0_1_parse_meld_reads_the_table_notation() -> None:
    """§0.1: ``2C(=7H)`` is a 2 standing for 7H; parse_meld honours written roles and ends."""
    assert str(parse_meld("5H 6H JK(=7H) 8H")) == "5H 6H JK(=7H) 8H"
    assert str(parse_meld("5H JK 6H")) == "JK(=4H) 5H 6H"  # no role: canonical reading
    assert str(parse_meld("5C 6C JK(=7C)")) == "5C 6C JK(=7C)"  # a free wild where written
    assert str(parse_meld("QH, KH, JK(=AH)")) == "QH KH JK(=AH)"
    ace_low = "AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH"
    assert parse_meld(ace_low).lo == 1  # the ace keeps the end where it is written
    assert parse_meld("2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH").lo == 2
    assert str(parse_meld("TD JD QD")) == "10D JD QD"
    assert str(parse_meld("7H 7S JK(=7C)")) == "7H 7S JK"


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("5H 6H JK(=9H)", "JK(=9H) cannot stand there"),
        ("6C JK(=7C) 8C JK", "two wild cards in one meld"),
        ("5H(=5H) 6H 7H", "5H(=5H): only a joker or a 2 can stand for another card"),
        ("5H 6H JK(=7S)", "JK(=7S): the wild must stand for a card of the sequence's suit"),
        ("7H 7S JK(=8C)", "JK(=8C): the wild of a set stands for the set's rank"),
        ("5H 6H JK(7H)", "cannot read wild role in 'JK(7H)'; write it as JK(=7H)"),
        ("5H 6H 8H", "the cards are not consecutive"),
    ],
)
def test_s0_1_parse_meld_rejects_wrong_notation(text: str, reason: str) -> None:
    """§0.1/§4: a written meld that cannot be on the table raises MeldError with the reason."""
    with pytest.raises(MeldError) as info:
        parse_meld(text)
    assert str(info.value) == reason


def test_s0_1_parse_meld_bad_card_names_the_token() -> None:
    """§0.1: an unreadable card in a written meld raises CardParseError naming it."""
    from burraco.engine.cards import CardParseError

    with pytest.raises(CardParseError, match="'8X'"):
        parse_meld("6H 7H 8X")
    with pytest.raises(CardParseError, match="'QQ'"):
        parse_meld("5H 6H JK(=QQ)")


def test_s1_1_ids_for_faces_gives_distinct_physical_cards() -> None:
    """§1.1: two packs hold two copies of each face and four jokers."""
    ids = ids_for_faces(parse_faces("7H 7H JK JK JK JK"))
    assert len(set(ids)) == 6
    assert [face_str(card_face(c)) for c in ids] == ["7H", "7H", "JK", "JK", "JK", "JK"]
    avoided = ids_for_faces(parse_faces("7H"), avoid=ids)
    assert avoided[0] not in ids
    with pytest.raises(MeldError, match="too many copies of 7H"):
        ids_for_faces([make_face(7, 0)] * 7)


# --- §5 burraco classification -------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("3H 4H 5H 6H 7H 8H", None),  # six cards: no burraco
        ("7H 7S 7D 7C JK", None),
        ("3H 4H 5H 6H 7H 8H 9H", "clean"),
        ("2H 3H 4H 5H 6H 7H 8H", "clean"),  # §5: the natural 2 is allowed in a clean burraco
        ("AH 2H 3H 4H 5H 6H 7H", "clean"),
        ("7H 7H 7D 7D 7C 7S 7S", "clean"),
        ("JK(=2H) 3H 4H 5H 6H 7H 8H 9H", "semi-clean"),  # wild at an end, 7 naturals
        ("3H 4H 5H 6H 7H 8H 9H JK(=10H)", "semi-clean"),
        ("JK(=AH) 2H 3H 4H 5H 6H 7H 8H", "semi-clean"),  # the natural 2 counts as natural
        ("3S JK(=4S) 5S 6S 7S 8S 9S 10S JS", "semi-clean"),  # §5 CONFLICT default: inner wild
        ("3S 4S 5S 6S 7S 8S 9S JK(=10S) JS", "semi-clean"),
        ("3H 4H 5H 6H JK(=7H) 8H 9H 10H JH", "dirty"),  # runs of 4 and 4
        ("JK(=3H) 4H 5H 6H 7H 8H 9H", "dirty"),  # six naturals + wild
        ("3H 4H 5H 2C(=6H) 7H 8H 9H", "dirty"),
        ("3H 4H 5H 6H 7H 8H 2H(=9H) 10H", "dirty"),
        ("7H 7H 7D 7D 7C 7S JK", "dirty"),  # set: 6 naturals + wild
        ("7H 7H 7D 7D 7C 7S 7S JK", "semi-clean"),  # set: 7 naturals + wild
        ("7H 7H 7D 7D 7C 7C 7S 7S 2D", "semi-clean"),  # §5 CONFLICT default: set of 9
        ("JK(=AD) 2D 3D 4D 5D 6D 7D 8D 9D 10D JD QD KD AD", "semi-clean"),
        ("2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH", "clean"),
    ],
)
def test_s5_classification(text: str, kind: str | None) -> None:
    """§5: 7+ cards; clean (no acting wild), semi-clean (7+ naturals on one side of the wild;
    a set with one wild and 7–8 naturals), dirty otherwise."""
    meld = parse_meld(text)
    assert str(meld) == text or meld.kind == SET
    assert base_type(meld) == kind
    assert burraco_type(meld) == kind
    assert burraco_bonus(meld) == {None: 0, "clean": 200, "semi-clean": 150, "dirty": 100}[kind]


def test_s5_semi_clean_example_wild_not_at_an_end() -> None:
    """§5 CONFLICT (default): ``3S JK(=4S) 5S … JS`` is semi-clean (one-side run of 7)."""
    meld = M("3S JK 5S 6S 7S 8S 9S 10S JS")
    assert str(meld) == "3S JK(=4S) 5S 6S 7S 8S 9S 10S JS"
    assert base_type(meld) == "semi-clean" and burraco_bonus(meld) == 150
    end_only = FIBUR.with_options(semi_clean_inner_wild=False)
    assert base_type(meld, end_only) == "dirty" and burraco_bonus(meld, end_only) == 100


def test_s5_option_semi_clean_inner_wild_false_keeps_wild_at_an_end() -> None:
    """§5 option ``semi_clean_inner_wild=False`` (OM): only a wild at an end is semi-clean."""
    end_only = FIBUR.with_options(semi_clean_inner_wild=False)
    assert base_type(parse_meld("JK(=2H) 3H 4H 5H 6H 7H 8H 9H"), end_only) == "semi-clean"
    assert base_type(parse_meld("3H 4H 5H 6H 7H 8H 9H JK(=10H)"), end_only) == "semi-clean"
    assert base_type(parse_meld("3H 4H 5H 6H 7H 8H 9H 2S(=10H) JH"), end_only) == "dirty"
    assert base_type(parse_meld("JK(=3H) 4H 5H 6H 7H 8H 9H"), end_only) == "dirty"
    assert base_type(M("7H 7H 7D 7D 7C 7S 7S JK"), end_only) == "semi-clean"  # sets unaffected


def test_s5_option_semi_clean_false_scores_dirty() -> None:
    """§5 CONFLICT option ``semi_clean=False``: federations without semi-clean score it dirty."""
    no_semi = FIBUR.with_options(semi_clean=False)
    for text in (
        "JK(=2H) 3H 4H 5H 6H 7H 8H 9H", "3S JK(=4S) 5S 6S 7S 8S 9S 10S JS",
        "7H 7H 7D 7D 7C 7S 7S JK",
    ):
        meld = parse_meld(text)
        assert base_type(meld) == "semi-clean"
        assert base_type(meld, no_semi) == "dirty" and burraco_bonus(meld, no_semi) == 100
    assert base_type(parse_meld("3H 4H 5H 6H 7H 8H 9H"), no_semi) == "clean"


def test_s5_option_semi_clean_set_of_nine_false() -> None:
    """§5 CONFLICT option ``semi_clean_set_of_nine=False``: only an 8-card set is semi-clean."""
    eight_only = FIBUR.with_options(semi_clean_set_of_nine=False)
    nine = M("7H 7H 7D 7D 7C 7C 7S 7S 2D")
    eight = M("7H 7H 7D 7D 7C 7S 7S JK")
    assert base_type(nine) == "semi-clean"
    assert base_type(nine, eight_only) == "dirty"
    assert base_type(eight, eight_only) == "semi-clean"
    assert base_type(M("7H 7H 7D 7D 7C 7C 7S 7S"), eight_only) == "clean"


def test_s5_classification_follows_the_meld_as_it_stands() -> None:
    """§5: decided at the final count on the meld as it then stands."""
    meld = M("5D 6D 7D 8D 9D JK")
    assert base_type(meld) is None
    meld = attach_faces(meld, parse_faces("10D"))
    assert str(meld) == "JK(=4D) 5D 6D 7D 8D 9D 10D" and base_type(meld) == "dirty"
    meld = attach_faces(meld, parse_faces("JD"))
    assert base_type(meld) == "semi-clean"
    bound = attach_faces(M("5D 6D 7D 8D 9D 10D JK"), parse_faces("QD"))
    assert str(bound) == "5D 6D 7D 8D 9D 10D JK(=JD) QD" and base_type(bound) == "dirty"
    freed = attach_faces(bound, parse_faces("JD"))
    assert str(freed) == "JK(=4D) 5D 6D 7D 8D 9D 10D JD QD" and base_type(freed) == "semi-clean"


# --- §15 extra burraco types ---------------------------------------------------------------

FIAB = FIBUR.with_options(
    bonuses=(
        ("clean", 200), ("semi-clean", 150), ("dirty", 100), ("super", 250),
        ("dirty-super", 200), ("royal", 300), ("dirty-royal", 250), ("complete", 400),
    ),
)


@pytest.mark.parametrize(
    ("text", "kind", "bonus"),
    [
        ("7H 7H 7D 7D 7C 7C 7S 7S", "super", 250),  # clean set of 8
        ("7H 7H 7D 7D 7C 7C 7S 7S JK", "dirty-super", 200),  # 8 equal + wild
        ("7H 7H 7D 7D 7C 7S 7S JK", "semi-clean", 150),  # 7 + wild: not a super
        ("7H 7H 7D 7D 7C 7S 7S", "clean", 200),
        ("AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH", "royal", 300),  # clean A–K
        ("2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH", "royal", 300),  # natural 2–A
        ("2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH", "clean", 200),  # 12 cards: not royal
        ("JK(=AH) 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH", "dirty-royal", 250),
        ("2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH JK(=KH) AH", "dirty-royal", 250),
        ("AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH JK(=AH)", "complete", 400),
        ("JK(=AH) 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH", "complete", 400),
        ("3H 4H 5H 6H 7H 8H 9H", "clean", 200),
        ("3H 4H 5H 6H 2C(=7H) 8H 9H", "dirty", 100),
    ],
)
def test_s15_extra_burraco_types(text: str, kind: str, bonus: int) -> None:
    """§15: super, dirty-super, royal, dirty-royal, complete when the rules score them."""
    meld = parse_meld(text)
    assert burraco_type(meld, FIAB) == kind
    assert burraco_bonus(meld, FIAB) == bonus


def test_s15_fibur_has_no_extra_types() -> None:
    """§15: under FIBur a super or royal is simply clean (200), a dirty royal semi/dirty."""
    assert burraco_type(M("7H 7H 7D 7D 7C 7C 7S 7S")) == "clean"
    assert burraco_type(M("7H 7H 7D 7D 7C 7C 7S 7S JK")) == "semi-clean"
    assert burraco_type(parse_meld("AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH")) == "clean"
    full = parse_meld("AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH JK(=AH)")
    assert burraco_type(full) == "semi-clean" and burraco_bonus(full) == 150


def test_s15_type_not_listed_falls_back() -> None:
    """§15: a type the rules do not list falls back to the next one, then clean/semi/dirty."""
    royal_only = FIBUR.with_options(
        bonuses=(("clean", 200), ("semi-clean", 150), ("dirty", 100), ("dirty-royal", 250)),
    )
    full = parse_meld("AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH JK(=AH)")
    assert burraco_type(full, royal_only) == "dirty-royal"
    assert burraco_type(full, FIBUR) == "semi-clean"
    no_semi = FIAB.with_options(semi_clean=False)
    assert burraco_type(M("7H 7H 7D 7D 7C 7S 7S JK"), no_semi) == "dirty"
    assert burraco_type(M("5H 6H 7H"), FIAB) is None
    assert burraco_bonus(M("5H 6H 7H"), FIAB) == 0


# --- property tests ------------------------------------------------------------------------

WILD_FACES: list[int] = [JOKER, *(make_face(2, s) for s in range(4))]
SET_RANKS = [1, *range(3, 14)]


def ref_max_naturals(faces: Sequence[int], packs: int = 2) -> int | None:
    """Brute-force §4 reading: the most natural cards of any legal reading, or None.

    A sequence: the cards fill consecutive slots a…b of one suit inside 1…14 (slot 14 is
    the high ace); each card in a slot is either the natural card of that slot (an ace in
    slot 1 or 14, a 2 of the suit only in slot 2) or a wild (a joker or any 2); at most
    one wild, at least two naturals, never a natural ace in both slot 1 and slot 14.
    A set: the cards are naturals of one rank (not 2) and at most one wild, with 2 to
    ``4·packs`` naturals.  Always at least 3 cards.
    """
    n = len(faces)
    if n < 3:
        return None
    best: int | None = None

    def natural_at(face: int, slot: int, suit: int) -> bool:
        return face != JOKER and face == make_face(1 if slot == 14 else slot, suit)

    def fill(slots: list[int], cards: list[int], suit: int, wilds: int, aces: int) -> int | None:
        if not slots:
            return n - wilds if n - wilds >= 2 and aces < 2 else None
        slot, rest = slots[0], slots[1:]
        found: int | None = None
        for face in sorted(set(cards)):
            left = list(cards)
            left.remove(face)
            options = []
            if natural_at(face, slot, suit):
                options.append((wilds, aces + (face_rank(face) == 1)))
            if is_wild_face(face) and wilds == 0:
                options.append((1, aces))
            for w, a in options:
                got = fill(rest, left, suit, w, a)
                if got is not None and (found is None or got > found):
                    found = got
        return found

    for suit in range(4):
        for low in range(1, 15 - n + 1):
            got = fill(list(range(low, low + n)), list(faces), suit, 0, 0)
            if got is not None and (best is None or got > best):
                best = got
    for rank in SET_RANKS:
        naturals = sum(1 for f in faces if f != JOKER and face_rank(f) == rank)
        others = [f for f in faces if f == JOKER or face_rank(f) != rank]
        if len(others) <= 1 and all(is_wild_face(f) for f in others) and (
            2 <= naturals <= 4 * packs
        ):
            best = naturals if best is None else max(best, naturals)
    return best


def copies_ok(faces: Sequence[int]) -> bool:
    """At most two copies of a face and four jokers: what two packs hold."""
    counts = Counter(faces)
    return all(c <= (4 if f == JOKER else 2) for f, c in counts.items())


@st.composite
def meld_like_faces(draw: st.DrawFn) -> list[int]:
    """3–7 faces that nearly form a meld: a run of one suit or cards of one rank, some
    replaced by wilds or by neighbouring or random cards (at most two copies per face)."""
    n = draw(st.integers(3, 7))
    if draw(st.integers(0, 2)):
        suit = draw(st.integers(0, 3))
        low = draw(st.integers(1, 15 - n))
        faces: list[int] = [make_face(1 if s == 14 else s, suit) for s in range(low, low + n)]
        nearby: list[int] = [
            make_face(1 if s == 14 else s, suit)
            for s in range(max(1, low - 2), min(14, low + n + 1) + 1)
        ]
    else:
        rank = draw(st.sampled_from(SET_RANKS))
        suits = draw(st.permutations([0, 0, 1, 1, 2, 2, 3, 3]))
        faces = [make_face(rank, s) for s in suits[:n]]
        nearby = [make_face(rank, s) for s in range(4)]
    for _ in range(draw(st.integers(0, 3))):
        index = draw(st.integers(0, n - 1))
        faces[index] = draw(st.one_of(
            st.sampled_from(WILD_FACES), st.sampled_from(nearby), st.integers(0, FACES - 1),
        ))
    return faces


@given(meld_like_faces())
@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_s4_property_new_meld_matches_brute_force_reference(faces: list[int]) -> None:
    """§4.1–§4.3: read_meld accepts exactly the multisets the brute-force reading accepts,
    uses as many naturals as any legal reading, and lays the cards out legally."""
    if not copies_ok(faces):
        return
    expected = ref_max_naturals(faces)
    result = read_meld(ids_for_faces(faces))
    event("rejected" if isinstance(result, str) else f"{result.kind}, wild={result.wild_count}")
    if expected is None:
        assert isinstance(result, str) and is_reason(result), (faces, result)
        return
    assert isinstance(result, Meld), ([face_str(f) for f in faces], result)
    assert sorted(result.faces()) == sorted(faces)
    assert len(result.cards) - result.wild_count == expected
    check_table_meld(result)


def test_s4_every_three_and_four_card_multiset_of_one_suit_matches_the_reference() -> None:
    """§4.1–§4.3: exhaustively (suits are symmetric): every multiset of 3 cards, and of 4
    cards without two identical naturals, drawn from the hearts, the other 2s, a joker and
    7S 7D (for sets and mixed suits) is accepted iff the brute-force reading accepts it."""
    from itertools import combinations_with_replacement

    pool = [*range(13), JOKER, *(make_face(2, s) for s in (1, 2, 3)), make_face(7, 3),
            make_face(7, 1)]
    checked = 0
    for size in (3, 4):
        for faces in combinations_with_replacement(pool, size):
            if size == 4 and any(c > 1 for f, c in Counter(faces).items() if f != JOKER):
                continue
            expected = ref_max_naturals(faces)
            result = read_meld(ids_for_faces(faces))
            assert (expected is None) == isinstance(result, str), (faces, result)
            if isinstance(result, Meld):
                assert len(result.cards) - result.wild_count == expected
                check_table_meld(result)
            checked += 1
    assert checked > 5000


def test_s4_reference_agrees_on_the_worked_examples() -> None:
    """The brute-force reference itself accepts and rejects the RULES.md examples."""
    def ok(text: str) -> bool:
        return ref_max_naturals(parse_faces(text)) is not None

    assert ok("AC 2C 3C 2S 5C") and ok("QC KC AC") and ok("7H 7H 7S") and ok("AH 2H JK")
    assert not ok("KC AC 2C 3C") and not ok("2H 2S 2D") and not ok("5H 6H JK 2S")
    assert ref_max_naturals(parse_faces("AC 2C 3C 2S 5C")) == 4


@st.composite
def table_melds(draw: st.DrawFn) -> Meld:
    """A legal table meld: a new meld built to be legal, then up to three attachments."""
    wild = draw(st.sampled_from([None, None, *WILD_FACES]))
    if draw(st.integers(0, 2)) == 0:
        rank = draw(st.sampled_from(SET_RANKS))
        suits = draw(st.permutations([0, 0, 1, 1, 2, 2, 3, 3]))
        faces: list[int] = [make_face(rank, s) for s in suits[: draw(st.integers(2, 8))]]
        if wild is not None or len(faces) < 3:
            faces.append(JOKER if wild is None else wild)
    else:
        suit = draw(st.integers(0, 3))
        length = draw(st.integers(3, 13))
        low = draw(st.integers(1, 15 - length))
        faces = [make_face(1 if s == 14 else s, suit) for s in range(low, low + length)]
        if wild is not None:
            if len(faces) > 3 and draw(st.booleans()):
                faces[draw(st.integers(1, len(faces) - 2))] = wild
            elif len(faces) < 14:
                faces.append(wild)
    grown_from = draw(st.integers(0, len(faces) - 3))
    if grown_from and faces[0] != JOKER and face_rank(faces[0]) == 1:
        # a run grown on the table from its first three cards: an ace put down low stays low
        meld = read_meld(ids_for_faces(faces[:3]))
        assert isinstance(meld, Meld), faces
        grown = read_attach(meld, ids_for_faces(faces[3:], avoid=meld.cards))
        meld = grown if isinstance(grown, Meld) else meld
    else:
        meld = read_meld(ids_for_faces(faces))
    assert isinstance(meld, Meld), faces
    for _ in range(draw(st.integers(0, 3))):
        extra = draw(st.lists(near_faces(meld), min_size=1, max_size=3))
        if not copies_ok([*meld.faces(), *extra]):
            continue
        grown = read_attach(meld, ids_for_faces(extra, avoid=meld.cards))
        if isinstance(grown, Meld):
            meld = grown
    return meld


def near_faces(meld: Meld) -> st.SearchStrategy[int]:
    """Faces likely to fit ``meld``: the slots at its ends and of its wild, its rank;
    wilds; now and then any face."""
    if meld.kind == SET:
        near = [make_face(meld.rank, s) for s in range(4)]
    else:
        slots = {meld.lo - 2, meld.lo - 1, meld.hi + 1, meld.hi + 2, meld.wild, 2}
        near = [make_face(1 if s == 14 else s, meld.suit) for s in slots if 1 <= s <= 14]
    return st.one_of(
        st.sampled_from(near), st.sampled_from(near), st.sampled_from(near),
        st.sampled_from(WILD_FACES), st.integers(0, FACES - 1),
    )


def faces_of(meld: Meld) -> list[int]:
    return sorted(meld.faces())


def naturals(meld: Meld) -> int:
    return len(meld.cards) - meld.wild_count


def natural_ace_slot(meld: Meld) -> int | None:
    """The slot (1 or 14) of the natural ace of a sequence, if it holds one."""
    if meld.kind != SEQUENCE:
        return None
    for i, face in enumerate(meld.faces()):
        if meld.lo + i != meld.wild and face != JOKER and face_rank(face) == 1:
            return meld.lo + i
    return None


@given(table_melds(), st.data())
@settings(max_examples=800, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_s4_3_11_property_attach_in_steps_equals_attach_at_once(
    meld: Meld, data: st.DataObject,
) -> None:
    """§4.3.11: attaching X then Y gives the meld that attaching [X, Y] at once gives
    (when both single steps are legal), and naming order never matters."""
    x = data.draw(near_faces(meld), label="x")
    [x_id] = ids_for_faces([x], avoid=meld.cards)
    after_x = read_attach(meld, [x_id])
    # draw Y near the meld as it stands after X (when X fits), so both steps often fit
    y = data.draw(near_faces(after_x if isinstance(after_x, Meld) else meld), label="y")
    if not copies_ok([*meld.faces(), x, y]):
        return
    xy = ids_for_faces([x, y], avoid=meld.cards)
    both = read_attach(meld, xy)
    swapped = read_attach(meld, xy[::-1])
    if isinstance(both, Meld):
        assert isinstance(swapped, Meld) and key(swapped) == key(both)
        check_table_meld(both)
        assert set(meld.cards) <= set(both.cards)  # §4.3.6: nothing leaves the meld
    else:
        # both rejected (the reason may name whichever bad card comes first)
        assert isinstance(swapped, str) and is_reason(both) and is_reason(swapped)
    first = read_attach(meld, xy[:1])
    if not isinstance(first, Meld):
        return
    second = read_attach(first, xy[1:])
    if not isinstance(second, Meld):
        return
    assert isinstance(both, Meld), (str(meld), face_str(x), face_str(y), str(second), both)
    event(f"both steps legal ({meld.kind})")
    if natural_ace_slot(second) != natural_ace_slot(both):
        event("ace at the other end")
        # the one choice that steps can force and an attachment at once leaves open: the end
        # an ace takes (attached first, alone, it goes where it fits at that moment).  At
        # once the engine takes the reading with most naturals, then the higher bonus
        assert faces_of(second) == faces_of(both)
        assert (naturals(both), burraco_bonus(both)) >= (naturals(second), burraco_bonus(second))
    else:
        assert key(second) == key(both), (str(meld), face_str(x), face_str(y))


@given(table_melds())
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_s4_3_property_accepts_is_the_set_of_attachable_faces(meld: Meld) -> None:
    """§4.3: accepts(meld) is exactly the faces that can be attached alone (all 53 tried),
    under the default rules and with the §4.3.9 flag off (the cache must not mix them)."""
    for rules in (FIBUR, FIBUR.with_options(natural_two_to_wild=False), FIBUR):
        fits = {
            f for f in range(FACES)
            if isinstance(read_attach(meld, ids_for_faces([f], avoid=meld.cards), rules), Meld)
        }
        assert accepts(meld, rules) == fits, (str(meld), sorted(fits))


@given(table_melds())
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_s0_1_property_printed_meld_parses_back_equal(meld: Meld) -> None:
    """§0.1: the arrangement printed by str(meld) reads back, via parse_meld, to the same
    meld (same faces in the same slots, same wild role), and meets the §4 invariants."""
    check_table_meld(meld)
    again = parse_meld(str(meld))
    assert key(again) == key(meld), (str(meld), str(again))
    assert str(again) == str(meld)
    assert base_type(again) == base_type(meld)


@given(table_melds(), st.data())
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_s4_3_5_property_naturals_keep_their_slots(meld: Meld, data: st.DataObject) -> None:
    """§4.3.5 (project decision): after any attachment each natural card keeps its slot,
    save a natural 2 that becomes the wild (§4.3.9) or a pinella dropping to its slot."""
    extra = data.draw(st.lists(near_faces(meld), min_size=1, max_size=3), label="extra")
    if not copies_ok([*meld.faces(), *extra]):
        return
    result = read_attach(meld, ids_for_faces(extra, avoid=meld.cards))
    if not isinstance(result, Meld):
        return
    check_table_meld(result)
    if meld.kind == SET:
        assert result.wild_card == meld.wild_card or not meld.wild
        return
    for i, card in enumerate(meld.cards):
        slot = meld.lo + i
        if slot == meld.wild:
            continue
        new_slot = result.lo + result.cards.index(card)
        if new_slot != slot:
            assert slot == 2 and result.wild_card == card, (str(meld), str(result))
    if meld.wild and result.wild_card != meld.wild_card:
        # the old wild changed role: freed into its natural 2-slot (§4.3.6, §4.3.8)
        old = meld.wild_card
        assert old is not None
        assert result.lo + result.cards.index(old) == 2
        assert card_face(old) == make_face(2, meld.suit)


def test_s1_1_property_helpers() -> None:
    """§1.1 (test helpers): slot 14 is the ace; two packs hold two copies of a face."""
    assert face_suit(slot_face(14, 2)) == 2 and face_rank(slot_face(14, 2)) == 1
    assert copies_ok(parse_faces("7H 7H JK JK JK JK")) and not copies_ok(parse_faces("7H 7H 7H"))
