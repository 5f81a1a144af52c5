"""Turn rules on explicit positions, one test per rule of RULES.md (section in each name).

Positions are written as card text (tests/engine/positions.py): small hands
reach late-game situations with real play; ``put_melds``, ``give_pozzetto``
and ``cut_stock`` edit a state where play would take too long.  Seat 0 plays
first; the stock is written top card first.  Action texts are compared as
parsed actions, so ``meld 9C 9D 9S`` and ``meld 9D 9C 9S`` are the same.
"""

from __future__ import annotations

import pytest
from positions import (
    cut_stock,
    faces,
    give_pozzetto,
    hand_text,
    legal,
    pile_text,
    play,
    play_events,
    put_melds,
    same_state,
    skip_draw,
    start,
)

from burraco.engine import CallTime, HandState, IllegalActionError, parse_action
from burraco.engine.cards import card_face, parse_face
from burraco.engine.events import HandOver, PozzettoSeen, PozzettoTaken, TimeCalled
from burraco.engine.scoring import score_side
from burraco.engine.state import DRAW_PHASE, OVER, PLAY_PHASE

# filler hands for the 4p seats a test does not look at (no meld among them)
FILLER = ["3D 9S KC", "4C 10D QS", "5S JH 8C"]


def listed(state: HandState, text: str) -> bool:
    return parse_action(text) in legal(state)


def texts(state: HandState) -> list[str]:
    return [str(a) for a in legal(state)]


def rejected(state: HandState, text: str, match: str | None = None) -> None:
    """``text`` is not listed, applying it raises, and the state is left unchanged."""
    assert not listed(state, text)
    before = state.clone()
    with pytest.raises(IllegalActionError, match=match):
        state.apply_in_place(parse_action(text))
    assert same_state(state, before)


def allowed(state: HandState, text: str) -> HandState:
    assert listed(state, text), f"{text!r} not in {texts(state)}"
    return play(state, text)


def face_sorted(cards: list[int] | tuple[int, ...]) -> list[int]:
    return sorted(card_face(c) for c in cards)


# --- §3.1 draw phase ------------------------------------------------------------------------

def test_s3_1_1_draw_phase_offers_the_stock_or_the_whole_pile() -> None:
    state = start(hands=["5H 6H 9C", "KS KS QD"], pile="3C 8D JS", stock="4D")
    assert texts(state) == ["draw", "pickup"]
    drawn = play(state, "draw")
    assert hand_text(drawn, 0) == "5H 6H 4D 9C" and pile_text(drawn) == "3C 8D JS"
    picked = play(state, "pickup")
    assert hand_text(picked, 0) == "5H 6H 8D 3C 9C JS"
    assert picked.pile == [] and picked.phase == PLAY_PHASE and len(picked.stock) == len(
        state.stock)


def test_s3_1_1_with_an_empty_pile_only_the_stock() -> None:
    state = start(hands=["5H 6H 9C", "KS KS QD"], pile="", stock="4D")
    assert texts(state) == ["draw"]
    rejected(state, "pickup", "pile is empty")


def test_s3_1_nothing_but_a_draw_before_drawing_and_no_second_draw() -> None:
    state = start(hands=["5H 6H 7H 9C", "KS KS QD"], pile="8D", stock="4D")
    for text in ("meld 5H 6H 7H", "discard 9C", "attach 1 8H"):
        rejected(state, text, r"§3\.1")
    state = play(state, "draw")
    rejected(state, "draw", r"§3\.1")
    rejected(state, "pickup", r"§3\.1")


# --- §3.1.4 single-card pile ----------------------------------------------------------------

def test_s3_1_4_the_lone_first_up_card_may_not_be_discarded_that_turn() -> None:
    state = play(start(hands=["5H 6H 9C", "KS KS QD"], pile="JD", stock="4D"), "pickup")
    rejected(state, "discard JD", r"one-card pile.*§3\.1\.4")
    assert texts(state) == ["discard 5H", "discard 6H", "discard 9C"]


