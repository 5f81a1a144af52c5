"""Player counts and rule sets: RULES.md §13 (3, 5, 6 players), §14 (International, Revolution,
Champion) and §15 (federation scoring codes), each worked example included."""

from __future__ import annotations

import json
import random
from collections.abc import Sequence

import pytest

from burraco.audit.faces import view_problems
from burraco.engine.actions import Discard, Pickup, parse_action
from burraco.engine.cards import card_str, parse_faces
from burraco.engine.deal import Deal, deal_seeded, ids_from_faces, pozzetto_sizes
from burraco.engine.legal import legal_actions
from burraco.engine.match import FreePlayMatch
from burraco.engine.melds import burraco_bonus, burraco_type, meld_from_faces, parse_meld
from burraco.engine.records import record_of, replay, state_summary
from burraco.engine.result import hand_result
from burraco.engine.rules import PRESETS, Rules
from burraco.engine.scoring import half_up
from burraco.engine.state import HandState, IllegalActionError

FIBUR = PRESETS["fibur"]


def deal_for(
    players: int, hands: Sequence[str], *, pile: str = "", stock: str = "",
    individual: bool = False, rules: Rules = FIBUR,
) -> Deal:
    """A deal naming only the cards a test needs; the rest fill pozzetti and stock."""
    table = rules.for_players(players)
    groups = [list(parse_faces(h)) if h else [] for h in hands]
    groups += [list(parse_faces(pile)) if pile else [], list(parse_faces(stock)) if stock else []]
    ids = ids_from_faces(groups, table)
    used = {c for g in ids for c in g}
    rest = [c for c in range(table.packs * 54) if c not in used]
    pozzetti = []
    for size in pozzetto_sizes(players, table, individual=individual):
        pozzetti.append(tuple(rest[:size]))
        rest = rest[size:]
    return Deal(players, players - 1, tuple(tuple(h) for h in ids[:players]), tuple(pozzetti),
                tuple(ids[-1] + rest), tuple(ids[-2]))


def play(state: HandState, *moves: str) -> HandState:
    for move in moves:
        state, _ = state.apply(parse_action(move))
    return state


def random_hand(seed: int, players: int, rules: Rules = FIBUR, **kw: bool) -> HandState:
    rng = random.Random(seed)
    state = HandState.start(deal_seeded(seed, players=players, rules=rules, **kw), rules)
    while not state.is_over:
        state.apply_in_place(rng.choice(legal_actions(state)))
    return state


# --- §13.2 three players ------------------------------------------------------------------

def test_s13_2_three_players_deal_11_each_pozzetti_18_on_top_and_11_stock_45() -> None:
    deal = deal_seeded(1, players=3)
    assert [len(h) for h in deal.hands] == [11, 11, 11]
    assert [len(p) for p in deal.pozzetti] == [18, 11]
    assert len(deal.stock) == 45 and len(deal.pile) == 1
    assert sorted(deal.all_cards()) == list(range(108))


def test_s13_2_everyone_alone_until_the_first_runs_out_who_takes_the_18_and_plays_solo() -> None:
    deal = deal_for(3, ["5H 6H 7H 8H", "KS KD", "QC QD"], stock="9H 2D 3D")
    state = HandState.start(deal)
    assert state.side_of == [0, 1, 2] and state.mode == "solo-then-pairs"
    state = play(state, "draw", "meld 5H 6H 7H 8H 9H")  # runs out in diretta
    assert state.pozzetto_taker[0] == 0 and len(state.hands[0]) == 18
    assert state.mode == "pairs"
    assert state.side_of == [0, 1, 1]  # seats 1 and 2 now partners
    assert state.partner_of(1) == 2 and state.partner_of(0) is None


