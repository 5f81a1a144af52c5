"""Refused requests change nothing; and the endpoints the schema's fuzzing reaches only
trivially (an account's, the score pad's, a table's and its analyses', a tournament's and its
phone links) fuzzed against real targets.

A real ``burraco serve`` with a director's key holds one of each thing a request may aim at:
an account with two sessions and a score-pad sheet, a second account, a guest, a private and
a public table waiting for their players, a public table of bots that is over, a club
tournament with its round started (and its phone links), and a second tournament.
Hypothesis sends requests at them: the right target with the wrong credentials (none,
forged, garbage, another account's session, a guest's token, a seat's or a watch token as a
bearer; a wrong director's key as the cookie, the key as the header), near-valid bodies,
forms and signed links, and garbage.

Every answer is checked: no 5xx; an ``/api/`` error is ``{code, detail}``; the answer of an
operation of the OpenAPI schema has a status, content type and shape the schema declares.
Then what the API shows of the request's target (GET answers: the account, its two sessions,
its sheets; the tables, their hands, invitations and analyses; the tournament, its evening,
links, members, big screen and phone pages) is taken again.  After a refused request (4xx, a
redirect that did nothing, a director's form sent back with an error), after any GET, and
after a request that must leave this target alone (another account's, a seat token handed
out), it must be exactly what it was; after an accepted request it is the new reference.
The server's body limit is above the routes' own (64 KiB forms, 32 KiB sheets), so those
are reached too.

``FUZZ_EXAMPLES`` scales the examples as in ``test_api_fuzz.py``; the figures of a run
(requests, refused, reads or no-ops, accepted, and statuses per group) are printed with ``-s``.
"""

from __future__ import annotations

import collections
import copy
import json
import os
import re
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote

import httpx
import pytest
import schemathesis
from harness import ServerProcess
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "40"))
CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance,
          response_schema_conformance]
KEY_ENV = "BURRACO_DIRECTOR_KEY"
KEY = "club-director-key"
PASSWORD = "correct horse battery"


def fuzzing(examples: int) -> settings:
    return settings(max_examples=examples, deadline=None, derandomize=True, database=None,
                    suppress_health_check=list(HealthCheck))


figures: dict[str, collections.Counter[str]] = collections.defaultdict(collections.Counter)
answers: dict[str, collections.Counter[int]] = collections.defaultdict(collections.Counter)


# --- the world the requests aim at --------------------------------------------------------------

@dataclass(repr=False)
class World:
    server: ServerProcess
    http: httpx.Client
    schema: Any
    operations: set[tuple[str, str]]
    guest: str
    username: str
    token: str
    """The account's session the requests use."""
    token2: str
    """Its other session: a password change would end it."""
    other_name: str
    other: str
    sheet: dict[str, Any]
    private: dict[str, Any]
    """A private table of the account's, waiting for its two players."""
    open: dict[str, Any]
    """A public table of the guest's, waiting for its two players."""
    bots: dict[str, Any]
    """A public table of two bots, over."""
    tid: str
    other_tid: str
    links: list[str] = field(default_factory=list)
    """The phone links' tokens of the tournament's current round (taken again as it moves)."""
    other_links: list[str] = field(default_factory=list)
    baseline: dict[str, Any] = field(default_factory=dict)


def flip(text: str, at: int = -1) -> str:
    """``text`` with one character changed (a forged signature or secret)."""
    if not text:
        return "A"
    index = at % len(text)
    return text[:index] + ("A" if text[index] != "A" else "B") + text[index + 1:]


def key_cookie(key: str) -> dict[str, bytes]:
    return {"cookie": f"burraco_director={quote(key, safe='')}".encode()}


def phone_tokens(http: httpx.Client, tid: str) -> list[str]:
    found = http.get(f"/api/tournaments/{tid}/table-links", headers=key_cookie(KEY))
    if found.status_code != 200:  # the tournament is over: no round, no links
        return []
    return [str(row[side]).rsplit("/", 1)[1] for row in found.json()["tables"]
            for side in ("ns", "ew")]


def new_tournament(http: httpx.Client, name: str) -> str:
    created = http.post("/tournaments/", headers=key_cookie(KEY), data={
        "name": name, "schedule": "mitchell:2", "duplicate": "1"})
    assert created.status_code == 303, created.text
    tid = created.headers["location"].strip("/").split("/")[1].split("?")[0]
    for step, form in (("pairs", {"pairs": "Rossi\nBianchi\nVerdi\nNeri"}), ("rounds", {})):
        answer = http.post(f"/tournaments/{tid}/{step}", headers=key_cookie(KEY), data=form)
        assert answer.status_code == 303 and "error=" not in answer.headers["location"], step
    return tid