def test_s3_1_4_a_twin_of_the_barred_card_may_be_discarded() -> None:
    state = play(start(hands=["5H JD 9C", "KS KS QD"], pile="JD", stock="4D"), "pickup")
    barred = state.barred
    assert card_face(barred) == parse_face("JD")
    after = allowed(state, "discard JD")
    assert after.pile[-1] != barred and barred in after.hands[0]


def test_s3_1_4_any_other_joker_is_a_twin_of_a_barred_joker() -> None:
    state = play(start(hands=["5H JK 9C", "KS KS QD"], pile="JK", stock="4D"), "pickup")
    barred = state.barred
    after = allowed(state, "discard JK")
    assert after.pile[-1] != barred and barred in after.hands[0]


def test_s3_1_4_a_pile_of_several_cards_its_top_card_may_be_discarded() -> None:
    state = play(start(hands=["5H 6H 9C", "KS KS QD"], pile="3C 8D JD", stock="4D"), "pickup")
    assert state.barred == -1
    after = allowed(state, "discard JD")
    assert pile_text(after) == "JD"


def test_s3_1_4_a_one_card_pile_left_by_a_discard_is_barred_too() -> None:
    state = play(start(hands=["5H 6H 9C", "KS 8S QD"], pile="3C", stock="4D 7C"),
                 "draw", "discard 9C")  # pile: 3C 9C, two cards
    state = play(state, "pickup", "discard QD")  # seat 1 takes both; the pile is now QD
    state = play(state, "pickup")
    rejected(state, "discard QD", r"§3\.1\.4")


def test_s3_1_4_the_bar_lasts_one_turn() -> None:
    state = play(start(hands=["5H 6H 9C", "KS 8S QD"], pile="7H", stock="4D 7C 10S"), "pickup")
    rejected(state, "discard 7H")
    later = play(state, "discard 9C", "draw", "discard QD", "draw")
    assert listed(later, "discard 7H")


def test_s3_1_4_the_barred_card_may_be_melded_and_its_twin_then_discarded() -> None:
    state = play(start(hands=["5H 6H 7H 9C", "KS 8S QD"], pile="7H", stock="4D"), "pickup")
    state = allowed(state, "meld 5H 6H 7H")  # melding uses up the barred card first
    assert state.barred not in state.hands[0]
    allowed(state, "discard 7H")


# --- §3.3.2 wild discards -------------------------------------------------------------------

def test_s3_3_2_a_wild_may_be_discarded_when_not_closing() -> None:
    state = play(start(hands=["5H 2C JK 9C", "KS 8S QD"], pile="3C", stock="4D"), "draw")
    assert listed(state, "discard 2C") and listed(state, "discard JK")
    after = allowed(state, "discard JK")
    assert pile_text(after) == "3C JK"


def test_s3_3_2_a_wild_may_be_the_last_card_before_going_to_the_pozzetto() -> None:
    state = play(start(hands=["5H 6H 7H", "KS 8S QD"], pile="3C", stock="2S"),
                 "draw", "meld 5H 6H 7H")
    assert hand_text(state, 0) == "2S"
    assert listed(state, "discard 2S")
    state, events = play_events(state, "discard 2S")
    assert [e.live for e in events if isinstance(e, PozzettoTaken)] == [False]
    assert state.phase == DRAW_PHASE and state.turn == 1


def test_s3_3_2_a_wild_may_not_be_the_closing_discard() -> None:
    state = put_melds(start(hands=["JK", "KS 8S QD"], pile="3C"), 0, "4H 5H 6H 7H 8H 9H 10H")
    state = skip_draw(give_pozzetto(state, 0, 0))  # unreachable by play: tested on its own
    rejected(state, "discard JK", r"wild.*§7\.1")


# --- §4.2.3 one set per rank per side -------------------------------------------------------

