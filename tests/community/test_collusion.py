"""Fair-play screening on synthetic histories written as the server writes them: two colluding
partners, a rating transfer and abandonments favouring one opponent planted among honest
accounts and bots (synth_history.py), and the same history without the plant."""

from __future__ import annotations

import json
import math
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from synth_history import PLANTED, History, Plan, build_history

from burraco.community.collusion import (
    binom_sf,
    binom_threshold,
    hypergeom_sf,
    poisson_sf,
    poisson_threshold,
    render_text,
    screening_report,
)
from burraco.community.collusion_signal import FIT, discard_score
from burraco.engine.cards import CARD_FACE, FACE_IS_WILD, parse_face
from burraco.engine.deal import Deal
from burraco.engine.state import HandState

KEYS = {"kind", "players", "statistic", "baseline", "threshold", "p_value", "explanation",
        "matches", "details"}


@pytest.fixture(scope="module")
def planted(tmp_path_factory: pytest.TempPathFactory) -> Iterator[History]:
    history = build_history(tmp_path_factory.mktemp("planted") / "burraco.db", Plan(seed=1))
    yield history
    history.engine.dispose()


@pytest.fixture(scope="module")
def report(planted: History) -> dict[str, Any]:
    with planted.engine.connect() as conn:
        return screening_report(conn, now=planted.now)


def flags_of(report: dict[str, Any], kind: str, names: tuple[str, ...]) -> list[dict[str, Any]]:
    return [f for f in report["flags"] if f["kind"] == kind
            and tuple(p["username"] for p in f["players"]) == names]


def test_the_colluding_partners_are_flagged_with_their_matches(
        planted: History, report: dict[str, Any]) -> None:
    [flag] = flags_of(report, "partner_signal", PLANTED["colluding"])
    assert set(planted.tables["colluding"]) <= set(flag["matches"])
    assert flag["statistic"] > flag["threshold"] > flag["baseline"]
    assert flag["p_value"] <= report["settings"]["alpha"]
    assert flag["details"]["discards"] > 100
    assert "Corvo and Gazza's discards fitted" in flag["explanation"]


def test_the_rating_transfer_and_its_shared_address_are_flagged(
        planted: History, report: dict[str, Any]) -> None:
    loser, winner = PLANTED["transfer"]
    [flag] = flags_of(report, "rating_transfer", (loser, winner))
    planted_tables = set(planted.tables["transfer"])
    assert len(planted_tables & set(flag["matches"])) >= 0.9 * len(planted_tables)
    assert flag["statistic"] == len(flag["matches"]) >= flag["threshold"]
    assert flag["statistic"] > 2 * flag["baseline"]
    assert flag["details"]["rating_given"] > 0
    [address] = flags_of(report, "shared_address", (loser, winner))
    assert planted_tables <= set(address["matches"])
    assert not flags_of(report, "rating_transfer", (winner, loser))


def test_abandonments_handing_one_opponent_the_win_are_flagged(
        planted: History, report: dict[str, Any]) -> None:
    [flag] = flags_of(report, "abandon_favour", PLANTED["abandon"])
    assert set(planted.tables["abandon"]) <= set(flag["matches"])
    assert flag["statistic"] >= flag["threshold"] > flag["baseline"]


def test_no_honest_account_is_flagged(planted: History, report: dict[str, Any]) -> None:
    pairs = {frozenset(pair) for pair in PLANTED.values()}
    for flag in report["flags"]:
        assert frozenset(p["username"] for p in flag["players"]) in pairs, flag["explanation"]
    # the honest friends who often partner were tested, and not flagged
    assert report["checked"]["tests"]["partner_signal"] >= 1 + len(planted.friends)


def test_a_history_without_the_plant_flags_nobody(tmp_path: Path) -> None:
    history = build_history(tmp_path / "honest.db", Plan(seed=2, planted=False))
    with history.engine.connect() as conn:
        honest = screening_report(conn, now=history.now)
    history.engine.dispose()
    assert honest["flags"] == []
    assert honest["checked"]["tests"]["partner_signal"] >= len(history.friends)
    assert honest["checked"]["players"] == len(history.honest)
    assert "No flags." in render_text(honest)


def test_the_report_is_json_with_every_flag_explained(report: dict[str, Any]) -> None:
    again = json.loads(json.dumps(report, allow_nan=False))
    assert again == report
    assert set(report) == {"since", "now", "settings", "flags", "checked", "baselines"}
    checked = report["checked"]
    assert checked["matches"] == checked["matches_two"] + checked["matches_four"] > 100
    assert checked["hands_unreadable"] == 0 and checked["bot_discards"] > 0
    for flag in report["flags"]:
        assert set(flag) == KEYS
        assert all(set(p) == {"player_id", "username"} for p in flag["players"])
        assert flag["matches"] and "{" not in flag["explanation"]
        assert all(isinstance(flag[k], float) for k in ("statistic", "baseline", "threshold"))
    text = render_text(report)
    assert "not a verdict" in text and "Partner signal: Corvo, Gazza" in text
    assert report["flags"][0]["matches"][0] in text


