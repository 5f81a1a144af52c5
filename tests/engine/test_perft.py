"""Burraco "perft": legal-action tree sizes from fixed positions (golden data).

Each ``tests/data/perft/*.json`` file holds an explicit deal written as card
text (hands, pozzetti top first, stock top card first, pile bottom card
first), the moves that reach the position (action texts, as ``str(action)``
writes them), a summary of the position, and golden counts:

* ``legal``: the number of legal actions at the position;
* ``perft``: ``{"1": ..., "2": ..., "3": ...}``, the number of leaf nodes of
  the legal-action tree at that depth, counted as in chess: every action is
  one edge (draw, pickup, meld, attach and discard each count as one ply),
  and a branch that ends the hand before the depth contributes nothing.

Depth 3 is left out where the tree is too big for a quick test.

Regenerate (only after a deliberate rules change, then review the diff):

    .venv/bin/python tests/engine/test_perft.py --regen

The generator replays each position from its JSON before counting, so the
files are exactly what the test reads.  Which positions were checked by hand
is recorded in each file's ``checked_by_hand`` note.
"""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from positions import deal_from_json, deal_to_json, make_deal, replay

from burraco.engine import (
    Attach,
    CallTime,
    Discard,
    HandState,
    NewMeld,
    Pickup,
    deal_seeded,
    legal_actions,
    parse_action,
)
from burraco.engine.actions import Action
from burraco.engine.cards import FACE_IS_WILD
from burraco.engine.melds import base_type
from burraco.engine.state import CARD_FACE, DRAW_PHASE, PLAY_PHASE

DATA = Path(__file__).resolve().parent.parent / "data" / "perft"
MAX_DEPTH3_FRONTIER = 10000  # perft(2) above this: no depth 3 in the golden file


def perft(state: HandState, depth: int) -> int:
    """Leaf nodes of the legal-action tree ``depth`` plies below ``state``."""
    if depth == 0:
        return 1
    actions = legal_actions(state)
    if depth == 1:
        return len(actions)
    total = 0
    for action in actions:
        child = state.clone()
        child.apply_in_place(action)
        total += perft(child, depth - 1)
    return total


def summary(state: HandState) -> dict[str, Any]:
    """What the position is, so a file's description can be checked against its replay."""
    seat = state.turn
    side = state.side_of[seat]
    hand = state.hands[seat]
    return {
        "players": state.players,
        "turn": seat,
        "phase": state.phase,
        "hand_sizes": [len(h) for h in state.hands],
        "pending": [len(p) for p in state.pending],
        "stock": len(state.stock),
        "pile": len(state.pile),
        "melds": [len(m) for m in state.melds],
        "pozzetto_taker": state.pozzetto_taker[:],
        "barred_in_hand": state.barred in hand,
        "wilds_in_hand": sum(FACE_IS_WILD[CARD_FACE[c]] for c in hand),
        "side_burraco": any(base_type(m, state.rules) for m in state.melds[side]),
        "final_turn": state.final_turn,
        "stall": state.stall,
        "time_left": state.time_left,
    }


def files() -> list[Path]:
    return sorted(DATA.glob("*.json"))


def load(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text())
    return data


@pytest.mark.parametrize("path", files(), ids=lambda p: p.stem)
def test_perft(path: Path) -> None:
    data = load(path)
    state = HandState.start(deal_from_json(data["deal"]))
    for text in data["moves"]:
        action = parse_action(text)
        # the referee's time call is never a listed action (§8.2)
        assert isinstance(action, CallTime) or action in legal_actions(state), text
        state.apply_in_place(action)
    assert summary(state) == data["position"]
    assert len(legal_actions(state)) == data["legal"]
    for depth, count in sorted(data["perft"].items()):
        assert perft(state, int(depth)) == count, f"perft({depth})"