def test_s4_2_3_no_second_set_of_a_rank_on_one_side() -> None:
    state = play(start(hands=["7H 7D 7C 7S 7S 7H 9D 9D", "KS 8S QD"], pile="3C", stock="4D"),
                 "draw", "meld 7C 7D 7H")
    rejected(state, "meld 7H 7S 7S", r"§4\.2\.3")
    rejected(state, "meld 7S 7S 9D", None)  # not a meld at all
    allowed(state, "attach 1 7S")


def test_s4_2_3_the_rule_binds_the_partner_but_not_the_opponents() -> None:
    hands = ["7H 7D 7C 9C 9C", "7S 7S 7H 9H", "7D 7C JK 4D", "JD 10S 5C"]
    state = play(start(players=4, hands=hands, pile="3C", stock="KH QH JH"),
                 "draw", "meld 7C 7D 7H", "discard KH")
    state = play(state, "draw")
    state = allowed(state, "meld 7H 7S 7S")  # seat 1, the other side: its own set of sevens
    state = play(state, "discard QH", "draw")
    rejected(state, "meld 7D 7C JK", r"§4\.2\.3")  # seat 2: his partner has a set of sevens
    allowed(state, "attach 1 7D")


# --- §6.1 one pozzetto per side, the top one first ------------------------------------------

POZ_A = "3C 4C 5C 3S 4S 5S 6S 8S 9H 10H JH"
POZ_B = "AD AD AC AC QC QC 10C 10C 6C 6C 7C"


def test_s6_1_the_first_side_to_run_out_takes_the_top_pozzetto() -> None:
    hands = ["KS QD 9C 4D", "5H 6H", "3D 9S KC 5C", "4C 10D QS 8D"]
    state = start(players=4, hands=hands, pozzetti=[POZ_A, POZ_B], pile="2D", stock="8H 7H")
    state = play(state, "draw", "discard 8H", "draw")
    state, events = play_events(state, "meld 5H 6H 7H")  # seat 1, side 1, runs out first
    (taken,) = [e for e in events if isinstance(e, PozzettoTaken)]
    assert taken.side == 1 and face_sorted(taken.cards) == sorted(faces(POZ_A))
    assert state.pozzetto_taker == [-1, 1]
    assert [face_sorted(p) for p in state.pozzetti] == [sorted(faces(POZ_B))]


def test_s6_1_the_second_side_takes_the_other_pozzetto() -> None:
    hands = ["5S 6S", "5H 6H", "3D 9S KC 5C", "4C 10D QS 8D"]
    state = start(players=4, hands=hands, pozzetti=[POZ_A.replace("5S 6S", "7D 8C"), POZ_B],
                  pile="2D", stock="JC 7H 9D JS 7S")
    state = play(state, "draw", "discard JC", "draw", "meld 5H 6H 7H")  # side 1 first
    state = play(state, "discard 9H", "draw", "discard 9D", "draw", "discard JS", "draw")
    state, events = play_events(state, "meld 5S 6S 7S")
    (taken,) = [e for e in events if isinstance(e, PozzettoTaken)]
    assert taken.side == 0 and face_sorted(taken.cards) == sorted(faces(POZ_B))
    assert state.pozzetti == [] and state.pozzetto_taker == [0, 1]


def test_s6_1_a_side_with_its_pozzetto_never_takes_another() -> None:
    # seat 0 took the side's pozzetto; his partner may not empty his hand by melding,
    # and may not leave himself a last card he could not close with (no burraco)
    hands = ["KS QD 9C 4D", "3D 9S KC 5C", "5H 6H 7H", "4C 10D QS 8D"]
    state = start(players=4, hands=hands, pile="2D", stock="JD QC 8H")
    state = give_pozzetto(state, 0, 0)
    state = play(state, "draw", "discard JD", "draw", "discard QC", "draw")
    assert hand_text(state, 2) == "5H 6H 7H 8H"
    rejected(state, "meld 5H 6H 7H 8H", r"§7\.2")
    rejected(state, "meld 5H 6H 7H", r"§7\.1")
    assert texts(state) == ["discard 5H", "discard 6H", "discard 7H", "discard 8H"]