def test_s13_2_partners_share_melds_kept_separate_in_creation_order() -> None:
    deal = deal_for(3, ["5H 6H 7H 8H 9C", "KS KD KH 4S", "QC QD QH 3S"],
                    stock="2C 2D 3C 9H 4D")
    state = HandState.start(deal)
    state = play(state, "draw", "meld 5H 6H 7H", "discard 9C")        # seat 0 keeps 8H 2C
    state = play(state, "draw", "meld KS KD KH", "discard 4S")         # seat 1 keeps 2D
    state = play(state, "draw", "meld QC QD QH", "discard 3C")         # seat 2 keeps 3S
    assert state.mode == "solo-then-pairs"
    state = play(state, "draw", "attach 1 8H", "attach 1 9H", "attach 1 2C")  # seat 0 out
    assert state.mode == "pairs" and state.side_of == [0, 1, 1]
    assert str(state.melds[0][0]) == "2C(=4H) 5H 6H 7H 8H 9H"
    assert [str(m) for m in state.melds[1]] == ["KH KD KS", "QH QD QC"]
    state = play(state, "discard " + card_str(state.hands[0][0]))
    # seat 1 attaches to his partner's set of queens, now the pair's 2nd meld
    state = play(state, "draw", "attach 2 2D")
    assert str(state.melds[1][1]) == "QH QD QC 2D"


def test_s13_2_a_wild_discarded_by_one_partner_cannot_be_picked_up_by_the_other() -> None:
    deal = deal_for(3, ["5H 6H 7H 8H 9C", "KS KD 2H 9S", "QC QD 4D"], stock="9H 3D 3S 4S")
    state = HandState.start(deal)
    state = play(state, "draw", "meld 5H 6H 7H 8H 9H")  # seat 0 solo; 1 and 2 partners
    state = play(state, "discard 9C")
    state = play(state, "draw", "discard 2H")         # seat 1 discards a pinella
    assert Pickup() not in legal_actions(state)
    with pytest.raises(IllegalActionError, match="your partner discarded"):
        state.apply(Pickup())
    # the solo player may take a pile holding it
    state = play(state, "draw", "discard 4D")
    assert Pickup() in legal_actions(state)


def test_s13_2_worked_example_solo_780_pair_1210_gives_605_each() -> None:
    """§13.2: solo 780; pair 1210 → 605 each; halves round up to 5 (1215 → 610, −115 → −55)."""
    assert half_up(1210) == 605
    assert half_up(1215) == 610
    assert half_up(-115) == -55


def test_s13_2_hand_result_halves_the_pair_and_keeps_the_solo() -> None:
    for seed in range(200):
        state = random_hand(seed, 3)
        if state.mode == "pairs":
            break
    result = hand_result(state)
    for seats, side in zip(result.side_seats, result.sides, strict=True):
        for seat in seats:
            expected = half_up(side.total) if len(seats) == 2 else side.total
            assert result.seat_totals[seat] == expected


def test_s13_2_from_1000_three_11_card_pozzetti_all_individual_and_end_at_1505() -> None:
    match = FreePlayMatch(players=3).record_hand([990, 400, 300])
    assert not match.individual
    match = match.record_hand([15, 0, 0])
    assert match.individual and match.target == 1505
    deal = deal_seeded(3, players=3, dealer=match.dealer, individual=match.individual)
    assert [len(p) for p in deal.pozzetti] == [11, 11, 11]
    state = HandState.start(deal)
    assert state.mode == "individual"
    done = random_hand(5, 3, individual=True)
    assert done.mode == "individual" and done.side_of == [0, 1, 2]
    assert match.record_hand([500, 0, 0]).winner == 0


# --- §13.3 five players --------------------------------------------------------------------

def test_s13_3_five_players_three_packs_big_pozzetto_18_and_two_of_11() -> None:
    deal = deal_seeded(2, players=5)
    assert sorted(deal.all_cards()) == list(range(162))
    assert [len(p) for p in deal.pozzetti] == [18, 11, 11]
    option = deal_seeded(2, players=5, rules=FIBUR.with_options(big_pozzetto_size=17))
    assert [len(p) for p in option.pozzetti] == [17, 11, 11]