def test_the_golden_set_covers_what_it_should() -> None:
    positions = [load(p)["position"] for p in files()]
    assert len(positions) >= 20
    assert {p["players"] for p in positions} == {2, 4}
    assert {p["phase"] for p in positions} == {DRAW_PHASE, PLAY_PHASE}
    assert any(p["barred_in_hand"] for p in positions)
    assert any(p["wilds_in_hand"] >= 2 for p in positions)
    assert any(max(p["hand_sizes"]) >= 20 for p in positions)
    assert any(p["pozzetto_taker"] != [-1, -1] for p in positions)
    assert any(p["side_burraco"] and p["pozzetto_taker"][p["turn"] % 2] >= 0
               for p in positions)
    assert any(any(p["pending"]) for p in positions)
    assert any(p["final_turn"] for p in positions)
    assert any(p["time_left"] >= 0 for p in positions)
    assert sum("3" in load(p)["perft"] for p in files()) >= 20
    assert sum("checked_by_hand" in load(p) for p in files()) >= 4


# --- the generator (not run by the tests) ---------------------------------------------------

Predicate = Callable[[HandState], bool]


def _melder(state: HandState, actions: list[Action], rng: random.Random) -> Action:
    plays = [a for a in actions if isinstance(a, (NewMeld, Attach))]
    if plays and rng.random() < 0.9:
        return rng.choice(plays)
    return rng.choice([a for a in actions if not isinstance(a, (NewMeld, Attach))] or actions)


def _picker(state: HandState, actions: list[Action], rng: random.Random) -> Action:
    """Takes the pile when it holds several cards (or at random) and never melds: big hands."""
    if Pickup() in actions and (len(state.pile) >= 3 or rng.random() < 0.3):
        return Pickup()
    plays = [a for a in actions if isinstance(a, Discard)]
    return rng.choice(plays or actions)


POLICIES = {"melder": _melder, "picker": _picker,
            "uniform": lambda state, actions, rng: rng.choice(actions)}


def _side_has(state: HandState, *, pozzetto: bool, burraco: bool | None = None) -> bool:
    side = state.side_of[state.turn]
    if (state.pozzetto_taker[side] >= 0) != pozzetto:
        return False
    return burraco is None or any(base_type(m, state.rules) for m in state.melds[side]) == burraco


def _hand(state: HandState) -> list[int]:
    return state.hands[state.turn]


def _can_close(state: HandState) -> bool:
    return state.phase == PLAY_PHASE and _side_has(state, pozzetto=True, burraco=True) and any(
        isinstance(a, (NewMeld, Attach)) for a in legal_actions(state)) and len(_hand(state)) <= 6


