"""The evening's changes and players who exist, over real HTTP against ``burraco serve``.

Late entries before round 1, withdrawals between rounds (byes or re-seated), penalties
reaching the standings (RULES.md §12), NS/EW rankings of a Mitchell (§11.5 keeps one
overall ranking by default), the prize list, club members and account-linked pairs
showing on the players' profiles; and every bad input refused, changing nothing.
"""

from __future__ import annotations

from evening_harness import SIX, create, ok, play_round, refused, six_pairs, state, tables
from harness import ServerProcess
from players_harness import register


def test_a_late_entry_before_round_1_is_seated_and_after_it_is_refused(
        server: ServerProcess) -> None:
    tid = create(server, "Late entries")
    ok(server, tid, "pairs", pairs="\n".join(SIX[:5]))
    # the director printed nothing yet: round 1 is seated only when it starts
    ok(server, tid, "pairs", pairs=SIX[5])
    ok(server, tid, "rounds")
    assert tables(server, tid) == [(1, 1, 4), (2, 2, 5), (3, 3, 6)]
    assert state(server, tid)["round"]["byes"] == []
    refused(server, tid, "pairs", "registration closed when round 1 was drawn",
            pairs="Tardi / Ultimi")


def test_a_withdrawal_as_byes_keeps_the_movement_and_gives_the_opponent_a_bye(
        server: ServerProcess) -> None:
    tid = six_pairs(server, "Withdrawal byes")
    ok(server, tid, "rounds")
    refused(server, tid, "withdraw", "round 1 is still being played", pair="5", mode="byes")
    play_round(server, tid, {})
    refused(server, tid, "withdraw", "byes or reseat", pair="5", mode="later")
    refused(server, tid, "withdraw", "no pair 9", pair="9", mode="byes")
    refused(server, tid, "withdraw", "must be a whole number", pair="five", mode="byes")
    message = ok(server, tid, "withdraw", pair="5", mode="byes")
    assert "from round 2" in message
    refused(server, tid, "withdraw", "already withdrawn", pair="5", mode="byes")
    ok(server, tid, "rounds")
    # Mitchell round 2 with 6 pairs seats (1,6), (2,4), (3,5): pair 5's opponent has a bye
    assert tables(server, tid) == [(1, 1, 6), (2, 2, 4)]
    data = state(server, tid)
    assert data["round"]["byes"] == [3]
    pair5 = next(s for s in data["standings"] if s["pair"] == 5)
    assert pair5["withdrawn"] is True and pair5["played"] == 1
    assert data["evening"]["withdrawals"] == [{"pair": 5, "from_round": 2, "mode": "byes"}]


def test_a_withdrawal_re_seated_keeps_the_movement_and_repeats_no_match(
        server: ServerProcess) -> None:
    tid = six_pairs(server, "Withdrawal reseat")
    ok(server, tid, "rounds")
    play_round(server, tid, {})  # (1,4), (2,5), (3,6)
    ok(server, tid, "withdraw", pair="5", mode="reseat")
    ok(server, tid, "rounds")
    # Mitchell round 2 seats (1,6), (2,4), (3,5): pair 3 is alone, nobody else is (forming
    # the lines again without pair 5 used to seat 3-6 again)
    assert tables(server, tid) == [(1, 1, 6), (2, 2, 4)]
    assert state(server, tid)["round"]["byes"] == [3]
    seated = {p for _, ns, ew in tables(server, tid) for p in (ns, ew)}
    assert 5 not in seated


def test_penalties_reach_the_standings_and_bad_ones_are_refused(server: ServerProcess) -> None:
    tid = six_pairs(server, "Penalties")
    ok(server, tid, "rounds")
    play_round(server, tid, {1: (1200, 300), 2: (500, 500), 3: (400, 900)})
    before = {s["pair"]: s for s in state(server, tid)["standings"]}
    refused(server, tid, "penalties", "needs a reason", pair="1", vp="2", reason=" ")
    refused(server, tid, "penalties", "0 to 20 VP", pair="1", vp="-2", reason="slow play")
    refused(server, tid, "penalties", "must be a whole number", pair="1", vp="two",
            reason="slow play")
    refused(server, tid, "penalties", "both are 0", pair="1", reason="slow play")
    refused(server, tid, "penalties", "not a multiple of 5", pair="1", mp="33",
            reason="slow play")
    refused(server, tid, "penalties", "round 4 has not started", pair="1", vp="1",
            round="4", reason="slow play")
    ok(server, tid, "penalties", pair="1", vp="2", reason="slow play", round="1")
    refused(server, tid, "penalties", "already recorded", pair="1", vp="2", reason="slow play",
            round="1")  # the form posted twice
    ok(server, tid, "penalties", pair="6", mp="100", reason="wrong score sheet")
    after = {s["pair"]: s for s in state(server, tid)["standings"]}
    assert after[1]["vp"] == before[1]["vp"] - 2 and after[1]["penalty_vp"] == 2
    assert after[6]["mp_diff"] == before[6]["mp_diff"] - 100
    assert after[6]["mp"] == before[6]["mp"] - 100 and after[6]["penalty_mp"] == 100
    assert after[2] == before[2]
    page = server.http.get(f"/tournaments/{tid}/").text
    assert "slow play" in page and "wrong score sheet" in page


