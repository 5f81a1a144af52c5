"""Company at the table: quick messages, the rematch, the invitation, and the tutorial's deal.

Over a real ``burraco serve`` and real WebSockets (docs/protocol.md, protocol 1.1).
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

import httpx
from harness import Client, ServerProcess

from burraco.engine.actions import parse_action
from burraco.engine.cards import card_str
from burraco.engine.deal import deal_from_order
from burraco.engine.rules import FIBUR
from burraco.server.quick import QUICK_BURST, QUICK_MESSAGES
from burraco.server.rules_bounds import deal_cut
from burraco.server.tutorial import (
    BOT_SEAT,
    DEALER,
    FIRST_DRAW,
    PLAYER_HAND,
    PLAYER_POZZETTO,
    PLAYER_SEAT,
    tutorial_order,
)


def post(server: ServerProcess, path: str, token: str, **body: Any) -> httpx.Response:
    return server.http.post(path, json=body or None, headers={"authorization": f"Bearer {token}"})


async def pair(server: ServerProcess, **settings: Any) -> tuple[dict[str, Any], Client, Client]:
    ada, bob = server.guest("Ada"), server.guest("Bob")
    table = server.create_table(ada, players=2, **settings)
    one, two = Client(server, table, 0, guest=ada), Client(server, table, 1, guest=bob)
    await one.connect()
    await two.connect()
    await one.until(lambda f: f.get("t") == "sync" or "v" in f)
    return table, one, two


def test_a_quick_message_reaches_every_seat_and_spectator_and_changes_nothing(
        server: ServerProcess) -> None:
    async def main() -> None:
        table, one, two = await pair(server)
        watcher = Client(server, table, None)
        await watcher.connect()
        await one.my_turn()
        version = one.version
        await one.send_raw('{"t":"quick","msg":"well_played"}')
        for client in (one, two, watcher):
            got = await client.until(lambda f: f.get("t") == "quick")
            assert got == {"t": "quick", "seat": 0, "msg": "well_played"}
        # the game did not move: the same version, and seat 0 may still draw at it
        assert one.version == version
        assert (await one.act("draw", v=version))["t"] == "ack"
        for client in (one, two, watcher):
            await client.close()

    asyncio.run(main())


def test_an_unknown_quick_message_is_refused_by_name_and_sent_to_nobody(
        server: ServerProcess) -> None:
    async def main() -> None:
        _table, one, two = await pair(server)
        await one.send_raw('{"t":"quick","msg":"meld hearts!"}')
        refused = await one.until(lambda f: f.get("t") == "reject")
        assert refused["code"] == "unknown_quick"
        assert "meld hearts!" in refused["reason"] and "well_played" in refused["reason"]
        # free text in another field is not read either
        await one.send_raw('{"t":"quick","msg":"thanks","text":"I hold the 2"}')
        bad = await one.until(lambda f: f.get("t") == "reject")
        assert bad["code"] == "bad_message" and "text" in bad["reason"]
        # the partner saw neither: the next quick frame it gets is a later, good one
        await one.send_raw('{"t":"quick","msg":"hello"}')
        seen = await two.until(lambda f: f.get("t") == "quick")
        assert seen["msg"] == "hello"
        assert not any(f.get("t") == "quick" and f.get("msg") != "hello" for _, f in two.frames)
        await one.close()
        await two.close()

    asyncio.run(main())


def test_quick_messages_are_rate_limited_per_seat(server: ServerProcess) -> None:
    async def main() -> None:
        table, one, two = await pair(server)
        sent = QUICK_BURST + 3
        for _ in range(sent):
            await one.send_raw('{"t":"quick","msg":"thanks"}')
        limited = await one.until(lambda f: f.get("t") == "reject")
        assert limited["code"] == "rate_limited" and "quick" in limited["reason"]
        # a second connection of the same seat shares the allowance
        again = Client(server, table, 0, guest=one.guest)
        await again.connect()
        await again.send_raw('{"t":"quick","msg":"thanks"}')
        also = await again.until(lambda f: f.get("t") in ("reject", "quick"))
        assert also["t"] == "reject" and also["code"] == "rate_limited"
        await again.close()
        got = [f for _, f in two.frames if f.get("t") == "quick"]
        while len(got) < QUICK_BURST:
            got.append(await two.until(lambda f: f.get("t") == "quick"))
        assert len(got) <= QUICK_BURST + 1  # a token may refill while the burst is read
        await one.close()
        await two.close()

    asyncio.run(main())


def test_spectators_cannot_send_quick_messages(server: ServerProcess) -> None:
    async def main() -> None:
        table, one, two = await pair(server)
        watcher = Client(server, table, None)
        await watcher.connect()
        await watcher.send_raw('{"t":"quick","msg":"hello"}')
        refused = await watcher.until(lambda f: f.get("t") == "reject")
        assert refused["code"] == "spectator"
        for client in (one, two, watcher):
            await client.close()

    asyncio.run(main())


def test_the_quick_list_is_the_documented_one() -> None:
    assert {"hello", "well_played", "thanks", "one_moment"} <= set(QUICK_MESSAGES)


# --- the tutorial ------------------------------------------------------------------------------

def test_the_tutorial_deck_deals_the_scripted_hand() -> None:
    rules = FIBUR.for_players(2)
    cut = deal_cut(2, rules, False)
    dealt = deal_from_order(list(tutorial_order(rules, cut)), players=2, dealer=DEALER,
                            rules=rules, cut=cut)
    assert dealt.first_player == PLAYER_SEAT

    def faces(cards: tuple[int, ...]) -> list[str]:
        return sorted(card_str(c) for c in cards)

    assert faces(dealt.hands[PLAYER_SEAT]) == sorted(PLAYER_HAND.split())
    assert faces(dealt.pozzetti[0]) == sorted(PLAYER_POZZETTO.split())
    assert card_str(dealt.stock[0]) == FIRST_DRAW
    assert len(set(dealt.all_cards())) == 108
    assert len(dealt.hands[BOT_SEAT]) == 11


def test_a_tutorial_table_plays_the_script_to_the_close(server: ServerProcess) -> None:
    ada = server.guest("Newcomer")
    response = post(server, "/api/tutorial", ada)
    assert response.status_code == 201, response.text
    table = response.json()
    assert table["steps"] == ["draw", "meld", "attach", "pozzetto", "close"]
    assert table["config"]["tutorial"] is True and table["config"]["public"] is False

    async def main() -> None:
        me = Client(server, table, PLAYER_SEAT, guest=ada)
        await me.connect()
        script = ["draw", "meld 4H 5H 6H 7H 8H", "attach 1 9H 10H", "meld KC KD KS",
                  "attach 1 JH QH", "meld 3S 4S 5S 6S", "meld 7C 7D 7S", "meld 9D 9C 9S",
                  "discard 4D"]
        for action in script:
            await me.my_turn()
            answer = await me.act(action)
            assert answer["t"] == "ack", (action, answer)
        over = next(e for e in me.events.values() if e and e.get("type") == "HandOver")
        assert over["reason"] == "closed" and over["closer"] == PLAYER_SEAT
        await me.close()

    asyncio.run(main())


def test_the_guided_hand_is_not_a_match_of_the_profile(server: ServerProcess) -> None:
    """Found by hand: the guided hand counted in an account's history and statistics."""
    account = httpx.post(f"{server.base}/api/accounts", json={
        "username": "Tutorial_Lia", "password": "correct horse"}).json()
    token = account["token"]
    table = post(server, "/api/tutorial", token).json()

    async def main() -> None:
        me = Client(server, table, PLAYER_SEAT, guest=token)
        await me.connect()
        for action in ["draw", "meld 4H 5H 6H 7H 8H", "attach 1 9H 10H", "meld KC KD KS",
                       "attach 1 JH QH", "meld 3S 4S 5S 6S", "meld 7C 7D 7S", "meld 9D 9C 9S",
                       "discard 4D"]:
            await me.my_turn()
            assert (await me.act(action))["t"] == "ack", action
        await me.close()

    asyncio.run(main())
    info = httpx.get(f"{server.base}/api/tables/{table['table_id']}",
                     params={"token": table["watch_token"]}).json()
    assert info["status"] == "finished", info
    for _ in range(15):  # a match is recorded within moments of its end: this one never is
        profile = httpx.get(f"{server.base}/api/players/Tutorial_Lia").json()
        assert profile["recent"] == [] and not profile["stats"], profile
        time.sleep(0.2)


