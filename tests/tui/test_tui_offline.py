"""Whole hands offline, played with the app's keys against bots in-process (2 and 4 players).

Each turn of seat 0 is played by pressing keys (arrows, space, m, a + number,
x); the bots move by themselves.  The screen must show only what seat 0's view
holds, refusals come with their RULES.md section, and the hand ends with its
score sheet (RULES.md §9).
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from pilot import choose, play_by_keys, screen_text, select_faces, wait_for

from burraco.audit.faces import view_problems
from burraco.engine.actions import DRAW, NewMeld
from burraco.engine.cards import CARD_FACE, parse_face
from burraco.engine.legal import legal_actions
from burraco.tui.app import BurracoApp
from burraco.tui.i18n import Words
from burraco.tui.keys import Settings, settings_from
from burraco.tui.offline import OfflineDriver
from burraco.tui.replay import ReplayDriver, load_record


def make_app(players: int, seed: int, *, lang: str = "en", bots: list[str] | None = None,
             settings: Settings | None = None, save: Path | None = None,
             ) -> tuple[BurracoApp, OfflineDriver]:
    words = Words(lang)
    driver = OfflineDriver(players=players, bots=bots or ["basic"], seed=seed, words=words,
                           bot_delay=0, save_dir=save)
    return BurracoApp(driver, words=words, settings=settings or Settings()), driver


def shown_cards_are_visible(app: BurracoApp, driver: OfflineDriver) -> None:
    """Nothing on the table is hidden from seat 0 (RULES.md §6.4): the hand shown is its own."""
    assert not view_problems(driver.state, 0)
    assert sorted(CARD_FACE[c] for c in app.last.hand) == sorted(
        CARD_FACE[c] for c in driver.state.hands[0])


@pytest.mark.parametrize(("players", "seed"), [(2, 11), (4, 5)])
def test_a_whole_hand_is_played_with_the_keys(players: int, seed: int, tmp_path: Path) -> None:
    async def main() -> None:
        app, driver = make_app(players, seed, save=tmp_path)
        async with app.run_test(size=(80, 24)) as pilot:
            turns = 0
            while app.last.status == "playing":
                await wait_for(pilot, lambda: app.last.my_turn or app.last.status != "playing",
                               what="seat 0's turn")
                if app.last.status != "playing":
                    break
                shown_cards_are_visible(app, driver)
                before = len(driver.state.moves())
                action = choose(app.last.legal, app)
                await play_by_keys(pilot, app, action)
                assert app.last.refusal is None, (action, app.last.refusal)
                assert str(driver.state.moves()[before]) == action
                turns += action.startswith("discard")
                assert turns < 200
            assert driver.state.is_over
            assert turns >= 3
            text = screen_text(app)
            assert "Hand over" in text
            assert "melds" in text and "= " in text  # the §9 score sheet of each side
            for side in app.last.result:  # whole, each sum's end on one line at 80 columns
                assert f"hand {side.hand} = {side.total}" in text, text
            assert sum(driver.match.scores) == sum(app.last.scores)
            # the hand's record was saved, and replays to the very end the screen showed
            saved = tmp_path / f"burraco-{seed}-hand-1.json"
            assert driver.saved == [saved] and "record:" in text
            replayed = ReplayDriver(load_record(saved), words=Words("en"))
            assert replayed.error is None
            assert replayed.states[-1].melds == driver.state.melds
            await pilot.press("n")
            await wait_for(pilot, lambda: app.last.hand_number == 2, what="the next hand")
            await pilot.press("q")
            await pilot.press("y")
        assert app.return_code == 0

    asyncio.run(main())


def test_refusals_name_the_rule_and_change_nothing() -> None:
    async def main() -> None:
        app, driver = make_app(4, 5)
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_for(pilot, lambda: app.last.my_turn, what="seat 0's turn")
            hand = list(driver.state.hands[0])
            await pilot.press("x")  # a discard before drawing
            text = screen_text(app)
            assert "Refused: draw from the stock or take the discard pile first (RULES.md §3.1)" \
                in text
            assert driver.state.hands[0] == hand and not driver.state.moves()
            await pilot.press("m")  # nothing selected
            assert "select cards with space first" in screen_text(app)
            await pilot.press("d")
            await pilot.press("space", "right", "space", "m")  # two cards are no meld
            assert "a meld needs at least three cards" in screen_text(app)
            assert len(driver.state.moves()) == 1
            await pilot.press("u")
            assert "Refused: no meld or attachment of yours since the draw" in screen_text(app)

    asyncio.run(main())


def first_turn_meld_seed() -> int:
    """A seed whose deal lets seat 0 meld right after its first draw (2 players)."""
    for seed in range(1, 200):
        state = make_app(2, seed)[1].state
        state.apply_in_place(DRAW)
        if any(isinstance(a, NewMeld) for a in legal_actions(state)):
            return seed
    raise AssertionError("no seed gave a meld on the first turn")


def test_undo_takes_back_a_meld() -> None:
    async def main() -> None:
        app, driver = make_app(2, first_turn_meld_seed())
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_for(pilot, lambda: app.last.my_turn, what="seat 0's turn")
            await pilot.press("d")
            melds = [a for a in app.last.legal if a.startswith("meld ")]
            hand = sorted(driver.state.hands[0])
            await play_by_keys(pilot, app, melds[0])
            assert len(driver.state.melds[0]) == 1
            assert app.last.can_undo
            await pilot.press("u")
            assert driver.state.melds[0] == []
            assert sorted(driver.state.hands[0]) == hand
            assert [str(m) for m in driver.state.moves()] == ["draw"]

    asyncio.run(main())


def test_italian_and_sorting_and_the_pile() -> None:
    async def main() -> None:
        app, _ = make_app(4, 5, lang="it")
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_for(pilot, lambda: app.last.my_turn, what="seat 0's turn")
            text = screen_text(app)
            assert "Tocca a te: pesca (d) o raccogli gli scarti (p)" in text
            assert "Tallone" in text and "Scarti" in text
            await pilot.press("x")
            assert "Rifiutato: prima pesca dal tallone o raccogli gli scarti (RULES.md §3.1)" in \
                screen_text(app)
            by_suit = app.hand_order()
            await pilot.press("s")
            assert app.sort_mode == "rank" and app.hand_order() != by_suit
            assert "mano ordinata per valore" in screen_text(app)
            await pilot.press("v")
            assert len(app.last.pile) == 1
            assert Words("it")("pile_all", n=1) in screen_text(app)  # its form for one card
            assert "(1 carte)" not in screen_text(app) and "1 carta" in screen_text(app)
            await pilot.press("escape")
            await pilot.press("question_mark")
            assert "questo aiuto" in screen_text(app)

    asyncio.run(main())


def test_keys_are_rebound_by_the_settings() -> None:
    settings = settings_from({"keys": {"draw": "t", "discard": "k,delete"}})

    async def main() -> None:
        app, driver = make_app(2, 3, settings=settings)
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_for(pilot, lambda: app.last.my_turn, what="seat 0's turn")
            await pilot.press("d")  # no longer bound
            assert not driver.state.moves()
            await pilot.press("t")
            assert [str(m) for m in driver.state.moves()] == ["draw"]
            assert "t draw" in screen_text(app) and "k,del discard" in screen_text(app)
            await pilot.press("delete")
            assert str(driver.state.moves()[-1]).startswith("discard")

    asyncio.run(main())


def meld_then_attach_seed() -> tuple[int, str, str]:
    """A 2-player seed where seat 0, after its first draw, can meld and then attach to it."""
    for seed in range(1, 400):
        state = make_app(2, seed)[1].state
        state.apply_in_place(DRAW)
        for meld in (a for a in legal_actions(state) if isinstance(a, NewMeld)):
            after = state.clone()
            after.apply_in_place(meld)
            attaches = [str(a) for a in legal_actions(after) if str(a).startswith("attach 1 ")]
            if attaches:
                return seed, str(meld), attaches[0]
    raise AssertionError("no seed lets seat 0 meld and attach on its first turn")


def test_the_mouse_attaches_to_a_meld() -> None:
    seed, meld, attach = meld_then_attach_seed()

    async def main() -> None:
        app, driver = make_app(2, seed)
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_for(pilot, lambda: app.last.my_turn, what="seat 0's turn")
            await pilot.press("d")
            await play_by_keys(pilot, app, meld)
            await select_faces(pilot, app, [parse_face(t) for t in attach.split()[2:]])
            await pilot.click("#melds-0", offset=(4, 1))  # the side's meld 1
            assert str(driver.state.moves()[-1]) == attach

    asyncio.run(main())


def test_the_mouse_draws_and_selects() -> None:
    async def main() -> None:
        app, driver = make_app(2, 11)
        async with app.run_test(size=(100, 30)) as pilot:
            await wait_for(pilot, lambda: app.last.my_turn, what="seat 0's turn")
            await pilot.click("#table", offset=(2, 0))  # "Stock NN" draws
            assert [str(m) for m in driver.state.moves()] == ["draw"]
            first = app.hand_order()[0]
            await pilot.click("#hand", offset=(2, 1))
            assert app.selected == {first}

    asyncio.run(main())
