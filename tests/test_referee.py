"""The referee commands in-process: ``burraco.cli.main(argv)`` and :mod:`burraco.referee`.

Every command, every exit code (0 answer, 1 breaks a rule, 2 unreadable), and
the rulebook examples of RULES.md §4–5, §9 and §11.2 through the command line.
"""

from __future__ import annotations

import doctest
import io
import json
import random
from pathlib import Path
from typing import Any

import pytest

from burraco import referee
from burraco.cli import SUBCOMMANDS, build_parser, main
from burraco.engine import HandState, deal_seeded, legal_actions
from burraco.engine.records import record_of, replay, state_summary
from burraco.engine.rules import PRESETS, Rules


class Run:
    """One command's exit code, stdout and stderr."""

    def __init__(self, code: int, out: str, err: str) -> None:
        self.code = code
        self.out = out
        self.err = err

    @property
    def json(self) -> Any:
        lines = self.out.splitlines()
        assert len(lines) == 1, f"expected one line of JSON, got {self.out!r}"
        return json.loads(lines[0])


@pytest.fixture
def run(capsys: pytest.CaptureFixture[str]) -> Any:
    def _run(*argv: str) -> Run:
        code = main(list(argv))
        captured = capsys.readouterr()
        return Run(code, captured.out, captured.err)

    return _run


def _valid(run: Any, *argv: str) -> Any:
    result = run(*argv)
    assert result.code == 0, result.err
    assert result.err == ""
    return result.json


def _unreadable(run: Any, *argv: str) -> str:
    result = run(*argv)
    assert result.code == 2
    assert result.out == ""
    err: str = result.err
    return err


# --- meld: new melds (§4) -------------------------------------------------------------------

def test_meld_example_free_wild_goes_low(run: Any) -> None:
    # §4.3.5: the free wild sits at the low end; JK 30 + 5H 6H 7H 5 each
    assert _valid(run, "meld", "5H", "JK", "6H", "7H") == {
        "valid": True, "kind": "sequence", "arrangement": "JK(=4H) 5H 6H 7H", "wilds": 1,
        "burraco": None, "card_points": 30 + 5 + 5 + 5, "bonus": 0,
    }


@pytest.mark.parametrize("argv", [["5H JK 6H 7H"], ["5h,jk,6h,7h"], ["5H JK", "6H 7H"]])
def test_meld_cards_may_be_one_quoted_string(run: Any, argv: list[str]) -> None:
    assert _valid(run, "meld", *argv)["arrangement"] == "JK(=4H) 5H 6H 7H"


def test_meld_output_is_one_json_line_in_contract_order(run: Any) -> None:
    result = run("meld", "5H", "6H", "7H")
    assert result.out.count("\n") == 1
    assert list(result.json) == [
        "valid", "kind", "arrangement", "wilds", "burraco", "card_points", "bonus"]


@pytest.mark.parametrize(
    ("cards", "arrangement", "wilds", "points"),
    [
        ("AD 2D 3D JK", "AD 2D 3D JK(=4D)", 1, 15 + 20 + 5 + 30),  # §4.3.5 high when ace low
        ("QH KH AH JK", "JK(=JH) QH KH AH", 1, 30 + 10 + 10 + 15),  # §4.1.2 ace high
        ("AC 2C 3C 2S 5C", "AC 2C 3C 2S(=4C) 5C", 1, 15 + 20 + 5 + 20 + 5),  # §4.3.2
        ("AH 2H 3H", "AH 2H 3H", 0, 15 + 20 + 5),  # §4.3.2: natural 2, scored 20 (§1.3)
        ("9S 7S 8S", "7S 8S 9S", 0, 5 + 10 + 10),  # listed low to high
        ("KD KH KS", "KH KD KS", 0, 30),  # a set lists suits H D C S
        ("7H 2C 7D", "7H 7D 2C", 1, 5 + 5 + 20),  # §4.3.5: the set's wild goes last
    ],
)
def test_meld_valid_arrangements(
    run: Any, cards: str, arrangement: str, wilds: int, points: int
) -> None:
    data = _valid(run, "meld", cards)
    assert (data["arrangement"], data["wilds"], data["card_points"]) == (
        arrangement, wilds, points)
    assert data["kind"] == ("set" if cards.startswith(("K", "7H")) else "sequence")


