"""Trust and safety over real HTTP and WebSockets (issue: recovery without e-mail, reports,
moderators): a recovery code lets a person back in and ends every session; a report reaches
the moderators' queue; a ban ends the account's sessions and refuses log-in; a mute stops
quick messages and challenges at once; a suspension keeps the account from rated play; and
every bad input is refused naming its field, changing nothing."""

from __future__ import annotations

import asyncio
import json
import subprocess
import time
from typing import Any

import httpx
from harness import BURRACO, ServerProcess
from players_harness import bearer, register
from test_sessions_end_everywhere import closed_code, login, me, seated

PASSWORD = "correct horse"


def grant(server: ServerProcess, username: str, *extra: str,
          reason: str = "runs the club's table") -> subprocess.CompletedProcess[str]:
    return subprocess.run([BURRACO, "admin", "grant", "--db", server.db_url, "--user",
                           username, "--role", "moderator", "--reason", reason, *extra],
                          capture_output=True, text=True, timeout=60)


def post(server: ServerProcess, path: str, token: str | None, body: Any) -> httpx.Response:
    headers = bearer(token) if token else {}
    return httpx.post(f"{server.base}{path}", json=body, headers=headers)


def get(server: ServerProcess, path: str, token: str) -> httpx.Response:
    return httpx.get(f"{server.base}{path}", headers=bearer(token))


def test_a_recovery_code_lets_a_person_back_in_once_and_ends_every_session(
        server: ServerProcess) -> None:
    made = register(server, "Rosa_r")
    codes = made["recovery_codes"]
    assert len(codes) == 10 and len(set(codes)) == 10
    assert get(server, "/api/me", made["token"]).json()["recovery_codes_left"] == 10
    other = login(server.base, "Rosa_r")
    # wrong codes, a wrong name: one answer, and nothing changes
    for body in ({"username": "Rosa_r", "code": "0000-0000-0000", "new_password": "new horse!"},
                 {"username": "Nobody_r", "code": codes[0], "new_password": "new horse!"}):
        wrong = post(server, "/api/recover", None, body)
        assert wrong.status_code == 401 and wrong.json()["code"] == "bad_recovery", wrong.text
    short = post(server, "/api/recover", None,
                 {"username": "Rosa_r", "code": codes[0], "new_password": "short"})
    assert short.status_code == 422 and short.json()["field"] == "new_password"
    assert me(server.base, other) == 200  # nothing changed
    # typed in lower case with spaces for dashes, O for 0 and l for 1: still the code
    typed = codes[3].lower().replace("-", " ").replace("0", "o").replace("1", "l")
    back = post(server, "/api/recover", None,
                {"username": "ROSA_R", "code": typed, "new_password": "a new horse"})
    assert back.status_code == 200, back.text
    assert back.json()["codes_left"] == 9 and back.json()["username"] == "Rosa_r"
    assert back.cookies.get("burraco_session") == back.json()["token"]
    assert me(server.base, other) == 401 and me(server.base, made["token"]) == 401
    assert me(server.base, back.json()["token"]) == 200
    again = post(server, "/api/recover", None,
                 {"username": "Rosa_r", "code": codes[3], "new_password": "third horse"})
    assert again.status_code == 401  # spent
    assert login(server.base, "Rosa_r", "a new horse")
    # new codes for the password; the old ones stop working
    token = back.json()["token"]
    refused = post(server, "/api/me/recovery-codes", token, {"password": "not it at all"})
    assert refused.status_code == 401 and refused.json()["code"] == "bad_credentials"
    fresh = post(server, "/api/me/recovery-codes", token, {"password": "a new horse"})
    assert fresh.status_code == 200 and len(fresh.json()["recovery_codes"]) == 10
    old = post(server, "/api/recover", None,
               {"username": "Rosa_r", "code": codes[5], "new_password": "fourth horse"})
    assert old.status_code == 401
    assert get(server, "/api/me", token).json()["recovery_codes_left"] == 10
    assert "code_hash" not in get(server, "/api/me", token).text


def test_the_admin_command_gives_roles_only_with_a_reason(server: ServerProcess) -> None:
    register(server, "Mod_a")
    no_reason = grant(server, "Mod_a", reason="  ")
    assert no_reason.returncode == 1 and "reason" in no_reason.stderr
    missing = grant(server, "Nobody_a")
    assert missing.returncode == 1 and "no account" in missing.stderr
    done = grant(server, "Mod_a")
    assert done.returncode == 0, done.stderr
    token = login(server.base, "Mod_a")
    assert get(server, "/api/me", token).json()["roles"] == ["moderator"]
    listed = subprocess.run([BURRACO, "admin", "roles", "--db", server.db_url],
                            capture_output=True, text=True, timeout=60)
    assert "Mod_a" in listed.stdout and "runs the club's table" in listed.stdout


