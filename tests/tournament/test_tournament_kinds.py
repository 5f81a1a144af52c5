"""Individual and team events (RULES.md §11.4: "in team events line-ups may change between
matches within the team; in individual events partners change every round"; §11.3: the
team VP table was not found, so it must be the director's, never invented)."""

from __future__ import annotations

import itertools
import json
import random
import warnings
from collections import Counter
from pathlib import Path

import pytest

from burraco.cli import main
from burraco.tournament.duplicate import round_scores
from burraco.tournament.entries import entry
from burraco.tournament.errors import TournamentError
from burraco.tournament.export import results_csv, round_text, standings_csv
from burraco.tournament.individual import individual_round
from burraco.tournament.model import Settings, Tournament
from burraco.tournament.scale import VpScale
from burraco.tournament.schedule import Schedule
from burraco.tournament.service import Director
from burraco.tournament.simulate import simulate, summary_json
from burraco.tournament.standings import standings, tallies

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

TEAM_TABLE = "club-teams:100,300,500,700,900,1100,1300,1500,1700,2000"


def individual(players: int, schedule: str = "random:3,danish:1", **kw: object) -> Tournament:
    t = Tournament(Settings("Individuale", kind="individual", schedule=Schedule.parse(schedule),
                            **kw))  # type: ignore[arg-type]
    for n in range(1, players + 1):
        t, _ = t.register(f"Player {n}")
    return t


def teams(count: int, schedule: str = "roundrobin", **kw: object) -> Tournament:
    t = Tournament(Settings("Squadre", kind="teams", schedule=Schedule.parse(schedule),
                            scale=VpScale.parse(TEAM_TABLE, hands=3),
                            **kw))  # type: ignore[arg-type]
    for n in range(1, count + 1):
        t, _ = t.register(f"Team {n}", [f"T{n} player {k}" for k in range(1, 5)])
    return t


def play_round(t: Tournament, rng: random.Random) -> Tournament:
    t = t.start_round()
    assert t.current is not None
    for table in t.current.tables:
        t = t.record(t.current.number, table.number, rng.randrange(-40, 400) * 5,
                     rng.randrange(-40, 400) * 5)
    return t


def partnerships(t: Tournament) -> Counter[frozenset[int]]:
    return Counter(frozenset(table.line(side)) for r in t.rounds for table in r.tables
                   for side in (0, 1))


# --- individual: seating ------------------------------------------------------------------------

@pytest.mark.parametrize("players", [4, 5, 8, 9, 12, 15, 16, 23, 40])
def test_individual_rounds_seat_everyone_once_in_fours_with_byes_rotating(players: int) -> None:
    """§11.4: four players a table, two partnerships; n mod 4 sit out, fewest byes first."""
    t = individual(players, "random:4,danish:1,danish-modified:1")
    rng = random.Random(players)
    for _ in range(6):
        t = play_round(t, rng)
        played = t.rounds[-1]
        seated = [p for table in played.tables for p in table.entrants()] + list(played.byes)
        assert sorted(seated) == list(range(1, players + 1))
        assert all(len(table.line(0)) == len(table.line(1)) == 2 for table in played.tables)
        assert len(played.byes) == players % 4
    byes = Counter(p for r in t.rounds for p in r.byes)
    counts = [byes.get(p, 0) for p in range(1, players + 1)]
    assert max(counts) - min(counts) <= 1


@pytest.mark.parametrize("players", [8, 12, 16, 20, 32])
def test_partners_change_every_round_in_a_drawn_individual_event(players: int) -> None:
    """§11.4 "in individual events partners change every round": no partnership twice."""
    t = individual(players, "random:4")
    rng = random.Random(1)
    while not t.finished:
        t = play_round(t, rng)
    assert max(partnerships(t).values()) == 1


def test_danish_individual_seats_ranked_fours_first_with_fourth() -> None:
    """Ranked groups of four; the top player partners the 4th against the 2nd and 3rd."""
    seating = individual_round([5, 1, 7, 3, 2, 8, 4, 6], ranked=True, rng=random.Random(0))
    assert [(t.line(0), t.line(1)) for t in seating.tables] == [((5, 3), (1, 7)),
                                                                ((2, 6), (8, 4))]
    again = individual_round([5, 1, 7, 3], ranked=True, rng=random.Random(0),
                             partnered={5: {3}, 3: {5}})
    assert (again.tables[0].line(0), again.tables[0].line(1)) == ((5, 7), (1, 3))


