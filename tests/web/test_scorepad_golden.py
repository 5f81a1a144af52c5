"""The score pad (web/src/scorepad/) scores hands in the browser, offline, with a TypeScript
port of the engine's scoring; this keeps the port exact.

``web/test/fixtures/scorepad.json`` holds, for every preset and every player count, hands
scored by the engine (``score_side``, ``half_up``, ``closing_ready``), whole free-play matches
(``FreePlayMatch``: totals, dealer, winner, the switch to individual play) and tournament
matches (``TournamentMatch``: VP).  Each side is given to the pad as what the table shows
(card points of the melds, burraco counted by kind, closing, pozzetto, cards left), while the
engine scores the real melds those figures come from.  The Vitest file
``web/test/scorepad-engine.test.ts`` feeds the same entries to the pad; this test regenerates
the cases and checks the file still says what the engine says (``BURRACO_UPDATE_FIXTURES=1``
rewrites it).
"""

from __future__ import annotations

import json
import os
import random
from pathlib import Path
from typing import Any

from burraco.arena.runner import play_hand
from burraco.bots import make_bot
from burraco.engine.cards import CARD_FACE, FACES, JOKER, face_str, make_face, parse_faces
from burraco.engine.deal import deal_seeded
from burraco.engine.match import FreePlayMatch, TournamentMatch, scorers
from burraco.engine.melds import Meld, MeldError, burraco_type, meld_from_faces
from burraco.engine.result import hand_result
from burraco.engine.rules import PRESET_NOTES, PRESETS, Rules
from burraco.engine.scoring import Pozzetto, half_up, score_side
from burraco.engine.state import HandState, closing_ready

WEB = Path(__file__).resolve().parents[2] / "web"
FIXTURE = WEB / "test" / "fixtures" / "scorepad.json"
PRESETS_JSON = WEB / "src" / "scorepad" / "presets.json"
"""The presets as the pad carries them (it works offline, without the server's options)."""
PLAYERS = (2, 3, 4, 5, 6)
RULE_FIELDS = (
    "bonuses", "closing", "closing_alternatives", "six_player_closing", "closing_bonus",
    "pozzetto_penalty", "nobody_pozzetto", "target", "three_player_target",
    "five_player_target", "individual_from", "five_player_individual_from", "vp_tables",
    "packs", "three_player_packs", "five_six_player_packs", "hand_size", "pozzetto_size",
    "big_pozzetto_size", "semi_clean", "semi_clean_inner_wild", "semi_clean_set_of_nine",
    "champion_burraco", "set_ranks",
)
# melds of every burraco kind the presets score, and short ones
MELDS = (
    "3H 4H 5H", "7C 7D 7S", "KS KH JK", "AD AC AS AH", "2C 3C 4C 5C", "8S 9S 10S JS QS",
    "QD KD AD", "5S 5S 5H 2D", "9H 10H JK QH KH", "JC JD JH JS JC",
    "3S JK 5S 6S 7S 8S 9S 10S JS", "4C 5C 6C 7C 8C 9C 10C", "5H 6H JK 8H 9H 10H JH",
    "KD KH KS KC KD KH KS 2C", "KD KH KS KC KD KH KS KC 2C", "KD KH KS KC KD KH KS",
    "KD KH KS KC KD KH KS KC", "AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH",
    "2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH", "AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JK QH KH",
    "2C 4C 5C 6C 7C 8C 9C 10C JC", "6D 7D 8D 2S 10D JD QD KD",
    "AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS JK", "3D 3C 3H 3S 3D 3C 3H",
    "AC AD AH AS AC AD AH JK", "3C 3D 3H 3S 3C 3D 3H 3S", "4S 5S 6S 7S 8S 9S 10S JS QS KS",
)


def _jsonable(value: Any) -> Any:
    if isinstance(value, tuple | list):
        return [_jsonable(v) for v in value]
    return value


def _melds_of(rules: Rules) -> list[Meld]:
    out = []
    for text in MELDS:
        try:
            out.append(meld_from_faces(parse_faces(text), rules))
        except MeldError:
            continue  # not a meld under these rules (sets under the International code)
    return out


def _pairs(players: int, solo: int) -> list[list[int]]:
    """The sides once ``solo`` has run out first at 3 or 5 players, as the engine forms them."""
    state = HandState.start(deal_seeded(1, players=players))
    state._form_pairs(solo, [])
    sides = [state.seats_of(side) for side in state.live_sides()]
    return [seats for seats in sides if solo not in seats]


