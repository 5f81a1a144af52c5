"""The director pages over HTTP (the standalone app of ``burraco tournament serve``)."""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest

with warnings.catch_warnings():  # starlette's notice about its httpx-based client
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from burraco.tournament.access import KEY_ENV
from burraco.tournament.model import Settings
from burraco.tournament.service import Director
from burraco.tournament.web import create_app


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(f"sqlite:///{tmp_path / 'web.db'}")) as c:
        yield c


def _event(client: TestClient) -> str:
    answer = client.post("/tournaments/", data={"name": "Club", "schedule": "mitchell:1"},
                         follow_redirects=False)
    assert answer.status_code == 303
    client.post("/tournaments/club/pairs", data={"pairs": "A\nB\nC\nD"})
    client.post("/tournaments/club/rounds")
    return "/tournaments/club"


def test_create_form_errors_are_shown_and_create_nothing(client: TestClient) -> None:
    answer = client.post("/tournaments/", data={"name": "X", "schedule": "mitchell:3,swiss:1"})
    assert answer.status_code == 422
    assert "unknown movement &#x27;swiss&#x27;" in answer.text
    answer = client.post("/tournaments/", data={"name": "X", "hands": "5"})
    assert answer.status_code == 422 and "no official VP table" in answer.text
    assert "No tournament yet" in client.get("/tournaments/").text


def test_results_exports_and_not_found(client: TestClient) -> None:
    base = _event(client)
    answer = client.post(f"{base}/results", data={"round": "1", "table": "1", "ns_mp": "12OO",
                                                  "ew_mp": "900"})
    assert answer.status_code == 422 and "must be a whole number, not &#x27;12OO&#x27;" in \
        answer.text
    answer = client.post(f"{base}/results", data={"round": "1", "table": "1", "ns_mp": "1200",
                                                  "ew_mp": "900"})
    assert answer.status_code == 200 and "VP 13–7" in answer.text
    assert client.get(f"{base}/standings.csv").text.splitlines()[1].startswith("1,1,A,")
    assert "round,movement,table" in client.get(f"{base}/results.csv").text
    assert "<h2>Standings</h2>" in client.get(f"{base}/print").text
    assert client.get(f"{base}/standings?refresh=30").text.count("http-equiv='refresh'") == 1
    assert client.get("/tournaments/nope/").status_code == 404
    assert client.get("/api/tournaments/nope").json()["code"] == "not_found"
    page = client.post(f"{base}/online", data={})
    assert page.status_code == 422 and "online play needs the game server" in page.text


