"""Match points → victory points (RULES.md §11.2 tables A and B, §11.3 missing tables)."""

from __future__ import annotations

import doctest

import pytest

from burraco.engine import vp as vp_module
from burraco.engine.rules import FIBUR
from burraco.engine.vp import check_table, victory_points, vp_for_scores, vp_from_bounds

# The tables exactly as printed in RULES.md §11.2: (lowest difference, highest, winner VP).
TABLE_A = [
    (0, 50, 10), (55, 150, 11), (155, 250, 12), (255, 350, 13), (355, 500, 14),
    (505, 650, 15), (655, 800, 16), (805, 1000, 17), (1005, 1250, 18), (1255, 1500, 19),
    (1505, 10_000, 20),
]
TABLE_B = [
    (0, 100, 10), (105, 300, 11), (305, 500, 12), (505, 700, 13), (705, 900, 14),
    (905, 1100, 15), (1105, 1300, 16), (1305, 1500, 17), (1505, 1700, 18), (1705, 2000, 19),
    (2005, 10_000, 20),
]


def _edges(table: list[tuple[int, int, int]]) -> list[tuple[int, int]]:
    return [(diff, vp) for low, high, vp in table for diff in (low, high)]


@pytest.mark.parametrize(("diff", "vp"), _edges(TABLE_A))
def test_s11_2_table_a_three_smazzate_band_edges(diff: int, vp: int) -> None:
    assert victory_points(diff, 3) == (vp, 20 - vp)


@pytest.mark.parametrize(("diff", "vp"), _edges(TABLE_B))
def test_s11_2_table_b_four_smazzate_band_edges(diff: int, vp: int) -> None:
    assert victory_points(diff, 4) == (vp, 20 - vp)


def test_s11_2_named_examples() -> None:
    assert victory_points(50, 3) == (10, 10)
    assert victory_points(55, 3) == (11, 9)
    assert victory_points(1500, 3) == (19, 1)
    assert victory_points(1505, 3) == (20, 0)
    assert victory_points(2000, 4) == (19, 1)
    assert victory_points(2005, 4) == (20, 0)


def test_s11_2_vp_for_scores_in_line_order() -> None:
    assert vp_for_scores(1200, 900, 3) == (13, 7)
    assert vp_for_scores(900, 1200, 3) == (7, 13)
    assert vp_for_scores(-300, 1300, 4) == (2, 18)
    assert vp_for_scores(700, 700, 4) == (10, 10)


def test_s11_2_difference_must_be_a_non_negative_multiple_of_5() -> None:
    with pytest.raises(ValueError, match="negative"):
        victory_points(-5, 3)
    with pytest.raises(ValueError, match="multiple of 5"):
        victory_points(52, 3)
    with pytest.raises(ValueError, match="multiple of 5"):
        vp_for_scores(103, 0, 3)


@pytest.mark.parametrize(("diff", "vp"), [
    (0, (10, 10)), (40, (10, 10)), (45, (11, 9)), (120, (11, 9)), (125, (12, 8)),
    (300, (13, 7)), (305, (14, 6)), (500, (15, 5)), (505, (16, 4)), (620, (16, 4)),
    (625, (17, 3)), (740, (17, 3)), (745, (18, 2)), (870, (18, 2)), (875, (19, 1)),
    (1000, (19, 1)), (1005, (20, 0)), (3000, (20, 0))])
def test_s11_2_table_c_two_smazzate(diff: int, vp: tuple[int, int]) -> None:
    """RULES.md §11.2 table C (FIBur, Codice di gara 2026): every band's edges."""
    assert victory_points(diff, 2) == vp


def test_s11_3_a_team_or_five_smazzate_table_is_not_known() -> None:
    with pytest.raises(ValueError, match=r"no VP table is known .* 5 smazzate.*configure"):
        victory_points(100, 5)


def test_s11_3_a_configured_table_is_used() -> None:
    custom = (25, 75, 125, 175, 250, 325, 400, 500, 625, 750)  # a referee's own, for the test
    rules = FIBUR.with_options(  # in place of the official 2-smazzate table
        vp_tables=(*(t for t in FIBUR.vp_tables if t[0] != 2), (2, custom)))
    assert victory_points(25, 2, rules) == (10, 10)
    assert victory_points(30, 2, rules) == (11, 9)
    assert victory_points(755, 2, rules) == (20, 0)
    assert victory_points(55, 3, rules) == (11, 9)  # the built-in tables stay


def test_s11_3_team_table_only_through_an_explicit_table() -> None:
    team = (20, 60, 100, 140, 200, 260, 320, 400, 500, 600)  # stands in for a configured one
    assert vp_from_bounds(0, team) == (10, 10)
    assert vp_from_bounds(65, team) == (12, 8)
    assert vp_from_bounds(605, team) == (20, 0)


@pytest.mark.parametrize(
    "bounds",
    [
        (50, 150, 250),  # too few
        (50, 150, 250, 350, 500, 650, 800, 1000, 1250, 1500, 1750),  # too many
        (50, 150, 250, 350, 500, 650, 800, 1000, 1250, 1250),  # not increasing
        (50, 150, 250, 350, 500, 650, 800, 1000, 1250, 1502),  # not a multiple of 5
        (-5, 150, 250, 350, 500, 650, 800, 1000, 1250, 1500),  # negative
    ],
)
def test_s11_2_malformed_tables_are_rejected(bounds: tuple[int, ...]) -> None:
    with pytest.raises(ValueError, match="VP table"):
        check_table(bounds)
    rules = FIBUR.with_options(vp_tables=((3, bounds),))
    with pytest.raises(ValueError, match="VP table"):
        victory_points(0, 3, rules)


def test_module_examples_run() -> None:
    assert doctest.testmod(vp_module).failed == 0