# --- §6.3 pozzetto in diretta ---------------------------------------------------------------

POZZETTO_TO_CLOSE = "3C 4C 5C 3D 4D 5D 3S 4S 5S 6S KH"


def test_s6_3_in_diretta_the_player_takes_the_pozzetto_and_plays_on() -> None:
    state = start(hands=["4H 5H 6H 7H 8H 9H", "KS 8S QD"], pozzetti=[POZZETTO_TO_CLOSE, POZ_B],
                  pile="3H", stock="10H")
    state = play(state, "draw")
    state, events = play_events(state, "meld 4H 5H 6H 7H 8H 9H 10H")
    (taken,) = [e for e in events if isinstance(e, PozzettoTaken)]
    assert taken.live and taken.seat == 0
    assert state.phase == PLAY_PHASE and state.turn == 0 and state.pozzetto_taker == [0, -1]
    assert face_sorted(state.hands[0]) == sorted(faces(POZZETTO_TO_CLOSE))
    assert listed(state, "meld 3C 4C 5C") and listed(state, "discard KH")
    later = allowed(state, "discard KH")  # he may discard at once
    assert later.turn == 1 and later.phase == DRAW_PHASE


def test_s6_3_in_diretta_by_attaching_the_last_card() -> None:
    state = start(hands=["4H 5H 6H 8H", "KS 8S QD"], pile="3C", stock="7H")
    state = play(state, "draw", "meld 4H 5H 6H", "attach 1 7H")
    state, events = play_events(state, "attach 1 8H")
    assert [e.live for e in events if isinstance(e, PozzettoTaken)] == [True]
    assert len(state.hands[0]) == 11 and state.phase == PLAY_PHASE


def test_s6_3_in_diretta_and_closing_in_the_same_turn() -> None:
    state = start(hands=["4H 5H 6H 7H 8H 9H", "KS 8S QD"], pozzetti=[POZZETTO_TO_CLOSE, POZ_B],
                  pile="3H", stock="10H")
    state = play(state, "draw", "meld 4H 5H 6H 7H 8H 9H 10H", "meld 3C 4C 5C",
                 "meld 3D 4D 5D", "meld 3S 4S 5S")
    state = allowed(state, "attach 4 6S")
    assert hand_text(state, 0) == "KH"
    state, events = play_events(state, "discard KH")
    assert state.phase == OVER and state.end_reason == "closed" and state.closer == 0
    assert events[-1] == HandOver("closed", 0)


# --- §6.4 pozzetto con lo scarto ------------------------------------------------------------

POZ_PLAY = "3C 4C 5C 8S 9S 10S JS QS KS AS 6D"


def test_s6_4_four_players_con_lo_scarto_hidden_until_the_partners_discard() -> None:
    state = start(players=4, hands=["5H 6H 7H", *FILLER], pozzetti=[POZ_PLAY, POZ_B],
                  pile="2D", stock="9C KH QD JD 8H")
    state = play(state, "draw", "meld 5H 6H 7H")
    state, events = play_events(state, "discard 9C")
    (taken,) = [e for e in events if isinstance(e, PozzettoTaken)]
    assert not taken.live and state.pozzetto_taker == [0, -1]
    pozzetto = list(taken.cards)
    assert face_sorted(pozzetto) == sorted(faces(POZ_PLAY))
    assert state.hands[0] == [] and state.pending[0] == pozzetto
    assert state.pending_seen[0] is False
    state = play(state, "draw")  # seat 1, an opponent
    state, events = play_events(state, "discard KH")
    assert not any(isinstance(e, PozzettoSeen) for e in events)
    assert state.pending_seen[0] is False
    state = play(state, "draw")  # seat 2, the partner
    state, events = play_events(state, "discard QD")
    assert PozzettoSeen(0, tuple(pozzetto)) in events and state.pending_seen[0] is True
    assert state.hands[0] == []  # seen, but still not in his hand
    state = play(state, "draw", "discard JD")  # seat 3
    assert state.turn == 0 and texts(state) == ["draw", "pickup"]
    rejected(state, "meld 3C 4C 5C", r"§3\.1")  # not before the draw
    state, events = play_events(state, "draw")
    assert not any(isinstance(e, PozzettoSeen) for e in events)  # already seen
    assert state.pending[0] == [] and len(state.hands[0]) == 12
    assert set(pozzetto) < set(state.hands[0]) and parse_face("8H") in face_sorted(
        state.hands[0])
    assert listed(state, "meld 3C 4C 5C") and listed(state, "meld 8S 9S 10S JS QS KS AS")


