"""The server's pure parts in process: tokens, commitments, table settings, game, projection."""

from __future__ import annotations

import hashlib
import json
import random

import pytest
from harness import leaks

from burraco.accounts.identity import Guest, Signer, TokenError, check_nickname
from burraco.engine.actions import DRAW, parse_action
from burraco.engine.legal import legal_actions
from burraco.engine.views import hidden_from
from burraco.server.commitment import DealSecret, commit, verify
from burraco.server.game import (
    FINISHED,
    PLAYING,
    WAITING,
    Game,
    GameError,
    fresh_deal,
    group_deal,
)
from burraco.server.projection import frame, frames_for, project
from burraco.server.protocol import ProtocolError, check_server_message, read_client_message
from burraco.server.tables import TableConfigError, TableRequest, build_config

SIGNER = Signer(b"k" * 32)


def two_player_game(**options: object) -> Game:
    config = build_config(TableRequest(players=2, **options))  # type: ignore[arg-type]
    game = Game.new(config).open(fresh_deal).game
    game = game.claim(0, "a", "Ada", fresh_deal).game
    return game.claim(1, "b", "Bob", fresh_deal).game


# --- identity ---------------------------------------------------------------------------------

def test_tokens_round_trip_and_refuse_forgery_and_other_tables() -> None:
    ada = Guest("abc", "Ada Lovelace")
    assert SIGNER.guest(SIGNER.guest_token(ada)) == ada
    seat = SIGNER.seat_token("T1", 2)
    assert SIGNER.seat_of(seat, "T1") == 2
    with pytest.raises(TokenError, match="another table"):
        SIGNER.seat_of(seat, "T2")
    with pytest.raises(TokenError, match="signature"):
        SIGNER.seat_of(seat.replace(".2.", ".3."), "T1")
    with pytest.raises(TokenError, match="not a seat token"):
        SIGNER.seat_of(SIGNER.guest_token(ada), "T1")
    with pytest.raises(TokenError, match="signature"):
        Signer(b"x" * 32).guest(SIGNER.guest_token(ada))
    SIGNER.check_watch(SIGNER.watch_token("T1"), "T1")
    with pytest.raises(TokenError):
        SIGNER.check_watch(SIGNER.watch_token("T1"), "T9")
    with pytest.raises(TokenError):
        SIGNER.guest(12)


def test_nicknames_are_cleaned_or_refused_with_a_reason() -> None:
    assert check_nickname("  Ada   L. ") == "Ada L."
    for bad, why in (("", "empty"), ("x" * 25, "at most"), ("a\x00b", "control"),
                     (None, "string")):
        with pytest.raises(ValueError, match=why):
            check_nickname(bad)


# --- commitments ------------------------------------------------------------------------------

def test_a_commitment_binds_the_order_and_the_salt() -> None:
    secret = DealSecret.fresh()
    order = list(secret.order)
    assert sorted(order) == list(range(108))
    text = f"burraco-deal-v1:{secret.salt}:{','.join(map(str, order))}"
    assert secret.commitment == hashlib.sha256(text.encode()).hexdigest()
    assert verify(secret.commitment, order, secret.salt)
    swapped = [order[1], order[0], *order[2:]]
    assert not verify(secret.commitment, swapped, secret.salt)
    assert not verify(secret.commitment, order, "00" * 32)
    assert commit(order, secret.salt) == secret.reveal()["commitment"]
    assert DealSecret.fresh().order != secret.order  # CSPRNG: a new deck each hand


# --- table settings ---------------------------------------------------------------------------

@pytest.mark.parametrize(("request_body", "field"), [
    ({"rules": "nope"}, "rules"),
    ({"options": {"target": "x"}}, "options.target"),
    ({"options": {"name": "x"}}, "options.name"),
    ({"options": {"closing": "sometimes"}}, "options.closing"),
    ({"players": 2}, None),
    ({"players": 2, "seats": [{"kind": "human"}]}, "seats"),
    ({"seats": [{"kind": "human", "level": "basic"}] * 4}, "seats.0.level"),
    ({"standin": "genius"}, "standin"),
    ({"mode": "smazzate"}, "smazzate"),
    ({"mode": "smazzate", "smazzate": 2, "target": 505}, "target"),
    ({"smazzate": 3}, "smazzate"),
])
def test_table_settings_are_checked_field_by_field(request_body: dict[str, object],
                                                    field: str | None) -> None:
    request = TableRequest(**request_body)  # type: ignore[arg-type]
    if field is None:
        assert build_config(request).players == 2
        return
    with pytest.raises(TableConfigError) as error:
        build_config(request)
    assert error.value.field == field