def _side_case(rnd: random.Random, rules: Rules, table: Rules, melds: list[Meld],
               status: Pozzetto, *, closer: bool, big: bool) -> dict[str, Any]:
    """One side: real melds scored by the engine, and the figures the pad is given."""
    chosen = rnd.sample(melds, rnd.randint(0, 5)) if status == "taken" or rnd.random() < .5 \
        else rnd.sample(melds, rnd.randint(0, 2))
    kinds = [kind for m in chosen if (kind := burraco_type(m, rules))]
    if closer and not closing_ready(chosen, table):
        closer = False
    hand = [] if closer and rnd.random() < .5 \
        else [rnd.randrange(FACES) for _ in range(rnd.randint(0, 9))]
    unplayed: list[int] = []
    if status == "taken" and not closer and rnd.random() < .2:
        unplayed = [rnd.randrange(FACES) for _ in range(table.big_pozzetto_size if big else 11)]
    score = score_side(chosen, hand, closed=closer, pozzetto=status, unplayed=unplayed,
                       rules=rules)
    counts: dict[str, int] = {}
    for kind in kinds:
        counts[kind] = counts.get(kind, 0) + 1
    return {
        "entry": {
            "melds": sum(m.points for m in chosen), "burraco": counts, "closed": closer,
            "took": status == "taken", "played": not unplayed,
            "unplayed": -score.pozzetto if unplayed else 0,
            "hand": -score.hand,
        },
        "cards": {"melds": [str(m) for m in chosen], "hand": " ".join(face_str(f) for f in hand)},
        "closing_ready": closing_ready(chosen, table),
        "score": score.to_dict(),
    }


