"""The terminal client's small parts: settings, links, words, cards, the command line."""

from __future__ import annotations

import asyncio
import itertools
import json
import re
from pathlib import Path

import pytest

from burraco.cli import main
from burraco.engine.legal import _PICKUP_REFUSAL
from burraco.locale import LANGUAGES
from burraco.tui import render
from burraco.tui.app import build_bindings
from burraco.tui.cards import RED, WILD, face_label, meld_markup, sorted_hand
from burraco.tui.i18n import MESSAGES, PLURALS, Words, detect_lang, rules_section
from burraco.tui.keys import Settings, SettingsError, key_label, load_settings, settings_from
from burraco.tui.links import LinkError, Seat, parse_link
from burraco.tui.model import SideResult, Table
from burraco.tui.online import OnlineDriver


def test_settings_rebind_and_refuse_what_is_wrong(tmp_path: Path) -> None:
    assert settings_from({"keys": {"draw": "t"}}).keys["draw"] == "t"
    for data, words in [
        ({"keys": {"fly": "f"}}, "keys.fly: no such command"),
        ({"keys": {"draw": "x"}}, "'x' is bound to both"),
        ({"keys": {"draw": ""}}, "keys.draw: expected keys"),
        ({"lang": "fr"}, "lang: 'fr'"),
        ({"colour": "red"}, "unknown setting 'colour'"),
        ({"suits": "emoji"}, "suits: 'emoji'"),
    ]:
        with pytest.raises(SettingsError, match=words):
            settings_from(data)
    bad = tmp_path / "tui.toml"
    bad.write_text("[keys\n")
    with pytest.raises(SettingsError, match=str(bad)):
        load_settings(bad)
    assert load_settings(tmp_path / "none.toml").keys["draw"] == "d"  # a missing default file
    good = tmp_path / "good.toml"
    good.write_text('lang = "it"\nsuits = "letters"\n[keys]\nmeld = "c"\n')
    settings = load_settings(good)
    assert (settings.lang, settings.suits, settings.keys["meld"]) == ("it", "letters", "c")


def test_links() -> None:
    seat = parse_link("http://127.0.0.1:8000/play/T9x?seat=2&token=s.T9x.2.abc")
    assert (seat.base, seat.table, seat.seat, seat.token) == (
        "http://127.0.0.1:8000", "T9x", 2, "s.T9x.2.abc")
    assert seat.ws == "ws://127.0.0.1:8000/ws/tables/T9x"
    watch = parse_link("https://example.org/play/T9x?watch=w.T9x.q")
    assert watch.seat is None and watch.watch_token == "w.T9x.q"
    assert watch.ws.startswith("wss://")
    for url, words in [("ftp://x/play/T", "expected a server address"),
                       ("http://h:1/tables/T", "an invite link looks like"),
                       ("http://h:1/play/T?seat=x&token=s", "seat 'x' is not a number"),
                       ("http://h:1/play/T?seat=1", "the invite has no token")]:
        with pytest.raises(LinkError, match=words):
            parse_link(url)


def test_words_and_reasons() -> None:
    assert detect_lang({"LANG": "it_IT.UTF-8"}) == "it"
    assert detect_lang({"LC_ALL": "C", "LANG": "it_IT.UTF-8"}) == "en"
    assert detect_lang({}) == "en"
    assert detect_lang({"LANGUAGE": "sl:en", "LANG": "en_US.UTF-8"}) == "sl"
    assert detect_lang({"LANG": "ro_RO.UTF-8"}) == "ro"
    assert detect_lang({"LANG": "fr_FR.UTF-8"}) == "en"
    with pytest.raises(ValueError, match="unknown language 'fr'"):
        Words("fr")
    italian = Words("it")
    for reason in _PICKUP_REFUSAL.values():  # the engine's own sentences are translated
        assert italian.reason(reason) != reason
    assert italian.reason("you do not hold 9H") == "non hai 9♥"
    assert italian.reason("a reason nobody wrote") == "a reason nobody wrote"
    assert Words("en").reason("you do not hold 9H") == "you do not hold 9♥"
    assert italian("hand_no", n=3) == "Smazzata 3"
    assert italian.seat_name(1, 4) == "Est"
    assert italian.code("not_your_turn") == "Non è il tuo turno."
    assert rules_section("draw first (§3.1)") == "§3.1"
    assert rules_section("no section") is None