def test_s13_3_the_first_out_plays_solo_and_partners_are_never_adjacent() -> None:
    """Seats A B C D E, A solo → B–D and C–E."""
    deal = deal_for(5, ["5H 6H 7H 8H", "KS", "QC", "JD", "9S"], stock="4H")
    state = play(HandState.start(deal), "draw", "meld 4H 5H 6H 7H 8H")
    assert state.mode == "pairs"
    assert state.side_of[1] == state.side_of[3] and state.side_of[2] == state.side_of[4]
    assert state.side_of[1] != state.side_of[2] and state.side_of[0] not in state.side_of[1:]


def test_s13_3_individual_after_1005_with_five_11_card_pozzetti() -> None:
    match = FreePlayMatch(players=5).record_hand([1000, 0, 0, 0, 0])
    assert not match.individual
    assert match.record_hand([5, 0, 0, 0, 0]).individual
    assert [len(p) for p in deal_seeded(1, players=5, individual=True).pozzetti] == [11] * 5


# --- §13.4 six players ---------------------------------------------------------------------

def test_s13_4_three_pairs_alternate_three_packs_three_11_card_pozzetti() -> None:
    deal = deal_seeded(4, players=6)
    assert sorted(deal.all_cards()) == list(range(162))
    assert [len(p) for p in deal.pozzetti] == [11, 11, 11]
    state = HandState.start(deal)
    assert state.side_of == [0, 1, 2, 0, 1, 2]  # partners three seats apart


def test_s13_4_closing_needs_one_clean_and_one_non_clean_burraco() -> None:
    table = FIBUR.for_players(6)
    clean = parse_meld("4C 5C 6C 7C 8C 9C 10C")
    dirty = parse_meld("4D 5D 6D JK(=7D) 8D 9D 10D")
    from burraco.engine.state import closing_ready

    assert not closing_ready([clean], table)
    assert not closing_ready([clean, parse_meld("4H 5H 6H 7H 8H 9H 10H")], table)
    assert closing_ready([clean, dirty], table)
    assert closing_ready([clean], FIBUR)  # four players: any burraco


# --- §14.1 International -------------------------------------------------------------------

INTERNATIONAL = PRESETS["fibur-international"]


def test_s14_1_international_sets_only_of_aces_or_threes() -> None:
    with pytest.raises(ValueError, match="not allowed"):
        meld_from_faces(parse_faces("KH KD KS"), INTERNATIONAL)
    assert str(meld_from_faces(parse_faces("AH AD AS"), INTERNATIONAL)) == "AH AD AS"
    assert str(meld_from_faces(parse_faces("3H 3D JK"), INTERNATIONAL)) == "3H 3D JK"


def test_s14_1_international_no_semi_clean_and_closing_needs_a_clean_burraco() -> None:
    semi = parse_meld("3S JK(=4S) 5S 6S 7S 8S 9S 10S JS")
    assert burraco_type(semi, INTERNATIONAL) == "dirty"
    assert burraco_bonus(semi, INTERNATIONAL) == 100
    from burraco.engine.state import closing_ready

    assert not closing_ready([semi], INTERNATIONAL)
    assert closing_ready([parse_meld("4C 5C 6C 7C 8C 9C 10C")], INTERNATIONAL)


def test_s14_1_international_pile_only_when_a_card_can_be_used_at_once() -> None:
    # nothing in hand or pile forms or extends a meld: the pile cannot be taken
    deal = deal_for(2, ["5H 9C KD", "4S"], pile="2S 4C", rules=INTERNATIONAL)
    state = HandState.start(deal, INTERNATIONAL)
    assert [str(a) for a in legal_actions(state)] == ["draw"]
    with pytest.raises(IllegalActionError, match="use a card at once"):
        state.apply(Pickup())
    # a pile that lets the player open a meld can be taken
    deal = deal_for(2, ["5H 6H KD", "4S"], pile="2S 7H", rules=INTERNATIONAL)
    state = HandState.start(deal, INTERNATIONAL)
    assert Pickup() in legal_actions(state)