def test_danish_individual_byes_go_to_the_lowest_ranked_without_one() -> None:
    seating = individual_round([1, 2, 3, 4, 5, 6], ranked=True, rng=random.Random(0),
                               byes={6: 1})
    assert seating.byes == (5, 4)


def test_modified_danish_keeps_last_rounds_table_mates_apart_when_it_can() -> None:
    last = [range(1, 5), range(5, 9), range(9, 13), range(13, 17)]  # last round's tables
    previous = {p: {q for q in group if q != p} for group in last for p in group}
    seating = individual_round(list(range(1, 17)), ranked=True, rng=random.Random(0),
                               previous=previous)
    assert seating.tables[0].entrants() == (1, 13, 5, 9)
    for table in seating.tables:
        members = table.entrants()
        assert not any(b in previous[a] for a, b in itertools.combinations(members, 2))


def test_individual_events_refuse_fixed_pair_movements_and_small_fields() -> None:
    for schedule in ("mitchell:3,danish:1", "roundrobin"):
        with pytest.raises(TournamentError, match="no fixed pairs"):
            Settings("X", kind="individual", schedule=Schedule.parse(schedule))
    t = individual(3)
    with pytest.raises(TournamentError, match="at least 4 players are needed, 3 registered"):
        t.start_round()
    with pytest.raises(TournamentError, match="registers players one by one"):
        t.register("Rossi / Bianchi", ["Rossi", "Bianchi"])


# --- individual: scores ------------------------------------------------------------------------

def test_both_partners_are_credited_with_their_lines_score() -> None:
    t = individual(8, "random:1").start_round()
    table = t.rounds[0].tables[0]
    t = t.record(1, 1, 1200, 900)
    (a, c), (b, d) = table.line(0), table.line(1)
    rows = {s.pair: s for s in standings(t)}
    assert rows[a].vp == rows[c].vp == 13 and rows[b].vp == rows[d].vp == 7
    assert rows[a].mp_diff == rows[c].mp_diff == 300 and rows[b].mp_diff == -300
    result = t.result(1, 1)
    assert result is not None and result.line(0) == (a, c)


def test_individual_head_to_head_counts_matches_as_opponents() -> None:
    """h2h among tied players counts what each won against the others as opponents."""
    t = individual(4, "random:1").start_round()
    table = t.rounds[0].tables[0]
    t = t.record(1, 1, 600, 400)  # NS 12 – 8
    lines = tallies(t)
    (a, c), (b, d) = table.line(0), table.line(1)
    assert lines[a].against == {b: 12, d: 12} and lines[d].against == {a: 8, c: 8}
    assert c not in lines[a].against


def test_duplicate_scores_credit_both_partners() -> None:
    t = individual(8, "random:1", duplicate=True).start_round()
    t = t.record(1, 1, 900, 300).record(1, 2, 400, 400)
    scores = round_scores(t.round_results(1))
    one, two = t.rounds[0].tables
    assert {scores[p] for p in one.line(0)} == {600} and {scores[p] for p in one.line(1)} == {-600}
    assert {scores[p] for p in two.line(0)} == {-600}


# --- teams -------------------------------------------------------------------------------------

def test_a_team_event_needs_the_directors_team_table() -> None:
    """§11.3: the FIBur team table was not found; nothing is invented in its place."""
    with pytest.raises(TournamentError, match="needs the team VP table"):
        Settings("Squadre", kind="teams")
    settings = Settings("Squadre", kind="teams", scale=VpScale.parse(TEAM_TABLE, hands=3))
    assert not settings.vp_scale.official and settings.vp_scale.name == "club-teams"


def test_teams_register_four_to_twelve_players() -> None:
    t = Tournament(Settings("S", kind="teams", scale=VpScale.parse(TEAM_TABLE, hands=3)))
    with pytest.raises(TournamentError, match="lists 2 players; a team has 4 to 12"):
        t.register("Roma", ["A", "B"])
    t, team = t.register("Roma", ["A", "B", "C", "D", "E"])
    assert team.players == ("A", "B", "C", "D", "E")