def finished_bots_table(server: ServerProcess, http: httpx.Client, guest: str) -> dict[str, Any]:
    table = server.create_table(guest, players=2, mode="smazzate", smazzate=1, bot_delay=0,
                                seats=[{"kind": "bot", "level": "basic"},
                                       {"kind": "bot", "level": "basic"}])
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if http.get(f"/api/tables/{table['table_id']}").json().get("status") == "finished":
            return table
        time.sleep(0.2)
    raise AssertionError("the bots did not finish their hand")


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> Iterator[World]:
    folder: Path = tmp_path_factory.mktemp("stateful")
    server = ServerProcess(f"sqlite:///{folder / 'burraco.db'}", folder / "server.log", extra=[
        "--table-rate", "none", "--guest-rate", "none", "--waiting-tables-per-guest", "0",
        "--analysis-level", "basic", "--analysis-samples", "2", "--max-body-bytes", "131072"])
    previous = os.environ.get(KEY_ENV)
    os.environ[KEY_ENV] = KEY  # the server process takes it with its environment
    try:
        server.start()
    finally:
        if previous is None:
            del os.environ[KEY_ENV]
        else:
            os.environ[KEY_ENV] = previous
    http = httpx.Client(base_url=server.base, timeout=30)
    try:
        yield build_world(server, http)
    finally:
        http.close()
        server.stop()
        print_figures()
    assert "Traceback" not in server.log_path.read_text(errors="replace"), (
        f"the server logged a failure:\n{server.log()}")


def build_world(server: ServerProcess, http: httpx.Client) -> World:
    spec = http.get("/openapi.json").json()
    guest = server.guest("Fuzz")

    def account(username: str) -> str:
        made = http.post("/api/accounts", json={"username": username, "password": PASSWORD})
        assert made.status_code == 201, made.text
        return str(made.json()["token"])

    token, other = account("fuzzed"), account("intruder")
    login = http.post("/api/sessions", json={"username": "fuzzed", "password": PASSWORD})
    assert login.status_code == 200, login.text
    sheet = {"version": 1, "id": "sheet-1", "names": ["Ada", "Bob"], "hands": [{"ns": 120}],
             "created": "2026-01-02T10:00:00Z", "preset": "fibur", "mode": "free"}
    kept = {"id": "sheet-1", "updated": int(time.time() * 1000) - 60_000, "sheet": sheet}
    put = http.put("/api/me/scorepad/sheet-1", json={"updated": kept["updated"], "sheet": sheet},
                   headers={"authorization": f"Bearer {token}"})
    assert put.status_code == 201, put.text
    private = server.create_table(token, players=2, public=False)
    waiting = server.create_table(guest, players=2, public=True)
    bots = finished_bots_table(server, http, guest)
    tid, other_tid = new_tournament(http, "Club"), new_tournament(http, "Other")
    http.cookies.clear()
    w = World(server=server, http=http, schema=schemathesis.openapi.from_dict(spec),
              operations={(m.upper(), p) for p, ops in spec["paths"].items() for m in ops},
              guest=guest, username="fuzzed", token=token, token2=str(login.json()["token"]),
              other_name="intruder", other=other, sheet=kept, private=private, open=waiting,
              bots=bots,
              tid=tid, other_tid=other_tid, links=phone_tokens(http, tid),
              other_links=phone_tokens(http, other_tid))
    assert len(w.links) == 4, w.links
    for target in SNAPSHOTS:  # what is compared is stable when nothing happens
        w.baseline[target] = snapshot(w, target)
        assert snapshot(w, target) == w.baseline[target], target
    return w


def print_figures() -> None:
    total = sum(c["requests"] for c in figures.values())
    groups = "; ".join(
        f"{group} {c['requests']} ({c['refused']} refused, {c['unchanging']} reads or "
        f"no-ops, {c['accepted']} accepted) {dict(sorted(answers[group].items()))}"
        for group, c in sorted(figures.items()))
    print(f"\nStateful fuzzing: {total} requests, each followed by a look at its target: "
          f"{groups}")


# --- what the API shows of each target ----------------------------------------------------------

def look(w: World, path: str, *, params: dict[str, Any] | None = None,
         headers: dict[str, Any] | None = None) -> tuple[int, Any]:
    try:
        answer = w.http.get(path, params=params, headers=headers)
    except httpx.TransportError:  # the server closed the kept-alive connection (after a 500)
        answer = w.http.get(path, params=params, headers=headers)
    w.http.cookies.clear()
    if "json" in answer.headers.get("content-type", ""):
        return answer.status_code, answer.json()
    return answer.status_code, answer.text


def bearer(token: str) -> dict[str, str]:
    return {"authorization": f"Bearer {token}"}


def account_view(w: World) -> dict[str, Any]:
    return {"me": look(w, "/api/me", headers=bearer(w.token)),
            "other session": look(w, "/api/me", headers=bearer(w.token2)),
            "other account": look(w, "/api/me", headers=bearer(w.other)),
            "profile": look(w, f"/api/players/{w.username}"),
            "sheets": look(w, "/api/me/scorepad", headers=bearer(w.token))}


def pad_view(w: World) -> dict[str, Any]:
    return {"sheets": look(w, "/api/me/scorepad", headers=bearer(w.token)),
            "me": look(w, "/api/me", headers=bearer(w.token))}


def job_state(status: int, body: Any) -> Any:
    """An analysis as far as requests decide it (its progress moves by itself)."""
    if status in (200, 202) and isinstance(body, dict) and "status" in body:
        return "job"
    return status, body


def table_view(w: World) -> dict[str, Any]:
    out: dict[str, Any] = {"list": look(w, "/api/tables")}
    for name, table in (("private", w.private), ("open", w.open), ("bots", w.bots)):
        table_id, watch = table["table_id"], {"token": table["watch_token"]}
        out[name] = look(w, f"/api/tables/{table_id}", params=watch)
        out[f"{name} hands"] = look(w, f"/api/tables/{table_id}/hands", params=watch)
        for seat in table["seats"]:
            if seat.get("token"):
                out[f"{name} invite {seat['seat']}"] = look(
                    w, f"/api/tables/{table_id}/invite", params={"token": seat["token"]})
    for seat in (0, 1):
        out[f"analysis {seat}"] = job_state(*look(
            w, f"/api/web/tables/{w.bots['table_id']}/hands/1/analysis", params={"seat": seat}))
    return out