# name -> (description, players, first seed, policy, predicate)
SEEDED: dict[str, tuple[str, int, int, str, Predicate]] = {
    "2p-start": ("2 players, the first decision of a hand", 2, 1, "melder",
                 lambda s: True),
    "4p-start": ("4 players, the first decision of a hand", 4, 2, "melder",
                 lambda s: True),
    "2p-first-draw": ("2p, after the first draw: 12 cards, play phase", 2, 3, "melder",
                      lambda s: s.phase == PLAY_PHASE),
    "4p-upcard-picked": (
        "4p, the lone first up-card taken: it is barred this turn (§3.1.4)", 4, 4, "picker",
        lambda s: s.phase == PLAY_PHASE and s.barred in _hand(s)),
    "2p-barred-midgame": (
        "2p, a one-card pile taken mid-hand with melds on the table (§3.1.4)", 2, 10, "melder",
        lambda s: s.phase == PLAY_PHASE and s.barred in _hand(s)
        and len(s.melds[s.side_of[s.turn]]) >= 2),
    "4p-barred-twin": (
        "4p, the barred card and its twin both in hand (§3.1.4)", 4, 20, "uniform",
        lambda s: s.phase == PLAY_PHASE and s.barred in _hand(s) and sum(
            CARD_FACE[c] == CARD_FACE[s.barred] for c in _hand(s)) == 2),
    "2p-big-hand": ("2p, a big hand after pile pickups (>= 22 cards)", 2, 30, "picker",
                    lambda s: s.phase == PLAY_PHASE and len(_hand(s)) >= 22),
    "4p-big-hand": ("4p, a big hand after pile pickups (>= 20 cards)", 4, 40, "picker",
                    lambda s: s.phase == PLAY_PHASE and len(_hand(s)) >= 20),
    "2p-wilds": ("2p, play phase holding three or more wilds, melds on the table", 2, 50,
                 "melder",
                 lambda s: s.phase == PLAY_PHASE and sum(
                     FACE_IS_WILD[CARD_FACE[c]] for c in _hand(s)) >= 3
                 and len(s.melds[s.side_of[s.turn]]) >= 1 and len(_hand(s)) <= 14),
    "4p-wilds": ("4p, play phase holding two or more wilds", 4, 60, "melder",
                 lambda s: s.phase == PLAY_PHASE and sum(
                     FACE_IS_WILD[CARD_FACE[c]] for c in _hand(s)) >= 2
                 and len(s.melds[s.side_of[s.turn]]) >= 2),
    "2p-in-diretta": ("2p, right after a pozzetto taken in diretta (§6.3)", 2, 70, "melder",
                      lambda s: s.phase == PLAY_PHASE and s.pozzetto_taker[s.side_of[s.turn]]
                      == s.turn and len(_hand(s)) == 11 and s.turn_melded),
    "4p-pending-unseen": (
        "4p, an opponent to draw while a pozzetto taken con lo scarto is still unseen (§6.4)",
        4, 80, "melder",
        lambda s: s.phase == DRAW_PHASE and any(
            p and not s.pending_seen[i] for i, p in enumerate(s.pending))
        and not s.pending[s.turn]),
    "4p-taker-to-draw": (
        "4p, the taker of a pozzetto con lo scarto to draw: it joins his hand (§6.4)",
        4, 90, "melder",
        lambda s: s.phase == DRAW_PHASE and bool(s.pending[s.turn])),
    "2p-pozzetto-no-burraco": (
        "2p, play phase, the side has its pozzetto but no burraco yet", 2, 100, "melder",
        lambda s: s.phase == PLAY_PHASE and _side_has(s, pozzetto=True, burraco=False)
        and len(_hand(s)) <= 8),
    "2p-near-closing": (
        "2p, play phase, the side has its pozzetto and a burraco, few cards left (§7.1)",
        2, 110, "melder", _can_close),
    "4p-near-closing": (
        "4p, play phase, the side has its pozzetto and a burraco, few cards left (§7.1)",
        4, 120, "melder", _can_close),
    "4p-no-pozzetto-opponents-have": (
        "4p, play phase, the opponents have taken their pozzetto, this side has not",
        4, 130, "melder",
        lambda s: s.phase == PLAY_PHASE and _side_has(s, pozzetto=False)
        and s.pozzetto_taker[1 - s.side_of[s.turn]] >= 0),
    "2p-final-turn": ("2p, the last turn: the draw left two cards in the stock (§8.1)", 2,
                      140, "uniform", lambda s: s.phase == PLAY_PHASE and s.final_turn),
    "4p-stock-three": ("4p, draw phase with three cards in the stock (§8.1)", 4, 150,
                       "uniform", lambda s: s.phase == DRAW_PHASE and len(s.stock) == 3),
    "2p-near-stall": ("2p, three stall turns in a row: one more ends the hand (§8.3)", 2,
                      160, "uniform", lambda s: s.phase == DRAW_PHASE and s.stall == 3),
}