def test_a_team_match_is_scored_on_its_two_tables_total() -> None:
    t = teams(4, "mitchell:1").start_round()
    t = t.record(1, 1, 1500, 900, rooms=[(800, 300), (700, 600)])
    result = t.result(1, 1)
    assert result is not None and result.rooms == ((800, 300), (700, 600))
    assert result.vp == VpScale.parse(TEAM_TABLE, hands=3).vp(1500, 900) == (13, 7)
    with pytest.raises(TournamentError, match="the two tables add up to 1500 – 900, not "
                                              "1500 – 950"):
        t.record(1, 2, 1500, 950, rooms=[(800, 300), (700, 600)])
    with pytest.raises(TournamentError, match="played at 2 tables, 1 given"):
        t.record(1, 2, 800, 300, rooms=[(800, 300)])
    with pytest.raises(TournamentError, match="table 1, the away team's score 299 is not a "
                                              "multiple of 5"):
        t.record(1, 2, 1500, 900, rooms=[(800, 299), (700, 601)])
    with pytest.raises(TournamentError, match="for team matches; this is a pairs event"):
        pairs = Tournament(Settings("P", schedule=Schedule.parse("mitchell:1")))
        for n in "ABCD":
            pairs, _ = pairs.register(n)
        pairs.start_round().record(1, 1, 900, 300, rooms=[(600, 100), (300, 200)])


def test_team_round_robin_counts_and_standings() -> None:
    """All'italiana over teams: N teams → N(N−1)/2 matches, each at two tables."""
    t = teams(6)
    rng = random.Random(3)
    while not t.finished:
        t = play_round(t, rng)
    assert len(t.results) == 15
    met = Counter(frozenset(r.line(0) + r.line(1)) for r in t.results)
    assert len(met) == 15 and set(met.values()) == {1}
    assert sum(s.vp for s in standings(t)) == 20 * 15
    assert "tables 2k−1 (home NS, away EW) and 2k (away NS, home EW)" in round_text(
        t, t.rounds[0])


# --- storage, commands, pages, simulation ------------------------------------------------------