def test_cards() -> None:
    assert face_label("2C(=7H)") == "2♣(=7♥)"
    assert face_label("10D") == "10♦" and face_label("JK") == "JK"
    assert face_label("7H", symbols=False) == "7H"
    hand = [52, 1, 0, 13, 14, 6]  # JK 2H AH AD 2D 7H
    assert sorted_hand(hand, "suit") == [0, 1, 6, 13, 14, 52]
    assert sorted_hand(hand, "rank") == [0, 13, 6, 1, 14, 52]  # aces, 7, the wilds last


def test_in_a_meld_only_the_cards_acting_as_wild_are_gold() -> None:
    gold, red = f"[bold {WILD}]", f"[{RED}]"
    # a natural two of a sequence has its suit's colour; the joker has a role
    assert meld_markup("AH 2H JK(=3H) 4H") == (
        f"{red}A♥[/] {red}2♥[/] {gold}JK(=3♥)[/] {red}4♥[/]")
    assert meld_markup("AS 2S 3S") == "A♠ 2♠ 3♠"
    # a two acting as wild in a sequence has its role; in a set it is the wild, no role
    assert meld_markup("4S 2H(=5S) 6S") == f"4♠ {gold}2♥(=5♠)[/] 6♠"
    assert meld_markup("KH KH KS 2S") == f"{red}K♥[/] {red}K♥[/] K♠ {gold}2♠[/]"
    assert meld_markup("9C 9C 9S JK", symbols=False) == f"9C 9C 9S {gold}JK[/]"
    # elsewhere (a hand, the pile) every two may yet be wild
    assert render.face_markup("2H") == f"{gold}2♥[/]"


def test_a_count_takes_its_plural_form() -> None:
    english = Words("en")
    assert english("pile_all", n=1) == "The discard pile, bottom first (1 card)"
    assert english("pile_all", n=12) == "The discard pile, bottom first (12 cards)"
    assert english("pozzetto_left", n=1) == "1 left"
    for lang in LANGUAGES:  # every language formats each form
        for n in (0, 1, 2, 3, 5, 21, 101):
            assert str(n) in Words(lang)("pile_all", n=n)
            assert str(n) in Words(lang)("pozzetto_left", n=n)
    # a message counting things is a plural entry: the others with {n} number, not count
    numbering = {"seat", "hand_no", "target", "no_such_meld", "turn.attach", "turn.me.attach",
                 "replay_pos"}
    assert {key for key, text in MESSAGES.items() if "{n}" in text} == numbering
    assert not set(PLURALS) & set(MESSAGES)


def test_no_key_in_the_footer_is_described_by_its_own_name() -> None:
    """``end end`` was the replay footer's: the key ``end`` described as "end"."""
    for lang in LANGUAGES:
        for binding in build_bindings(Settings(), Words(lang)):
            shown = key_label(binding.key).lower()
            assert binding.description.lower() not in (shown, ""), (lang, binding)
    assert [b.description for b in build_bindings(Settings(), Words("en"))
            if b.action == "last"] == ["last move"]


def score_sheet(lang: str, width: int) -> tuple[str, str]:
    """A hand's score sheet at 6 players, with long names and big numbers, broken to ``width``;
    and the same unbroken."""
    table = Table(kind="offline", seat=0, players=6, status="over", hand_number=12,
                  names=("You", "Northeast", "Southeast", "Southwest", "Northwest", "North"),
                  side_of=(0, 1, 2, 0, 1, 2), result=tuple(
                      SideResult(seats=(s, s + 3), melds=1415, bonuses=1250, closing=100,
                                 pozzetto=-100, hand=-1125, total=-1540 + s) for s in range(3)))
    words = Words(lang)
    return (render.result_lines(table, words, width=width),
            render.result_lines(table, words))


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("width", [80, 60, 44])
def test_the_score_sheet_breaks_between_terms_only(lang: str, width: int) -> None:
    broken, whole = score_sheet(lang, width)
    lines = [re.sub(r"\[/?b\]", "", line) for line in broken.splitlines()]
    assert all(len(line) <= width for line in lines), lines
    assert len([line for line in lines if not line.startswith("  ")]) == 3  # a line per side
    assert len(lines) > 3  # and some broken
    for line, following in itertools.pairwise(lines):  # every break comes after a term
        if following.startswith("  "):
            assert line.endswith((",", ";", ":", "·")), (line, following)
    for total in (-1540, -1539, -1538):  # each sum ends "= total" within one line
        assert sum(f"= {total}" in line for line in lines) == 1, lines
    # nothing lost or added: the lines joined are the sheet unbroken
    assert " ".join(line.strip() for line in lines) == " ".join(
        re.sub(r"\[/?b\]", "", whole).splitlines())