def test_a_table_config_survives_storage_as_json() -> None:
    config = build_config(TableRequest(players=4, options={"target": 505}, seats=[
        {"kind": "human"}, {"kind": "bot", "level": "random"}, {"kind": "human"},
        {"kind": "bot"}]))
    again = type(config).from_dict(json.loads(json.dumps(config.to_dict())))
    assert again == config and again.rules_value().target == 505
    assert again.human_seats == [0, 2] and again.target == 505


# --- the game ----------------------------------------------------------------------------------

def test_play_starts_when_every_human_seat_is_held() -> None:
    config = build_config(TableRequest(players=2))
    game = Game.new(config).open(fresh_deal).game
    assert game.status == WAITING and game.version == 1
    step = game.claim(0, "a", "Ada", fresh_deal)
    assert [e.kind for e in step.events] == ["SeatTaken"]
    with pytest.raises(GameError) as taken:
        step.game.claim(0, "b", "Bob", fresh_deal)
    assert taken.value.code == "seat_taken"
    started = step.game.claim(1, "b", "Bob", fresh_deal)
    assert [e.kind for e in started.events] == ["SeatTaken", "HandStarted"]
    assert started.game.status == PLAYING and started.started is not None
    bots = build_config(TableRequest(players=2, seats=[{"kind": "bot"}, {"kind": "bot"}]))
    assert Game.new(bots).open(fresh_deal).game.status == PLAYING


def test_commands_are_refused_with_stable_codes_and_leave_the_game_unchanged() -> None:
    game = two_player_game()
    turn = game.turn
    assert turn is not None
    cases = [
        (lambda: game.act(1 - turn, DRAW, fresh_deal), "not_your_turn"),
        (lambda: game.act(turn, parse_action("time"), fresh_deal), "forbidden_action"),
        (lambda: game.act(turn, parse_action("discard 7H"), fresh_deal), "illegal_action"),
        (lambda: game.act(9, DRAW, fresh_deal), "no_such_seat"),
        (lambda: game.undo(turn), "nothing_to_undo"),
        (lambda: game.claim(0, "z", "Zed", fresh_deal), "seat_taken"),
    ]
    for attempt, code in cases:
        with pytest.raises(GameError) as error:
            attempt()
        assert error.value.code == code and error.value.reason
    assert game.hand is not None and game.hand.moves() == []


def test_a_fixed_number_of_smazzate_ends_the_match() -> None:
    game = two_player_game(mode="smazzate", smazzate=1)
    kinds: list[str] = []
    while game.status != FINISHED:
        assert game.hand is not None and game.turn is not None
        step = game.act(game.turn, legal_actions(game.hand)[-1], fresh_deal)
        kinds += [e.kind for e in step.events]
        game = step.game
    assert kinds[-3:] == ["HandOver", "HandEnded", "MatchOver"]
    assert len(game.match.hands) == 1 and game.match.finished


# --- projection ---------------------------------------------------------------------------------

def test_the_legal_frames_undo_flag_says_exactly_whether_an_undo_is_taken() -> None:
    """docs/protocol.md, "Undo": a play that took the pozzetto is never taken back, so the
    ``legal`` frame after it must not offer undo (a client would show a button that fails)."""
    rng = random.Random(3)
    offered = refused_for_pozzetto = 0
    for group in range(40):
        config = build_config(TableRequest(players=4, seats=[{"kind": "bot"}] * 4))
        deal = group_deal(bytes([group]) * 32)
        game = Game.new(config).open(deal).game
        while game.status == PLAYING and game.match.hands == () and game.hand is not None:
            seat = game.turn
            assert seat is not None
            try:
                game.undo(seat)
                undone = True
            except GameError as error:
                undone = False
                refused_for_pozzetto += error.code == "undo_not_allowed"
            assert game.may_undo(seat) == undone, (group, game.hand.moves()[-1:])
            offered += undone
            actions = [str(a) for a in legal_actions(game.hand)]
            melds = [a for a in actions if a.startswith(("meld ", "attach "))]
            choice = max(melds, key=len) if melds and rng.random() < 0.9 else rng.choice(actions)
            game = game.act(seat, parse_action(choice), deal).game
        if refused_for_pozzetto >= 3:
            break
    assert offered > 100 and refused_for_pozzetto >= 3, (offered, refused_for_pozzetto)