@pytest.mark.parametrize(
    ("cards", "kind", "bonus", "points"),
    [
        ("3H 4H 5H 6H 7H 8H 9H", "clean", 200, 45),
        ("3S JK 5S 6S 7S 8S 9S 10S JS", "semi-clean", 150, 90),  # §5: inner wild, 7-run
        ("3S JK(=4S) 5S 6S 7S 8S 9S 10S JS", "semi-clean", 150, 90),  # written with its role
        ("7H 7D 7C 7C 7S 7S 2H", "dirty", 100, 50),
        ("7H 7D 7C 7C 7S 7S 7H 2H", "semi-clean", 150, 55),  # §5: set of 7 naturals + wild
        ("4D 5D 6D JK 8D 9D 10D", "dirty", 100, 75),
    ],
)
def test_meld_burraco_types_s5(run: Any, cards: str, kind: str, bonus: int, points: int) -> None:
    data = _valid(run, "meld", cards)
    assert (data["burraco"], data["bonus"], data["card_points"]) == (kind, bonus, points)


def test_meld_written_wild_role_is_kept_as_written(run: Any) -> None:
    assert _valid(run, "meld", "5H 6H JK(=7H) 8H")["arrangement"] == "5H 6H JK(=7H) 8H"


@pytest.mark.parametrize(
    ("cards", "reason"),
    [
        ("5H 6H 8H", "not consecutive"),
        ("QH KH AH 2H 3H", ""),  # §4.1.2: no wrap-around
        ("5H 6H JK 2C", "two wild"),  # §4.3.1
        ("5H 6H", "three cards"),
        ("5H 6D 7C", "neither"),
        ("2H 2D 2C", "set of twos"),  # §4.2.4
        ("7C 7C 7C", "2 packs hold only 2"),  # only two copies of a face exist
        ("5H 6H JK(=9H)", "cannot stand there"),
        ("5H 6H 7H(=8H)", "only a joker or a 2"),
    ],
)
def test_meld_invalid_exits_1_with_reason(run: Any, cards: str, reason: str) -> None:
    result = run("meld", cards)
    assert result.code == 1
    assert result.err == ""
    data = result.json
    assert list(data) == ["valid", "reason"]
    assert data["valid"] is False
    assert reason in data["reason"]


@pytest.mark.parametrize(
    ("argv", "token"),
    [
        (["5H", "XX", "7H"], "XX"),
        (["5H 6H 1H"], "1H"),
        (["5H", "6H", "JK(=ZZ)"], "JK(=ZZ)"),
        (["5H", "6H", "JK(=7H"], "JK(=7H"),
    ],
)
def test_meld_unparseable_exits_2_naming_the_token(
    run: Any, argv: list[str], token: str
) -> None:
    assert repr(token) in _unreadable(run, "meld", *argv)


@pytest.mark.parametrize("argv", [["meld"], ["meld", ""], ["meld", "--rules", "nope", "5H"]])
def test_meld_usage_errors_exit_2(run: Any, argv: list[str]) -> None:
    assert _unreadable(run, *argv)


# --- meld --onto: attaching (§4.3.6–11) -----------------------------------------------------

def test_onto_example_s4_3_6_bound_wild(run: Any) -> None:
    alone = run("meld", "--onto", "6C JK(=7C) 8C", "10C")
    assert alone.code == 1 and alone.json["valid"] is False
    for cards in (["7C", "10C"], ["10C 7C"]):
        data = _valid(run, "meld", "--onto", "6C JK(=7C) 8C", *cards)
        assert data["arrangement"] == "6C 7C 8C JK(=9C) 10C"
        assert (data["wilds"], data["card_points"]) == (1, 5 + 5 + 10 + 30 + 10)


