"""Cards, faces and the card notation (RULES.md §0.1, §1).

Each test names the RULES.md section it checks.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from burraco.engine.cards import (
    CARDS_PER_PACK,
    FACE_IS_WILD,
    FACE_POINTS,
    FACES,
    JOKER,
    CardParseError,
    Rank,
    Suit,
    card_face,
    card_pack,
    card_str,
    deck,
    face_points,
    face_rank,
    face_str,
    face_suit,
    faces_str,
    is_wild_face,
    make_face,
    parse_face,
    parse_faces,
    sort_key,
)

ALL_FACES = list(range(FACES))


# --- §0.1 notation -------------------------------------------------------------------------

def test_s0_1_every_face_prints_and_parses_back() -> None:
    """§0.1: every one of the 53 faces has one printed form that reads back to it."""
    texts = [face_str(f) for f in ALL_FACES]
    assert len(set(texts)) == FACES
    assert [parse_face(t) for t in texts] == ALL_FACES


@pytest.mark.parametrize(
    ("text", "rank", "suit"),
    [
        ("AH", 1, 0), ("2D", 2, 1), ("3C", 3, 2), ("9S", 9, 3), ("10H", 10, 0),
        ("JD", 11, 1), ("QC", 12, 2), ("KS", 13, 3),
    ],
)
def test_s0_1_ranks_and_suits(text: str, rank: int, suit: int) -> None:
    """§0.1: ranks A 2 … 10 J Q K and suits H D C S."""
    face = parse_face(text)
    assert face_rank(face) == rank
    assert face_suit(face) == suit
    assert face == make_face(rank, suit)
    assert face_str(face) == text


def test_s0_1_ten_is_printed_10_and_read_as_10_or_t() -> None:
    """§0.1: the ten is written ``10``; ``T`` is accepted as input and printed ``10``."""
    for suit in "HDCS":
        assert parse_face(f"T{suit}") == parse_face(f"10{suit}")
        assert face_str(parse_face(f"T{suit}")) == f"10{suit}"
        assert face_str(parse_face(f"t{suit.lower()}")) == f"10{suit}"


def test_s0_1_joker_is_jk() -> None:
    """§0.1: ``JK`` is the joker; it has no rank and no suit."""
    assert parse_face("JK") == JOKER == parse_face("jk") == parse_face(" Jk ")
    assert face_str(JOKER) == "JK"
    assert face_rank(JOKER) == 0
    assert face_suit(JOKER) == -1


def test_s0_1_lower_case_and_spaces_are_accepted() -> None:
    """§0.1: input is read case-insensitively, surrounding blanks ignored."""
    assert parse_face("7h") == parse_face("7H") == parse_face("  7H\t")
    assert parse_face("qs") == make_face(12, 3)


@pytest.mark.parametrize(
    "token",
    ["", " ", "X", "7", "H", "1H", "0S", "11H", "14C", "7X", "ZZ", "JKH", "HJ", "KJ",
     "10", "AHH", "2♥", "7H(=8H)", "-3D", "JOKER"],
)
def test_s0_1_bad_token_raises_naming_the_token(token: str) -> None:
    """§0.1: a token that is not a card raises CardParseError, whose message names it."""
    with pytest.raises(CardParseError) as info:
        parse_face(token)
    assert info.value.token == token
    assert repr(token) in str(info.value)
    assert str(info.value).startswith("cannot read card ")
    assert isinstance(info.value, ValueError)


def test_s0_1_bad_suit_and_rank_are_explained() -> None:
    """§0.1: the message says what is wrong (suit or rank) and what would be right."""
    with pytest.raises(CardParseError, match=r"unknown suit 'X' \(use H, D, C or S\)"):
        parse_face("7X")
    with pytest.raises(CardParseError, match=r"unknown rank '11' \(use A 2-10 J Q K, or T\)"):
        parse_face("11H")
    with pytest.raises(CardParseError, match="expected a rank and a suit"):
        parse_face("7")


def test_s0_1_parse_faces_reads_lists() -> None:
    """§0.1: a list of cards is separated by blanks or commas; two copies of a card are legal."""
    assert parse_faces("7C 7C, JK,TH") == [make_face(7, 2)] * 2 + [JOKER, make_face(10, 0)]
    assert parse_faces(["AH", "jk"]) == [make_face(1, 0), JOKER]
    assert parse_faces("") == []
    assert faces_str(parse_faces("AC 2C 3C 2S 5C")) == "AC 2C 3C 2S 5C"


def test_s0_1_parse_faces_names_the_bad_token() -> None:
    """§0.1: in a list, the error names the offending token, not the whole text."""
    with pytest.raises(CardParseError) as info:
        parse_faces("7H 8H XY 9H")
    assert info.value.token == "XY"
    assert "'XY'" in str(info.value)


def test_s0_1_face_str_rejects_non_faces() -> None:
    """§0.1: only faces 0–52 have a name."""
    for bad in (-1, 53, 100):
        with pytest.raises(ValueError):
            face_str(bad)


@given(st.lists(st.sampled_from(ALL_FACES), max_size=20), st.sampled_from([" ", ", ", ","]))
@settings(max_examples=100)
def test_s0_1_list_round_trip(faces: list[int], sep: str) -> None:
    """§0.1: printing a list of faces and reading it back gives the same faces."""
    assert parse_faces(sep.join(face_str(f) for f in faces)) == faces


# --- §1 equipment, values, ranks -----------------------------------------------------------

def test_s1_1_two_packs_and_four_jokers_make_108_cards() -> None:
    """§1.1: 108 cards: two packs of 52 plus 4 jokers; each face twice, the joker 4 times."""
    cards = deck(2)
    assert len(cards) == 108 == 2 * CARDS_PER_PACK
    faces: list[int] = [card_face(c) for c in cards]
    assert faces.count(JOKER) == 4
    for face in range(52):
        assert faces.count(face) == 2
    assert [card_pack(c) for c in (0, 53, 54, 107)] == [0, 0, 1, 1]
    assert [card_str(c) for c in (0, 52, 53, 54, 107)] == ["AH", "JK", "JK", "AH", "JK"]


def test_s1_1_twelve_wilds() -> None:
    """§1.1: the wilds are the 4 jokers and the 8 twos (pinelle)."""
    cards = deck(2)
    wilds = [c for c in cards if is_wild_face(card_face(c))]
    assert len(wilds) == 12
    assert sorted({face_str(card_face(c)) for c in wilds}) == ["2C", "2D", "2H", "2S", "JK"]
    assert tuple(is_wild_face(f) for f in ALL_FACES) == FACE_IS_WILD


@pytest.mark.parametrize(
    ("text", "points"),
    [("JK", 30), ("2H", 20), ("2S", 20), ("AD", 15), ("KC", 10), ("QH", 10), ("JS", 10),
     ("10D", 10), ("9C", 10), ("8H", 10), ("7S", 5), ("6D", 5), ("5C", 5), ("4H", 5),
     ("3S", 5)],
)
def test_s1_2_card_values(text: str, points: int) -> None:
    """§1.2: JK 30, 2 20, A 15, K Q J 10 9 8 = 10, 7–3 = 5 (8 and 9 are ten, not five)."""
    face = parse_face(text)
    assert face_points(face) == points == FACE_POINTS[face]


def test_s1_2_total_value_of_the_cards() -> None:
    """§1.2: one pack (52 + 2 jokers) is worth 4·(15+20+5·5+6·10) + 2·30 = 540."""
    assert sum(FACE_POINTS[card_face(c)] for c in range(CARDS_PER_PACK)) == 540


def test_s1_5_suit_order_is_fibur_h_d_c_s() -> None:
    """§1.5: the FIBur tie-break order H > D > C > S is the Suit enum order."""
    assert [s.letter for s in Suit] == ["H", "D", "C", "S"]
    assert [int(r) for r in Rank] == list(range(1, 14))


def test_s0_1_sort_key_groups_by_suit_jokers_last() -> None:
    """§0.1 (display): a hand is shown by suit, rank order, jokers last."""
    hand = parse_faces("JK 3S KH 2H AH 10D")
    assert faces_str(sorted(hand, key=sort_key)) == "AH 2H KH 10D 3S JK"