def test_s14_1_international_lone_first_upcard_when_any_new_meld_can_be_opened() -> None:
    # Art. 8 (RULES.md §14.1): the up-card may be taken "only if a new meld can be opened",
    # with hand cards or with it: KD is of no use, 5C 6C 7C open a meld, so it may be taken
    deal = deal_for(2, ["5C 6C 7C KS", "4S"], pile="KD", rules=INTERNATIONAL)
    state = HandState.start(deal, INTERNATIONAL)
    assert Pickup() in legal_actions(state)
    state = play(state, "pickup", "meld 5C 6C 7C", "discard KS")
    assert state.turn == 1
    # only attachments possible (no new meld): the up-card stays
    deal = deal_for(2, ["9C KS QD", "4S"], pile="KD", rules=INTERNATIONAL)
    state = HandState.start(deal, INTERNATIONAL)
    assert Pickup() not in legal_actions(state)
    with pytest.raises(IllegalActionError, match="lone first up-card only if you can then open"):
        state.apply(Pickup())


def test_s14_1_option_lone_upcard_must_join_the_new_meld() -> None:
    rules = INTERNATIONAL.with_options(upcard_pickup="meld-with-upcard")
    deal = deal_for(2, ["5H 6H 7H KD", "4S"], pile="9C", rules=rules)
    state = HandState.start(deal, rules)
    assert Pickup() not in legal_actions(state)
    with pytest.raises(IllegalActionError, match="open a meld with it"):
        state.apply(Pickup())
    deal = deal_for(2, ["5H 6H KD", "4S"], pile="7H", rules=rules)
    assert Pickup() in legal_actions(HandState.start(deal, rules))


def test_s14_1_usable_card_may_be_of_the_hand_or_of_the_pile() -> None:
    # Art. 8 (RULES.md §14.1): "at least one card (from the pile or already in hand)": the pile
    # 4C 9D helps nothing, but the hand opens 5H 6H 7H, so it may be taken
    deal = deal_for(2, ["5H 6H 7H KS", "4S"], pile="9D 4C", rules=INTERNATIONAL)
    deal = Deal(deal.players, deal.dealer, deal.hands, deal.pozzetti, deal.stock, deal.pile)
    state = HandState.start(deal, INTERNATIONAL)
    state.pile_from = [1, 0]  # two real discards: not the lone up-card
    assert INTERNATIONAL.pile_use == "hand-or-pile"
    assert Pickup() in legal_actions(state)
    # the other reading (one seed: a card of the pile) refuses it
    rules = INTERNATIONAL.with_options(pile_use="from-pile")
    state = HandState.start(deal, rules)
    state.pile_from = [1, 0]
    assert Pickup() not in legal_actions(state)
    with pytest.raises(IllegalActionError, match="one of its own"):
        state.apply(Pickup())
    state = HandState.start(deal_for(2, ["5H 6H KS", "4S"], pile="9D 7H", rules=rules), rules)
    state.pile_from = [1, 0]
    assert Pickup() in legal_actions(state)


def test_s14_1_collected_pinella_kept_only_with_a_meld_of_hand_cards() -> None:
    # Art. 8 (RULES.md §14.1): "a collected pinella may be kept only if another meld is laid with
    # hand cards".  Pile 2S QH taken: JH QH KH (QH is a pile card) does not let him keep 2S, so
    # melding it and discarding 5C with 2S kept is refused; the play that meets the duty comes
    # first (melding 2S, or a meld of hand cards alone)
    deal = deal_for(2, ["JH KH 5C 9D 9S", "4S"], pile="2S QH", rules=INTERNATIONAL)
    state = HandState.start(deal, INTERNATIONAL)
    state.pile_from = [1, 0]
    state = play(state, "pickup")
    assert state.pinella_duty
    with pytest.raises(IllegalActionError, match="pinella"):
        state.apply(parse_action("meld JH QH KH"))
    with pytest.raises(IllegalActionError, match="keep it only by opening a meld of your own"):
        state.apply(Discard(parse_faces("5C")[0]))
    assert "meld JH QH KH 2S" in [str(a) for a in legal_actions(state)]
    assert not any(isinstance(a, Discard) for a in legal_actions(state))
    state = play(state, "meld JH QH KH 2S", "discard 5C")
    assert state.turn == 1
    # a meld of hand cards lets him keep it
    deal = deal_for(2, ["7D 8D 9D 5C KS", "4S"], pile="2S QH", rules=INTERNATIONAL)
    state = HandState.start(deal, INTERNATIONAL)
    state.pile_from = [1, 0]
    state = play(state, "pickup", "meld 7D 8D 9D", "discard 5C")
    assert parse_faces("2S")[0] in [c % 54 for c in state.hands[0]]
    # a lone 2H taken, KD discarded with nothing melded: refused; melding it is the way
    deal = deal_for(2, ["KD 5C 6C 9S", "4S"], pile="2H", rules=INTERNATIONAL)
    state = HandState.start(deal, INTERNATIONAL)
    state.pile_from = [1]
    state = play(state, "pickup")
    with pytest.raises(IllegalActionError, match="pinella"):
        state.apply(Discard(parse_faces("KD")[0]))
    assert [str(a) for a in legal_actions(state)] == ["meld 2H 5C 6C"]
    # the Italian code keeps no such duty
    state = HandState.start(deal_for(2, ["KD 5C 6C 9S", "4S"], pile="2H"), FIBUR)
    state.pile_from = [1]
    play(state, "pickup", "discard KD")