@pytest.mark.parametrize(
    ("onto", "cards", "arrangement"),
    [
        ("2C(=4C) 5C 6C", "8C", "5C 6C 2C(=7C) 8C"),  # §4.3.6 free wild moves
        ("3S 4S 2S(=5S) 6S", "JK", "2S 3S 4S JK(=5S) 6S"),  # §4.3.8 pinella drops to its slot
        ("2H 3H 4H 5H 6H 7H", "9H", "3H 4H 5H 6H 7H 2H(=8H) 9H"),  # §4.3.9 natural 2 → wild
        ("KD KH KS", "KC JK", "KH KD KC KS JK"),
    ],
)
def test_onto_rulebook_examples(run: Any, onto: str, cards: str, arrangement: str) -> None:
    assert _valid(run, "meld", "--onto", onto, cards)["arrangement"] == arrangement


def test_onto_reaching_seven_cards_is_a_burraco(run: Any) -> None:
    data = _valid(run, "meld", "--onto", "3H 4H 5H 6H 7H 8H", "9H")
    assert (data["burraco"], data["bonus"], data["wilds"]) == ("clean", 200, 0)
    dirty = _valid(run, "meld", "--onto", "2H 3H 4H 5H 6H 7H", "9H")
    assert (dirty["burraco"], dirty["bonus"]) == ("dirty", 100)


def test_onto_invalid_table_meld_exits_1_saying_so(run: Any) -> None:
    result = run("meld", "--onto", "6C 7D 8C", "9C")
    assert result.code == 1
    assert "table meld" in result.json["reason"] and "invalid" in result.json["reason"]
    wrong_role = run("meld", "--onto", "6C JK(=9C) 8C", "9C")
    assert wrong_role.code == 1 and "table meld" in wrong_role.json["reason"]


def test_onto_second_wild_and_too_many_copies_exit_1(run: Any) -> None:
    assert run("meld", "--onto", "6C JK(=7C) 8C", "2D").json["reason"] == (
        "two wild cards in one meld")
    copies = run("meld", "--onto", "7C 7C 7D", "7C")
    assert copies.code == 1 and "2 packs" in copies.json["reason"]


@pytest.mark.parametrize(
    ("onto", "cards", "token"),
    [("6C ZZ 8C", "9C", "ZZ"), ("6C 7C 8C", "9X", "9X"), ("6C 7C 8C", "9C(=9C)", "9C(=9C)")],
)
def test_onto_unparseable_exits_2(run: Any, onto: str, cards: str, token: str) -> None:
    assert repr(token) in _unreadable(run, "meld", "--onto", onto, cards)


# --- score (§9) -----------------------------------------------------------------------------

CLOSING = ["score", "--melds", "4C 5C 6C 7C 8C 9C 10C / KD KH KS", "--hand", "3S 9D",
           "--closed", "--pozzetto", "taken"]


def test_score_of_a_closing_side(run: Any) -> None:
    # §9: cards 50 + 30, clean burraco 200, closing 100, minus the partner's 3S 9D
    assert _valid(run, *CLOSING) == {
        "melds": 80, "bonuses": 200, "burraco": [{"type": "clean", "points": 200}],
        "closing": 100, "pozzetto": 0, "hand": -15, "total": 365,
    }


@pytest.mark.parametrize(
    ("pozzetto", "extra", "points"),
    [("taken", [], 0), ("missing", [], -100), ("nobody", [], 0),  # §8.4 FIB26
     ("taken", ["--unplayed", "KD KH 3C"], -25)],  # §9.2: its cards instead of −100
)
def test_score_pozzetto_states(run: Any, pozzetto: str, extra: list[str], points: int) -> None:
    data = _valid(run, "score", "--melds", "QH QH QD", "--hand", "", "--pozzetto", pozzetto,
                  *extra)
    assert (data["melds"], data["pozzetto"], data["hand"]) == (30, points, 0)
    assert data["total"] == 30 + points


def test_score_wild_roles_and_several_burraco(run: Any) -> None:
    melds = "3S JK(=4S) 5S 6S 7S 8S 9S 10S JS / QH QD QC QC QS QS 2H / AH 2H 3H"
    data = _valid(run, "score", "--melds", melds, "--hand", "JK", "--pozzetto", "taken")
    assert data["burraco"] == [{"type": "semi-clean", "points": 150},
                               {"type": "dirty", "points": 100}]
    assert (data["melds"], data["bonuses"], data["hand"]) == (90 + 80 + 40, 250, -30)
    assert data["total"] == 210 + 250 - 30


