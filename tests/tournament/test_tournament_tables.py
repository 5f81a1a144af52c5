"""Results from the tables, the round clock and the big screen, over HTTP against ``burraco serve``.

Both pairs of a table enter the result on their phone pages (RULES.md §11.7: the opponents
confirm the score sheet); the round clock announces the time-out of RULES.md §8.2 (FIBur
Art. 15).  Every test drives a real server process on a real SQLite file.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from html import unescape
from itertools import count
from pathlib import Path
from typing import Any

import httpx
import pytest
from harness import ServerProcess

BURRACO = str(Path(sys.executable).with_name("burraco"))
names = count(1)


def _event(server: ServerProcess, pairs: int = 4, schedule: str = "mitchell:2") -> str:
    """A fresh tournament with round 1 started; its id."""
    name = f"Serata {next(names)}"
    http = server.http
    answer = http.post("/tournaments/", data={"name": name, "schedule": schedule})
    assert answer.status_code == 303, answer.text
    tid = answer.headers["location"].split("/")[2]
    lines = "\n".join(f"Coppia {k} / Socio {k}" for k in range(1, pairs + 1))
    assert http.post(f"/tournaments/{tid}/pairs", data={"pairs": lines}).status_code == 303
    assert http.post(f"/tournaments/{tid}/rounds").status_code == 303
    return tid


def _links(server: ServerProcess, tid: str) -> dict[int, dict[str, str]]:
    answer = server.http.get(f"/api/tournaments/{tid}/table-links")
    assert answer.status_code == 200, answer.text
    return {row["table"]: {"ns": _path(row["ns"]), "ew": _path(row["ew"])}
            for row in answer.json()["tables"]}


def _path(url: str) -> str:
    return url[url.index("/tournaments/"):]


def _enter(server: ServerProcess, link: str, ns: str, ew: str, **extra: str) -> httpx.Response:
    return server.http.post(link, data={"ns_mp": ns, "ew_mp": ew, **extra},
                            follow_redirects=True)


def _text(answer: httpx.Response, element: str) -> str:
    found = re.search(rf"id='{element}'[^>]*>(.*?)</(p|section|ul|table)>", answer.text, re.S)
    assert found, f"no #{element} in the page:\n{answer.text[:3000]}"
    return unescape(re.sub(r"<[^>]+>", "", found.group(1)))


def _state(server: ServerProcess, tid: str) -> dict[str, Any]:
    return server.http.get(f"/api/tournaments/{tid}").json()  # type: ignore[no-any-return]


def _log(server: ServerProcess, tid: str) -> str:
    page = server.http.get(f"/tournaments/{tid}/?lang=en")
    found = re.search(r"<table id='log'>.*?</table>", page.text, re.S)
    return re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", " ", found.group(0)))) if found \
        else ""


def test_both_pairs_agree_and_the_result_is_recorded(server: ServerProcess) -> None:
    tid = _event(server)
    link = _links(server, tid)[1]
    page = server.http.get(link["ns"] + "?lang=en")
    assert page.status_code == 200
    assert "Table 1" in page.text and "Round 1" in page.text
    assert "You are the NS pair" in page.text
    assert "Coppia 1 / Socio 1" in page.text and "Coppia 3 / Socio 3" in page.text

    first = _enter(server, link["ns"], "1200", "900")
    assert first.status_code == 200
    assert "Waiting for the other pair" in _text(first, "notice")
    assert _state(server, tid)["results"] == [], "one pair's entry records nothing"
    other = server.http.get(link["ew"] + "?lang=en")
    assert "The other pair has entered its score" in other.text

    second = _enter(server, link["ew"], "1200", "900")
    assert "Both pairs agree" in _text(second, "notice")
    assert "VP 13–7" in _text(second, "notice")
    results = _state(server, tid)["results"]
    assert [(r["table"], r["mp"], r["vp"], r["source"]) for r in results] == [
        (1, [1200, 900], [13, 7], "tables")]
    log = _log(server, tid)
    assert "NS pair of table 1 entered 1200 – 900" in log
    assert "EW pair of table 1 entered 1200 – 900" in log
    assert "both pairs of table 1 agree: MP 1200 – 900, VP 13–7 recorded" in log

    again = _enter(server, link["ns"], "1300", "900")
    assert again.status_code == 422
    assert "already has its result (MP 1200 – 900, VP 13–7); only the director" in \
        _text(again, "error")
    assert _state(server, tid)["results"] == results, "nothing changed"


def test_smazzate_one_by_one_are_kept_when_both_agree(server: ServerProcess) -> None:
    tid = _event(server)
    link = _links(server, tid)[2]
    hands = {"h1_ns": "450", "h1_ew": "-100", "h2_ns": "300", "h2_ew": "200",
             "h3_ns": "450", "h3_ew": "800"}  # NS 1200, EW 900
    wrong = _enter(server, link["ns"], "1200", "900", **{**hands, "h3_ew": "700"})
    assert wrong.status_code == 422
    assert "round 1, table 2: the smazzate add up to 1200 – 800, not 1200 – 900" in \
        _text(wrong, "error")
    partial = _enter(server, link["ns"], "1200", "900", h1_ns="450", h1_ew="-100")
    assert partial.status_code == 422 and "smazzata 2, the NS score is missing" in \
        _text(partial, "error")
    assert _state(server, tid)["results"] == [] and "entered" not in _log(server, tid)
    assert _enter(server, link["ns"], "1200", "900", **hands).status_code == 200
    _enter(server, link["ew"], "1200", "900")
    result = _state(server, tid)["results"][0]
    assert result["hands"] == [[450, -100], [300, 200], [450, 800]]


def test_disagreement_records_nothing_and_the_director_settles_it(server: ServerProcess) -> None:
    tid = _event(server)
    link = _links(server, tid)[1]
    _enter(server, link["ns"], "1200", "900")
    answer = _enter(server, link["ew"], "1100", "900")
    assert answer.status_code == 200
    text = _text(answer, "disagree")
    assert "NS entered 1200 – 900, EW entered 1100 – 900" in text
    assert "Nothing is recorded" in text
    assert "NS entered 1200 – 900, EW entered 1100 – 900" in _text(
        server.http.get(link["ns"] + "?lang=en"), "disagree"), "both pairs see it"
    assert _state(server, tid)["results"] == []

    director = server.http.get(f"/tournaments/{tid}/?lang=en")
    assert "Table 1: NS entered 1200 – 900, EW entered 1100 – 900" in _text(director,
                                                                            "conflicts")
    assert "both pairs of table 1 disagree: NS entered 1200 – 900, EW 1100 – 900" in \
        _log(server, tid)

    settled = server.http.post(f"/tournaments/{tid}/results",
                               data={"round": "1", "table": "1", "ns_mp": "1200",
                                     "ew_mp": "900"}, follow_redirects=True)
    assert settled.status_code == 200
    assert "id='conflicts'" not in settled.text, "a settled table is no longer a conflict"
    assert _state(server, tid)["results"][0]["source"] == "director"
    assert "director entered MP 1200 – 900, VP 13–7" in _log(server, tid)
    page = server.http.get(link["ew"] + "?lang=en")
    assert "Result recorded: MP 1200 – 900, VP 13–7" in _text(page, "result")
    assert "id='entry'" not in page.text, "no form once the result is in"


def test_a_pair_may_enter_again_after_a_disagreement(server: ServerProcess) -> None:
    tid = _event(server)
    link = _links(server, tid)[1]
    _enter(server, link["ns"], "1200", "900")
    _enter(server, link["ew"], "1100", "900")
    fixed = _enter(server, link["ew"], "1200", "900")
    assert "Both pairs agree" in _text(fixed, "notice")
    assert _state(server, tid)["results"][0]["mp"] == [1200, 900]


def test_director_corrections_are_logged(server: ServerProcess) -> None:
    tid = _event(server)
    link = _links(server, tid)[2]
    _enter(server, link["ns"], "800", "800")
    _enter(server, link["ew"], "800", "800")
    corrected = server.http.post(f"/tournaments/{tid}/results", data={
        "round": "1", "table": "2", "ns_mp": "1000", "ew_mp": "600", "correct": "1"},
        follow_redirects=True)
    assert corrected.status_code == 200
    result = _state(server, tid)["results"][0]
    assert (result["mp"], result["vp"], result["source"]) == ([1000, 600], [14, 6], "director")
    log = _log(server, tid)
    # what the correction replaced is said too (issue 36, bug 8)
    assert "director corrected to MP 1000 – 600, VP 14–6 (was MP 800 – 800, VP 10–10)" in log
    assert log.index("corrected to") < log.index("both pairs of table 2 agree"), "newest first"
    italian = server.http.get(f"/tournaments/{tid}/?lang=it").text
    assert "ha corretto in punti 1000 – 600, VP 14–6" in unescape(italian)


def test_penalties_withdrawals_and_prizes_are_logged(server: ServerProcess) -> None:
    """The director's log keeps every change of the evening, not only the results (issue 36,
    bug 8): a penalty with its reason, a withdrawal with its mode, the prizes set."""
    tid = _event(server, pairs=6, schedule="mitchell:3")
    http = server.http
    assert http.post(f"/tournaments/{tid}/penalties", data={
        "pair": "2", "vp": "1", "mp": "0", "reason": "slow play, twice"}).status_code == 303
    assert http.post(f"/tournaments/{tid}/penalties", data={
        "pair": "3", "vp": "0", "mp": "50", "round": "1", "reason": "late"}).status_code == 303
    for table in (1, 2, 3):  # a pair withdraws between rounds
        assert http.post(f"/tournaments/{tid}/results", data={
            "round": "1", "table": str(table), "ns_mp": "800", "ew_mp": "800"}).status_code == 303
    withdrawn = http.post(f"/tournaments/{tid}/withdraw", data={"pair": "6", "mode": "byes"})
    assert withdrawn.status_code == 303, re.findall(r"role=.alert.[^>]*>([^<]*)", withdrawn.text)
    assert http.post(f"/tournaments/{tid}/prizes", data={
        "prizes": "overall:2"}).status_code == 303
    log = _log(server, tid)
    assert "director penalised pair 2: 1 VP, 0 MP (slow play, twice)" in log
    assert "director penalised pair 3 in round 1: 0 VP, 50 MP (late)" in log
    assert "director withdrew pair 6 from round 2: its opponents become byes" in log
    assert "director set the prizes: " in log and "overall" in log.lower()
    # newest first: the prizes were set last
    assert log.index("set the prizes") < log.index("withdrew pair 6") < log.index(
        "penalised pair 2")
    italian = unescape(http.get(f"/tournaments/{tid}/?lang=it").text)
    assert "slow play, twice" in italian and "withdrew" not in italian


def test_a_link_opens_only_its_own_table(server: ServerProcess) -> None:
    tid = _event(server)
    links = _links(server, tid)
    ns_one = links[1]["ns"]
    round_, _table, side, sig = ns_one.rsplit("/", 1)[1].split("-", 3)
    for forged in (f"{round_}-2-{side}-{sig}", f"{round_}-1-ew-{sig}", f"{round_}-1-ns-x{sig}",
                   f"2-1-ns-{sig}", "1-1-ns", "nonsense"):
        target = ns_one.rsplit("/", 1)[0] + "/" + forged
        page = server.http.get(target + "?lang=en")
        assert page.status_code == 403, forged
        assert "This link is not a table link of this tournament" in _text(page, "error")
        post = server.http.post(target, data={"ns_mp": "1200", "ew_mp": "900"})
        assert post.status_code == 403, forged
    other = _event(server)  # one tournament's link does not open another's tables
    page = server.http.get(f"/tournaments/{other}/table/{ns_one.rsplit('/', 1)[1]}")
    assert page.status_code == 403
    assert _state(server, tid)["results"] == [] and _state(server, other)["results"] == []
    assert "entered" not in _log(server, tid)


def test_a_stale_rounds_link_says_which_round_is_played(server: ServerProcess) -> None:
    tid = _event(server, schedule="mitchell:2")
    old = _links(server, tid)
    for table, link in old.items():
        _enter(server, link["ns"], "1000", "700")
        _enter(server, link["ew"], "1000", "700")
        assert _state(server, tid)["results"][-1]["table"] == table
    assert server.http.post(f"/tournaments/{tid}/rounds").status_code == 303
    page = server.http.get(old[1]["ns"] + "?lang=en")
    assert page.status_code == 403
    assert "This link was for round 1; round 2 is being played" in _text(page, "error")
    post = server.http.post(old[1]["ns"], data={"ns_mp": "1200", "ew_mp": "900"})
    assert post.status_code == 403
    assert len(_state(server, tid)["results"]) == 2, "nothing changed"
    new = _links(server, tid)
    assert new[1]["ns"] != old[1]["ns"]
    for link in new.values():
        _enter(server, link["ns"], "1000", "700")
        _enter(server, link["ew"], "1000", "700")
    assert _state(server, tid)["status"] == "finished"
    over = server.http.get(new[1]["ns"] + "?lang=en")  # the last round: its result, no form
    assert "Result recorded: MP 1000 – 700" in _text(over, "result")
    assert "id='entry'" not in over.text
    late = _enter(server, new[1]["ns"], "1200", "900")
    assert late.status_code == 422 and "only the director can change it" in _text(late, "error")
    with httpx.Client(base_url=server.base) as fresh:  # no language chosen yet
        italian = fresh.get(old[1]["ew"], headers={"Accept-Language": "it-IT,it;q=0.9"})
    assert italian.status_code == 403 and "<html lang='it'>" in italian.text
    assert "Questo link era per il turno 1; il torneo è finito." in _text(italian, "error")


@pytest.mark.parametrize(("ns", "ew", "message"), [
    ("12OO", "900", "the NS score must be a whole number, not '12OO'"),
    ("", "900", "the NS score is missing"),
    ("1200", "999995", "the EW score 999995 is not a plausible score (from -12000 to 12000)"),
    ("-12005", "900", "the NS score -12005 is not a plausible score (from -12000 to 12000)"),
    ("1234", "900", "the NS score 1234 is not a multiple of 5"),
])
def test_bad_entries_are_refused_and_change_nothing(server: ServerProcess, ns: str, ew: str,
                                                    message: str) -> None:
    tid = _event(server)
    link = _links(server, tid)[1]
    before = _log(server, tid)
    answer = _enter(server, link["ns"], ns, ew, lang="en")
    assert answer.status_code == 422
    assert message in _text(answer, "error")
    assert _log(server, tid) == before and _state(server, tid)["results"] == []
    assert "id='mine'" not in server.http.get(link["ns"]).text, "no entry was kept"


def test_a_negative_total_is_entered_from_the_phones(server: ServerProcess) -> None:
    """Burraco allows a match total below 0: the table does not need the director for it."""
    tid = _event(server)  # 3 smazzate
    link = _links(server, tid)[1]
    form = server.http.get(link["ns"]).text
    for name in ("ns_mp", "ew_mp"):
        field = re.search(rf"<input name='{name}'[^>]*>", form)
        assert field and "min='-12000'" in field.group(0) and "max='12000'" in field.group(0)
        assert "inputmode='numeric'" not in field.group(0), "a digits-only keypad has no minus"
    assert "min='-4000'" in form, "a smazzata's fields take a negative score too"
    hands = {"h1_ns": "-300", "h1_ew": "400", "h2_ns": "100", "h2_ew": "300", "h3_ns": "100",
             "h3_ew": "200"}
    _enter(server, link["ns"], "-100", "900", **hands)
    agreed = _enter(server, link["ew"], "-100", "900", lang="en")
    assert "the result is recorded — MP −100 – 900, VP 3–17" in _text(agreed, "notice")
    result = _state(server, tid)["results"][0]
    assert result["mp"] == [-100, 900] and result["vp"] == [3, 17]


def test_the_same_form_posted_twice_changes_nothing(server: ServerProcess) -> None:
    tid = _event(server)
    link = _links(server, tid)[1]
    _enter(server, link["ns"], "1200", "900")
    before = _log(server, tid)
    twice = _enter(server, link["ns"], "1200", "900")
    assert "This entry was already received (1200 – 900); nothing changed." in \
        _text(twice, "notice")
    assert _log(server, tid) == before


def test_the_round_clock_and_its_time_out(server: ServerProcess) -> None:
    tid = _event(server)
    link = _links(server, tid)[1]
    assert "The round's clock has not been started" in server.http.get(
        link["ns"] + "?lang=en").text
    for bad, message in (("abc", "whole minutes, not 'abc'"), ("0", "1 to 240 minutes, not 0"),
                         ("999", "1 to 240 minutes, not 999")):
        answer = server.http.post(f"/tournaments/{tid}/clock", data={"minutes": bad},
                                  follow_redirects=True)
        assert message in _text(answer, "error")
    assert server.http.get(f"/tournaments/{tid}/screen.json").json()["clock"] is None
    answer = server.http.post(f"/tournaments/{tid}/clock", data={"minutes": ""},
                              follow_redirects=True)
    assert "the clock runs 33 minutes" in _text(answer, "notice"), "11 a smazzata, 3 smazzate"
    clock = server.http.get(f"/tournaments/{tid}/screen.json").json()["clock"]
    assert clock["minutes"] == 33 and clock["time_out"] is False
    phone = server.http.get(link["ns"] + "?lang=en").text
    assert f"data-ends='{clock['ends_at']}'" in phone
    assert re.search(r"id='clock-left'>3[23]:\d\d<", phone)
    assert "ends at " in phone
    assert re.search(r"id='timeout' role='alert' hidden>", phone), "not yet"

    called = server.http.post(f"/tournaments/{tid}/clock/time", follow_redirects=True)
    assert "round 1: time called" in _text(called, "notice")
    assert server.http.get(f"/tournaments/{tid}/screen.json").json()["clock"]["time_out"]
    for page in (server.http.get(link["ew"] + "?lang=en"),
                 server.http.get(f"/tournaments/{tid}/screen?lang=en")):
        assert "id='clock-left'>00:00<" in page.text
        text = _text(page, "timeout")
        assert "Last lap" in text and "without the closing bonus (FIBur Art. 15)" in text
        assert "role='alert' hidden" not in page.text
    italian = server.http.get(f"/tournaments/{tid}/screen?lang=it").text
    assert "senza il premio di chiusura (FIBur Art. 15)" in unescape(italian)
    again = server.http.post(f"/tournaments/{tid}/clock/time", follow_redirects=True)
    # the director's language is remembered (the screen was asked for in Italian)
    assert "il tempo del turno 1 è già scaduto" in _text(again, "error")
    log = _log(server, tid)
    assert "started the clock of round 1: 33 minutes" in log and "called time in round 1" in log


def test_the_big_screen_follows_the_results(server: ServerProcess) -> None:
    tid = _event(server, pairs=6, schedule="mitchell:1")
    screen = server.http.get(f"/tournaments/{tid}/screen?lang=en")
    assert screen.status_code == 200
    assert "script src='/tournaments/clock.js'" in screen.text
    assert "http-equiv='refresh' content='30'" in screen.text
    data = server.http.get(f"/tournaments/{tid}/screen.json").json()
    assert [tb["finished"] for tb in data["tables"]] == [False, False, False]
    link = _links(server, tid)[3]
    _enter(server, link["ns"], "1500", "400")
    stamp = data["stamp"]
    assert server.http.get(f"/tournaments/{tid}/screen.json").json()["stamp"] != stamp, \
        "an entry moves the stamp the screen reloads on"
    _enter(server, link["ew"], "1500", "400")
    data = server.http.get(f"/tournaments/{tid}/screen.json").json()
    assert [tb["finished"] for tb in data["tables"]] == [False, False, True]
    assert data["standings"][0]["vp"] > 10
    page = server.http.get(f"/tournaments/{tid}/screen?lang=it")
    assert "<li class='done' data-table='3'>" in page.text and "finito" in page.text
    assert "Classifica" in page.text
    assert server.http.get("/tournaments/nope/screen").status_code == 404
    assert server.http.get("/tournaments/style.css").headers["content-type"].startswith(
        "text/css")


def test_the_pages_speak_italian_and_english(server: ServerProcess) -> None:
    tid = _event(server)
    link = _links(server, tid)[1]
    server.http.cookies.clear()  # an earlier test's ?lang= is remembered in a cookie
    italian = server.http.get(link["ns"], headers={"Accept-Language": "it"}).text
    assert "<html lang='it'>" in italian and "Tavolo 1" in italian and "Turno 1" in italian
    english = server.http.get(link["ns"] + "?lang=en").text
    assert "<html lang='en'>" in english and "Send the result" in english
    chosen = httpx.Client(base_url=server.base)
    chosen.get(f"/tournaments/{tid}/screen?lang=it")
    assert "Invia il risultato" in chosen.get(link["ns"]).text, "the choice is remembered"
    chosen.close()
    director = server.http.get(f"/tournaments/{tid}/?lang=it").text
    assert "Link dei tavoli" in director and "Avvia il tempo" in director
    assert "<h2>Turno 1 — mitchell</h2>" in director and ">salva</button>" in director
    assert "<h2>Classifica</h2>" in director and "Pagina dei giocatori" in director
    players = server.http.get(f"/tournaments/{tid}/standings?lang=it").text
    assert "<html lang='it'>" in players and "<th>pos.</th><th>coppia</th>" in players
    english = server.http.get(f"/tournaments/{tid}/?lang=en").text
    assert "<h2>Round 1 — mitchell</h2>" in english and "Table links" in english


def test_table_links_from_the_command_line(server: ServerProcess) -> None:
    tid = _event(server, pairs=6, schedule="mitchell:1")
    ran = subprocess.run([BURRACO, "tournament", "table-links", "-t", tid, "--json",
                          "--db", server.db_url, "--base-url", server.base],
                         capture_output=True, text=True, timeout=120)
    assert ran.returncode == 0, ran.stderr
    tables = json.loads(ran.stdout)["tables"]
    assert [row["table"] for row in tables] == [1, 2, 3]
    assert all(row["ns"].startswith(f"{server.base}/tournaments/{tid}/table/1-")
               for row in tables)
    assert server.http.get(tables[2]["ew"]).status_code == 200
    plain = subprocess.run([BURRACO, "tournament", "table-links", "-t", tid, "--db",
                            server.db_url, "--base-url", "example.org"],
                           capture_output=True, text=True, timeout=120)
    assert plain.returncode != 0 and "give an http:// or https:// address" in plain.stderr


def test_both_pairs_sending_at_once_record_the_result_once(server: ServerProcess) -> None:
    """Two phones posting the same moment: whichever commits last sees both entries."""
    import threading

    tid = _event(server, pairs=6, schedule="mitchell:1")
    links = _links(server, tid)
    barrier = threading.Barrier(2 * len(links))
    answers: list[int] = []

    def send(link: str) -> None:
        with httpx.Client(base_url=server.base, timeout=60) as http:
            barrier.wait(timeout=60)
            answers.append(http.post(link, data={"ns_mp": "1100", "ew_mp": "800"}).status_code)

    threads = [threading.Thread(target=send, args=(link[side],))
               for link in links.values() for side in ("ns", "ew")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(120)
    assert answers == [303] * len(threads)
    results = _state(server, tid)["results"]
    assert sorted(r["table"] for r in results) == [1, 2, 3]
    assert all(r["mp"] == [1100, 800] and r["source"] == "tables" for r in results)
    assert _log(server, tid).count("agree: MP 1100 – 800") == 3, "each agreement logged once"


def test_with_a_director_key_the_phones_and_the_screen_stay_open(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The key locks the links, the clock and the director's page, not the pairs' pages; a
    duplicate round's scores stay off the big screen until every table has finished."""
    monkeypatch.setenv("BURRACO_DIRECTOR_KEY", "s3cret")
    keyed = ServerProcess(f"sqlite:///{tmp_path / 'keyed.db'}", tmp_path / "keyed.log")
    keyed.start()
    try:
        http = keyed.http
        assert http.get("/api/tournaments/x/table-links").status_code == 403
        http.get("/tournaments/login?key=s3cret")
        http.post("/tournaments/", data={"name": "Dup", "schedule": "mitchell:1",
                                         "duplicate": "1"})
        http.post("/tournaments/dup/pairs", data={"pairs": "A\nB\nC\nD"})
        http.post("/tournaments/dup/rounds")
        links = _links(keyed, "dup")
        with httpx.Client(base_url=keyed.base) as player:  # no cookie: a phone at a table
            assert player.get(links[1]["ns"]).status_code == 200
            for side in ("ns", "ew"):
                player.post(links[1][side], data={"ns_mp": "1500", "ew_mp": "300"})
            assert player.get("/api/tournaments/dup/table-links").status_code == 403
            assert player.post("/tournaments/dup/clock", data={"minutes": "30"}).status_code \
                == 403
            data = player.get("/tournaments/dup/screen.json").json()
            assert [tb["finished"] for tb in data["tables"]] == [True, False]
            assert all(s["vp"] == 0 for s in data["standings"]), "held until the round ends"
            screen = player.get("/tournaments/dup/screen?lang=en").text
            assert "id='held'" in screen and "1500" not in screen
            for side in ("ns", "ew"):
                player.post(links[2][side], data={"ns_mp": "900", "ew_mp": "900"})
            data = player.get("/tournaments/dup/screen.json").json()
            assert max(s["vp"] for s in data["standings"]) > 10, "shown once all finished"
        assert http.get("/api/tournaments/dup").json()["results"][0]["source"] == "tables"
    finally:
        keyed.stop()


