"""The pieces of protocol 2's deltas (docs/protocol.md §15), on hand-made sync bodies."""

from __future__ import annotations

import json
import random
from typing import Any

from deltas_client import apply_delta

from burraco.engine.legal import legal_actions
from burraco.server.deltas import DeltaMaker, delta, meld_changes, with_delta
from burraco.server.game import FINISHED, Game, fresh_deal
from burraco.server.projection import sync_body
from burraco.server.tables import TableRequest, build_config


def body(**hand: Any) -> dict[str, Any]:
    base = {"number": 1, "turn": 0, "pile": ["KD"], "moves": [[0, "draw"]],
            "melds": [["5H 6H 7H"], []], "hand": ["QS", "QD"]}
    return {"status": "playing", "match": {"scores": [0, 0]}, "hand": {**base, **hand}}


def test_a_tail_is_sent_as_a_tail_and_a_new_list_whole() -> None:
    old = body()
    grown = body(pile=["KD", "9C"], moves=[[0, "draw"], [0, "discard 9C"]], turn=1)
    assert delta(old, grown) == {"h": {"pile_add": ["9C"], "moves_add": [[0, "discard 9C"]],
                                       "turn": 1}}
    taken = body(pile=[])
    assert delta(old, taken) == {"h": {"pile": []}}
    assert apply_delta(old, delta(old, grown)) == grown


def test_melds_made_or_grown_are_sent_alone_and_a_meld_gone_sends_them_all() -> None:
    assert meld_changes([["5H 6H 7H"], []], [["5H 6H 7H 8H"], ["QS QD QC"]]) == [
        [0, 0, "5H 6H 7H 8H"], [1, 0, "QS QD QC"]]
    assert meld_changes([["5H 6H 7H"], ["QS QD QC"]], [["5H 6H 7H"], []]) is None
    old = body(melds=[["5H 6H 7H"], ["QS QD QC"]])
    undone = body(melds=[["5H 6H 7H"], []])
    assert delta(old, undone) == {"h": {"melds": [["5H 6H 7H"], []]}}
    assert apply_delta(old, delta(old, undone)) == undone


def test_a_new_hand_comes_whole_and_the_match_when_it_changes() -> None:
    old = body()
    new = {"status": "playing", "match": {"scores": [120, -40]}, "hand": {**body()["hand"],
                                                                         "number": 2}}
    assert delta(old, new) == {"match": {"scores": [120, -40]}, "hand": new["hand"]}
    over = {**old, "status": "finished"}
    assert delta(old, over) == {"status": "finished"}
    assert delta(old, old) == {}


def test_a_delta_is_added_to_an_encoded_frame() -> None:
    assert with_delta('{"v":7}', "{}") == '{"v":7,"d":{}}'
    assert with_delta('{"v":8,"e":{"type":"Drew"}}', '{"h":{"turn":1}}') == (
        '{"v":8,"e":{"type":"Drew"},"d":{"h":{"turn":1}}}')


# --- whole matches in process: every step's deltas rebuild every seat's sync ------------------

def _play_match(game: Game, rng: random.Random, seats: list[int | None]) -> tuple[Game, int]:
    """Random legal play to the match's end, checking the deltas after every step."""
    maker = DeltaMaker()
    states = {seat: sync_body(game, seat, 2) for seat in seats}
    steps = 0
    while game.status != FINISHED:
        assert game.hand is not None and game.turn is not None
        action = rng.choice(legal_actions(game.hand))
        step = game.act(game.turn, action, fresh_deal)
        deltas = maker.for_step(game, step, set(seats))
        for seat in seats:
            for offset in sorted(deltas):
                states[seat] = apply_delta(states[seat], json.loads(deltas[offset][seat]))
            assert states[seat] == sync_body(step.game, seat, 2), f"seat {seat}, step {steps}"
        if step.final is not None:
            ended = next(i for i, e in enumerate(step.events) if e.kind == "HandEnded")
            shown = json.loads(deltas[ended][0])["h"]
            assert "revealed" in shown or game.grouped, "the ended hand's cards laid down"
        game = step.game
        steps += 1
    return game, steps


def _game(grouped: bool) -> Game:
    config = build_config(TableRequest(players=2, mode="smazzate", smazzate=2))
    game = Game.new(config, grouped=grouped).open(fresh_deal).game
    game = game.claim(0, "a", "Ada", fresh_deal).game
    return game.claim(1, "b", "Bob", fresh_deal).game


def test_every_step_of_a_match_is_rebuilt_for_both_seats_and_a_spectator() -> None:
    game, steps = _play_match(_game(grouped=False), random.Random(3), [0, 1, None])
    assert steps > 20 and len(game.match.hands) == 2


def test_a_held_hand_is_shown_only_when_its_reveal_is_published() -> None:
    game, _ = _play_match(_game(grouped=True), random.Random(4), [0, None])
    assert game.hand is not None and game.held == (1, 2)
    before = sync_body(game, None, 2)
    assert before["hand"]["revealed"] == []
    step = game.reveal(2, {"order": []})
    shown = json.loads(DeltaMaker().for_step(game, step, {None})[0][None])
    held = [len(h) + len(p) for h, p in zip(game.hand.hands, game.hand.pending, strict=True)]
    # every seat's cards, as many as it held (the seat that went out may hold none)
    assert [len(cards) for cards in shown["h"]["revealed"]] == held and any(held)
    assert apply_delta(before, shown) == sync_body(step.game, None, 2)