def test_score_no_melds(run: Any) -> None:
    data = _valid(run, "score", "--melds", "", "--hand", "3S", "--pozzetto", "missing")
    assert (data["melds"], data["total"]) == (0, -105)


@pytest.mark.parametrize(
    ("argv", "reason"),
    [
        (["--melds", "3H 4H 5H 6H 7H 8H 9H", "--hand", "", "--closed", "--pozzetto", "missing"],
         "pozzetto"),
        (["--melds", "3H 4H 5H", "--hand", "", "--closed", "--pozzetto", "taken"], "burraco"),
        (["--melds", "3H 4H 5H / KD KH", "--hand", "", "--pozzetto", "taken"], "meld 2"),
        (["--melds", "3H 4H 5H", "--hand", "", "--pozzetto", "nobody", "--unplayed", "KD"],
         "unplayed"),
        (["--melds", "7C 7C 7D", "--hand", "7C", "--pozzetto", "taken"], "2 packs"),
    ],
)
def test_score_invalid_exits_1_with_reason(run: Any, argv: list[str], reason: str) -> None:
    result = run("score", *argv)
    assert result.code == 1
    assert result.out == ""
    assert reason in result.err


@pytest.mark.parametrize(
    ("argv", "token"),
    [
        (["--melds", "3H 4H QX", "--hand", "", "--pozzetto", "taken"], "'QX'"),
        (["--melds", "3H 4H 5H", "--hand", "3S 9Z", "--pozzetto", "taken"], "'9Z'"),
        (["--melds", "3H 4H 5H", "--hand", "", "--pozzetto", "taken", "--unplayed", "0D"],
         "'0D'"),
        (["--melds", "3H 4H 5H / / KD KH KS", "--hand", "", "--pozzetto", "taken"], "meld 2"),
        (["--melds", "3H 4H 5H", "--hand", "JK(=4H)", "--pozzetto", "taken"], "'JK(=4H)'"),
        (["--melds", "3H 4H 5H", "--hand", "", "--pozzetto", "lost"], "lost"),
        (["--melds", "3H 4H 5H", "--hand", ""], "--pozzetto"),
    ],
)
def test_score_unreadable_exits_2(run: Any, argv: list[str], token: str) -> None:
    assert token in _unreadable(run, "score", *argv)


# --- vp (§11.2) -----------------------------------------------------------------------------

@pytest.mark.parametrize(
    ("hands", "diff", "vp"),
    [("3", "55", [11, 9]), ("4", "2005", [20, 0]), ("3", "0", [10, 10]), ("3", "50", [10, 10]),
     ("3", "1505", [20, 0]), ("4", "100", [10, 10]), ("4", "105", [11, 9]),
     ("4", "2000", [19, 1]), ("2", "40", [10, 10]), ("2", "45", [11, 9]), ("2", "1005", [20, 0])],
)
def test_vp_tables(run: Any, hands: str, diff: str, vp: list[int]) -> None:
    assert _valid(run, "vp", "--hands", hands, diff) == {"vp": vp}


@pytest.mark.parametrize("hands", ["5", "6"])
def test_vp_unknown_table_exits_1(run: Any, hands: str) -> None:
    result = run("vp", "--hands", hands, "55")
    assert result.code == 1
    assert result.out == ""
    assert f"{hands} smazzate" in result.err


@pytest.mark.parametrize(
    ("argv", "message"),
    [(["--hands", "3", "52"], "multiple of 5"), (["--hands", "3", "-5"], "negative"),
     (["--hands", "3", "ten"], "'ten'"), (["--hands", "x", "55"], "--hands"),
     (["55"], "--hands")],
)
def test_vp_bad_input_exits_2(run: Any, argv: list[str], message: str) -> None:
    assert message in _unreadable(run, "vp", *argv)


# --- replay ---------------------------------------------------------------------------------