def test_s14_1_pile_with_a_pinella_that_cannot_be_met_is_refused() -> None:
    # seat 0 opens JK 5C 6C; seat 1 discards 8C.  The pile 2H QS 8C is usable (8C goes on
    # 5C 6C, the joker moving up), but 2H can join no meld and the hand opens none: refused
    hands = ["5C 6C JK KD 9S 4H QS", "8C 7S 7S"]
    deal = deal_for(2, hands, pile="2H", stock="3S 4D", rules=INTERNATIONAL)
    state = play(HandState.start(deal, INTERNATIONAL), "draw", "meld 5C 6C JK", "discard QS",
                 "draw", "discard 8C")
    assert Pickup() not in legal_actions(state)
    with pytest.raises(IllegalActionError, match="holding a pinella"):
        state.apply(Pickup())
    # with JS in hand, 2H JS QS can be opened: allowed, and the pinella must go down first
    hands = ["5C 6C JK KD 9S 4H QS JS", "8C 7S 7S"]
    deal = deal_for(2, hands, pile="2H", stock="3S 4D", rules=INTERNATIONAL)
    state = play(HandState.start(deal, INTERNATIONAL), "draw", "meld 5C 6C JK", "discard QS",
                 "draw", "discard 8C", "pickup")
    listed = [str(a) for a in legal_actions(state)]
    assert "meld 2H JS QS" in listed and all("2H" in a for a in listed)


# --- §14.2 Revolution ----------------------------------------------------------------------

def test_s14_2_revolution_closes_with_clean_and_dirty_or_a_clean_ace_to_king() -> None:
    from burraco.engine.state import closing_ready

    rules = PRESETS["fibur-revolution"]
    clean = parse_meld("4C 5C 6C 7C 8C 9C 10C")
    assert not closing_ready([clean], rules)
    assert closing_ready([clean, parse_meld("4D 5D 6D JK(=7D) 8D 9D 10D")], rules)
    royal = parse_meld("AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH")
    assert closing_ready([royal], rules)
    assert burraco_type(parse_meld("3S JK(=4S) 5S 6S 7S 8S 9S 10S JS"), rules) == "semi-clean"


# --- §14.3 Champion ------------------------------------------------------------------------

CHAMPION = PRESETS["champion"]


def test_s14_3_champion_points_closing_200_pozzetto_minus_200() -> None:
    assert (CHAMPION.bonus("clean"), CHAMPION.bonus("semi-clean"), CHAMPION.bonus("dirty"),
            CHAMPION.bonus("champion")) == (300, 150, 100, 500)
    assert CHAMPION.closing_bonus == 200 and CHAMPION.pozzetto_penalty == 200


def test_s14_3_champion_closing_needs_two_burraco_or_thirteen_clean_in_sequence() -> None:
    from burraco.engine.state import closing_ready

    clean = parse_meld("4C 5C 6C 7C 8C 9C 10C")
    assert not closing_ready([clean], CHAMPION)
    assert closing_ready([clean, parse_meld("4D 5D 6D JK(=7D) 8D 9D 10D")], CHAMPION)
    assert closing_ready([parse_meld("2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH")], CHAMPION)