def test_a_refused_entry_keeps_what_was_typed(server: ServerProcess) -> None:
    tid = _event(server)
    link = _links(server, tid)[1]
    answer = _enter(server, link["ns"], "1234", "900", h1_ns="300", h1_ew="-100", lang="en")
    assert answer.status_code == 422
    form = answer.text
    for name, value in (("ns_mp", "1234"), ("ew_mp", "900"), ("h1_ns", "300"),
                        ("h1_ew", "-100")):
        field = re.search(rf"<input name='{name}'[^>]*>", form)
        assert field and f"value='{value}'" in field.group(0), f"{name} was emptied"
    assert "<details open>" in form, "the smazzate typed are shown"


def test_the_phone_shows_only_the_tables_current_state(server: ServerProcess) -> None:
    tid = _event(server)
    link = _links(server, tid)[1]
    waiting = _enter(server, link["ns"], "1200", "900", lang="it")
    assert "Ricevuto" in _text(waiting, "notice")
    assert str(waiting.url).endswith("sent=waiting&lang=it")
    mine = re.search(r"<p class='meta' id='mine'[^>]*>", waiting.text)
    assert mine and "data-stamp=" in mine.group(0) and "data-poll=" in mine.group(0), \
        "the waiting phone polls for the other pair's entry"
    _enter(server, link["ew"], "1100", "900")
    reloaded = server.http.get(str(waiting.url))
    assert "non coincidono" in _text(reloaded, "disagree")
    assert "id='notice'" not in reloaded.text, "no stale 'received, waiting' above it"
    assert "data-stamp=" not in reloaded.text, "nothing to wait for: no polling"