CLOCK = re.compile(r"<section class='clock.*?</section>", re.S)


def tournament_view(w: World) -> dict[str, Any]:
    key = {"x-director-key": KEY}
    status, screen = look(w, f"/tournaments/{w.tid}/screen.json")
    if isinstance(screen, dict):
        screen = {k: v for k, v in screen.items() if k != "clock"}  # counts down by itself
    out: dict[str, Any] = {
        "director's": look(w, f"/api/tournaments/{w.tid}", headers=key),
        "evening": look(w, f"/api/tournaments/{w.tid}/evening", headers=key),
        "links": look(w, f"/api/tournaments/{w.tid}/table-links", headers=key_cookie(KEY)),
        "members": look(w, "/api/tournaments/members"),
        "screen": (status, screen),
        "other": look(w, f"/api/tournaments/{w.other_tid}", headers=key)}
    for index, token in enumerate(w.links[:2]):  # table 1's two phones: entries show there
        status, page = look(w, f"/tournaments/{w.tid}/table/{token}", params={"lang": "en"})
        out[f"phone {index}"] = (status, CLOCK.sub("", str(page)))
    return out


SNAPSHOTS: dict[str, Callable[[World], dict[str, Any]]] = {
    "account": account_view, "pad": pad_view, "tables": table_view,
    "tournament": tournament_view}


def snapshot(w: World, target: str) -> dict[str, Any]:
    return SNAPSHOTS[target](w)


# --- one request, checked -----------------------------------------------------------------------

NOT_SET: Any = object()


@dataclass
class Call:
    group: str
    """For the figures: accounts, pad, tables, analysis, tournament, phone links."""
    target: str
    """Whose snapshot it may change: a key of :data:`SNAPSHOTS`."""
    method: str
    template: str
    """The route, as the app declares it."""
    path_params: dict[str, Any] = field(default_factory=dict)
    params: dict[str, Any] | None = None
    json: Any = NOT_SET
    content: bytes | None = None
    data: dict[str, str] | None = None
    headers: dict[str, bytes] = field(default_factory=dict)
    who: str = "nobody"
    keep: bool = False
    """It must change nothing even when it is accepted (a read, another's request)."""

    @property
    def path(self) -> str:
        path = self.template
        for name, value in self.path_params.items():
            path = path.replace("{" + name + "}", quote(str(value), safe=""))
        return path

    def __repr__(self) -> str:
        body = (self.json if self.json is not NOT_SET else self.data if self.data is not None
                else self.content)
        shown = str(body)
        if len(shown) > 400:
            shown = f"{shown[:200]}... ({len(shown)} characters)"
        return (f"{self.method} {self.path} params={self.params!r} body={shown!r} "
                f"as {self.who} ({list(self.headers)})")


def documented(w: World, call: Call, answer: httpx.Response) -> None:
    """The answer is one the OpenAPI schema declares for the operation (Schemathesis's checks)."""
    operation = w.schema[call.template][call.method]
    case = operation.Case(path_parameters={k: str(v) for k, v in call.path_params.items()},
                          query=call.params or None)
    case.validate_response(answer, checks=CHECKS)


def accepted(answer: httpx.Response) -> bool:
    """2xx, or a director's form that redirects with ``ok`` (a form sent back with ``error``,
    a redirect to a slash, are refusals)."""
    if answer.status_code == 303:
        return "error=" not in answer.headers.get("location", "")
    return 200 <= answer.status_code < 300


def differences(before: dict[str, Any], after: dict[str, Any]) -> str:
    keys = sorted(k for k in set(before) | set(after) if before.get(k) != after.get(k))
    return "\n".join(f"  {k}: {str(before.get(k))[:600]}\n   -> {str(after.get(k))[:600]}"
                     for k in keys)


def send(w: World, call: Call) -> httpx.Response:
    kwargs: dict[str, Any] = {"params": call.params, "headers": call.headers,
                              "follow_redirects": False}
    if call.json is not NOT_SET:
        kwargs["json"] = call.json
    elif call.content is not None:
        kwargs["content"] = call.content
    elif call.data is not None:
        kwargs["data"] = call.data
    answer = w.http.request(call.method, call.path, **kwargs)
    w.http.cookies.clear()
    figures[call.group]["requests"] += 1
    answers[call.group][answer.status_code] += 1
    # what the target looks like now becomes the reference whatever happens below, so that a
    # failure does not make every later example fail (and Hypothesis shrink to a wrong one)
    before, now = w.baseline[call.target], snapshot(w, call.target)
    w.baseline[call.target] = now
    if call.target == "tournament" and now != before:
        w.links = phone_tokens(w.http, w.tid) or w.links
        w.baseline[call.target] = snapshot(w, call.target)
    said = f"{call!r}\n-> {answer.status_code} {answer.text[:400]}"
    assert answer.status_code < 500, said
    if call.path.startswith("/api/") and answer.status_code >= 400:
        body = answer.json()
        assert isinstance(body.get("code"), str) and isinstance(body.get("detail"), str), said
    if (call.method, call.template) in w.operations:
        documented(w, call, answer)
    if call.keep or call.method == "GET" or not accepted(answer):
        kind = "refused" if not accepted(answer) else "unchanging"
        assert now == before, (f"{'a refused' if kind == 'refused' else 'this'} request "
                               f"changed the {call.target}: {said}\n{differences(before, now)}")
        figures[call.group][kind] += 1
    else:
        figures[call.group]["accepted"] += 1
    return answer