def test_a_report_reaches_the_queue_and_a_ban_stops_the_account_at_once(
        server: ServerProcess) -> None:
    register(server, "Mod_b")
    assert grant(server, "Mod_b").returncode == 0
    mod = login(server.base, "Mod_b")
    reporter = register(server, "Rep_b")["token"]
    target = register(server, "Bad_b")
    # bad reports change nothing
    for body, field in (
            ({"username": "Bad_b", "reason": "rude", "context": "profile"}, "reason"),
            ({"username": "Rep_b", "reason": "abuse", "context": "profile"}, "username"),
            ({"username": "Bad_b", "reason": "abuse", "context": "table"}, "table_id"),
            ({"username": "Bad_b", "reason": "abuse", "context": "profile",
              "text": "x" * 1001}, "text")):
        bad = post(server, "/api/reports", reporter, body)
        assert bad.status_code == 422 and field in json.dumps(bad.json()), (body, bad.text)
    assert post(server, "/api/reports", None, {"username": "Bad_b", "reason": "abuse",
                                               "context": "profile"}).status_code == 401
    assert post(server, "/api/reports", reporter, {"username": "Ghost_b", "reason": "abuse",
                                                   "context": "profile"}).status_code == 404
    made = post(server, "/api/reports", reporter, {
        "username": "Bad_b", "reason": "abuse", "context": "message", "message": "well_played",
        "text": "says it after every hand I lose"})
    assert made.status_code == 201, made.text
    # only moderators read the queue
    assert get(server, "/api/mod/reports", reporter).status_code == 403
    queue = get(server, "/api/mod/reports", mod).json()["reports"]
    mine = [r for r in queue if r["report_id"] == made.json()["report_id"]]
    assert mine and mine[0]["target"]["username"] == "Bad_b"
    assert mine[0]["reporter"]["username"] == "Rep_b"
    assert mine[0]["evidence"]["messages"] == ["well_played"]
    text = get(server, "/api/mod/reports", mod).text
    assert "$argon2" not in text and "secret_hash" not in text and "code_hash" not in text
    # a ban needs a reason; with it the target's session ends and log-in is refused
    no_reason = post(server, "/api/mod/actions", mod, {"username": "Bad_b", "action": "ban",
                                                       "reason": ""})
    assert no_reason.status_code == 422 and no_reason.json()["field"] == "reason"
    assert me(server.base, target["token"]) == 200
    banned = post(server, "/api/mod/actions", mod, {
        "username": "Bad_b", "action": "ban", "reason": "insults after every hand",
        "days": 7, "report_id": made.json()["report_id"]})
    assert banned.status_code == 200, banned.text
    assert me(server.base, target["token"]) == 401
    refused = httpx.post(f"{server.base}/api/sessions",
                         json={"username": "Bad_b", "password": PASSWORD})
    assert refused.status_code == 403 and refused.json()["code"] == "banned"
    assert refused.json()["reason"] == "insults after every hand"
    assert refused.json()["until"] > banned.json()["sanction"]["at"] + 6.9 * 86400
    closed = get(server, "/api/mod/reports?status=closed", mod).json()["reports"]
    assert any(r["report_id"] == made.json()["report_id"] for r in closed)
    log = get(server, "/api/mod/log", mod).json()["actions"]
    assert log[0]["kind"] == "ban" and log[0]["username"] == "Bad_b"
    assert log[0]["moderator"] == "Mod_b"
    # a lift lets the person in again
    lifted = post(server, "/api/mod/actions", mod, {"username": "Bad_b", "action": "lift",
                                                    "reason": "appeal accepted"})
    assert lifted.status_code == 200
    assert login(server.base, "Bad_b")


def test_moderators_act_only_with_valid_fields(server: ServerProcess) -> None:
    register(server, "Mod_c")
    assert grant(server, "Mod_c").returncode == 0
    mod = login(server.base, "Mod_c")
    plain = register(server, "Plain_c")["token"]
    register(server, "Taken_c")
    forbidden = post(server, "/api/mod/actions", plain, {"username": "Mod_c", "action": "warn",
                                                         "reason": "no reason at all"})
    assert forbidden.status_code == 403 and forbidden.json()["code"] == "forbidden"
    for body, field in (
            ({"username": "Plain_c", "action": "mute", "reason": "spam"}, "days"),
            ({"username": "Plain_c", "action": "mute", "reason": "spam", "days": -1}, "days"),
            ({"username": "Plain_c", "action": "warn", "reason": "spam", "days": 3}, "days"),
            ({"username": "Plain_c", "action": "rename", "reason": "insult"}, "new_username"),
            ({"username": "Plain_c", "action": "rename", "reason": "insult",
              "new_username": "Taken_c"}, "new_username"),
            ({"username": "Plain_c", "action": "warn", "reason": "spam",
              "report_id": "nope"}, "report_id"),
            ({"username": "Mod_c", "action": "warn", "reason": "spam"}, "username"),
            ({"username": "Plain_c", "action": "shout", "reason": "spam"}, "action")):
        bad = post(server, "/api/mod/actions", mod, body)
        assert bad.status_code in (409, 422) and field in json.dumps(bad.json()), (body, bad.text)
    assert get(server, "/api/me", plain).json()["sanctions"] == []
    assert get(server, "/api/mod/log", mod).json()["actions"] == [] or all(
        a["username"] != "Plain_c" for a in get(server, "/api/mod/log", mod).json()["actions"])
    # a rename changes the name people see; the session goes on under the new one
    renamed = post(server, "/api/mod/actions", mod, {
        "username": "Plain_c", "action": "rename", "reason": "an insulting name",
        "new_username": "Player_c7"})
    assert renamed.status_code == 200, renamed.text
    assert get(server, "/api/me", plain).json()["username"] == "Player_c7"
    assert httpx.get(f"{server.base}/api/players/Plain_c").status_code == 404
    warned = post(server, "/api/mod/actions", mod, {"username": "Player_c7", "action": "warn",
                                                    "reason": "mind the words"})
    assert warned.status_code == 200
    shown = get(server, "/api/me", plain).json()["sanctions"]
    assert shown[0]["kind"] == "warn" and shown[0]["reason"] == "mind the words"
    assert "moderator" not in shown[0]