def test_director_key_locks_changes(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    base = _event(client)
    monkeypatch.setenv(KEY_ENV, "s3cret")
    form = {"round": "1", "table": "1", "ns_mp": "1200", "ew_mp": "900"}
    locked = client.post(f"{base}/results", data=form)
    assert locked.status_code == 403 and "director pages are locked" in locked.text
    assert "seat" not in locked.text, "a refusal shows no director's page"
    page = client.get(f"{base}/")
    assert page.status_code == 403 and "page is locked" in page.text
    assert client.get(f"{base}/standings").status_code == 200, "the players' page stays open"
    client.get("/tournaments/login?key=s3cret")
    assert client.get(f"{base}/").status_code == 200
    assert client.post(f"{base}/results", data=form).status_code == 200


def test_a_duplicate_rounds_results_wait_for_every_table(client: TestClient,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """Same cards at every table: one table's score says something about the others' cards."""
    client.post("/tournaments/", data={"name": "Dup", "schedule": "mitchell:2",
                                       "duplicate": "1"})
    client.post("/tournaments/dup/pairs", data={"pairs": "A\nB\nC\nD"})
    client.post("/tournaments/dup/rounds")
    client.post("/tournaments/dup/results", data={"round": "1", "table": "1",
                                                  "ns_mp": "1200", "ew_mp": "900"})
    monkeypatch.setenv(KEY_ENV, "s3cret")
    players = client.get("/tournaments/dup/standings").text
    assert "1200" not in players and "shown once every table has finished" in players
    assert client.get("/api/tournaments/dup").json()["results"] == []
    assert "1200" not in client.get("/tournaments/dup/results.csv").text
    client.get("/tournaments/login?key=s3cret")
    assert len(client.get("/api/tournaments/dup").json()["results"]) == 1, "the director sees all"
    client.post("/tournaments/dup/results", data={"round": "1", "table": "2", "ns_mp": "500",
                                                  "ew_mp": "500"})
    client.cookies.clear()
    assert "1200" in client.get("/tournaments/dup/standings").text


def test_an_accented_name_gives_an_id_without_accents(client: TestClient,
                                                     tmp_path: Path) -> None:
    """ì → i, è → e, à → a …: 'giovedì' is not cut to 'gioved' in every URL and file name."""
    answer = client.post("/tournaments/", data={"name": "Torneo del giovedì",
                                                "schedule": "mitchell:1"},
                         follow_redirects=False)
    assert answer.headers["location"] == "/tournaments/torneo-del-giovedi/?ok=created"
    answer = client.post("/tournaments/", data={"name": "Città di Forlì, più è meglio"},
                         follow_redirects=False)
    assert answer.headers["location"].startswith("/tournaments/citta-di-forli-piu-e-meglio/")
    client.post("/tournaments/torneo-del-giovedi/pairs", data={"pairs": "A\nB\nC\nD"})
    client.post("/tournaments/torneo-del-giovedi/rounds")
    pdf = client.get("/tournaments/torneo-del-giovedi/pdf/round?lang=it")
    assert "filename=torneo-del-giovedi-round-it.pdf" in pdf.headers["content-disposition"]


def test_an_existing_id_stays_as_it_is(tmp_path: Path) -> None:
    """A tournament stored as 'gioved' (before accents were spelt out) keeps its id."""
    director = Director.open(f"sqlite:///{tmp_path / 'old.db'}")
    try:
        old = director.create(Settings("Torneo del giovedì"), "torneo-del-gioved")
        assert director.load(old).settings.name == "Torneo del giovedì"
        assert director.create(Settings("Torneo del giovedì")) == "torneo-del-giovedi"
        assert sorted(s.id for s in director.summaries()) == ["torneo-del-gioved",
                                                               "torneo-del-giovedi"]
    finally:
        director.close()


def test_the_players_page_says_it_in_words(client: TestClient) -> None:
    """No references into RULES.md nor tie-break codes; a negative score reads as one."""
    base = _event(client)
    client.post(f"{base}/results", data={"round": "1", "table": "1", "ns_mp": "1650",
                                         "ew_mp": "-150"})
    for lang, ties in (("en", "MP difference, head-to-head, draw"),
                       ("it", "scarto, scontro diretto, sorteggio")):
        page = client.get(f"{base}/standings?lang={lang}").text
        assert "RULES.md" not in page and "mp_diff" not in page and "h2h" not in page
        assert ties in page, lang
        assert "1650 – −150" in page and "1650 – -150" not in page


def test_a_huge_entry_is_not_echoed_whole(client: TestClient) -> None:
    base = _event(client)
    huge = "9" * 5000
    answer = client.post(f"{base}/results", data={"round": "1", "table": "1", "ns_mp": huge,
                                                  "ew_mp": "900"})
    assert answer.status_code == 422
    assert "9" * 40 not in answer.text and "(5000 characters)" in answer.text
    link = client.get("/api/tournaments/club/table-links").json()["tables"][0]["ns"]
    phone = client.post(link[link.index("/tournaments/"):], data={"ns_mp": huge,
                                                                 "ew_mp": "900"})
    assert phone.status_code == 422
    assert "9" * 40 not in phone.text and "(5000 characters)" in phone.text
    big = "9" * 4000 + "5"
    answer = client.post(f"{base}/results", data={"round": "1", "table": "1", "ns_mp": big,
                                                  "ew_mp": "900"})
    assert answer.status_code == 422 and "9" * 40 not in answer.text


def test_director_logins_are_rate_limited(client: TestClient,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    from burraco.tournament.web import LOGIN_LIMIT

    monkeypatch.setenv(KEY_ENV, "s3cret")
    for _ in range(LOGIN_LIMIT[0]):
        wrong = client.get("/tournaments/login?key=guess", follow_redirects=False)
        assert wrong.status_code == 403 and "wrong director key" in wrong.text
    locked = client.get("/tournaments/login?key=guess", follow_redirects=False)
    assert locked.status_code == 429 and int(locked.headers["retry-after"]) > 0
    assert "too many wrong director keys" in locked.text
    right = client.get("/tournaments/login?key=s3cret", follow_redirects=False)
    assert right.status_code == 429, "past the limit even the right key waits"