def refresh(w: World) -> None:
    """Every target's reference taken again (at the start of each test)."""
    w.links = phone_tokens(w.http, w.tid) or w.links
    for target in SNAPSHOTS:
        w.baseline[target] = snapshot(w, target)


# --- credentials --------------------------------------------------------------------------------

TEXT = st.text(st.characters(codec="utf-8", exclude_categories=("Cc", "Cs")), max_size=40)
SEGMENT = TEXT.filter(lambda t: t and "/" not in t and t not in (".", "..") and t.strip() == t)
"""A path segment of any text (a ``/`` would name another route)."""


def weighted(*choices: tuple[int, st.SearchStrategy[Any]]) -> st.SearchStrategy[Any]:
    """One of the strategies, each as often as its weight says."""
    picks = [strategy for weight, strategy in choices for _ in range(weight)]
    return st.integers(0, len(picks) - 1).flatmap(lambda index: picks[index])


def one(*values: Any) -> st.SearchStrategy[Any]:
    return st.sampled_from(values)


def as_account(who: str) -> bool:
    """Whether credentials named ``who`` are the account's own session (as a bearer or a
    cookie: the server reads either)."""
    return who == "account" or (who.startswith("account (") and "Basic" not in who)


def header_value(text: str) -> bytes:
    return text.strip().encode()


def tokens_of(w: World, *, live: bool = True) -> dict[str, str]:
    """Tokens by what they are; ``live=False`` leaves out the sessions a request would end."""
    prefix, session_id, secret = w.token.split(".")
    out = {"guest": w.guest, "forged session": flip(w.token),
           "session without secret": f"{prefix}.{session_id}.",
           "unknown session": f"{prefix}.AAAAAAAAAAAA.{secret}", "forged guest": flip(w.guest),
           "guest token as a seat's": "s" + w.guest[1:],
           "seat token": w.private["seats"][0]["token"],
           "watch token": w.private["watch_token"], "huge": "a." + "A" * 400,
           "another table's watch token": w.bots["watch_token"]}
    if live:
        out.update({"account": w.token, "other account": w.other})
    return out


def credentials(w: World, *, live: bool = True,
                owner: int = 0) -> st.SearchStrategy[tuple[str, dict[str, bytes]]]:
    """``(who, headers)``: no token, a known one or garbage, as a bearer or a cookie; the
    account's own session as a bearer ``owner`` times in ten."""
    known = st.sampled_from(sorted(tokens_of(w, live=live).items()))
    token = weighted((3, known), (1, TEXT.map(lambda text: ("garbage", text))))
    how = one("Bearer", "Bearer", "bearer", "Basic", "session cookie", "guest cookie")

    def headers(named: tuple[str, str], way: str) -> tuple[str, dict[str, bytes]]:
        who, value = named
        if way.endswith("cookie"):
            name = "burraco_session" if way.startswith("session") else "burraco_guest"
            return f"{who} ({way})", {"cookie": header_value(f"{name}={value}")}
        return f"{who} ({way})", {"authorization": header_value(f"{way} {value}")}

    anyone = weighted((1, st.just(("nobody", {}))), (5, st.builds(headers, token, how)))
    mine = st.just(("account", {"authorization": f"Bearer {w.token}".encode()}))
    return weighted((owner, mine), (10 - owner, anyone)) if owner else anyone


def near(text: str) -> list[str]:
    """Near-misses of a secret: one letter off, cut, longer, cased, spaced."""
    return [flip(text), flip(text, 0), text[:-1], text + "x", text.upper(), f" {text}",
            f"{text} ", text * 2, text.replace(" ", "")]


GARBAGE_BODIES = [b"", b"{", b"[]", b"null", b"\xff\xfe", b"[" * 5000 + b"]" * 5000,
                  b'{"username": ' + b"1" * 5000 + b"}", b"x" * 100_000,
                  json.dumps({"username": "x" * 70_000, "password": "y"}).encode()]


# --- accounts and sessions ----------------------------------------------------------------------

