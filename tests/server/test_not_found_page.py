"""An unknown address over real HTTP: a browser gets the app's own "not found" page (HTML,
status 404, a way back to the lobby); the API's paths and programs keep the JSON error."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from harness import ServerProcess

from burraco.app.client_files import static_dir

BROWSER = {"accept": "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    folder: Path = tmp_path_factory.mktemp("notfound")
    process = ServerProcess(f"sqlite:///{folder / 'burraco.db'}", folder / "server.log")
    process.start()
    yield process
    process.stop()


@pytest.mark.parametrize("path", ["/nowhere", "/tables/old-link", "/cards/ZZ.svg", "/a/b/c"])
def test_a_browser_gets_the_apps_not_found_page(server: ServerProcess, path: str) -> None:
    response = server.http.get(path, headers=BROWSER)
    assert response.status_code == 404
    assert response.headers["content-type"].startswith("text/html"), response.headers
    text = response.text
    assert '{"detail"' not in text and '"code"' not in text
    if (static_dir() / "index.html").is_file():
        # the client's page: it shows its not-found screen with a link to the lobby
        assert text == (static_dir() / "index.html").read_text()
    else:
        assert 'href="/"' in text and "not found" in text.lower()


@pytest.mark.parametrize("path", ["/api/nothing-here", "/api/tables/nope", "/healthz/x"])
def test_the_api_keeps_its_json_error_even_for_a_browser(server: ServerProcess, path: str) -> None:
    response = server.http.get(path, headers=BROWSER)
    assert response.status_code == 404
    assert response.headers["content-type"].startswith("application/json")
    assert set(response.json()) == {"code", "detail"}


def test_a_program_without_html_in_accept_gets_json(server: ServerProcess) -> None:
    response = server.http.get("/nowhere", headers={"accept": "application/json"})
    assert response.status_code == 404
    assert response.json()["code"] == "not_found"
    posted = server.http.post("/nowhere", headers=BROWSER)
    assert posted.headers["content-type"].startswith("application/json")


def test_the_known_pages_still_answer(server: ServerProcess) -> None:
    for path in ["/", "/play/some-table", "/replay/some-table", "/pad/"]:
        response = server.http.get(path, headers=BROWSER)
        assert response.status_code in (200, 503), (path, response.status_code)