def test_ns_and_ew_rankings_and_the_prize_list(server: ServerProcess) -> None:
    tid = six_pairs(server, "Rankings and prizes")
    refused(server, tid, "prizes", "switch the NS/EW rankings on first", prizes="NS:1")
    ok(server, tid, "line-rankings", on="1")
    ok(server, tid, "rounds")
    play_round(server, tid, {1: (1200, 300), 2: (500, 600), 3: (400, 900)})
    evening = state(server, tid)["evening"]
    lines = evening["line_standings"]
    assert sorted(s["pair"] for s in lines["NS"]) == [1, 2, 3]
    assert sorted(s["pair"] for s in lines["EW"]) == [4, 5, 6]
    overall = [s["pair"] for s in state(server, tid)["standings"]]
    for line in ("NS", "EW"):
        assert [s["pair"] for s in lines[line]] == [p for p in overall
                                                   if p in {s["pair"] for s in lines[line]}]
        assert [s["rank"] for s in lines[line]] == [1, 2, 3]
    refused(server, tid, "prizes", "CATEGORY:PLACES", prizes="overall")
    refused(server, tid, "prizes", "no pair is in category 'Senior'", prizes="Senior:1")
    refused(server, tid, "prizes", "listed twice", prizes="overall:1,overall:2")
    ok(server, tid, "prizes", prizes="overall:1,NS:1,EW:1")
    prizes = state(server, tid)["evening"]["prize_list"]
    first = overall[0]
    best_ns = next(p for p in overall if p in {1, 2, 3} and p != first)
    best_ew = next(p for p in overall if p in {4, 5, 6} and p != first)
    assert [(a["category"], a["place"], a["pair"]) for a in prizes] == [
        ("overall", 1, first), ("NS", 1, best_ns), ("EW", 1, best_ew)]
    plain = six_pairs(server, "Danish only", "danish:2")
    refused(server, plain, "line-rankings", "this schedule has none", on="1")
    refused(server, plain, "line-rankings", "on is 1 or 0", on="yes")


def test_members_and_accounts_reach_the_profiles(server: ServerProcess) -> None:
    register(server, "carla")
    register(server, "dino")
    r = server.http.post("/tournaments/members", data={
        "number": "12", "name": "Dino Neri", "category": "Senior", "account": "dino"})
    assert r.status_code == 200, r.text
    r = server.http.post("/tournaments/members", data={
        "number": "13", "name": "Carla Rossi", "category": "Senior"})
    assert r.status_code == 200, r.text
    for bad, expect in (({"number": "x y", "name": "A", "category": "B"}, "membership number"),
                        ({"number": "14", "name": "A", "category": "overall"}, "category"),
                        ({"number": "14", "name": "A", "category": "B", "account": "nobody"},
                         "no player account @nobody")):
        r = server.http.post("/tournaments/members", data=bad)
        assert r.status_code == 422 and expect in r.json()["detail"], r.text
    page_form = create(server, "Form", "mitchell:1")
    assert "saved" in ok(server, page_form, "members", number="15", name="Eva Blu",
                         category="Open")
    refused(server, page_form, "members", "no player account @ghost", number="16",
            name="Fabio", category="Open", account="ghost")
    named = create(server, "Members", "mitchell:1")  # /api/tournaments/members is the club's
    assert named == "members-2" and state(server, named)["name"] == "Members"
    listed = server.http.get("/api/tournaments/members").json()["members"]
    assert {m["number"] for m in listed} == {"12", "13", "15"}
    assert next(m for m in listed if m["number"] == "12")["account"] == "dino"

    tid = create(server, "Accounts", "mitchell:1")
    refused(server, tid, "pairs", "no player account @nobody", pairs="Rossi @nobody / Bianchi")
    refused(server, tid, "pairs", "no club member #99", pairs="#99 / Bianchi")
    ok(server, tid, "pairs", pairs="\n".join(["Carla @carla / #12", *SIX[1:4]]))
    data = state(server, tid)
    assert data["pairs"][0]["name"] == "Carla / Dino Neri"
    evening = server.http.get(f"/api/tournaments/{tid}/evening").json()
    assert evening["accounts"] == {"1": ["carla", "dino"]}
    # both players are Senior members (carla has no member record: no category)
    assert evening["categories"] == []
    ok(server, tid, "rounds")
    play_round(server, tid, {1: (1500, 200), 2: (500, 500)})
    mine = next(s for s in state(server, tid)["standings"] if s["pair"] == 1)
    for username in ("carla", "dino"):
        profile = server.http.get(f"/api/players/{username}").json()
        assert profile["tournaments"] == [{
            "id": tid, "name": "Accounts", "status": "finished", "pair": 1,
            "pair_name": "Carla / Dino Neri", "rank": 1, "of": 4, "vp": mine["vp"],
            "played": 1}]
    assert server.http.get("/api/players/dino").json()["tournaments"][0]["rank"] == 1

    seniors = create(server, "Seniors", "mitchell:1")
    ok(server, seniors, "pairs", pairs="\n".join(["#13 / #12", *SIX[1:4]]))
    evening = server.http.get(f"/api/tournaments/{seniors}/evening").json()
    assert evening["categories"] == [[1, "Senior"]]
    assert evening["accounts"] == {"1": ["dino"]}
    ok(server, seniors, "prizes", prizes="overall:1,Senior:1")
    ok(server, seniors, "rounds")
    play_round(server, seniors, {1: (200, 900), 2: (1500, 100)})
    prizes = state(server, seniors)["evening"]["prize_list"]
    assert [(a["category"], a["pair"]) for a in prizes] == [("overall", 2), ("Senior", 1)]
