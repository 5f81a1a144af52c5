"""Free-play and tournament matches (RULES.md §2.3 dealer, §9.3 target, §10, §11.2 VP)."""

from __future__ import annotations

import doctest

import pytest

from burraco.engine import match
from burraco.engine.match import FreePlayMatch, TournamentMatch
from burraco.engine.rules import FIBUR


def play(match: FreePlayMatch, *hands: tuple[int, int]) -> FreePlayMatch:
    for hand in hands:
        match = match.record_hand(hand)
    return match


# --- §2.3 dealer ----------------------------------------------------------------------------

def test_s2_3_four_players_first_dealer_is_seat_3_then_rotates() -> None:
    m = FreePlayMatch()
    dealers = []
    for _ in range(6):
        dealers.append((m.dealer, m.first_player))
        m = m.record_hand((100, 100))
    assert dealers == [(3, 0), (0, 1), (1, 2), (2, 3), (3, 0), (0, 1)]


def test_s2_3_two_players_dealer_alternates() -> None:
    m = FreePlayMatch(players=2)
    assert [play(m, *[(0, 0)] * k).dealer for k in range(4)] == [1, 0, 1, 0]
    assert m.first_player == 0


def test_s2_3_a_named_first_dealer() -> None:
    m = FreePlayMatch(first_dealer=1)
    assert (m.dealer, m.record_hand((0, 0)).dealer) == (1, 2)


def test_s2_3_tournament_dealer_rotates_too() -> None:
    t = TournamentMatch(4)
    assert [t.dealer, t.record_hand((0, 0)).dealer] == [3, 0]


@pytest.mark.parametrize("players", [1, 7])
def test_free_play_match_has_two_to_six_players(players: int) -> None:
    with pytest.raises(ValueError, match="2, 3, 4, 5, 6 players"):
        FreePlayMatch(players=players)


@pytest.mark.parametrize(("players", "scores"), [(2, 2), (3, 3), (4, 2), (5, 5), (6, 3)])
def test_s13_free_play_keeps_side_scores_or_seat_scores_at_3_and_5(
    players: int, scores: int,
) -> None:
    """§13.2–13.4: 3 and 5 players score per seat (pairs change), 6 players per pair."""
    match = FreePlayMatch(players=players).record_hand([10] * scores)
    assert match.scores == (10,) * scores
    with pytest.raises(ValueError, match=f"a hand scores {scores} sides"):
        match.record_hand([10] * (scores + 1))


def test_tournament_match_is_between_two_lines() -> None:
    with pytest.raises(ValueError, match="2, 4 players"):
        TournamentMatch(3, players=6)


def test_s2_3_first_dealer_must_be_a_seat() -> None:
    with pytest.raises(ValueError, match="no seat 4"):
        FreePlayMatch(first_dealer=4)


# --- §9.3 free play to a target -------------------------------------------------------------

def test_s9_3_scores_accumulate_and_may_go_negative() -> None:
    m = play(FreePlayMatch(), (490, -90), (-150, 300))
    assert m.scores == (340, 210)
    assert m.winner is None and not m.finished


def test_s9_3_default_target_2005_reached_exactly() -> None:
    m = play(FreePlayMatch(), (1000, 500), (1000, 500))
    assert m.target == 2005
    assert m.scores == (2000, 1000) and m.winner is None
    m = m.record_hand((5, 0))
    assert m.scores == (2005, 1000) and m.winner == 0 and m.finished


def test_s9_3_side_one_can_win() -> None:
    m = play(FreePlayMatch(), (100, 2100))
    assert m.winner == 1


@pytest.mark.parametrize("target", [505, 1005])
def test_s9_3_target_options(target: int) -> None:
    m = FreePlayMatch(rules=FIBUR.with_options(target=target))
    assert m.record_hand((target - 5, 0)).winner is None
    assert m.record_hand((target, 0)).winner == 0


def test_s9_3_both_past_the_target_higher_total_wins() -> None:
    m = play(FreePlayMatch(), (1900, 1950), (200, 100))
    assert m.scores == (2100, 2050)
    assert m.winner == 0


def test_s9_3_both_past_the_target_with_equal_totals_play_on() -> None:
    m = play(FreePlayMatch(), (1900, 1950), (200, 150))
    assert m.scores == (2100, 2100)
    assert m.winner is None and not m.finished
    m = m.record_hand((-50, 40))
    assert m.scores == (2050, 2140) and m.winner == 1


def test_s9_3_no_hand_after_the_winner() -> None:
    m = play(FreePlayMatch(), (2005, 0))
    with pytest.raises(ValueError, match="over"):
        m.record_hand((0, 0))


def test_free_play_is_a_value() -> None:
    m = FreePlayMatch()
    after = m.record_hand((100, 50))
    assert m.hands == () and m.scores == (0, 0)
    assert after.hands == ((100, 50),)
    assert after == FreePlayMatch().record_hand([100, 50])


def test_a_hand_scores_two_sides() -> None:
    with pytest.raises(ValueError, match="2 sides"):
        FreePlayMatch().record_hand((100, 50, 20))


# --- §10, §11.2 tournament matches ----------------------------------------------------------

def test_s11_2_three_smazzate_mp_and_vp() -> None:
    t = TournamentMatch(3)
    for hand in [(490, -90), (120, 360), (-40, 215)]:
        assert not t.finished
        t = t.record_hand(hand)
    assert t.finished
    assert t.mp == (570, 485)
    assert t.vp == (11, 9)  # difference 85: table A band 55-150


def test_s11_2_four_smazzate_use_table_b() -> None:
    t = TournamentMatch(4)
    for hand in [(100, 600), (0, 500), (200, 300), (100, 200)]:
        t = t.record_hand(hand)
    assert t.mp == (400, 1600)
    assert t.vp == (4, 16)  # difference 1200: table B band 1105-1300, EW wins


def test_s11_2_no_smazzata_after_the_last() -> None:
    t = TournamentMatch(3)
    for _ in range(3):
        t = t.record_hand((0, 0))
    assert t.vp == (10, 10)
    with pytest.raises(ValueError, match="played"):
        t.record_hand((0, 0))


def test_s11_3_match_with_unknown_vp_table_fails_before_play() -> None:
    with pytest.raises(ValueError, match="no VP table is known"):
        TournamentMatch(5)


def test_s11_3_two_smazzate_with_a_configured_table() -> None:
    """A club's own table replaces the official one (RULES.md §11.2: the referee may)."""
    custom = (25, 75, 125, 175, 250, 325, 400, 500, 625, 750)
    rules = FIBUR.with_options(
        vp_tables=(*(t for t in FIBUR.vp_tables if t[0] != 2), (2, custom)))
    t = TournamentMatch(2, rules).record_hand((300, 0)).record_hand((0, 20))
    assert t.finished and t.mp == (300, 20) and t.vp == (15, 5)  # 280 <= 325


def test_tournament_needs_a_smazzata() -> None:
    with pytest.raises(ValueError, match="at least one"):
        TournamentMatch(0)


def test_module_examples_run() -> None:
    assert doctest.testmod(match).failed == 0