def account_calls(w: World) -> st.SearchStrategy[Call]:
    names = weighted((3, one(w.username, w.username.upper(), w.other_name, "ab", "x" * 21,
                             "fuzzed ", "fuzzed\u0000")), (1, TEXT))
    wrong = weighted((3, one(*near(PASSWORD))), (1, TEXT))
    extra = one({}, {}, {}, {"admin": True}, {"player_id": "x"})

    def body(template: str, who: tuple[str, dict[str, bytes]], payload: Any) -> Call:
        return Call("accounts", "account", "POST", template, json=payload, who=who[0],
                    headers=who[1])

    fresh = st.from_regex(r"[a-z][a-z0-9_-]{2,12}", fullmatch=True)
    register = st.builds(lambda who, u, p, x: body("/api/accounts", who,
                                                   {"username": u, "password": p, **x}),
                         credentials(w), weighted((1, names), (1, fresh)),
                         weighted((3, st.just(PASSWORD)), (1, one("short", "")), (1, TEXT)),
                         extra)
    login = st.builds(lambda who, u, p, x: body("/api/sessions", who,
                                                {"username": u, "password": p, **x}),
                      credentials(w), names, wrong, extra)
    change = st.builds(
        lambda who, c, n, x: body("/api/me/password", who,
                                  {"current_password": c, "new_password": n, **x}),
        credentials(w, owner=6), wrong,
        weighted((3, one("another fine password", "short", "")), (1, TEXT)), extra)
    logout = st.builds(lambda who: Call("accounts", "account", "DELETE", "/api/sessions",
                                        who=who[0], headers=who[1], keep=True),
                       credentials(w, live=False))
    daily = st.builds(lambda who, form: Call("accounts", "account", "POST",
                                             "/api/daily/{players_}", {"players_": form},
                                             who=who[0], headers=who[1]),
                      credentials(w, live=False), one("2", "4", "3", "x"))
    raw = st.builds(lambda who, template, content: Call(
        "accounts", "account", "POST", template, content=content, who=who[0],
        headers={**who[1], "content-type": b"application/json"}),
        credentials(w, owner=3), one("/api/accounts", "/api/sessions", "/api/me/password"),
        one(*GARBAGE_BODIES))
    reads = st.builds(lambda who, template, name: Call(
        "accounts", "account", "GET", template,
        {"username": name} if "{username}" in template else {}, who=who[0], headers=who[1]),
        credentials(w), one("/api/me", "/api/players/{username}"),
        weighted((3, one(w.username, w.username.upper(), "nobody")), (1, SEGMENT)))
    return weighted((2, register), (3, login), (3, change), (1, logout), (1, daily), (1, raw),
                    (1, reads))


def test_refused_account_requests_change_nothing(world: World) -> None:
    refresh(world)

    @given(call=account_calls(world))
    @fuzzing(EXAMPLES * 3)
    def fuzz(call: Call) -> None:
        send(world, call)

    fuzz()
    # the password is still the one registered: a login from an address that has not failed
    # (the fuzzing's wrong passwords locked 127.0.0.1 out, as they should)
    with httpx.Client(base_url=world.server.base, timeout=30, transport=httpx.HTTPTransport(
            local_address="127.0.0.2")) as elsewhere:
        login = elsewhere.post("/api/sessions", json={"username": world.username,
                                                      "password": PASSWORD})
    assert login.status_code == 200, login.text


# --- the score pad ------------------------------------------------------------------------------

def sheet_mutations(sheet: dict[str, Any]) -> list[Any]:
    """Near-valid sheets: one thing wrong each."""
    def changed(**fields: Any) -> dict[str, Any]:
        out = copy.deepcopy(sheet)
        for name, value in fields.items():
            if value is NOT_SET:
                out.pop(name, None)
            else:
                out[name] = value
        return out

    out: list[Any] = [changed(**{name: NOT_SET}) for name in sheet]
    out += [changed(version=2), changed(version="1"), changed(version=True), changed(id="other"),
            changed(id=""), changed(names=[]), changed(names=["Ada"]),
            changed(names=["A"] * 7), changed(names=["", "Bob"]), changed(names=["x" * 41, "B"]),
            changed(names=[1, 2]), changed(names="AdaBob"), changed(hands={}),
            changed(hands=[1]), changed(hands=[{}] * 301), changed(hands=None),
            changed(created=1), changed(preset=[]), changed(mode=None),
            changed(notes="x" * 33_000), changed(hands=[{"ns": "é" * 11_000}]), [], "sheet",
            None, 1]
    return out


def pad_calls(w: World) -> st.SearchStrategy[Call]:
    stamp = w.sheet["updated"]
    ids = weighted((4, st.just(w.sheet["id"])), (1, st.just("sheet-2")),
                   (2, one("a" * 33, "bad id", "ü", "sheet-1\u0000", "-", "_", "SHEET-1")),
                   (1, SEGMENT))
    now = int(time.time() * 1000)
    updated = weighted((3, one(stamp, stamp + 1, now, stamp + 1000)),
                       (3, one(stamp - 1, 0, -1, now + 3 * 86_400_000, 2 ** 63, "1", 1.5, True,
                               None)))
    right = w.sheet["sheet"]
    sheets = weighted((2, one(right, {**right, "notes": "ok"}, {**right, "hands": []})),
                      (3, one(*sheet_mutations(right))))

    def put(who: tuple[str, dict[str, bytes]], sheet_id: str, when: Any, sheet: Any,
            shape: str) -> Call:
        payload: Any = {"updated": when, "sheet": sheet}
        if isinstance(sheet, dict) and sheet.get("id") == w.sheet["id"]:
            payload["sheet"] = {**sheet, "id": sheet_id}  # the id of the address
        if shape == "extra":
            payload["x"] = 1
        elif shape == "missing":
            payload.pop("updated")
        elif shape == "list":
            payload = [payload]
        return Call("pad", "pad", "PUT", "/api/me/scorepad/{sheet_id}", {"sheet_id": sheet_id},
                    json=payload, who=who[0], headers=who[1], keep=not as_account(who[0]))

    puts = st.builds(put, credentials(w, owner=7), ids, updated, sheets,
                     one(*["right"] * 8, "extra", "missing", "list"))
    deletes = st.builds(  # never the account's own sheet by the account: it stays the target
        lambda who, sheet_id: Call("pad", "pad", "DELETE", "/api/me/scorepad/{sheet_id}",
                                   {"sheet_id": sheet_id}, who=who[0], headers=who[1],
                                   keep=not as_account(who[0])),
        credentials(w, owner=3), ids).filter(
        lambda c: not (as_account(c.who) and c.path_params["sheet_id"] == w.sheet["id"]))
    lists = st.builds(lambda who: Call("pad", "pad", "GET", "/api/me/scorepad", who=who[0],
                                       headers=who[1]), credentials(w))
    raw = st.builds(lambda who, content: Call(
        "pad", "pad", "PUT", "/api/me/scorepad/{sheet_id}", {"sheet_id": w.sheet["id"]},
        content=content, who=who[0], headers={**who[1], "content-type": b"application/json"}),
        credentials(w, owner=8), one(*GARBAGE_BODIES))
    return weighted((6, puts), (2, deletes), (1, lists), (1, raw))


