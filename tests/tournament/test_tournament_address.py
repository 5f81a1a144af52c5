"""The players' links lead where the phones can go: the public URL, when the server has one.

A director who opens the pages at ``http://localhost:PORT`` on the club's computer must still
print table cards whose QR codes a phone opens; without a public URL, the page says why they
would not.
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest

with warnings.catch_warnings():  # starlette's notice about its httpx-based client
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from burraco.app.cli import register
from burraco.tournament.address import PUBLIC_URL_ENV
from burraco.tournament.web import create_app

PUBLIC = "http://192.168.1.20:8000"


def opened_at(tmp_path: Path, address: str) -> Iterator[TestClient]:
    with TestClient(create_app(f"sqlite:///{tmp_path / 'club.db'}"), base_url=address) as c:
        assert c.post("/tournaments/", data={"name": "Club", "schedule": "mitchell:1"},
                      follow_redirects=False).status_code == 303
        c.post("/tournaments/club/pairs", data={"pairs": "A\nB\nC\nD"})
        c.post("/tournaments/club/rounds")
        yield c


@pytest.fixture
def local(tmp_path: Path) -> Iterator[TestClient]:
    """The director's pages opened on the club's computer itself."""
    yield from opened_at(tmp_path, "http://localhost:8123")


def page_links(html: str) -> list[str]:
    found = re.search(r"id='table-links'>(.*?)</ul>", html, re.S)
    assert found, html
    return re.findall(r"href='([^']+)'", found.group(1))


def test_with_a_public_url_every_link_uses_it(local: TestClient,
                                              monkeypatch: pytest.MonkeyPatch,
                                              tmp_path: Path) -> None:
    monkeypatch.setenv(PUBLIC_URL_ENV, PUBLIC + "/")
    prefix = f"{PUBLIC}/tournaments/club/table/"
    rows = local.get("/api/tournaments/club/table-links").json()["tables"]
    links = [row[side] for row in rows for side in ("ns", "ew")]
    assert len(links) == 4 and all(link.startswith(prefix) for link in links), links
    page = local.get("/tournaments/club/")
    assert page_links(page.text) == links
    assert "id='loopback'" not in page.text
    if shutil.which("pdftotext"):  # the text under each QR code is the link it encodes
        (tmp_path / "cards.pdf").write_bytes(local.get("/tournaments/club/pdf/table-cards").content)
        text = subprocess.run(["pdftotext", str(tmp_path / "cards.pdf"), "-"], check=True,
                              capture_output=True, text=True).stdout
        flat = text.replace("\n", "").replace("-", "")
        assert "localhost" not in text
        assert all(link.replace("-", "") in flat for link in links)
    phone = local.get(links[0].removeprefix(PUBLIC))  # the link opens the table's phone page
    assert phone.status_code == 200


def test_a_loopback_page_without_a_public_url_warns(local: TestClient,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(PUBLIC_URL_ENV, raising=False)
    rows = local.get("/api/tournaments/club/table-links").json()["tables"]
    assert rows[0]["ns"].startswith("http://localhost:8123/tournaments/club/table/")
    english = local.get("/tournaments/club/?lang=en").text
    assert "id='loopback'" in english and "no phone can open them" in english
    assert "BURRACO_PUBLIC_URL" in english and "localhost" in english
    italian = local.get("/tournaments/club/?lang=it").text
    assert "id='loopback'" in italian and "nessun telefono li può aprire" in italian
    monkeypatch.setenv(PUBLIC_URL_ENV, PUBLIC)
    assert "id='loopback'" not in local.get("/tournaments/club/").text


@pytest.mark.parametrize(("address", "warned"), [
    ("http://127.0.0.1:8000", True), ("http://[::1]:8000", True),
    ("http://192.168.1.20:8000", False), ("https://club.example.org", False)])
def test_only_a_loopback_address_is_warned_about(tmp_path: Path, address: str, warned: bool,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(PUBLIC_URL_ENV, raising=False)
    for client in opened_at(tmp_path, address):
        assert ("id='loopback'" in client.get("/tournaments/club/").text) is warned


def test_burraco_serve_reads_the_public_url_from_the_environment(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The game server's own invitations and the tournament pages inside it agree."""
    monkeypatch.setenv(PUBLIC_URL_ENV, PUBLIC)
    parser = argparse.ArgumentParser()
    register(parser.add_subparsers())
    assert parser.parse_args(["serve"]).public_url == PUBLIC
    assert parser.parse_args(["serve", "--public-url", "https://x.org"]).public_url == \
        "https://x.org"