def test_the_score_sheet_at_80_columns_in_english() -> None:
    broken, _ = score_sheet("en", 80)
    assert broken.splitlines() == [
        "[b]Hand 12[/b] · You+Southwest: melds 1415, burraco 1250, closing 100, pozzetto -100,",
        "  hand -1125 = -1540",
        "Northeast+Northwest: melds 1415, burraco 1250, closing 100, pozzetto -100,",
        "  hand -1125 = -1539",
        "Southeast+North: melds 1415, burraco 1250, closing 100, pozzetto -100,",
        "  hand -1125 = -1538"]


def test_the_command_refuses_bad_options(tmp_path: Path, capsys: pytest.CaptureFixture[str]
                                         ) -> None:
    assert main(["tui", "--bots", "genius"]) == 2
    assert "--bots: unknown level 'genius'" in capsys.readouterr().err
    assert main(["tui", "--players", "2", "--bots", "basic,basic"]) == 2
    assert "--bots: give one level, or 1" in capsys.readouterr().err
    assert main(["tui", "--rules", "nope"]) == 2
    assert "--rules" in capsys.readouterr().err
    assert main(["tui", "http://h:1/play/T", "--server", "http://h:1"]) == 2
    assert "LINK and --server do not go together" in capsys.readouterr().err
    record = tmp_path / "r.json"
    record.write_text(json.dumps({"format": "burraco-record", "version": 9}))
    assert main(["tui", "--replay", str(record)]) == 2
    assert "version: 9 is not supported" in capsys.readouterr().err
    assert main(["tui", "--settings", str(tmp_path / "missing.toml")]) == 2
    assert "missing.toml: no such file" in capsys.readouterr().err


def test_the_header_counts_the_turn_clock_down() -> None:
    words = Words("en")
    table = Table(kind="online", seat=0, players=2, names=("You (Ada)", "Bob"),
                  side_of=(0, 1), hand_number=2, clock_seat=1, clock_deadline=1000.0,
                  score_names=("You", "Bob"), scores=(120, 35), target=2005)
    assert "Bob clock 25s" in render.header(table, words, now=975.2)
    assert "Bob clock 0s" in render.header(table, words, now=1200.0)
    assert "Hand 2 · You 120 · Bob 35 (to 2005)" in render.header(table, words, now=975.2)


def test_seats_show_turn_cards_and_connection() -> None:
    words = Words("en")
    table = Table(kind="online", seat=0, players=2, names=("You (Ada)", "Bob"), side_of=(0, 1),
                  status="playing", turn=1, hand_counts=(11, 12), online=(True, False),
                  standin=(None, "basic"))
    assert render.seats(table, words, 80) == " You (Ada) 11 ● │ ▶[b]Bob[/b] 12 ✕ basic"


def test_the_reasons_are_the_browser_clients() -> None:
    """Both clients read a refusal from the same catalog entries (context ``reason``): the
    terminal's translation of each engine sentence is the catalog's, in every language."""
    from burraco.locale import LANGUAGES, pgettext_in
    from burraco.locale.reasons import TEMPLATES

    for lang in LANGUAGES:
        words = Words(lang)
        for template in TEMPLATES:
            if "{" not in template:
                assert words.reason(template) == pgettext_in(lang, "reason", template)


