"""The evening's changes on the pure model: seating around withdrawals, penalties, prizes."""

from __future__ import annotations

import pytest

from burraco.tournament import changes
from burraco.tournament.errors import TournamentError
from burraco.tournament.model import Settings, Tournament
from burraco.tournament.prizes import prize_list
from burraco.tournament.schedule import Schedule
from burraco.tournament.standings import line_standings, standings


def event(schedule: str, pairs: int = 6, **settings: object) -> Tournament:
    t = Tournament(Settings("Serata", schedule=Schedule.parse(schedule), **settings))  # type: ignore[arg-type]
    for n in range(1, pairs + 1):
        t, _ = t.register(f"P{n}")
    return t


def play(t: Tournament, scores: dict[int, tuple[int, int]] | None = None) -> Tournament:
    t = t.start_round()
    assert t.current is not None
    for table in t.current.tables:
        t = t.record(t.current.number, table.number, *(scores or {}).get(table.number,
                                                                          (600, 400)))
    return t


@pytest.mark.parametrize("mode", ["byes", "reseat"])
def test_a_withdrawn_pair_is_never_seated_again_and_the_danish_final_goes_on(mode: str) -> None:
    t = play(event("mitchell:2,danish:1", 8))
    t = changes.withdraw(t, 3, mode)
    for _ in range(2):
        t = play(t)
    assert t.finished
    for played in t.rounds[1:]:
        seated = [p for table in played.tables for p in table.pairs()] + list(played.byes)
        assert 3 not in seated
        if mode == "reseat":  # 7 pairs left: 3 tables and one bye
            assert len(played.tables) == 3 and len(played.byes) == 1
    gone = next(s for s in standings(t) if s.pair == 3)
    assert gone.withdrawn and gone.played == 1


def test_a_mitchell_re_seated_keeps_the_lines() -> None:
    t = play(event("mitchell:3", 8))  # NS 1-4, EW 5-8
    t = changes.withdraw(t, 6, "reseat")
    t = play(t)
    lines = line_standings(changes.set_line_rankings(t, True))
    assert sorted(s.pair for s in lines["NS"]) == [1, 2, 3, 4]
    assert sorted(s.pair for s in lines["EW"]) == [5, 6, 7, 8]  # 6 played round 1 EW
    assert t.current is not None and 6 not in {p for x in t.current.tables for p in x.pairs()}
    t = changes.withdraw(t, 7, "reseat")  # 1 and 4 would face 7 and 6: 4 plays EW at table 1
    t = t.start_round()
    assert t.current is not None
    assert {table.ew for table in t.current.tables} <= {4, 5, 8}


def test_penalties_change_the_order_and_prizes_are_not_cumulative() -> None:
    t = play(event("mitchell:1", 6), {1: (900, 100), 2: (700, 300), 3: (500, 500)})
    assert [s.pair for s in standings(t)][:2] == [1, 2]
    t = changes.penalise(t, 1, vp=10, reason="comportamento")
    order = [s.pair for s in standings(t)]
    assert order[0] == 2 and order.index(1) > 0
    t = changes.set_line_rankings(t, True)
    t = changes.set_prizes(t, "overall:1,NS:1")
    awards = [(a.category, a.standing.pair) for a in prize_list(t)]
    best_ns = next(p for p in order if p in (1, 2, 3) and p != 2)
    assert awards == [("overall", 2), ("NS", best_ns)]


def test_bad_changes_are_refused() -> None:
    t = event("mitchell:2", 4)
    with pytest.raises(TournamentError, match="before round 1"):
        changes.withdraw(t, 1, "byes")
    t = play(t)
    two_left = changes.withdraw(changes.withdraw(t, 1, "reseat"), 2, "reseat")
    with pytest.raises(TournamentError, match="fewer than 2 pairs"):
        changes.withdraw(two_left, 3, "reseat")
    with pytest.raises(TournamentError, match="whole number"):
        changes.penalise(t, 1, vp="3", reason="x")  # type: ignore[arg-type]
    with pytest.raises(TournamentError, match="1 to 50 places"):
        changes.set_prizes(t, "overall:0")
    teams = Tournament(Settings("Squadre", kind="individual",
                                schedule=Schedule.parse("random:2")))
    with pytest.raises(TournamentError, match="for pairs events"):
        changes.withdraw(teams, 1, "byes")


