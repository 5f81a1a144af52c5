"""Readings where the rules digest leaves a choice: each settled, with its section (RULES.md
§3.1.5, §4.1.2 and §5, §13.3, §14.3 and §17.4; the International ones, §14.1, are in
test_variants.py), and the other reading kept as a ``Rules`` option where the sources allow."""

from __future__ import annotations

from positions import make_deal, play

from burraco import referee
from burraco.engine.cards import parse_faces
from burraco.engine.match import FreePlayMatch
from burraco.engine.melds import base_type, burraco_bonus, meld_from_faces
from burraco.engine.rules import PRESETS, Rules
from burraco.engine.state import HandState
from burraco.engine.views import view

FIBUR = PRESETS["fibur"]


def test_s4_1_2_s5_ace_goes_where_the_burraco_scores_more() -> None:
    # AH 2H … 7H JK 9H … KH: ace low gives seven naturals before the wild (semi-clean, 150);
    # ace high would split the naturals six and six (dirty, 100).  The higher bonus wins,
    # before the high-ace preference of §4.3.5 (docs/decisions.md, "Preferred reading").
    meld = meld_from_faces(parse_faces("AH 2H 3H 4H 5H 6H 7H JK 9H 10H JH QH KH"))
    assert str(meld).startswith("AH 2H 3H")
    assert base_type(meld) == "semi-clean" and burraco_bonus(meld) == 150
    # where the bonus is the same, the ace goes high (§4.3.5)
    run = meld_from_faces(parse_faces("AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH JK"))
    assert str(run).endswith("KH AH")
    # without semi-clean (International, §14.1) both readings are dirty: the ace goes high
    intl = PRESETS["fibur-international"]
    meld = meld_from_faces(parse_faces("AH 2H 3H 4H 5H 6H 7H JK 9H 10H JH QH KH"), intl)
    assert str(meld).endswith("KH AH") and burraco_bonus(meld, intl) == 100


def _pile_of_three(rules: Rules) -> HandState:
    deal = make_deal(hands=["5H 6H 9C KD", "4S 8D QS"], pile="7C", stock="3D 3C", rules=rules)
    return play(HandState.start(deal, rules), "draw", "discard 9C", "draw", "discard QS")


def test_s3_1_5_everyone_sees_the_pile_by_default() -> None:
    state = _pile_of_three(FIBUR)
    assert len(view(state, 1).pile) == 3 and view(state, 1).pile_count == 3


def test_s3_1_5_option_only_the_player_on_turn_looks_through_the_pile() -> None:
    rules = FIBUR.with_options(pile_view="on-turn")
    state = _pile_of_three(rules)
    assert state.turn == 0
    on_turn, other, spectator = view(state, 0), view(state, 1), view(state, None)
    assert on_turn.pile == tuple(state.pile)  # before his draw: the whole pile
    for seen in (other, spectator):
        assert seen.pile == (state.pile[-1],) and seen.pile_count == 3
        assert seen.to_dict()["pile_count"] == 3
    after = play(state, "draw")
    assert view(after, 0).pile == (state.pile[-1],)  # he has drawn: the top card only
    assert play(state, "pickup").pile == []


def test_s13_3_five_player_end_is_an_option_with_gd_value() -> None:
    options = {name: doc for name, _, doc in Rules.options()}
    assert "GD" in options["five_player_target"] and "1000" in options["five_player_target"]
    assert FIBUR.five_player_target == 1505
    at_gd = FreePlayMatch(5, FIBUR.with_options(five_player_target=1000))
    assert at_gd.record_hand([1000, 0, 0, 0, 0]).winner == 0
    assert FreePlayMatch(5, FIBUR).record_hand([1000, 0, 0, 0, 0]).winner is None


def test_s14_3_s17_4_champion_burraco_marked_as_the_projects_reading() -> None:
    shown = referee.rules_show("champion").text
    assert shown is not None
    note = shown.splitlines()[0]
    assert "PROJECT'S READING" in note
    line = next(x for x in shown.splitlines() if x.startswith("champion_burraco"))
    assert "PROJECT'S READING" in line