def test_the_window_counts_only_its_matches(planted: History, report: dict[str, Any]) -> None:
    with planted.engine.connect() as conn:
        later = screening_report(conn, now=planted.now + 200 * 86400.0)
        recent = screening_report(conn, now=planted.now, since_days=3)
    assert later["checked"]["matches"] == 0 and later["flags"] == []
    assert 0 < recent["checked"]["matches"] < report["checked"]["matches"]


@pytest.mark.parametrize(("arguments", "named"), [
    ({"since_days": 0}, "since_days"), ({"since_days": -5}, "since_days"),
    ({"since_days": "90"}, "since_days"), ({"since_days": math.nan}, "since_days"),
    ({"since_days": True}, "since_days"), ({"min_matches": 1}, "min_matches"),
    ({"min_matches": 2.5}, "min_matches"), ({"min_matches": True}, "min_matches"),
    ({"now": "today"}, "now"), ({"now": math.inf}, "now"), ({"alpha": 0}, "alpha"),
    ({"alpha": 0.7}, "alpha"),
])
def test_bad_arguments_are_refused(planted: History, arguments: dict[str, Any],
                                   named: str) -> None:
    with planted.engine.connect() as conn, pytest.raises(ValueError, match=named):
        screening_report(conn, **arguments)


def test_the_tails_and_their_thresholds() -> None:
    assert poisson_sf(1, 2.0) == pytest.approx(1 - math.exp(-2))
    assert poisson_sf(30, 2.0) == pytest.approx(
        sum(math.exp(-2) * 2 ** k / math.factorial(k) for k in range(30, 80)))
    assert binom_sf(3, 3, 0.5) == pytest.approx(0.125)
    assert binom_sf(0, 3, 0.5) == 1.0 and binom_sf(4, 3, 0.5) == 0.0
    assert hypergeom_sf(2, 4, 2, 2) == pytest.approx(1 / 6)
    assert hypergeom_sf(1, 10, 3, 4) == pytest.approx(1 - math.comb(7, 4) / math.comb(10, 4))
    for mean in (0.3, 2.0, 9.5):
        t = poisson_threshold(mean, 1e-4)
        assert poisson_sf(t, mean) <= 1e-4 < poisson_sf(t - 1, mean)
    t = binom_threshold(20, 0.4, 1e-3)
    assert binom_sf(t, 20, 0.4) <= 1e-3 < binom_sf(t - 1, 20, 0.4)
    assert binom_threshold(5, 0.9, 1e-3) == 6  # five losses in five cannot reach it


def _position(partner: list[str], mine: list[str]) -> HandState:
    """A deal at four where seat 0 holds ``mine`` (and filler) and seat 2 ``partner``."""
    wanted: list[list[int]] = [[], [], [], []]
    wanted[0] = [parse_face(f) for f in mine]
    wanted[2] = [parse_face(f) for f in partner]
    free = [c for c in range(108) if c not in {f for hand in wanted for f in hand}]
    hands = []
    for cards in wanted:
        cards = list(cards)
        while len(cards) < 11:
            cards.append(free.pop())
        hands.append(tuple(cards))
    pozzetti = (tuple(free[:11]), tuple(free[11:22]))
    deal = Deal(players=4, dealer=3, hands=tuple(hands), pozzetti=pozzetti,
                stock=tuple(free[23:]), pile=(free[22],))
    return HandState.start(deal)


def test_a_discard_scores_by_the_partners_hidden_cards_only() -> None:
    state = _position(["5H", "6H", "8H", "9H"], ["7H", "KS", "QS", "4C"])
    seven, king = parse_face("7H"), parse_face("KS")
    assert FIT[seven][parse_face("6H")] == 2 and FIT[seven][parse_face("9H")] == 1
    fits = discard_score(state, 0, seven)
    assert fits is not None and fits > 1
    assert (discard_score(state, 0, king) or 0) < 0
    options = {CARD_FACE[c] for c in state.hands[0] if not FACE_IS_WILD[CARD_FACE[c]]}
    total = sum(discard_score(state, 0, f) or 0 for f in options)
    assert total == pytest.approx(0, abs=1e-9)  # each score is against the other choices
    # the same cards, seen going into the partner's hand with the pile, explain the fit
    state.known[2] = [parse_face(f) for f in ("5H", "6H", "8H", "9H")]
    public = discard_score(state, 0, seven)
    assert public is not None and public < fits - 1
    assert discard_score(state, 0, parse_face("2H")) is None  # a pinella says nothing