def test_s6_4_four_players_pozzetto_playable_after_a_pickup_too() -> None:
    state = start(players=4, hands=["5H 6H 7H", *FILLER], pozzetti=[POZ_PLAY, POZ_B],
                  pile="2D", stock="9C KH QD JD 8H")
    state = play(state, "draw", "meld 5H 6H 7H", "discard 9C")
    state = play(state, "draw", "discard KH", "draw", "discard QD", "draw", "discard JD")
    state = play(state, "pickup")
    assert pile_text(state) == "" and len(state.hands[0]) == 11 + 5  # 2D 9C KH QD JD
    assert listed(state, "meld 3C 4C 5C")


def test_s6_4_a_partners_close_before_the_reveal_leaves_the_pozzetto_unplayed() -> None:
    # seat 0 takes the pozzetto with his discard; seat 2 closes at his next turn
    hands = ["5H 6H 7H", "3D 8C KC", "9D 9S 9C", "4C 10D QS"]
    state = start(players=4, hands=hands, pozzetti=[POZ_PLAY, POZ_B], pile="2D",
                  stock="JC KH KD")
    state = put_melds(state, 0, "4D 5D 6D 7D 8D 9D 10D")
    state = play(state, "draw", "meld 5H 6H 7H", "discard JC", "draw", "discard KH", "draw")
    state = allowed(state, "meld 9C 9D 9S")
    state, events = play_events(state, "discard KD")
    assert state.end_reason == "closed" and state.closer == 2
    assert state.pending[0] and PozzettoSeen(0, tuple(state.pending[0])) in events


def test_s6_4_two_players_seen_after_the_opponents_discard_played_next_turn() -> None:
    state = start(hands=["5H 6H 7H", "KS 8S QD"], pozzetti=[POZ_PLAY, POZ_B], pile="2D",
                  stock="9C JD 8D")
    state = play(state, "draw", "meld 5H 6H 7H")
    state, events = play_events(state, "discard 9C")
    (taken,) = [e for e in events if isinstance(e, PozzettoTaken)]
    assert not taken.live and state.pending[0] and not state.pending_seen[0]
    state = play(state, "draw")
    assert state.pending_seen[0] is False
    state, events = play_events(state, "discard KS")
    assert state.pending_seen[0] is True and PozzettoSeen(0, taken.cards) in events
    assert state.turn == 0 and state.hands[0] == [] and texts(state) == ["draw", "pickup"]
    state = play(state, "draw")
    assert set(taken.cards) < set(state.hands[0]) and len(state.hands[0]) == 12
    assert state.pending[0] == [] and listed(state, "meld 3C 4C 5C")


# --- §7.1 closing ---------------------------------------------------------------------------

def closing_position(hand: str, *, stock: str = "KH", pozzetto: bool = True,
                     burraco: bool = True) -> HandState:
    """2p, seat 0 to draw; side 0 has a heart run 4H–10H (7 cards; 6 without ``burraco``)."""
    state = start(hands=[hand, "KS 8S QD"], pile="3C", stock=stock)
    state = put_melds(state, 0, "4H 5H 6H 7H 8H 9H 10H" if burraco else "4H 5H 6H 7H 8H 9H")
    return give_pozzetto(state, 0, 0) if pozzetto else state