def test_refused_score_pad_requests_change_nothing(world: World) -> None:
    refresh(world)

    @given(call=pad_calls(world))
    @fuzzing(EXAMPLES * 3)
    def fuzz(call: Call) -> None:
        send(world, call)

    fuzz()


# --- tables and their analyses ------------------------------------------------------------------

def table_tokens(w: World) -> st.SearchStrategy[str | None]:
    table_id = w.private["table_id"]
    watch, seat = w.private["watch_token"], w.private["seats"][0]["token"]
    _, _, number, signature = seat.split(".")
    right = one(watch, seat, w.private["seats"][1]["token"], w.bots["watch_token"],
                w.open["seats"][1]["token"])
    forged = one(flip(watch), flip(seat), f"s.{table_id}.1.{signature}",
                 f"s.{table_id}.{number}.", f"w.{table_id}.{signature}",
                 "w." + w.bots["table_id"] + watch[len(table_id) + 2:], w.guest, w.token, "",
                 "x" * 600)
    return weighted((3, right), (3, forged), (1, TEXT), (1, st.none()))


def table_ids(w: World) -> st.SearchStrategy[str]:
    private, bots = w.private["table_id"], w.bots["table_id"]
    return weighted((4, one(private, bots, w.open["table_id"])),
                    (2, one(private.swapcase(), private + "x", "x" * 33, private[:-1])),
                    (1, SEGMENT))


NUMBERS = weighted((4, st.just(1)), (2, one(0, 2, -1, 2 ** 31, 2 ** 70, "x", "1.0", " 1")))
SEATS = weighted((4, one(0, 1)), (2, one(2, 3, -1, 99, 2 ** 40, "x", None)))


def query(**values: Any) -> dict[str, Any]:
    return {k: v for k, v in values.items() if v is not None}


def table_calls(w: World) -> st.SearchStrategy[Call]:
    ids, tokens = table_ids(w), table_tokens(w)
    reads = st.builds(lambda template, table_id, token: Call(
        "tables", "tables", "GET", template, {"table_id": table_id}, query(token=token)),
        one("/api/tables/{table_id}", "/api/tables/{table_id}/hands",
            "/api/tables/{table_id}/invite"), ids, tokens)
    replay = st.builds(lambda table_id, number, token: Call(
        "tables", "tables", "GET", "/api/web/tables/{table_id}/hands/{number}/replay",
        {"table_id": table_id, "number": number}, query(token=token)), ids, NUMBERS, tokens)
    seat_token = st.builds(lambda who, table_id, seat: Call(  # a token: the seat is not taken
        "tables", "tables", "POST", "/api/web/tables/{table_id}/seats/{seat}",
        {"table_id": table_id, "seat": seat if seat is not None else 0}, who=who[0],
        headers=who[1], keep=True), credentials(w, owner=3), ids, SEATS)
    rematch = st.builds(lambda who, table_id: Call(
        "tables", "tables", "POST", "/api/tables/{table_id}/rematch", {"table_id": table_id},
        who=who[0], headers=who[1]), credentials(w, owner=3), ids)
    return weighted((2, reads), (1, replay), (2, seat_token), (2, rematch))


def test_refused_table_requests_change_nothing(world: World) -> None:
    refresh(world)

    @given(call=table_calls(world))
    @fuzzing(EXAMPLES * 3)
    def fuzz(call: Call) -> None:
        send(world, call)

    fuzz()


def test_refused_analysis_requests_change_nothing(world: World) -> None:
    """The analysis jobs of a finished hand: refused requests start none, and every answer,
    a started job's too, is one the schema declares."""
    refresh(world)
    for method in ("GET", "POST", "GET"):  # a job of the finished hand, plainly, first
        send(world, Call("analysis", "tables", method,
                         "/api/web/tables/{table_id}/hands/{number}/analysis",
                         {"table_id": world.bots["table_id"], "number": 1}, {"seat": 0}))

    @given(call=st.builds(lambda method, table_id, number, seat, token: Call(
        "analysis", "tables", method, "/api/web/tables/{table_id}/hands/{number}/analysis",
        {"table_id": table_id, "number": number}, query(seat=seat, token=token)),
        one("GET", "POST", "POST"), table_ids(world), NUMBERS, SEATS, table_tokens(world)))
    @fuzzing(EXAMPLES * 2)
    def fuzz(call: Call) -> None:
        send(world, call)

    fuzz()


