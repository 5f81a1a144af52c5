"""Hand scoring (RULES.md §9, §8.4, §7.1) and the three-player halving (§13.2)."""

from __future__ import annotations

import doctest

import pytest

from burraco.engine import scoring
from burraco.engine.cards import parse_faces
from burraco.engine.melds import Meld, parse_meld
from burraco.engine.rules import FIBUR
from burraco.engine.scoring import SideScore, faces_value, half_up, score_side

CLEAN = "3H 4H 5H 6H 7H 8H 9H"  # 45 points, clean burraco
SEMI = "3S JK(=4S) 5S 6S 7S 8S 9S 10S JS"  # 90 points, semi-clean (wild inside, §5)
DIRTY = "7H 7D 7C 7C 7S 7S 2H"  # 50 points, dirty set
PLAIN = "QH QH QD"  # 30 points, no burraco


def melds(*texts: str) -> list[Meld]:
    return [parse_meld(t) for t in texts]


# --- §9.1 positives -------------------------------------------------------------------------

def test_s9_1_meld_cards_count_at_face_value_wilds_at_their_own() -> None:
    s = score_side(melds("JK 5H 6H 7H", "2C(=8D) 9D 10D"), [], closed=False, pozzetto="taken")
    assert s.melds == 30 + 15 + 20 + 20
    assert s.bonuses == 0 and s.burraco == ()
    assert s.total == 85


def test_s9_1_natural_pinella_still_scores_20() -> None:
    # §1.3: a 2 in its natural slot is worth 20
    s = score_side(melds("AH 2H 3H"), [], closed=False, pozzetto="taken")
    assert s.melds == 15 + 20 + 5


@pytest.mark.parametrize(
    ("text", "kind", "bonus", "points"),
    [(CLEAN, "clean", 200, 45), (SEMI, "semi-clean", 150, 90), (DIRTY, "dirty", 100, 50)],
)
def test_s9_1_burraco_bonus_is_added_to_its_cards(
    text: str, kind: str, bonus: int, points: int
) -> None:
    s = score_side(melds(text), [], closed=False, pozzetto="taken")
    assert s.burraco == ((kind, bonus),)
    assert (s.melds, s.bonuses, s.total) == (points, bonus, points + bonus)


def test_s9_1_burraco_listed_in_meld_order() -> None:
    s = score_side(melds(DIRTY, PLAIN, CLEAN, SEMI), [], closed=False, pozzetto="taken")
    assert s.burraco == (("dirty", 100), ("clean", 200), ("semi-clean", 150))
    assert s.bonuses == 450


def test_s9_1_closing_bonus_only_for_a_real_closing() -> None:
    closed = score_side(melds(CLEAN), [], closed=True, pozzetto="taken")
    ended = score_side(melds(CLEAN), [], closed=False, pozzetto="taken")  # stock, time, stall
    assert closed.closing == 100 and closed.total == 345
    assert ended.closing == 0 and ended.total == 245


def test_s9_1_closing_bonus_follows_the_rules_option() -> None:
    champion = FIBUR.with_options(closing_bonus=200)  # §14.3
    s = score_side(melds(CLEAN), [], closed=True, pozzetto="taken", rules=champion)
    assert s.closing == 200


def test_s7_1_a_closing_needs_the_pozzetto_and_a_burraco() -> None:
    with pytest.raises(ValueError, match="pozzetto"):
        score_side(melds(CLEAN), [], closed=True, pozzetto="missing")
    with pytest.raises(ValueError, match="burraco"):
        score_side(melds(PLAIN), [], closed=True, pozzetto="taken")


# --- §9.2 negatives -------------------------------------------------------------------------

def test_s9_2_cards_in_both_partners_hands_count_against() -> None:
    # the closer holds nothing; his partner still pays for JK 5C
    s = score_side(melds(CLEAN), parse_faces("JK 5C"), closed=True, pozzetto="taken")
    assert s.hand == -35
    assert s.total == 45 + 200 + 100 - 35


def test_s9_2_pozzetto_taken_costs_nothing() -> None:
    s = score_side(melds(PLAIN), [], closed=False, pozzetto="taken")
    assert s.pozzetto == 0


def test_s9_2_pozzetto_missing_costs_the_penalty() -> None:
    s = score_side(melds(PLAIN), parse_faces("AH"), closed=False, pozzetto="missing")
    assert s.pozzetto == -100
    assert s.total == 30 - 100 - 15


def test_s9_2_penalty_follows_the_rules_option() -> None:
    champion = FIBUR.with_options(pozzetto_penalty=200)  # §14.3
    s = score_side([], [], closed=False, pozzetto="missing", rules=champion)
    assert s.pozzetto == -200