def test_s7_1_closing_needs_pozzetto_burraco_and_a_natural_discard() -> None:
    state = play(closing_position("9D 9S 9C"), "draw", "meld 9C 9D 9S")
    state, events = play_events(state, "discard KH")
    assert state.is_over and state.end_reason == "closed" and state.closer == 0
    assert events[-1] == HandOver("closed", 0)
    assert texts(state) == []
    score = score_side(state.melds[0], [], closed=True, pozzetto="taken")
    assert (score.closing, score.bonuses) == (100, 200)  # +100 for closing, clean burraco


def test_s7_1_only_one_partner_needs_to_run_out() -> None:
    hands = ["KS QD 9C 4D", "3D 9S KC 5C", "9D 9S 9C", "4C 10D QS 8D"]
    state = start(players=4, hands=hands, pile="2D", stock="JD QC JH")
    state = give_pozzetto(put_melds(state, 0, "4H 5H 6H 7H 8H 9H 10H"), 0, 0)
    state = play(state, "draw", "discard JD", "draw", "discard QC", "draw", "meld 9C 9D 9S")
    state = play(state, "discard JH")
    assert state.end_reason == "closed" and state.closer == 2 and len(state.hands[0]) == 4


# --- §7.2 illegal closures ------------------------------------------------------------------

def test_s7_2_no_closing_without_a_burraco() -> None:
    state = skip_draw(closing_position("KH", burraco=False))  # unreachable by play (§7.3)
    rejected(state, "discard KH", r"needs a burraco.*§7\.1")
    assert texts(state) == []


def test_s7_2_no_closing_by_discarding_a_wild() -> None:
    state = skip_draw(closing_position("2C"))  # unreachable by play (§7.3)
    rejected(state, "discard 2C", r"wild.*§7\.1")


def test_s7_2_no_emptying_the_hand_without_a_discard_once_the_pozzetto_is_taken() -> None:
    state = play(closing_position("9D 9S 9C", stock="9H"), "draw")
    rejected(state, "meld 9C 9D 9H 9S", r"§7\.2")
    state = play(closing_position("JH", stock="QH"), "draw")
    rejected(state, "attach 1 JH QH", r"§7\.2")


def test_s7_2_without_the_pozzetto_an_empty_hand_is_no_closing() -> None:
    # side 0 has a burraco but no pozzetto: emptying the hand takes the pozzetto instead
    state = play(closing_position("9D 9S 9C", pozzetto=False), "draw", "meld 9C 9D 9S")
    state, events = play_events(state, "discard KH")
    assert not state.is_over and state.pozzetto_taker == [0, -1]
    assert [e.live for e in events if isinstance(e, PozzettoTaken)] == [False]


# --- §7.3 the stuck-hand guard --------------------------------------------------------------

def test_s7_3_a_meld_leaving_one_wild_is_rejected_when_the_side_has_its_pozzetto() -> None:
    state = play(closing_position("9D 9S 9C", stock="JK"), "draw")
    rejected(state, "meld 9C 9D 9S", r"wild.*§7\.1")
    rejected(state, "meld 9C 9D 9S JK", r"§7\.2")
    assert sorted(texts(state)) == sorted([
        "meld 9D 9C JK", "meld 9D 9S JK", "meld 9C 9S JK", "attach 1 JK",
        "discard 9D", "discard 9C", "discard 9S", "discard JK",
    ])


def test_s7_3_a_meld_leaving_one_wild_is_allowed_before_the_pozzetto() -> None:
    state = play(closing_position("9D 9S 9C", stock="JK", pozzetto=False), "draw")
    state = allowed(state, "meld 9C 9D 9S")
    state = allowed(state, "discard JK")
    assert state.pozzetto_taker == [0, -1] and state.pending[0]


def test_s7_3_a_meld_leaving_one_card_needs_a_burraco_when_the_side_has_its_pozzetto() -> None:
    state = play(closing_position("9D 9S 9C", burraco=False), "draw")
    rejected(state, "meld 9C 9D 9S", r"needs a burraco.*§7\.1")
    assert listed(state, "discard KH")  # a legal action remains