def test_a_mute_stops_quick_messages_and_challenges_a_suspension_rated_play(
        server: ServerProcess) -> None:
    register(server, "Mod_d")
    assert grant(server, "Mod_d").returncode == 0
    mod = login(server.base, "Mod_d")
    loud = register(server, "Loud_d")["token"]
    register(server, "Friend_d")
    table = server.create_table(loud, players=2, seats=[
        {"kind": "human"}, {"kind": "bot", "level": "basic"}], bot_delay=0)

    async def main() -> None:
        client = await seated(server, table, loud)
        muted = await asyncio.to_thread(post, server, "/api/mod/actions", mod, {
            "username": "Loud_d", "action": "mute", "reason": "spamming the table",
            "days": 1})
        assert muted.status_code == 200, muted.text
        # the socket closes (the session is read again everywhere); back in, muted
        assert await closed_code(client) is not None
        again = await seated(server, table, loud)
        await again.send_raw(json.dumps({"t": "quick", "msg": "well_played"}))
        refused = await again.until(lambda f: f.get("t") in ("reject", "quick"))
        assert refused["t"] == "reject" and refused["code"] == "muted", refused
        await again.close()

    asyncio.run(main())
    challenge = post(server, "/api/challenges", loud, {"to": "Friend_d", "format": "2"})
    assert challenge.status_code == 403 and challenge.json()["code"] == "muted"
    assert get(server, "/api/me", loud).json()["sanctions"][0]["kind"] == "mute"
    # a suspension is a wait before rated play, with the moderator's reason
    suspended = post(server, "/api/mod/actions", mod, {
        "username": "Loud_d", "action": "suspend", "reason": "rating manipulation",
        "days": 2})
    assert suspended.status_code == 200
    wait = get(server, "/api/me", loud).json()["wait"]
    assert wait["reason"] == "suspended" and "rating manipulation" in wait["why"]
    profile = httpx.get(f"{server.base}/api/players/Loud_d").json()
    assert profile["wait"] is None and "rating manipulation" not in json.dumps(profile)
    rated = httpx.post(f"{server.base}/api/tables", headers=bearer(loud), json={
        "players": 2, "rated": True, "creator_seat": 0,
        "seats": [{"kind": "human"}, {"kind": "human"}]})
    assert rated.status_code in (403, 409, 422) and "suspended" in rated.text, rated.text
    event = post(server, "/api/events", mod, {
        "name": "Rated Swiss", "kind": "swiss", "form": "2", "rounds": 3, "rated": True,
        "starts": time.time() + 3600})
    assert event.status_code == 201, event.text
    entered = post(server, f"/api/events/{event.json()['id']}/join", loud, {})
    assert entered.status_code == 403 and entered.json()["code"] == "rated_wait", entered.text


def test_the_screening_command_reads_the_database(server: ServerProcess) -> None:
    out = subprocess.run([BURRACO, "admin", "screening", "--db", server.db_url, "--json"],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    report = json.loads(out.stdout)
    assert report["flags"] == [] and "checked" in report
    bad = subprocess.run([BURRACO, "admin", "screening", "--db", server.db_url, "--days", "0"],
                         capture_output=True, text=True, timeout=60)
    assert bad.returncode == 1 and "--days" in bad.stderr


def test_the_screening_route_is_for_moderators_only(server: ServerProcess) -> None:
    register(server, "Mod_e")
    assert grant(server, "Mod_e").returncode == 0
    mod = login(server.base, "Mod_e")
    plain = register(server, "Plain_e")["token"]
    assert get(server, "/api/mod/screening", plain).status_code == 403
    assert httpx.get(f"{server.base}/api/mod/screening").status_code == 401
    report = get(server, "/api/mod/screening", mod)
    assert report.status_code == 200 and isinstance(report.json()["flags"], list)
    assert get(server, "/api/mod/screening?days=0", mod).status_code == 422