def test_s9_2_unplayed_pozzetto_costs_its_cards_instead_of_the_penalty() -> None:
    # taken con lo scarto, the stock ran out before the taker's next turn (§6.4, §8.1)
    pot = parse_faces("JK 2C AH AD KS QS 10H 9D 8C 7H 3S")
    s = score_side(melds(CLEAN), [], closed=False, pozzetto="taken", unplayed=pot)
    value = 30 + 20 + 15 + 15 + 10 + 10 + 10 + 10 + 10 + 5 + 5
    assert s.pozzetto == -value == -140
    assert s.hand == 0
    assert s.total == 45 + 200 - 140


def test_s9_2_unplayed_pozzetto_belongs_to_a_side_that_took_it() -> None:
    with pytest.raises(ValueError, match="took its pozzetto"):
        score_side([], [], closed=False, pozzetto="missing", unplayed=parse_faces("AH"))


def test_s9_2_partner_may_close_while_the_takers_pozzetto_is_unplayed() -> None:
    # §7.1 asks only that the side has taken its pozzetto
    s = score_side(
        melds(CLEAN), [], closed=True, pozzetto="taken", unplayed=parse_faces("KH KD")
    )
    assert (s.closing, s.pozzetto, s.total) == (100, -20, 45 + 200 + 100 - 20)


# --- §8.4 nobody took a pozzetto ------------------------------------------------------------

def test_s8_4_nobody_took_a_pozzetto_default_scores_normally() -> None:
    s = score_side(melds(PLAIN), [], closed=False, pozzetto="nobody")
    assert s.pozzetto == 0 and s.total == 30


def test_s8_4_nobody_took_a_pozzetto_penalty_each() -> None:
    rules = FIBUR.with_options(nobody_pozzetto="penalty-each")
    s = score_side(melds(PLAIN), [], closed=False, pozzetto="nobody", rules=rules)
    assert s.pozzetto == -100 and s.total == -70


def test_s8_4_redeal_leaves_the_decision_to_the_caller() -> None:
    rules = FIBUR.with_options(nobody_pozzetto="redeal")
    s = score_side(melds(PLAIN), [], closed=False, pozzetto="nobody", rules=rules)
    assert s.pozzetto == 0 and s.total == 30


# --- §9.3 totals ----------------------------------------------------------------------------

def test_s9_3_a_whole_hand_both_sides() -> None:
    closer = score_side(
        melds(CLEAN, DIRTY, PLAIN), parse_faces("JK 5C"), closed=True, pozzetto="taken"
    )
    other = score_side(
        melds("8S 9S 10S JS"), parse_faces("AH KD 3C"), closed=False, pozzetto="missing"
    )
    assert closer == SideScore(
        melds=125, bonuses=300, burraco=(("clean", 200), ("dirty", 100)), closing=100,
        pozzetto=0, hand=-35, total=490,
    )
    assert other.total == 40 - 100 - 30 == -90


def test_s9_3_a_score_may_be_negative() -> None:
    s = score_side([], parse_faces("JK JK 2H AS"), closed=False, pozzetto="missing")
    assert s.total == -100 - 95


def test_s9_to_dict_shape() -> None:
    s = score_side(melds(CLEAN, SEMI), parse_faces("3C"), closed=True, pozzetto="taken")
    assert s.to_dict() == {
        "melds": 135,
        "bonuses": 350,
        "burraco": [{"type": "clean", "points": 200}, {"type": "semi-clean", "points": 150}],
        "closing": 100,
        "pozzetto": 0,
        "hand": -5,
        "total": 580,
    }


def test_s1_2_faces_value_rejects_non_faces() -> None:
    assert faces_value(parse_faces("JK 2S AS KS 8S 7S 3S")) == 30 + 20 + 15 + 10 + 10 + 5 + 5
    with pytest.raises(ValueError, match="not a card face"):
        faces_value([53])
    with pytest.raises(ValueError, match="not a card face"):
        faces_value([-1])


def test_unknown_pozzetto_state_is_rejected() -> None:
    with pytest.raises(ValueError, match="unknown pozzetto state"):
        score_side([], [], closed=False, pozzetto="lost")  # type: ignore[arg-type]


# --- §13.2 three players: the pair's score is halved ----------------------------------------

def test_s13_2_halving_example_solo_780_pair_1210() -> None:
    solo, pair = 780, 1210
    assert (solo, half_up(pair), half_up(pair)) == (780, 605, 605)


@pytest.mark.parametrize(
    ("pair", "half"),
    [(1210, 605), (1215, 610), (-115, -55), (-120, -60), (0, 0), (5, 5), (-5, 0), (10, 5)],
)
def test_s13_2_half_rounds_up_to_a_multiple_of_5(pair: int, half: int) -> None:
    assert half_up(pair) == half


def test_module_examples_run() -> None:
    assert doctest.testmod(scoring).failed == 0