def test_the_standings_are_recomputed_from_the_two_csv_files_alone() -> None:
    """standings.csv and results.csv carry everything the ranking counts: the byes' VP and
    MP, the penalties taken away, the withdrawn pairs, a late pair's absences and an
    arbitral score."""
    import csv
    import io

    from burraco.tournament.export import results_csv, standings_csv

    t = play(event("danish:3", 7, bye_vp=12, bye_mp=150))
    t = changes.penalise(t, 2, vp=1, mp=50, reason="slow play")
    t = changes.withdraw(t, 3, "byes")
    t, _ = changes.late_register(t, "Ritardo", (), "redraw")
    t = changes.set_absent(t, 4, -200)
    t = play(t, {1: (-150, 1650)})
    t = t.record(2, 1, 0, 0, arbitral=(12, 6), correct=True)
    t = play(t)
    assert t.finished
    totals: dict[int, dict[str, int]] = {}

    def add(pair: str, **values: int) -> None:
        line = totals.setdefault(int(pair), dict.fromkeys(("vp", "mp", "mp_diff", "played",
                                                           "byes", "absent"), 0))
        for key, value in values.items():
            line[key] += value

    for row in csv.DictReader(io.StringIO(results_csv(t))):
        if row["source"] in ("bye", "absent"):
            add(row["ns"], vp=int(row["vp_ns"]), mp_diff=int(row["mp_ns"]),
                **{"byes" if row["source"] == "bye" else "absent": 1})
            continue
        mp, vp = (int(row["mp_ns"]), int(row["mp_ew"])), (int(row["vp_ns"]), int(row["vp_ew"]))
        add(row["ns"], vp=vp[0], mp=mp[0], mp_diff=mp[0] - mp[1], played=1)
        add(row["ew"], vp=vp[1], mp=mp[1], mp_diff=mp[1] - mp[0], played=1)
    page = {s.pair: s for s in standings(t)}
    rows = list(csv.DictReader(io.StringIO(standings_csv(t))))
    assert [int(r["pair"]) for r in rows] == [s.pair for s in standings(t)]
    for row in rows:
        pair, line = int(row["pair"]), totals[int(row["pair"])]
        penalty_vp, penalty_mp = int(row["penalty_vp"]), int(row["penalty_mp"])
        recomputed = (line["vp"] - penalty_vp, line["mp_diff"] - penalty_mp,
                      line["mp"] - penalty_mp, line["played"], line["byes"],
                      row["withdrawn"] == "yes", line["absent"])
        s = page[pair]
        assert int(row["absent"]) == s.absent
        assert recomputed == (s.vp, s.mp_diff, s.mp, s.played, s.byes, s.withdrawn,
                              s.absent), pair
        assert (int(row["vp"]), int(row["mp_diff"]), int(row["mp"])) == (s.vp, s.mp_diff,
                                                                          s.mp)
    assert page[2].penalty_vp == 1 and page[3].withdrawn and page[8].absent == 1
    assert page[8].played + page[8].byes == 2


def test_the_screen_and_the_players_page_say_who_sits_out_and_who_left() -> None:
    """Before any result nobody is ranked (not 1st by lot with 0 VP); the bye of the round
    is said; a withdrawn and a penalised pair are marked."""
    import re
    from datetime import UTC, datetime

    from burraco.tournament.bigscreen import screen_page
    from burraco.tournament.web import players_page

    def pages(t: Tournament, lang: str) -> tuple[str, str]:
        screen = screen_page("x", t, t, lang, clock=None,  # type: ignore[arg-type]
                             at=datetime.now(UTC), stamp="1")
        return screen, players_page(t, lang=lang)  # type: ignore[arg-type]

    def rows(html: str) -> list[tuple[str, str, str]]:
        table = html[html.index("id='standings'"):]
        return [(rank, pair, re.sub(r"<[^>]+>", "", name)) for pair, rank, name in re.findall(
            r"<tr data-pair='(\d+)'><td class='num'>([^<]*)</td><td class='num'>\d+</td>"
            r"<td>(.*?)</td>", table)]

    t = event("danish:3", 7).start_round()
    assert t.current is not None and t.current.byes == (4,)
    for lang, sits in (("en", "sits out this round"), ("it", "riposa in questo turno")):
        for html in pages(t, lang):
            shown = rows(html)
            assert [r[0] for r in shown] == ["–"] * 7, "no rank before the first result"
            assert [r[1] for r in shown] == [str(n) for n in range(1, 8)]
            assert shown[3][2] == f"P4 ({sits})"
    screen_en, _ = pages(t, "en")
    assert "Sits out this round: 4 P4" in screen_en

    for table in t.current.tables:
        t = t.record(1, table.number, 600, 400)
    t = changes.penalise(t, 2, vp=1, mp=50, reason="slow play")
    t = changes.withdraw(t, 3, "byes").start_round()
    for lang, gone, penalty in (("en", "(withdrawn)", "(penalty: −1 VP, −50 MP)"),
                                ("it", "(ritirata)", "(penalità: −1 VP, −50 punti)")):
        for html in pages(t, lang):
            shown = {pair: (rank, name) for rank, pair, name in rows(html)}
            assert all(rank.rstrip("=").isdigit() for rank, _ in shown.values())
            assert shown["3"][1] == f"P3 {gone}" and shown["2"][1].endswith(f" {penalty}")


def test_a_prize_nobody_can_take_reads_not_awarded() -> None:
    from burraco.tournament.evening_web import evening_json
    from burraco.tournament.paper.words import word
    from burraco.tournament.web import director_page

    t = play(event("danish:1", 4), {1: (900, 100), 2: (700, 300)})
    t = changes.set_category(t, standings(t)[0].pair, "Senior")
    t = changes.set_prizes(t, "overall:1,Senior:2")  # the only senior pair wins overall
    awards = [(a.category, a.place, a.standing.pair if a.standing else None)
              for a in prize_list(t)]
    assert awards[0][0] == "overall" and awards[1:] == [("Senior", 1, None),
                                                        ("Senior", 2, None)]
    listed = evening_json(t)["prize_list"]
    assert [(p["category"], p["place"], p["awarded"]) for p in listed][1:] == [
        ("Senior", 1, False), ("Senior", 2, False)]
    for lang, text in (("en", "not awarded"), ("it", "non assegnato")):
        page = director_page("x", t, lang=lang)
        table = page[page.index("id='prize-list'"):]
        table = table[:table.index("</table>")]
        assert table.count(text) == 2, lang
        assert word("not_awarded", lang) == text