def test_s7_3_the_attachment_that_makes_the_burraco_lets_the_player_close() -> None:
    state = play(closing_position("10H", burraco=False, stock="KH"), "draw")
    state = allowed(state, "attach 1 10H")
    state = allowed(state, "discard KH")
    assert state.end_reason == "closed"


def test_s7_3_a_meld_may_not_leave_the_barred_card_alone() -> None:
    state = play(start(hands=["5H 6H 7H", "KS 8S QD"], pile="JD", stock="4D"), "pickup")
    rejected(state, "meld 5H 6H 7H", r"one-card pile.*§3\.1\.4")
    assert texts(state) == ["discard 5H", "discard 6H", "discard 7H"]


def test_s7_3_a_whole_hand_attachment_with_the_barred_card_is_listed() -> None:
    # seat 0 holds only 9H, side 0 has 4H-8H; seat 1 leaves the lone 10H on the pile.
    # Attaching 9H alone would leave the barred 10H as the last card, and 10H alone does
    # not fit, so only the two-card attachment empties the hand (legal.py's exception).
    state = start(hands=["4H 5H 6H 7H 8H 9H", "KS 8S 10H"], pile="3C", stock="JD 7D")
    state = play(state, "draw", "meld 4H 5H 6H 7H 8H", "discard JD", "pickup", "discard 10H")
    state = play(state, "pickup")
    assert hand_text(state, 0) == "9H 10H" and card_face(state.barred) == parse_face("10H")
    rejected(state, "attach 1 9H", r"§3\.1\.4")
    rejected(state, "attach 1 10H")
    assert listed(state, "attach 1 9H 10H")
    state, events = play_events(state, "attach 1 9H 10H")
    assert [e.live for e in events if isinstance(e, PozzettoTaken)] == [True]
    assert len(state.hands[0]) == 11 and state.barred == -1


# --- §8.1 stock end -------------------------------------------------------------------------

def test_s8_1_the_drawer_of_the_third_last_card_completes_his_turn_then_the_hand_ends() -> None:
    state = start(hands=["5H 6H 7H 9C", "KS 8S QD"], pile="3C", stock="8H", stock_size=3)
    state = play(state, "draw")
    assert len(state.stock) == 2 and state.final_turn and not state.is_over
    state = allowed(state, "meld 5H 6H 7H 8H")
    state, events = play_events(state, "discard 9C")
    assert state.is_over and state.end_reason == "stock" and events[-1] == HandOver("stock", -1)
    assert texts(state) == []
    with pytest.raises(IllegalActionError, match="over"):
        state.apply(parse_action("pickup"))


def test_s8_1_a_legal_closing_in_the_last_turn_still_counts_as_closed() -> None:
    state = cut_stock(closing_position("9D 9S 9C"), 3)
    state = play(state, "draw", "meld 9C 9D 9S")
    assert len(state.stock) == 2 and state.final_turn
    state = play(state, "discard KH")
    assert state.end_reason == "closed" and state.closer == 0


def test_s8_1_taking_the_pile_does_not_end_the_hand() -> None:
    state = start(hands=["5H 6H 7H 9C", "KS 8S QD"], pile="3C", stock="8H", stock_size=3)
    state = play(state, "pickup", "discard 9C")
    assert not state.is_over and state.turn == 1 and len(state.stock) == 3


def test_s8_1_no_turn_starts_with_two_cards_in_the_stock() -> None:
    state = start(hands=["5H 6H 7H 9C", "KS 8S QD"], pile="3C", stock="8H", stock_size=2)
    assert state.is_over and state.end_reason == "stock" and texts(state) == []


def test_s8_1_a_pozzetto_taken_con_lo_scarto_in_the_last_turn_is_never_played() -> None:
    state = start(hands=["5H 6H 7H", "KS 8S QD"], pile="3C", stock="9C", stock_size=3)
    state = play(state, "draw", "meld 5H 6H 7H", "discard 9C")
    assert state.is_over and state.end_reason == "stock"
    assert state.pozzetto_taker == [0, -1] and len(state.pending[0]) == 11