# name -> (description, deal keywords for positions.make_deal, moves, note on the hand check)
EXPLICIT: dict[str, tuple[str, dict[str, Any], list[str], str]] = {
    "2p-hand-upcard-barred": (
        "2p, small hands: the lone up-card JD taken, barred this turn (§3.1.4)",
        {"players": 2, "hands": ["5H 6H 7H 9C", "KS 8S QD"], "pile": "JD", "stock": "4D"},
        ["pickup"],
        "legal 5: meld 5H 6H 7H, discard 5H 6H 7H 9C (not JD). perft(2) 9: after the meld "
        "only discard 9C (JD barred, nothing attaches); after each of the 4 discards seat 1 "
        "may draw or take the pile (4 x 2). perft(3) 30: meld, 9C then draw/pickup (2); "
        "each discard then draw (KS 8S QD 4D: 4 discards, no meld) or pickup of the lone "
        "discard (barred: 3 discards) = 4 x 7 = 28.",
    ),
    "2p-hand-empty-pile": (
        "2p, small hands, an empty discard pile: only the stock (§3.1.1)",
        {"players": 2, "hands": ["5H 6H 7H 9C", "KS 8S QD"], "pile": "", "stock": "4D"},
        [],
        "legal 1 (draw). perft(2) 6: meld 5H 6H 7H or one of 5 discards. perft(3) 12: after "
        "the meld discard 9C or 4D (2); after each discard seat 1 draws or picks up (5 x 2).",
    ),
    "2p-hand-closing": (
        "2p: pozzetto taken in diretta, a clean burraco and two runs on the table, five cards "
        "in hand (9D 9S 9C KH 2C), closing possible",
        {"players": 2, "hands": ["4H 5H 6H 7H 8H 9H", "KS 8S QD"],
         "pozzetti": ["9D 9S 9C KH 2C 3S 4S 5S JD QD KD", "AD AD AC AC QC QC 10C 10C 6C 6C 7C"],
         "pile": "3H", "stock": "10H"},
        ["draw", "meld 4H 5H 6H 7H 8H 9H 10H", "meld 3S 4S 5S", "meld JD QD KD"],
        "legal 13: new melds 9D 9C 9S, 9D 9C 2C, 9D 9S 2C, 9C 9S 2C, 9D 9C 9S 2C (leaves KH: "
        "closing possible) = 5; attach 2C to each of the three melds = 3 (KH fits nowhere "
        "alone); discards of the five cards = 5. perft(2) 42: after meld 9D 9C 9S (hand KH "
        "2C): 2C onto any of 4 melds + 2 discards = 6; after each 3-card set with 2C: attach "
        "the third 9 or 2 discards = 3 (x3); after the 4-card set: discard KH, closing = 1; "
        "after 2C onto the heart run or the spade run: meld 9D 9C 9S + 4 discards = 5 (x2); "
        "after 2C(=10D) onto JD QD KD: the 9s, attach 9D below the wild, 4 discards = 6; "
        "after each of the 5 discards: draw or pickup = 10.",
    ),
    "2p-hand-time-called": (
        "2p, small hands: time called before seat 0's draw (§8.2), then the draw",
        {"players": 2, "hands": ["5H 6H 7H 9C", "KS 8S QD"], "pile": "3C", "stock": "4D 10C"},
        ["time", "draw"],
        "legal 6: meld 5H 6H 7H + 5 discards. perft(2) 12: after the meld discard 9C or 4D "
        "(2); after each discard seat 1 draws or picks up (10). perft(3) 49: meld, discard, "
        "then seat 1's draw or pickup (4); after each of the 5 discards, seat 1 draws 10C "
        "(KS 8S QD 10C: 4 discards) or takes the two-card pile 3C + the discard (5 discards, "
        "no meld): 5 x 9 = 45.",
    ),
    "4p-hand-pending": (
        "4p: seat 0 took the pozzetto con lo scarto; seat 1 to draw, the pozzetto unseen",
        {"players": 4, "hands": ["5H 6H 7H", "3D 9S KC", "4C 10D QS", "5S JH 8C"],
         "pozzetti": ["3C 4C 5C 8S 9S 10S JS QS KS AS 6D",
                      "AD AD AC AC QC QC 10C 10C 6C 6C 7C"],
         "pile": "2D", "stock": "9C KH QD JD 8H"},
        ["draw", "meld 5H 6H 7H", "discard 9C"],
        "legal 2 (draw, pickup). perft(2) 10: draw KH -> 3D 9S KC KH, no meld, 4 discards; "
        "pickup of 2D 9C -> meld 9S 9C 2D (the only meld) + 5 discards = 6. perft(3) 20: "
        "after each of the 4 discards seat 2 draws or picks up (8); after the pickup, the "
        "meld then discard 3D or KC (2), or each of the 5 discards then seat 2's two (10).",
    ),
}