def _hand_case(rnd: random.Random, name: str, players: int) -> dict[str, Any]:
    rules = PRESETS[name]
    table = rules.for_players(players)
    melds = _melds_of(rules)
    if players in (3, 5) and rnd.random() < .7:
        solo = rnd.randrange(players)
        sides = [[solo], *_pairs(players, solo)]
        mode = "pairs"
    else:
        solo = -1
        sides = ([[seat] for seat in range(players)] if players in (3, 5)
                 else [[s for s in range(players) if s % max(players // 2, 2) == side]
                       for side in range(scorers(players))])
        mode = "individual" if players in (3, 5) else "fixed"
    took = [rnd.random() < .6 for _ in sides]
    if mode == "pairs":
        took[0] = True  # the solo player is the one who took the big pozzetto
    closer_side = -1
    if rnd.random() < .7:
        closer_side = rnd.choice([i for i, t in enumerate(took) if t] or [-1])
    anybody = any(took)
    out_sides = []
    seat_totals = [0] * players
    for i, seats in enumerate(sides):
        status: Pozzetto = "taken" if took[i] else "missing" if anybody else "nobody"
        case = _side_case(rnd, rules, table, melds, status, closer=i == closer_side,
                          big=mode == "pairs" and i == 0)
        if case["entry"]["closed"] is False and i == closer_side:
            closer_side = -1
        case["seats"] = seats
        out_sides.append(case)
        for seat in seats:
            split = mode == "pairs" and len(seats) == 2
            total = case["score"]["total"]
            seat_totals[seat] = half_up(total) if split else total
    return {
        "preset": name, "players": players, "mode": mode, "solo": solo, "sides": out_sides,
        "seat_totals": seat_totals,
        "redeal": not anybody and rules.nobody_pozzetto == "redeal",
    }


def _played_hand(name: str, players: int, seed: int, individual: bool) -> dict[str, Any]:
    """A real hand played by bots to its end, read as the table shows it, and its result."""
    rules = PRESETS[name]
    state = HandState.start(deal_seeded(seed, players=players, rules=rules,
                                        individual=individual), rules)
    bots = [make_bot("basic", seed=seed * 10 + s, rules=rules) for s in range(players)]
    state = play_hand(state, bots)
    result = hand_result(state)
    closer_side = state.side_of[state.closer] if state.closer >= 0 else -1
    sides = []
    for seats, score in zip(result.side_seats, result.sides, strict=True):
        side = state.side_of[seats[0]]
        counts: dict[str, int] = {}
        for meld in state.melds[side]:
            if kind := burraco_type(meld, state.rules):
                counts[kind] = counts.get(kind, 0) + 1
        unplayed = [CARD_FACE[c] for s in seats for c in state.pending[s]]
        in_hand = [CARD_FACE[c] for s in seats for c in state.hands[s]]
        sides.append({
            "seats": list(seats), "total": score.total,
            "entry": {
                "melds": sum(m.points for m in state.melds[side]), "burraco": counts,
                "closed": side == closer_side, "took": state.pozzetto_taker[side] >= 0,
                "played": not unplayed, "unplayed": -score.pozzetto if unplayed else 0,
                "hand": -score_side([], in_hand, closed=False, pozzetto="taken").hand,
            },
        })
    pairs = state.mode == "pairs"
    solo = next((seats[0] for seats in result.side_seats if len(seats) == 1), -1) if pairs else -1
    return {"preset": name, "players": players, "seed": seed, "end": state.end_reason,
            "mode": "pairs" if pairs else "individual" if players in (3, 5) else "fixed",
            "solo": solo, "sides": sides, "seat_totals": list(result.seat_totals),
            "redeal": result.redeal}


def _meld_candidates(rnd: random.Random, count: int) -> list[list[int]]:
    """Cards a player might write as one meld: runs, sets, with wilds, aces, slips."""
    out: list[list[int]] = []
    for _ in range(count):
        kind = rnd.random()
        if kind < .5:  # a run of one suit, maybe with a wild, a gap, an ace at either end
            suit, length = rnd.randrange(4), rnd.randint(3, 14)
            start = rnd.randint(1, 15 - length)
            faces = [make_face(1 if r == 14 else r, suit) for r in range(start, start + length)]
            if rnd.random() < .4 and len(faces) > 3:
                faces.pop(rnd.randrange(1, len(faces) - 1))
            if rnd.random() < .6:
                faces.insert(rnd.randrange(len(faces) + 1),
                             rnd.choice([JOKER, make_face(2, rnd.randrange(4))]))
            if rnd.random() < .1:
                faces[rnd.randrange(len(faces))] = make_face(rnd.randint(3, 13), (suit + 1) % 4)
        elif kind < .9:  # a set, maybe with one wild (or two: refused)
            rank = rnd.choice([1, *range(3, 14)])
            faces = [make_face(rank, rnd.randrange(4)) for _ in range(rnd.randint(2, 10))]
            for _ in range(rnd.choice([0, 0, 1, 1, 2])):
                faces.append(rnd.choice([JOKER, make_face(2, rnd.randrange(4))]))
        else:  # anything
            faces = [rnd.randrange(FACES) for _ in range(rnd.randint(2, 8))]
        if max(faces.count(f) for f in faces) <= 3:
            out.append(faces)
    return out


def _meld_cases(rnd: random.Random, name: str) -> list[dict[str, Any]]:
    """The engine's reading of cards written as a meld, as `burraco score --melds` reads them."""
    out = []
    candidates = [parse_faces(text) for text in MELDS] + _meld_candidates(rnd, 100)
    for players in (4, 6):
        rules = PRESETS[name].for_players(players)
        for faces in candidates:
            text = " ".join(face_str(f) for f in faces)
            try:
                meld = meld_from_faces(faces, rules)
            except MeldError as exc:
                out.append({"players": players, "cards": text, "reason": str(exc)})
                continue
            out.append({"players": players, "cards": text, "meld": str(meld),
                        "type": burraco_type(meld, rules), "points": meld.points})
    return out


def _match_case(rnd: random.Random, name: str, players: int, target: int) -> dict[str, Any]:
    options = {"target": target, "three_player_target": target, "five_player_target": target}
    rules = PRESETS[name].with_options(**options)
    first = rnd.choice([None, 0, players - 1, players // 2])
    match = FreePlayMatch(players, rules, first_dealer=first)
    steps = []
    level = rnd.random() < .3  # sometimes the leaders stand level past the target
    while not match.finished and len(steps) < 60:
        count = scorers(players)
        totals = [rnd.choice([-200, -55, 0, 35, 120, 305, 480, 610, 900]) for _ in range(count)]
        if level and max(match.scores) + max(totals) >= target:
            lead = max(range(count), key=lambda k: match.scores[k])
            other = (lead + 1) % count
            totals[other] = match.scores[lead] + totals[lead] - match.scores[other]
            level = False
        match = match.record_hand(totals)
        steps.append({"totals": totals, "scores": list(match.scores), "dealer": match.dealer,
                      "winner": match.winner, "individual": match.individual})
    return {"preset": name, "players": players, "target": target, "first_dealer": first,
            "first_deal": FreePlayMatch(players, rules, first_dealer=first).dealer,
            "steps": steps}


def _tournament_case(rnd: random.Random, name: str, players: int, smazzate: int) -> dict[str, Any]:
    rules = PRESETS[name]
    match = TournamentMatch(smazzate, rules, players=players)
    steps = []
    while not match.finished:
        totals = [rnd.randrange(-60, 300) * 5 for _ in range(2)]
        match = match.record_hand(totals)
        steps.append({"totals": totals, "mp": list(match.mp), "vp": list(match.vp),
                      "dealer": match.dealer})
    return {"preset": name, "players": players, "smazzate": smazzate, "steps": steps}


def _errors(name: str) -> list[dict[str, Any]]:
    """What the engine refuses to score, so the pad refuses it too."""
    rules = PRESETS[name]
    burraco = meld_from_faces(parse_faces("4C 5C 6C 7C 8C 9C 10C"), rules)
    short = meld_from_faces(parse_faces("3H 4H 5H"), rules)
    cases: list[tuple[list[Meld], bool, Pozzetto, list[int]]] = [
        ([burraco], True, "missing", []), ([burraco], True, "nobody", []),
        ([short], True, "taken", []), ([], True, "taken", []),
        ([short], False, "missing", parse_faces("3H 4H 5H 6H 7H 8H 9H 10H JH QH KH")),
    ]
    out = []
    for melds, closed, status, unplayed in cases:
        try:
            score_side(melds, [], closed=closed, pozzetto=status, unplayed=unplayed, rules=rules)
        except ValueError as exc:
            out.append({"preset": name, "entry": {
                "melds": sum(m.points for m in melds),
                "burraco": {"clean": 1} if burraco in melds else {}, "closed": closed,
                "took": status == "taken", "played": not unplayed,
                "unplayed": 130 if unplayed else 0, "hand": 0}, "status": status,
                "engine": str(exc)})
    return out


def build() -> dict[str, Any]:
    rnd = random.Random(2005)
    presets = {name: {**{k: _jsonable(getattr(r, k)) for k in RULE_FIELDS},
                      "note": PRESET_NOTES[name]}
               for name, r in sorted(PRESETS.items())}
    hands, played, matches, tournaments, errors = [], [], [], [], []
    melds: dict[str, list[dict[str, Any]]] = {}
    for name in sorted(PRESETS):
        errors += _errors(name)
        melds[name] = _meld_cases(rnd, name)
        for players in PLAYERS:
            hands += [_hand_case(rnd, name, players) for _ in range(4)]
            played += [_played_hand(name, players, seed, False) for seed in (1, 2)]
            if players in (3, 5):
                played.append(_played_hand(name, players, 3, True))
            for target in (505, 1005, 1505, 2005):
                matches.append(_match_case(rnd, name, players, target))
        for players in (2, 4):
            for smazzate in (3, 4):
                tournaments.append(_tournament_case(rnd, name, players, smazzate))
    halves = [[x, half_up(x)] for x in range(-300, 305, 5)]
    return {"presets": presets, "melds": melds, "hands": hands, "played": played,
            "matches": matches,
            "tournaments": tournaments, "errors": errors, "half_up": halves}


def test_the_pad_fixture_says_what_the_engine_says() -> None:
    data = build()
    if os.environ.get("BURRACO_UPDATE_FIXTURES"):
        FIXTURE.write_text(json.dumps(data, separators=(",", ":")) + "\n")
        PRESETS_JSON.write_text(json.dumps(data["presets"], indent=1) + "\n")
    assert json.loads(PRESETS_JSON.read_text()) == data["presets"], (
        "web/src/scorepad/presets.json is out of date: rerun with BURRACO_UPDATE_FIXTURES=1")
    stored = json.loads(FIXTURE.read_text())
    assert stored == data, ("web/test/fixtures/scorepad.json is out of date: rerun with "
                            "BURRACO_UPDATE_FIXTURES=1 and check the pad's Vitest tests")


def test_the_fixture_covers_every_preset_player_count_and_kind() -> None:
    data = json.loads(FIXTURE.read_text())
    seen = {(h["preset"], h["players"]) for h in data["hands"]}
    assert seen == {(name, n) for name in PRESETS for n in PLAYERS}
    kinds = {k for h in data["hands"] for s in h["sides"] for k in s["entry"]["burraco"]}
    scored = {k for r in PRESETS.values() for k, _ in r.bonuses}
    assert scored <= kinds, f"no case scores {sorted(scored - kinds)}"
    assert any(s["entry"]["closed"] for h in data["hands"] for s in h["sides"])
    assert any(not s["entry"]["played"] for h in data["hands"] for s in h["sides"])
    assert {h["mode"] for h in data["hands"]} == {"fixed", "pairs", "individual"}
    assert any(m["steps"][-1]["winner"] is not None and len(m["steps"]) > 1
               for m in data["matches"])
    real = {(h["preset"], h["players"]) for h in data["played"]}
    assert real == seen
    assert {h["mode"] for h in data["played"]} == {"fixed", "pairs", "individual"}