def test_s14_3_champion_pile_pickup_obliges_melding_a_picked_card() -> None:
    deal = deal_for(2, ["5H 6H KD KS 9C", "4S"], pile="3D 7H", rules=CHAMPION)
    state = HandState.start(deal, CHAMPION)
    assert Pickup() in legal_actions(state)
    state = play(state, "pickup")
    actions = [str(a) for a in legal_actions(state)]
    assert actions == ["meld 5H 6H 7H"]  # KD KS 9C 3D can't be discarded before it
    with pytest.raises(IllegalActionError, match="meld at least one of its cards"):
        state.apply(Discard(parse_faces("9C")[0]))
    state = play(state, "meld 5H 6H 7H")
    assert any(isinstance(a, Discard) for a in legal_actions(state))
    # a pile none of whose cards can be melded cannot be taken
    deal = deal_for(2, ["5H 6H KD", "4S"], pile="9C", rules=CHAMPION)
    assert Pickup() not in legal_actions(HandState.start(deal, CHAMPION))


# --- §15 federation scoring codes ----------------------------------------------------------

@pytest.mark.parametrize(
    ("preset", "cards", "kind", "bonus"),
    [
        ("febur-it", "KH KH KD KD KC KC KS KS", "super", 250),
        ("fitab", "KH KH KD KD KC KC KS KS", "super", 250),
        ("fitab", "KH KH KD KD KC KC KS KS JK", "dirty-super", 200),
        ("fibur", "KH KH KD KD KC KC KS KS", "clean", 200),
        ("fibur", "KH KH KD KD KC KC KS KS JK", "semi-clean", 150),
        ("fitab", "AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH", "royal", 300),
        ("fitab", "AH 2H 3H 4H 5H 6H 7H JK 9H 10H JH QH KH", "dirty-royal", 250),
        ("febur-it", "AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH", "royal", 300),
        ("febur-it", "AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH JK", "complete", 400),
        ("fibur", "AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH", "clean", 200),
        ("fedibur", "3S JK 5S 6S 7S 8S 9S 10S JS", "dirty", 100),
        ("champion", "KH KH KD KD KC KC KS KS", "champion", 500),
    ],
)
def test_s15_federation_burraco_types_and_bonuses(
    preset: str, cards: str, kind: str, bonus: int,
) -> None:
    rules = PRESETS[preset]
    meld = meld_from_faces(parse_faces(cards), rules)
    assert burraco_type(meld, rules) == kind
    assert burraco_bonus(meld, rules) == bonus


def test_s8_4_home_rule_redeals_a_hand_nobody_went_to_the_pozzetto_in() -> None:
    for seed in range(100):
        state = random_hand(seed, 4, PRESETS["home"])
        if all(t < 0 for t in state.pozzetto_taker):
            assert hand_result(state).redeal
            return
    pytest.fail("no hand without a pozzetto in 100 random hands")


# --- conformance for every preset and player count ------------------------------------------

@pytest.mark.parametrize("preset", sorted(PRESETS))
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_random_play_conserves_cards_hides_secrets_and_replays(preset: str, players: int) -> None:
    rules = PRESETS[preset]
    total = rules.for_players(players).packs * 54
    for seed in range(3):
        for individual in ((False, True) if players in (3, 5) else (False,)):
            rng = random.Random(seed)
            state = HandState.start(
                deal_seeded(seed, players=players, rules=rules, individual=individual), rules)
            step = 0
            while not state.is_over:
                actions = legal_actions(state)
                assert actions
                state.apply_in_place(rng.choice(actions))
                step += 1
                assert sorted(state.all_cards()) == list(range(total))
                if step % 7 == 0:
                    for seat in [None, *range(players)]:
                        assert not view_problems(state, seat), (seed, seat)
            data = json.loads(json.dumps(record_of(state)))
            assert data["players"] == players and data["rules"] == preset
            again = replay(data)
            assert again.ok, again.error
            assert state_summary(again.state) == state_summary(state)