# hand checks of seeded positions (the legal actions listed and counted against the rules)
HAND_NOTES = {
    "2p-near-closing": (
        "legal 10. Seat 1 holds 6H 7H 7D 10D 8C JS; side 1 has nine melds. Attachable: 10D "
        "to the set of tens (7 naturals + 2S -> 8 naturals, the maximum), 7H and 7D to 7C 7S "
        "7S 2D, 6H below 7H 2H(=8H) 9H; nothing else fits (the JK in the club run is bound, "
        "so 8C cannot go on); no new meld (one set per rank: the sevens are taken; no wild "
        "in hand); 6 discards. 4 + 6 = 10."),
    "4p-near-closing": (
        "legal 6. Seat 3 holds AH AH 9H QH 4C 8C; only 8C fits (onto 8H 8D 8S 8S): 9H is "
        "already in 6H 7H JK(=8H) 9H 10H, QH would need the bound joker; two aces and no "
        "wild make no meld; 5 distinct faces to discard. 1 + 5 = 6."),
    "4p-barred-twin": (
        "legal 17. Seat 3 holds 8H QH 2D 4D 6D 6D 7D 10D 3S 7S JS JS, one 6D barred. New "
        "melds: 2D 4D 6D, 2D 4D 6D 7D, 2D 6D 7D, 2D 6D 6D, 2D 7D 7S, 2D JS JS (6); attach "
        "2D to 9H 9C 9S (1); discards of the 10 distinct faces, 6D included since its twin "
        "is held (10)."),
}


def _find_seeded(players: int, first_seed: int, policy: str, predicate: Predicate,
                 ) -> tuple[Any, list[str]]:
    choose = POLICIES[policy]
    for seed in range(first_seed * 1000, first_seed * 1000 + 5000):
        rng = random.Random(seed)
        deal = deal_seeded(seed, players=players)
        state = HandState.start(deal)
        moves: list[str] = []
        while not state.is_over:
            if predicate(state):
                return deal, moves
            action = choose(state, legal_actions(state), rng)
            moves.append(str(action))
            state.apply_in_place(action)
    raise RuntimeError(f"no position found from seed {first_seed * 1000}")


def _golden(name: str, description: str, deal_json: dict[str, Any], moves: list[str],
            note: str = "") -> dict[str, Any]:
    state = replay(deal_json, moves)
    counts = {"1": perft(state, 1), "2": perft(state, 2)}
    if counts["2"] <= MAX_DEPTH3_FRONTIER:
        counts["3"] = perft(state, 3)
    data: dict[str, Any] = {
        "name": name,
        "description": description,
        "rules": "fibur",
        "deal": deal_json,
        "moves": moves,
        "position": summary(state),
        "legal": counts["1"],
        "perft": counts,
    }
    if note:
        data["checked_by_hand"] = note
    return data


def regenerate() -> None:
    DATA.mkdir(parents=True, exist_ok=True)
    out: dict[str, dict[str, Any]] = {}
    for name, (description, players, first_seed, policy, predicate) in SEEDED.items():
        print(name, flush=True)
        deal, moves = _find_seeded(players, first_seed, policy, predicate)
        out[name] = _golden(name, description, deal_to_json(deal), moves,
                            HAND_NOTES.get(name, ""))
    for name, (description, keywords, moves, note) in EXPLICIT.items():
        out[name] = _golden(name, description, deal_to_json(make_deal(**keywords)), moves, note)
    for name, data in out.items():
        path = DATA / f"{name}.json"
        path.write_text(json.dumps(data, indent=1) + "\n")
        print(f"{name}: legal {data['legal']}, perft {data['perft']}")


if __name__ == "__main__":
    if sys.argv[1:] == ["--regen"]:
        regenerate()
    else:
        print(__doc__)