# --- the tournament, its director's forms and its phone links -----------------------------------

FORGED_KEYS = [KEY + "x", KEY[:-1], KEY.upper(), "", " " + KEY, "wrong", KEY + "\u00e9"]


def director_keys() -> st.SearchStrategy[tuple[str, dict[str, bytes]]]:
    """The director's key as the cookie (mostly), a wrong one, the header (which opens the
    held results to read, and nothing to change), garbage, none."""
    cookie = one(*FORGED_KEYS).map(lambda k: (f"forged key {k!r}", key_cookie(k)))
    header = one(KEY, *FORGED_KEYS[:3]).map(
        lambda k: (f"key header {k!r}", {"x-director-key": k.encode()}))
    garbage = TEXT.map(lambda k: ("garbage key", key_cookie(k)))
    return weighted((5, st.just(("director", key_cookie(KEY)))), (1, st.just(("nobody", {}))),
                    (2, cookie), (1, header), (1, garbage))


DIRECTOR_POSTS = ["pairs", "rounds", "results", "online", "withdraw", "penalties",
                  "line-rankings", "prizes", "members", "clock", "clock/time"]
FIELDS: dict[str, list[str]] = {
    "pairs": ["Gialli", "", "A\nB", "x" * 300],
    "round": ["1", "2", "0", "-1", "x", ""], "table": ["1", "2", "3", "0", "x"],
    "ns_mp": ["0", "600", "1205", "-5", "x", "", "9" * 30],
    "ew_mp": ["0", "600", "1205", "-5", "x", ""], "correct": ["1", "0"],
    "r1_home": ["10", "x"], "r1_away": ["5"], "pair": ["1", "2", "5", "0", "-1", "x", ""],
    "mode": ["byes", "reseat", "x"], "vp": ["1", "0", "-3", "x", "999999"],
    "mp": ["5", "x"], "reason": ["late", "", "x" * 500],
    "on": ["0", "1", "2", ""], "prizes": ["overall:3,NS:1", "x", "overall:-1", ""],
    "number": ["12", "", "x", "-1"], "name": ["Rossi", "", "x" * 300],
    "category": ["Senior", "", "x"], "account": ["fuzzed", "@fuzzed", "nobody", ""],
    "minutes": ["30", "0", "241", "x", ""], "schedule": ["mitchell:2", "x", ""],
    "hands": ["3", "0", "x"], "kind": ["pairs", "x"], "duplicate": ["1", ""],
    "lang": ["it", "en", "x"], "h1_ns": ["100", "x", ""], "h1_ew": ["100", "-100"],
    "h2_ns": ["5"], "h2_ew": ["5"], "h3_ns": ["0"], "h3_ew": ["0"],
}
"""Near-valid values of the forms' fields (and any text besides)."""
HUGE_FORM = {"name": "x" * 70_000}
"""A form above the routes' 64 KiB (the server's own limit here is above it)."""


def forms(fields: list[str]) -> st.SearchStrategy[dict[str, str]]:
    values = {name: weighted((4, one(*FIELDS[name])), (1, TEXT)) for name in fields}
    return weighted((12, st.fixed_dictionaries({}, optional=values)), (1, st.just(HUGE_FORM)))


def tournament_calls(w: World) -> st.SearchStrategy[Call]:
    tids = weighted((6, st.just(w.tid)), (1, one(w.other_tid, "nope")), (1, SEGMENT))

    def post(who: tuple[str, dict[str, bytes]], tid: str, route: str,
             form: dict[str, str]) -> Call:
        return Call("tournament", "tournament", "POST", f"/tournaments/{{tid}}/{route}",
                    {"tid": tid}, data=form, who=who[0], headers=who[1])

    posts = st.builds(post, director_keys(), tids, one(*DIRECTOR_POSTS), forms(list(FIELDS)))
    members = st.builds(lambda who, form: Call(
        "tournament", "tournament", "POST", "/tournaments/members", data=form, who=who[0],
        headers=who[1]), director_keys(), forms(["number", "name", "category", "account"]))
    create = st.builds(lambda who, form: Call(
        "tournament", "tournament", "POST", "/tournaments/", data=form, who=who[0],
        headers=who[1]), director_keys().filter(lambda k: k[0] != "director"),
        forms(["name", "schedule", "hands", "kind", "duplicate"]))
    pages = ["/tournaments/{tid}/", "/tournaments/{tid}/standings", "/tournaments/{tid}/print",
             "/tournaments/{tid}/standings.csv", "/tournaments/{tid}/results.csv",
             "/tournaments/{tid}/screen", "/tournaments/{tid}/screen.json",
             "/api/tournaments/{tid}", "/api/tournaments/{tid}/evening",
             "/api/tournaments/{tid}/table-links"]
    reads = st.builds(lambda who, tid, page, params: Call(
        "tournament", "tournament", "GET", page, {"tid": tid}, params, who=who[0],
        headers=who[1]), director_keys(), tids, one(*pages),
        st.fixed_dictionaries({}, optional={"refresh": one("5", "x", "-1"),
                                            "lang": one("it", "x"), "base_url": TEXT}))
    paper = st.builds(lambda who, tid, kind, params: Call(
        "tournament", "tournament", "GET", "/tournaments/{tid}/pdf/{kind}",
        {"tid": tid, "kind": kind}, params, who=who[0], headers=who[1]), director_keys(), tids,
        one("table-cards", "seats", "score-sheets", "round", "standings", "deals", "x"),
        st.fixed_dictionaries({}, optional={"round": one("1", "2", "0", "x", "-1"),
                                            "lang": one("it", "en", "x")}))
    login = st.builds(lambda key: Call("tournament", "tournament", "GET", "/tournaments/login",
                                       params={"key": key}),
                      weighted((1, one(KEY + "x", KEY.upper(), "")), (1, TEXT)))
    return weighted((8, posts), (1, members), (1, create), (2, reads), (1, paper), (1, login))