def test_events_show_each_seat_only_what_it_may_see() -> None:
    game = two_player_game()
    assert game.hand is not None
    seat = game.turn
    step = game.act(seat or 0, DRAW, fresh_deal)
    drew = step.events[0]
    mine = project(drew.kind, drew.payload, seat)
    theirs = project(drew.kind, drew.payload, 1 - (seat or 0))
    spectator = project(drew.kind, drew.payload, None)
    assert mine is not None and mine["card_text"] and "card" not in mine
    assert theirs == spectator and theirs is not None
    assert theirs["card_text"] is None and "card" not in theirs
    assert project("PozzettoSeen", {"seat": 0, "cards": [1, 2]}, 1) is None
    assert frame(7, None) == '{"v":7}'
    started = project("HandStarted", {"hands": [[1, 2], [3, 4]], "pile": [5], "number": 1}, 1)
    assert started is not None and started["cards_text"] == ["4H", "5H"]
    assert "hands" not in started and "cards" not in started and "pile" not in started
    assert started["pile_text"] == ["6H"]
    assert "cards_text" not in (project("HandStarted", {"hands": [[1], [2]], "pile": [5]}, None)
                                or {})


def test_the_leak_check_itself_catches_a_leak() -> None:
    game = two_player_game()
    assert game.hand is not None
    hidden = sorted(hidden_from(game.hand, 0))
    stock_card = game.hand.stock[-1]
    assert stock_card in hidden
    assert leaks({"e": {"type": "Drew", "card": stock_card}}, game.hand, 0)
    assert leaks({"e": {"type": "Discarded", "card": game.hand.hands[0][0]}}, game.hand, 0)
    other_hand = game.hand.hands[1]
    from burraco.engine.cards import card_str
    faces_only_there = [c for c in other_hand
                        if all(o in hidden for o in game.hand.all_cards()
                               if card_str(o) == card_str(c))]
    if faces_only_there:
        assert leaks({"hand": [card_str(faces_only_there[0])]}, game.hand, 0)
    own = game.hand.hands[0]
    assert not leaks({"hand_ids": list(own), "hand": [card_str(c) for c in own]}, game.hand, 0)
    assert leaks({"hand_ids": list(game.hand.hands[1])}, game.hand, 0)


# --- protocol -----------------------------------------------------------------------------------

@pytest.mark.parametrize(("text", "code"), [
    ("{", "bad_json"),
    ("3", "bad_message"),
    ('{"t": 5}', "unknown_type"),
    ('{"t": "act", "id": "", "v": 1, "action": "draw"}', "bad_message"),
    ('{"t": "act", "id": "a", "v": -1, "action": "draw"}', "bad_message"),
    ('{"t": "act", "id": "a", "v": 1, "action": "draw", "x": 1}', "bad_message"),
    ('{"t": "hello", "seat": "0"}', "bad_message"),
    ("x" * 100, "too_large"),
])
def test_client_messages_are_read_strictly(text: str, code: str) -> None:
    with pytest.raises(ProtocolError) as error:
        read_client_message(text, limit=64)
    assert error.value.code == code


def test_binary_frames_are_refused_and_good_messages_read() -> None:
    with pytest.raises(ProtocolError) as error:
        read_client_message(b"{}", limit=64)
    assert error.value.code == "binary_frame"
    act = read_client_message('{"t": "act", "id": "a1", "v": 3, "action": "draw"}', limit=999)
    assert act.t == "act" and act.v == 3  # type: ignore[union-attr]


def test_server_message_shapes_are_checked() -> None:
    check_server_message({"v": 3})
    check_server_message({"v": 3, "e": {"type": "Drew"}})
    check_server_message({"t": "ack", "id": "a", "from": 3, "to": 4})
    with pytest.raises(ValueError):
        check_server_message({"t": "surprise"})
    with pytest.raises(ValueError):
        check_server_message({"t": "ack", "id": "a"})


def test_frames_for_every_seat_are_those_of_project() -> None:
    game = two_player_game()
    seats: set[int | None] = {0, 1, None}
    steps = [game.act(game.turn or 0, DRAW, fresh_deal)]
    events = [*steps[0].events, *game.open(fresh_deal).events]
    events.append(type(events[0])("PozzettoSeen", {"seat": 1, "cards": [4, 5]}))
    events.append(type(events[0])("PairsFormed", {"solo": 0, "pairs": [[1, 3], [2, 4]]}))
    events.append(type(events[0])("HandStarted", {"hands": [[1, 2], [3, 4]], "pile": [9],
                                                  "number": 1}))
    for event in events:
        texts = frames_for(9, event.kind, event.payload, seats)
        for seat in seats:
            assert texts[seat] == frame(9, project(event.kind, event.payload, seat))