def played_record(seed: int, players: int, *, stop: int | None = None) -> dict[str, Any]:
    """A record of a seeded hand played with random legal actions (to the end, or ``stop``)."""
    rng = random.Random(seed)
    state = HandState.start(deal_seeded(seed, players=players))
    steps = 0
    while not state.is_over and steps != stop:
        state.apply_in_place(rng.choice(legal_actions(state)))
        steps += 1
    return record_of(state)


def _write(tmp_path: Path, data: Any, name: str = "record.json") -> str:
    path = tmp_path / name
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return str(path)


@pytest.mark.parametrize(("seed", "players"), [(1, 4), (2, 2), (3, 4)])
def test_replay_good_record(run: Any, tmp_path: Path, seed: int, players: int) -> None:
    record = played_record(seed, players)
    data = _valid(run, "replay", _write(tmp_path, record))
    expected = replay(record)
    assert list(data) == ["valid", "moves", "state", "result"]
    assert data["valid"] is True
    assert data["moves"] == len(record["moves"])
    assert data["state"] == json.loads(json.dumps(state_summary(expected.state)))
    assert data["state"]["phase"] == "over"
    result = expected.result()
    assert result is not None
    assert data["result"] == json.loads(json.dumps(result.to_dict()))


def test_replay_unfinished_record_has_no_result(run: Any, tmp_path: Path) -> None:
    record = played_record(1, 4, stop=20)
    data = _valid(run, "replay", _write(tmp_path, record))
    assert (data["moves"], data["result"]) == (20, None)
    assert data["state"]["phase"] != "over"