def test_a_bad_frame_or_a_failing_redraw_costs_that_frame_not_the_link() -> None:
    """Garbage from the server, or a bug in the screen's redraw, is recorded and skipped: the
    driver keeps applying the frames after it (an exception would end its link task and
    freeze the screen with the link still "open")."""
    driver = OnlineDriver(Seat("http://127.0.0.1:1", "t1", 0, token="x"), guest=None,
                          words=Words("en"))
    redraws: list[int] = []

    def redraw() -> None:
        redraws.append(driver.version)
        if len(redraws) == 1:
            raise RuntimeError("a widget was not mounted yet")

    driver._notify = redraw

    async def frames() -> None:
        assert driver._take('{"t": "hello_ok", "catch_up": "none", "version": 3}')
        assert driver.link == "open" and driver.version == 3  # applied, though its redraw failed
        for bad in ("not json", "[1, 2]", '{"v": "three"}', '{"t": "sync"}'):
            assert not driver._take(bad)
        assert driver.version == 3 and driver.synced == -1 and driver.sync is None
        driver._take('{"t": "presence", "seats": [{"seat": 0, "online": true}]}')
        assert driver.presence == [{"seat": 0, "online": True}]
        await asyncio.sleep(0)

    asyncio.run(frames())
    assert [e.split(":")[0] for e in driver.frame_errors] == [
        "redraw", "JSONDecodeError", "ValueError", "ValueError", "KeyError"]
    assert "'not json'" in driver.frame_errors[1]
    assert redraws[-1] == 3


def test_the_match_over_frame_reaches_the_header_at_once() -> None:
    """The scores of ``HandEnded`` and ``MatchOver`` are the header's as their frames come, not
    when the sync they ask for answers (the header was stale meanwhile); the clock stops."""
    words = Words("en")
    driver = OnlineDriver(Seat("http://127.0.0.1:1", "t1", None), guest=None, words=words)
    seats = [{"seat": 0, "kind": "human", "nickname": "Ada", "online": True},
             {"seat": 1, "kind": "human", "nickname": "Bob", "online": True}]

    def sync(version: int, scores: list[int]) -> str:
        return json.dumps({
            "t": "sync", "version": version, "status": "playing", "seats": seats,
            "table": {"config": {"players": 2, "rules": "fibur", "target": 2005}},
            "match": {"scores": scores, "target": 2005},
            "hand": {"number": 5, "turn": 1, "phase": "play", "side_of": [0, 1],
                     "hand_counts": [4, 1], "melds": [[], []], "pile": ["7H"]},
            "clock": {"seat": 1, "deadline_ms": 4_000_000_000_000}})

    def header() -> str:
        return render.header(driver.table(), words, now=3_999_999_990)

    async def frames() -> None:
        driver._take('{"t": "hello_ok", "catch_up": "none", "version": 40}')
        driver._take(sync(40, [1900, 1500]))
        assert "Ada 1900 · Bob 1500 (to 2005) · [reverse]Bob clock 10s[/]" in header()
        driver._take('{"v": 41, "e": {"type": "HandOver", "reason": "closed", "closer": 1}}')
        driver._take(json.dumps({"v": 42, "e": {
            "type": "HandEnded", "number": 5, "redeal": False, "scores": [1950, 2100],
            "result": {"sides": [{"seats": [0], "total": 50}, {"seats": [1], "total": 600}]}}}))
        assert "Ada 1950 · Bob 2100 (to 2005)" in header()
        driver._take('{"v": 43, "e": {"type": "MatchOver", "winner": 1, "scores": [1950, 2100]}}')
        table = driver.table()
        assert table.status == "finished" and table.scores == (1950, 2100)
        assert header() == "[b]Burraco[/b] · Watching · Hand 5 · Ada 1950 · Bob 2100 (to 2005)"
        assert render.status(table, words, "", symbols=True) == "[b]Match over: Bob win[/b]"
        driver._take(sync(43, [1950, 2100]))  # the sync agrees, and is the header's again
        assert driver.synced == 43 and driver.table().scores == (1950, 2100)
        driver._take(sync(44, [0, 0]))
        assert driver.table().scores == (0, 0)  # a newer sync wins over an older event
        await asyncio.sleep(0.1)

    asyncio.run(frames())