# --- the rematch and the invitation ----------------------------------------------------------

def match_over(client: Client) -> bool:
    return any(isinstance(e, dict) and e.get("type") == "MatchOver"
               for e in client.events.values())


async def play_out(client: Client) -> None:
    """Draw and discard the last card offered, at every turn, until the match is over."""
    while not match_over(client):
        try:
            legal = await client.my_turn(timeout=2)
        except TimeoutError:
            continue
        action = "draw" if "draw" in legal["actions"] else next(
            a for a in reversed(legal["actions"]) if a.startswith("discard "))
        await client.act(action)


def test_play_again_sends_each_seat_its_own_new_token_only(server: ServerProcess) -> None:
    ada, bob = server.guest("Ada"), server.guest("Bob")
    table = server.create_table(ada, players=2, mode="smazzate", smazzate=1, bot_delay=0,
                                seats=[{"kind": "human"}, {"kind": "human"}])
    table_id = table["table_id"]

    async def main() -> None:
        one = Client(server, table, 0, guest=ada)
        two = Client(server, table, 1, guest=bob)
        await one.connect()
        await two.connect()
        early = post(server, f"/api/tables/{table_id}/rematch", ada)
        assert early.status_code == 409 and early.json()["code"] == "no_rematch"
        await asyncio.gather(play_out(one), play_out(two))
        stranger = server.guest("Eve")
        refused = post(server, f"/api/tables/{table_id}/rematch", stranger)
        assert refused.status_code == 403 and refused.json()["code"] == "no_rematch"
        answer = post(server, f"/api/tables/{table_id}/rematch", bob)
        assert answer.status_code == 200, answer.text
        offer = answer.json()
        assert offer["seat"] == 1 and offer["by"] == "Bob"
        frame_one = await one.until(lambda f: f.get("t") == "rematch")
        frame_two = await two.until(lambda f: f.get("t") == "rematch")
        assert frame_one["table"] == frame_two["table"] == offer["table_id"]
        assert frame_one["seat"] == 0 and frame_two["seat"] == 1
        assert frame_one["token"] != frame_two["token"] == offer["token"]
        # Ada asks too: the same table, her own seat
        same = post(server, f"/api/tables/{table_id}/rematch", ada).json()
        assert same["table_id"] == offer["table_id"] and same["seat"] == 0
        assert same["token"] == frame_one["token"]
        # a spectator hears of the rematch but gets no token
        watcher = Client(server, table, None)
        await watcher.connect()
        seen = await watcher.until(lambda f: f.get("t") == "rematch")
        assert "token" not in seen and seen["by"] == "Bob"
        # both take their seats at the new table, which starts with the same settings
        new = {"table_id": offer["table_id"], "seats": [{"token": frame_one["token"]},
                                                         {"token": frame_two["token"]}]}
        again_one = Client(server, new, 0, guest=ada)
        again_two = Client(server, new, 1, guest=bob)
        await again_one.connect()
        await again_two.connect()
        legal = await again_one.my_turn()  # the new match has begun: seat 0 plays first
        assert legal["actions"][0] == "draw"
        info = server.http.get(f"/api/tables/{offer['table_id']}",
                               params={"token": frame_one["token"]}).json()
        assert info["config"]["smazzate"] == 1 and info["config"]["players"] == 2
        for client in (one, two, watcher, again_one, again_two):
            await client.close()

    asyncio.run(main())