def test_replay_from_stdin(run: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    record = played_record(2, 2)
    monkeypatch.setattr("sys.stdin", io.StringIO(json.dumps(record)))
    assert _valid(run, "replay", "-")["moves"] == len(record["moves"])


@pytest.mark.parametrize(
    ("position", "move", "reason"),
    [(1, "pickup", "already drawn"),  # right after the first draw
     (0, "discard KD", "draw from the stock"),
     (5, "jump", "unknown action")],
)
def test_replay_illegal_move_exits_1_with_its_index(
    run: Any, tmp_path: Path, position: int, move: str, reason: str
) -> None:
    record = played_record(1, 4)
    assert record["moves"][0] == "draw" or position != 1
    moves = record["moves"]
    if position == 5:  # in the draw phase of a later turn
        position = next(i for i, m in enumerate(moves) if i > 3 and m.startswith("discard")) + 1
    moves.insert(position, move)
    result = run("replay", _write(tmp_path, record))
    assert result.code == 1
    assert result.err == ""
    data = result.json
    assert list(data) == ["valid", "index", "move", "reason"]
    assert (data["valid"], data["index"], data["move"]) == (False, position, move)
    assert reason in data["reason"]
    assert not data["reason"].startswith("move ")


def test_replay_move_after_the_end_is_illegal(run: Any, tmp_path: Path) -> None:
    record = played_record(3, 4)
    record["moves"].append("draw")
    data = run("replay", _write(tmp_path, record)).json
    assert (data["index"], data["reason"]) == (len(record["moves"]) - 1, "the hand is over")


def test_replay_rules_option_overrides_the_record_preset(run: Any, tmp_path: Path) -> None:
    record = played_record(2, 2)
    record["rules"] = "no-such-preset"
    path = _write(tmp_path, record)
    assert "rules" in _unreadable(run, "replay", path)
    assert _valid(run, "replay", "--rules", "fibur", path)["state"]["rules"] == "fibur"
    assert "nope" in _unreadable(run, "replay", "--rules", "nope", path)


def _malformed(field: str) -> Any:
    record = played_record(1, 4)
    if field == "deal.hands[0]":
        record["deal"]["hands"][0][0] = "QX"
    elif field == "moves":
        record["moves"] = "draw"
    elif field == "players":
        record["players"] = 7
    elif field == "format":
        record["format"] = "chess-pgn"
    elif field == "deal":
        del record["deal"]
    return record


@pytest.mark.parametrize("field", ["deal.hands[0]", "moves", "players", "format", "deal"])
def test_replay_record_error_exits_2_naming_the_field(
    run: Any, tmp_path: Path, field: str
) -> None:
    err = _unreadable(run, "replay", _write(tmp_path, _malformed(field)))
    assert f"{field}:" in err


def test_replay_option_of_the_wrong_type_exits_2(run: Any, tmp_path: Path) -> None:
    record = played_record(1, 4)
    record["options"] = {"packs": "two"}
    assert "options.packs: expected int" in _unreadable(run, "replay", _write(tmp_path, record))
    record["options"] = {"no_such_option": 1}
    assert "options:" in _unreadable(run, "replay", _write(tmp_path, record))


@pytest.mark.parametrize("text", ['{"moves": ', "[1, 2]", "", "null"])
def test_replay_not_a_json_record_exits_2(run: Any, tmp_path: Path, text: str) -> None:
    assert "record" in _unreadable(run, "replay", _write(tmp_path, text))


def test_replay_missing_file_exits_2(run: Any, tmp_path: Path) -> None:
    assert "no-such.json" in _unreadable(run, "replay", str(tmp_path / "no-such.json"))


# --- rules ----------------------------------------------------------------------------------

def test_rules_list(run: Any) -> None:
    result = run("rules", "list")
    assert result.code == 0
    assert result.out.splitlines() == sorted(PRESETS)
    assert "fibur" in result.out.splitlines()
    assert _valid(run, "rules", "list", "--json") == sorted(PRESETS)


def test_rules_show_text_names_every_option_and_section(run: Any) -> None:
    result = run("rules", "show")
    assert result.code == 0
    lines = result.out.splitlines()
    assert lines[0] == "preset fibur: FIBur Italian code, the default."
    for (name, section, _), line in zip(Rules.options(), lines[1:], strict=True):
        assert line.split()[0] == name
        assert f"[{section}]" in line


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_rules_show_json(run: Any, preset: str) -> None:
    data = _valid(run, "rules", "show", "--json", preset)
    assert data["preset"] == preset
    rules = Rules.preset(preset)
    assert [o["name"] for o in data["options"]] == [name for name, _, _ in Rules.options()]
    by_name = {o["name"]: o for o in data["options"]}
    assert by_name["target"]["value"] == rules.target
    assert by_name["target"]["section"] == "§9.3, §10"
    assert by_name["vp_tables"]["value"] == json.loads(json.dumps(rules.vp_tables))


def test_rules_show_unknown_preset_exits_2(run: Any) -> None:
    assert "nope" in _unreadable(run, "rules", "show", "nope")
    assert _unreadable(run, "rules")


# --- the command as a whole -----------------------------------------------------------------

def test_help_and_version_exit_0(run: Any) -> None:
    assert run("--help").code == 0
    version = run("--version")
    assert version.code == 0 and version.out.startswith("burraco ")


def test_no_command_is_a_usage_error(run: Any) -> None:
    assert "COMMAND" in _unreadable(run)
    assert _unreadable(run, "nosuchcommand")


def test_each_subcommand_is_registered_by_one_function() -> None:
    parser = build_parser()
    referee_commands = {"meld", "score", "vp", "replay", "rules"}
    action = next(a for a in parser._actions if a.dest == "command")
    registered = set(action.choices or {})
    assert referee_commands <= registered
    assert len(SUBCOMMANDS) == len(registered)


def test_referee_outcomes_directly() -> None:
    good = referee.check_meld(["5H JK 6H 7H"])
    assert (good.code, good.payload["card_points"], good.error) == (0, 45, None)
    assert referee.check_meld(["6C JK(=7C) 8C"], onto=None).code == 0
    assert referee.check_meld(["10C"], onto="6C JK(=7C) 8C").code == 1
    assert referee.check_meld(["QX"]).code == 2
    assert referee.vp(3, "55").payload == {"vp": [11, 9]}
    assert referee.vp(2, "55").payload == {"vp": [11, 9]}  # RULES.md §11.2 table C
    assert referee.vp(5, "55").code == 1
    assert referee.score("", "", closed=False, pozzetto="nope").code == 2
    assert referee.replay_text("{").code == 2
    assert referee.rules_show("nope").code == 2


def test_referee_doctests() -> None:
    assert doctest.testmod(referee).failed == 0