# --- §8.3 stall -----------------------------------------------------------------------------

def test_s8_3_two_rounds_of_one_card_pickups_without_melding_end_the_hand() -> None:
    state = start(hands=["5H 9C JD QS", "KS 8S QD 4C"], pile="3C", stock="4D")
    state = play(state, "pickup", "discard 9C", "pickup", "discard KS", "pickup", "discard JD")
    assert not state.is_over and state.stall == 3
    state = play(state, "pickup")
    state, events = play_events(state, "discard 8S")
    assert state.is_over and state.end_reason == "stall" and events[-1] == HandOver("stall", -1)


def test_s8_3_a_draw_or_a_meld_resets_the_stall_count() -> None:
    state = start(hands=["5H 6H 7H 9C JD QS", "KS 8S QD 4C"], pile="3C", stock="4D 10C")
    state = play(state, "pickup", "discard 9C", "pickup", "discard KS", "pickup")
    state = play(state, "meld 5H 6H 7H", "discard JD")  # seat 0 melded: no stall turn
    assert state.stall == 0
    state = play(state, "pickup", "discard 8S")
    assert state.stall == 1
    state = play(state, "draw", "discard QS")  # a draw resets too
    assert state.stall == 0 and not state.is_over


def test_s8_3_a_pickup_of_several_cards_is_no_stall_turn() -> None:
    state = start(hands=["5H 9C JD QS", "KS 8S QD 4C"], pile="3C 7D", stock="4D")
    state = play(state, "pickup", "discard 9C")
    assert state.stall == 0


def test_s8_3_four_players_need_eight_stall_turns() -> None:
    hands = ["5H 9C JD", "KS 8S QD", "3D 9S KC", "4C 10D QS"]
    state = start(players=4, hands=hands, pile="AC", stock="4D")
    for card in ("9C", "KS", "3D", "4C", "5H", "8S", "9S"):
        state = play(state, "pickup", "discard " + card)
    assert not state.is_over and state.stall == 7
    state = play(state, "pickup", "discard 10D")
    assert state.end_reason == "stall"


# --- §8.2 time call -------------------------------------------------------------------------

def test_s8_2_time_is_never_a_listed_action_and_is_called_once() -> None:
    state = start(hands=["5H 6H 7H 9C", "KS 8S QD"], pile="3C", stock="4D")
    assert "time" not in texts(state)
    state, events = state.apply(CallTime())
    assert events == [TimeCalled(2)]
    assert texts(state) == ["draw", "pickup"]  # the call changes no turn
    rejected(state, "time", "already")


def test_s8_2_time_called_before_the_draw_every_player_gets_one_more_turn() -> None:
    state = start(hands=["5H 6H 7H 9C", "KS 8S QD"], pile="3C", stock="4D 10C 8H")
    state = play(state, "time", "draw", "discard 9C")  # seat 0: this turn is his last
    assert not state.is_over and state.turn == 1
    state = play(state, "draw", "discard KS")
    assert state.is_over and state.end_reason == "time"


def test_s8_2_time_called_during_a_turn_it_is_completed_then_one_more_each() -> None:
    state = start(players=4, hands=["5H 6H 7H 9C", *FILLER], pile="2D",
                  stock="4D 10C 8H JS 7C 6D")
    state = play(state, "draw", "time", "discard 9C")  # seat 0 completes his turn
    for seat, card in ((1, "3D"), (2, "4C"), (3, "5S")):
        assert not state.is_over and state.turn == seat
        state = play(state, "draw", "discard " + card)
    assert not state.is_over and state.turn == 0  # seat 0 gets one more turn
    state = play(state, "draw", "discard 4D")
    assert state.is_over and state.end_reason == "time"


def test_s8_2_a_closing_in_the_last_round_still_counts() -> None:
    state = play(closing_position("9D 9S 9C"), "time", "draw", "meld 9C 9D 9S", "discard KH")
    assert state.end_reason == "closed"