def test_an_invite_says_who_invites_to_which_table_seat_and_partner(
        server: ServerProcess) -> None:
    ada = server.guest("Marco")
    table = server.create_table(ada, players=4, public=False, creator_seat=0,
                                seats=[{"kind": "human"}, {"kind": "human"},
                                       {"kind": "bot", "level": "basic"}, {"kind": "human"}])
    token = table["seats"][3]["token"]
    info = server.http.get(f"/api/tables/{table['table_id']}/invite", params={"token": token})
    assert info.status_code == 200, info.text
    body = info.json()
    assert body["by"] == "Marco" and body["seat"] == 3 and body["table_id"] == table["table_id"]
    assert [p["seat"] for p in body["partners"]] == [1]
    assert sorted(p["seat"] for p in body["opponents"]) == [0, 2]
    bot = next(p for p in body["opponents"] if p["seat"] == 2)
    assert bot["kind"] == "bot" and bot["level"] == "basic"
    bad = server.http.get(f"/api/tables/{table['table_id']}/invite", params={"token": "nope"})
    assert bad.status_code == 403 and bad.json()["code"] == "bad_token"


def test_a_tutorial_table_comes_back_after_a_restart_with_its_fixed_deal(
        tmp_path: Any) -> None:
    server = ServerProcess(f"sqlite:///{tmp_path / 'burraco.db'}", tmp_path / "server.log")
    server.start()
    try:
        ada = server.guest("Newcomer")
        table = post(server, "/api/tutorial", ada).json()

        async def draw() -> list[str]:
            me = Client(server, table, PLAYER_SEAT, guest=ada)
            await me.connect()
            await me.my_turn()
            assert (await me.act("draw"))["t"] == "ack"
            await me.my_turn()
            await me.send_raw('{"t":"sync"}')
            synced = await me.until(lambda f: f.get("t") == "sync")
            await me.close()
            return sorted(synced["hand"]["hand"])

        before = asyncio.run(draw())
        assert before == sorted([*PLAYER_HAND.split(), FIRST_DRAW])
        server.kill()
        server.start()

        async def after() -> dict[str, Any]:
            me = Client(server, table, PLAYER_SEAT, guest=ada)
            await me.connect()
            synced = await me.until(lambda f: f.get("t") == "sync")
            answer = await me.act("meld 4H 5H 6H 7H 8H")
            await me.close()
            return {"hand": sorted(synced["hand"]["hand"]), "answer": answer,
                    "tutorial": synced["table"]["config"].get("tutorial")}

        resumed = asyncio.run(after())
        assert resumed["hand"] == before and resumed["tutorial"] is True
        assert resumed["answer"]["t"] == "ack"
    finally:
        server.stop()


def test_the_tutorial_bot_plays_the_same_way_every_time() -> None:
    """A stray move of the newcomer gets the same answer at every tutorial table."""
    from burraco.engine.state import HandState
    from burraco.server.seats import SeatBots
    from burraco.server.tutorial import TUTORIAL_BOT_SEED

    rules = FIBUR.for_players(2)
    cut = deal_cut(2, rules, False)
    state = HandState.start(deal_from_order(list(tutorial_order(rules, cut)), players=2,
                                            dealer=DEALER, rules=rules, cut=cut), rules)
    state = state.apply(parse_action("draw"))[0]
    state = state.apply(parse_action("discard KS"))[0]  # the player strays: the bot's turn

    async def game_of(seed: int | None) -> list[str]:
        bots, hand, out = SeatBots(rules, seed=seed), state, []
        while hand.turn == BOT_SEAT and not hand.is_over:
            action = await bots.choose(BOT_SEAT, "basic", hand)
            hand = hand.apply(action)[0]
            out.append(str(action))
        return out

    first = asyncio.run(game_of(TUTORIAL_BOT_SEED))
    assert first and first == asyncio.run(game_of(TUTORIAL_BOT_SEED))