def test_refused_tournament_requests_change_nothing(world: World) -> None:
    """The director's forms and pages, with the key, a wrong key, none: a refused form
    changes nothing.  (The forms ask for no bots at web tables: their play would change the
    tournament by itself.)"""
    refresh(world)

    keys = [("director", key_cookie(KEY)), ("forged key", key_cookie(KEY + "x")),
            ("key header", {"x-director-key": KEY.encode()})]
    for route in [*(f"/tournaments/{{tid}}/{post}" for post in DIRECTOR_POSTS),
                  "/tournaments/members"]:  # each form once plainly, and too large
        for (who, headers), form in [(key, {}) for key in keys] + [(keys[0], HUGE_FORM)]:
            send(world, Call("tournament", "tournament", "POST", route, {"tid": world.tid},
                             data=form, who=who, headers=headers))

    @given(call=tournament_calls(world))
    @fuzzing(EXAMPLES * 3)
    def fuzz(call: Call) -> None:
        send(world, call)

    fuzz()


LINK_FORGERIES: dict[str, Callable[[str], str]] = {
    "one letter off": flip,
    "cut": lambda t: t[:-1],
    "longer": lambda t: t + "A",
    "upper case": str.upper,
    "other side": lambda t: re.sub(r"-(ns|ew)-", lambda m: "-ew-" if m[1] == "ns" else "-ns-",
                                   t, count=1),
    "next round": lambda t: re.sub(r"^\d+", lambda m: str(int(m[0]) + 1), t),
    "other table": lambda t: re.sub(r"^(\d+)-(\d+)", lambda m: f"{m[1]}-{int(m[2]) + 1}", t),
    "no signature": lambda t: t.rsplit("-", 1)[0] if t.count("-") >= 3 else t,
    "signature and more": lambda t: t + "-x",
    "a leading minus": lambda t: "-" + t,
    "a huge round": lambda t: re.sub(r"^\d+", "9" * 40, t),
    "side in capitals": lambda t: t.replace("-ns-", "-NS-").replace("-ew-", "-EW-"),
}
SCORES = ["0", "5", "600", "1200", "1205", "-5", "abc", "", " 600 ", "\u0666\u0660\u0660",
          "1e3", "9" * 25, "600.0", "0x10"]


def test_refused_phone_link_entries_change_nothing(world: World) -> None:
    """The phone links: the real ones, near-valid forgeries (a letter off, another side, table
    or round, another tournament's), garbage; forms of near-valid scores."""
    w = world
    refresh(w)
    scores = weighted((4, one("0", "5", "600", "605", "1200")), (3, one(*SCORES)), (1, TEXT))
    hands = st.fixed_dictionaries({}, optional={f"h{k}_{side}": scores for k in (1, 2, 3, 4)
                                               for side in ("ns", "ew")})
    lang = one("it", "en", "x")
    for token in w.links:  # each link once plainly, and too large
        for form in ({}, HUGE_FORM):
            send(w, Call("phone links", "tournament", "POST", "/tournaments/{tid}/table/{token}",
                         {"tid": w.tid, "token": token}, data=form, who="the link"))
    links = weighted((4, st.just("the link")), (4, one(*sorted(LINK_FORGERIES))),
                     (1, st.just("the other tournament's")), (1, st.just("garbage")))

    @given(method=one("POST", "POST", "POST", "GET"),
           tid=weighted((8, st.just(w.tid)), (1, one(w.other_tid, "nope"))),
           index=st.integers(0, 3), link=links, garbage=SEGMENT,
           form=weighted((3, st.fixed_dictionaries({"ns_mp": scores, "ew_mp": scores},
                                                   optional={"lang": lang})),
                         (1, st.fixed_dictionaries({}, optional={"ns_mp": scores,
                                                                 "ew_mp": scores, "lang": lang}))),
           more=weighted((6, st.just({})), (3, hands), (1, st.just(HUGE_FORM))),
           key=one({}, {}, {}, key_cookie(KEY), key_cookie("wrong")))
    @fuzzing(EXAMPLES * 2)
    def fuzz(method: str, tid: str, index: int, link: str, garbage: str, form: dict[str, str],
             more: dict[str, str], key: dict[str, bytes]) -> None:
        ours = w.links or ["1-1-ns-x"]
        token = ours[index % len(ours)]
        if link == "the other tournament's":
            token = w.other_links[index % len(w.other_links)]
        elif link == "garbage":
            token = garbage
        elif link in LINK_FORGERIES:
            token = LINK_FORGERIES[link](token)
        send(w, Call("phone links", "tournament", method, "/tournaments/{tid}/table/{token}",
                     {"tid": tid, "token": token or "x"}, params={"lang": "en"},
                     data={**form, **more} if method == "POST" else None, who=link,
                     headers=key))

    fuzz()