def test_partners_and_team_tables_survive_the_database(tmp_path: Path) -> None:
    director = Director.open(f"sqlite:///{tmp_path / 'kinds.db'}")
    try:
        tid = director.create(individual(0).settings)
        director.register_all(tid, [(f"P{n}", []) for n in range(1, 10)])
        played = director.start_round(tid)
        table = played.tables[0]
        director.record(tid, 1, 1, 1000, 400)
        t = director.load(tid)
        assert t.rounds[0].tables[0] == table and table.ns_partner is not None
        assert t.result(1, 1) is not None and t.result(1, 1).line(0) == table.line(0)  # type: ignore[union-attr]
        assert {s.pair: s.vp for s in standings(t)}[table.ns_partner] == 15

        tid = director.create(teams(0).settings)
        director.register_all(tid, [entry(f"Team {n}: A{n} / B{n} / C{n} / D{n}")
                                    for n in range(1, 5)])
        director.start_round(tid)
        director.record(tid, 1, 2, 1000, 1100, rooms=[(500, 600), (500, 500)])
        t = director.load(tid)
        assert t.pairs[0].players == ("A1", "B1", "C1", "D1")
        assert t.result(1, 2) is not None and t.result(1, 2).rooms == ((500, 600), (500, 500))  # type: ignore[union-attr]
    finally:
        director.close()


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["tournament", *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_a_team_evening_from_the_command_line(tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    db = f"sqlite:///{tmp_path / 'teams.db'}"
    code, _, err = run(capsys, "create", "Coppa", "--db", db, "--kind", "teams")
    assert code == 1 and "needs the team VP table" in err
    code, out, _ = run(capsys, "create", "Coppa", "--db", db, "--kind", "teams",
                       "--schedule", "roundrobin", "--vp-table", TEAM_TABLE)
    assert code == 0
    code, _, err = run(capsys, "register", "--db", db, "Roma: A / B")
    assert code == 1 and "a team has 4 to 12" in err
    code, out, _ = run(capsys, "register", "--db", db, "Roma: A / B / C / D",
                       "Milano: E, F, G, H, I", "Napoli: J / K / L / M", "Torino: N/O/P/Q")
    assert code == 0 and out.splitlines()[1] == "  2 Milano (E, F, G, H, I)"
    code, out, _ = run(capsys, "start-round", "--db", db)
    assert code == 0 and "match" in out and "home" in out and "2 match(es) at 4 tables" in out
    code, _, err = run(capsys, "result", "--db", db, "1", "1500", "900", "--rooms",
                       "800:300,700:650")
    assert code == 1 and "the two tables add up to 1500 – 950, not 1500 – 900" in err
    before = Director.open(db)
    assert before.load(before.latest()).results == ()
    before.close()
    code, out, _ = run(capsys, "result", "--db", db, "1", "1500", "900", "--rooms",
                       "800:300,700:600")
    assert code == 0 and "VP 13–7" in out
    code, out, _ = run(capsys, "standings", "--db", db, "--json")
    assert json.loads(out)["standings"][0]["vp"] == 13


def test_an_individual_evening_from_the_command_line(tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    db = f"sqlite:///{tmp_path / 'ind.db'}"
    code, _, err = run(capsys, "create", "Individuale", "--db", db, "--kind", "individual",
                       "--schedule", "mitchell:3")
    assert code == 1 and "no fixed pairs" in err
    code, _, err = run(capsys, "create", "Individuale", "--db", db, "--kind", "individual")
    assert code == 0 and "random:3,danish:1" in err
    run(capsys, "register", "--db", db, *[f"Giocatore {n}" for n in range(1, 9)])
    code, out, _ = run(capsys, "start-round", "--db", db, "--json")
    tables = json.loads(out)["tables"]
    assert len(tables) == 2 and all("ns_partner" in row for row in tables)
    code, out, _ = run(capsys, "result", "--db", db, "1", "1200", "900")
    row = tables[0]
    assert code == 0 and f"players {row['ns']}+{row['ns_partner']} 1200" in out
    code, out, _ = run(capsys, "export", "--db", db, "--csv", "-")
    assert out.splitlines()[0].startswith("rank,player,name")


def test_team_results_on_the_directors_page(tmp_path: Path) -> None:
    from burraco.tournament.web import create_app

    with TestClient(create_app(f"sqlite:///{tmp_path / 'web.db'}")) as client:
        answer = client.post("/tournaments/", data={"name": "Coppa", "kind": "teams"})
        assert answer.status_code == 422 and "needs the team VP table" in answer.text
        client.post("/tournaments/", data={"name": "Coppa", "kind": "teams",
                                           "schedule": "mitchell:1", "vp_table": TEAM_TABLE})
        client.post("/tournaments/coppa/pairs", data={
            "pairs": "\n".join(f"Team {n}: A / B / C / D" for n in range(1, 5))})
        page = client.post("/tournaments/coppa/rounds").text
        assert "name='r1_home'" in page and "<th>home</th>" in page
        answer = client.post("/tournaments/coppa/results", data={
            "round": "1", "table": "1", "r1_home": "800", "r1_away": "300", "r2_home": "700",
            "r2_away": "600"})
        assert answer.status_code == 200 and "MP 1500 – 900, VP 13–7" in answer.text
        data = client.get("/api/tournaments/coppa").json()
        assert data["kind"] == "teams" and data["results"][0]["rooms"] == [[800, 300],
                                                                            [700, 600]]


def test_simulated_individual_and_team_events() -> None:
    ind = simulate(Settings("I", kind="individual", hands=3,
                            schedule=Schedule.parse("random:2,danish:1")),
                   pairs=9, bots=["random"], jobs=1)
    rows = standings(ind)
    assert len(rows) == 9 and all(r.played + r.byes == 3 for r in rows)
    assert max(partnerships(ind).values()) == 1
    data = summary_json(ind)
    assert data["kind"] == "individual" and "ns_partner" in data["matches"][0]

    team = simulate(Settings("T", kind="teams", hands=3, schedule=Schedule.parse("roundrobin"),
                             scale=VpScale.parse(TEAM_TABLE, hands=3)),
                    pairs=4, bots=["random", "basic"], jobs=2)
    assert len(team.results) == 6
    for r in team.results:
        assert len(r.rooms) == 2 and r.mp == (sum(x[0] for x in r.rooms),
                                              sum(x[1] for x in r.rooms))
    assert "rooms" in summary_json(team)["matches"][0]
    assert standings_csv(team).startswith("rank,team,") and ",rooms" in results_csv(
        team).splitlines()[0]
