"""A synthetic history of rated matches, written as the server writes it, for the screening.

Every match is a real table: opened, its seats claimed, each hand dealt from a seeded deck and
played action by action through the server's :class:`Game`, each step stored as the table's
actor stores it (:func:`build_unit`, ``repository.apply_units``), then recorded into the
accounts' history and ratings by :func:`community.results.record_match`.  Matches are one
short hand each (rated here from one hand, so that a few hundred hands make a history).

The honest population: accounts played by honest scripts of three styles (the beginner bot,
one that throws its highest loose card, one that throws the face most seen already) and bot
seats (beginner, club player), seated at random; two pairs of honest friends who often
partner at four; a few fair matches abandoned by accident.  Planted among them, each planted
account also playing fair matches with everyone else:

* two colluding accounts who partner at four, each seeing the other's hand: when about to
  discard, each throws a card that joins the partner's hidden cards (``cheat_rate`` of the
  time there is one);
* an account that loses on purpose to one other at two (never melds, throws its best
  cards): a rating transfer; the two ask to play from one address;
* an account that abandons its matches against one opponent (a stand-in plays on for it, as
  at the server after the grace time), handing that opponent the win.

Deterministic by seed: the decks come from a per-table secret derived from it, the bots and
the seating from seeded generators.  Run as a program, it screens many seeds and prints the
figures of docs/fair-play.md (``--seeds 20``; ``--large 1500`` times one larger history).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from sqlalchemy import Connection, Engine

from burraco.accounts import screening, store
from burraco.bots import make_bot
from burraco.bots.base import Bot
from burraco.community.collusion import screening_report
from burraco.community.results import record_match
from burraco.engine.actions import Action, Discard, Draw, Pickup
from burraco.engine.cards import CARD_FACE, FACE_IS_WILD, FACE_POINTS, face_rank, face_suit
from burraco.engine.legal import legal_actions
from burraco.engine.state import HandState
from burraco.engine.views import View, view
from burraco.infra.db import make_engine, migrate
from burraco.server.commit_path import build_unit
from burraco.server.game import FINISHED, Game, Step, group_deal
from burraco.server.protocol import server_cmid
from burraco.server.storage import repository as repo
from burraco.server.storage.repository import CommitUnit
from burraco.server.tables import SeatRequest, TableRequest, build_config

NOW = 1_800_000_000.0
"""The history ends just before this moment (a fixed clock: the same seed, the same rows)."""
DAY = 86400.0


class Player(Protocol):
    def choose(self, state: HandState, seat: int, legal: Sequence[Action]) -> Action: ...


@dataclass
class Honest:
    """A seat that sees only its view: a bot of the project, or a script on top of one."""

    bot: Bot
    style: str = "basic"

    def choose(self, state: HandState, seat: int, legal: Sequence[Action]) -> Action:
        seen = view(state, seat, moves=False)
        action = self.bot.act(seen, legal)
        if self.style == "basic" or not isinstance(action, Discard):
            return action
        loose = [a for a in legal if isinstance(a, Discard) and not FACE_IS_WILD[a.face]
                 and _joins(a.face, _faces(seen.hand), skip_one=True) == 0]
        if not loose:
            return action
        if self.style == "dumper":  # throws the loose card worth most
            return max(loose, key=lambda a: (FACE_POINTS[a.face], a.face))
        shown = _shown(seen)  # "safe": the loose face seen most often already
        return max(loose, key=lambda a: (shown.count(a.face), -a.face))


@dataclass
class Colluding:
    """An honest script that, about to discard, throws a card joining the partner's cards
    (it reads the partner's hand from the state: what a second screen would show)."""

    honest: Honest
    rng: random.Random
    rate: float

    def choose(self, state: HandState, seat: int, legal: Sequence[Action]) -> Action:
        action = self.honest.choose(state, seat, legal)
        partner = state.partner_of(seat)
        if not isinstance(action, Discard) or partner is None or self.rng.random() >= self.rate:
            return action
        theirs = [CARD_FACE[c] for c in state.hands[partner]]
        mine = [CARD_FACE[c] for c in state.hands[seat]]
        useful = [a for a in legal if isinstance(a, Discard) and not FACE_IS_WILD[a.face]
                  and _joins(a.face, theirs) > 0]
        if not useful:
            return action
        return min(useful, key=lambda a: (_joins(a.face, mine, skip_one=True), a.face))


@dataclass
class Thrower:
    """Loses on purpose: draws from the stock, never melds, throws its best card."""

    def choose(self, state: HandState, seat: int, legal: Sequence[Action]) -> Action:
        draw = next((a for a in legal if isinstance(a, Draw)), None)
        if draw is not None:
            return draw
        discards = [a for a in legal if isinstance(a, Discard)]
        if discards:
            return max(discards, key=lambda a: (FACE_POINTS[a.face], a.face))
        return next((a for a in legal if not isinstance(a, Pickup)), legal[0])


def _faces(cards: Sequence[int]) -> list[int]:
    return [CARD_FACE[c] for c in cards]


def _shown(seen: View) -> list[int]:
    shown = _faces(seen.pile)
    for side in seen.melds:
        for meld in side:
            shown += _faces(meld.cards)
    return shown


def _joins(face: int, faces: list[int], *, skip_one: bool = False) -> int:
    """How many of ``faces`` make a set or a sequence (one rank apart) with ``face``."""
    rest = list(faces)
    if skip_one and face in rest:
        rest.remove(face)
    rank, suit = face_rank(face), face_suit(face)
    return sum(1 for f in rest if not FACE_IS_WILD[f] and (
        face_rank(f) == rank or (face_suit(f) == suit and abs(face_rank(f) - rank) == 1)))


@dataclass(frozen=True)
class Plan:
    seed: int = 1
    honest: int = 16
    """Accounts that only ever play fair."""
    days: float = 10.0
    fours: int = 70
    """Fair matches at four."""
    twos: int = 50
    """Fair matches at two."""
    friends: int = 2
    """Pairs of honest accounts that often partner at four (fairly): a test for the
    partner signal, which must not flag them."""
    friends_matches: int = 10
    leave_rate: float = 0.03
    """The share of fair matches one of the accounts abandons (honest accidents)."""
    colluding: int = 14
    cheat_rate: float = 0.8
    transfers: int = 20
    abandons: int = 8
    planted: bool = True


@dataclass
class History:
    engine: Engine
    now: float
    names: dict[str, str]
    """Player id -> username."""
    ids: dict[str, str]
    """Username -> player id."""
    honest: list[str]
    """Usernames of the accounts that only ever play fair."""
    planted: dict[str, tuple[str, str]] = field(default_factory=dict)
    """``colluding``, ``transfer`` (loser, winner), ``abandon`` (leaver, favoured): usernames."""
    tables: dict[str, list[str]] = field(default_factory=dict)
    """The planted matches of each kind (and ``friends``: the honest partners' matches)."""
    friends: list[tuple[str, str]] = field(default_factory=list)
    """Honest accounts that partner often: usernames."""


@dataclass
class Seating:
    """One seat of a match to play: an account and how it plays, or a bot level."""

    player: Player
    account: str | None = None
    level: str | None = None


STYLES = ("basic", "dumper", "safe", "basic")
PLANTED = {"colluding": ("Corvo", "Gazza"), "transfer": ("Feeder", "Farmer"),
           "abandon": ("Quitter", "Lucky")}
HONEST_NAMES = ("Ada", "Bruno", "Carla", "Dario", "Elena", "Franco", "Giulia", "Hugo",
                "Irene", "Jacopo", "Katia", "Luca", "Marta", "Nino", "Olga", "Piero", "Rita",
                "Sara", "Tito", "Ugo", "Vera", "Walter", "Zeno", "Alba", "Bice", "Cesare",
                "Delia", "Enzo", "Fiora", "Gino", "Ilda", "Lino")


def build_history(path: Path, plan: Plan = Plan()) -> History:
    """A fresh SQLite database at ``path`` holding the history of ``plan``."""
    if plan.honest > len(HONEST_NAMES):
        raise ValueError(f"honest: at most {len(HONEST_NAMES)} accounts")
    engine = make_engine(f"sqlite:///{path}", sqlite_sync="normal")
    migrate(engine)
    rng = random.Random(plan.seed)
    honest = list(HONEST_NAMES[:plan.honest])
    planted = [n for pair in PLANTED.values() for n in pair] if plan.planted else []
    everyone = honest + planted
    ids = {name: f"p{plan.seed}-{i:02d}" for i, name in enumerate(everyone)}
    history = History(engine, NOW, {v: k for k, v in ids.items()}, ids, honest)
    styles = {name: STYLES[i % len(STYLES)] for i, name in enumerate(everyone)}
    with engine.begin() as conn:
        for name in everyone:
            store.create_account(conn, ids[name], name, "no-login", f"s-{ids[name]}",
                                 "0" * 64)
    # each match: its seats (a name, or None for a bot) and what is planted there
    plans: list[tuple[list[str | None], str]] = []
    for _ in range(plan.fours):
        humans = rng.choice((2, 3, 4))
        seats: list[str | None] = [*rng.sample(everyone, humans), *[None] * (4 - humans)]
        rng.shuffle(seats)
        plans.append((seats, ""))
    for _ in range(plan.twos):
        pair: list[str | None] = list(rng.sample(everyone, 2))
        if rng.random() < 0.15:
            pair[1] = None
        plans.append((pair, ""))
    for k in range(plan.friends):
        a, b = honest[2 * k], honest[2 * k + 1]
        history.friends.append((a, b))
        for _ in range(plan.friends_matches):
            east, west = rng.sample([n for n in everyone if n not in (a, b)], 2)
            plans.append(([a, east, b, west], "friends"))
    if plan.planted:
        a, b = PLANTED["colluding"]
        for _ in range(plan.colluding):
            others = [rng.choice([n for n in everyone if n not in (a, b)])
                      if rng.random() < 0.6 else None for _ in range(2)]
            if others[0] is not None and others[0] == others[1]:
                others[1] = None
            plans.append(([a, others[0], b, others[1]], "colluding"))
        loser, winner = PLANTED["transfer"]
        plans += [([loser, winner] if i % 2 else [winner, loser], "transfer")
                  for i in range(plan.transfers)]
        leaver, favoured = PLANTED["abandon"]
        plans += [([leaver, favoured] if i % 2 else [favoured, leaver], "abandon")
                  for i in range(plan.abandons)]
        history.planted = dict(PLANTED)
    timed = sorted(((NOW - rng.uniform(0.01, plan.days) * DAY, seats, kind)
                    for seats, kind in plans), key=lambda item: item[0])
    for index, (when, seats, kind) in enumerate(timed):
        table_id = f"s{plan.seed}t{index:04d}"
        secret = hashlib.sha256(f"{plan.seed}:{table_id}".encode()).digest()
        seating = []
        for seat, holder in enumerate(seats):
            bot_seed = rng.randrange(1 << 30)
            if holder is None:
                level = "advanced" if rng.random() < 0.25 else "basic"
                seating.append(Seating(Honest(make_bot(level, seed=bot_seed)), level=level))
                continue
            player: Player = Honest(make_bot("basic", seed=bot_seed), styles[holder])
            if kind == "colluding" and seat in (0, 2):
                player = Colluding(Honest(make_bot("basic", seed=bot_seed), styles[holder]),
                                   random.Random(bot_seed), plan.cheat_rate)
            elif kind == "transfer" and holder == PLANTED["transfer"][0]:
                player = Thrower()
            seating.append(Seating(player, account=ids[holder]))
        leave = seats.index(PLANTED["abandon"][0]) if kind == "abandon" else None
        if kind in ("", "friends") and rng.random() < plan.leave_rate:
            leave = rng.choice([s for s, n in enumerate(seats) if n is not None])
        with engine.begin() as conn:
            play_match(conn, table_id, seating, secret, history.names, leaver=leave,
                       leave_after=2 + rng.randrange(6))
            addresses: dict[str, str | None] = {ids[n]: _address(plan.seed, n, kind)
                                                for n in seats if n is not None}
            screening.paired(conn, table_id, addresses, "pool")
            assert record_match(conn, table_id, now=when)
        if kind:
            history.tables.setdefault(kind, []).append(table_id)
    return history


def _address(seed: int, name: str, kind: str) -> str:
    """The keyed hash of a player's address: the planted loser and winner share one."""
    if kind == "transfer" or name in PLANTED["transfer"]:
        name = "household"
    return hashlib.sha256(f"address:{seed}:{name}".encode()).hexdigest()


def play_match(conn: Connection, table_id: str, seating: list[Seating], secret: bytes,
               names: dict[str, str], *, leaver: int | None = None,
               leave_after: int = 0) -> None:
    """Open a rated one-hand table, claim its seats, play it out and store every step."""
    request = TableRequest(
        players=len(seating), mode="smazzate", smazzate=1, rated=True, public=False,
        seats=[SeatRequest(kind="bot", level=s.level) if s.level else SeatRequest(kind="human")
               for s in seating])
    config = build_config(request, rated_minimum=(0, 1))
    deal = group_deal(secret)
    game = Game.new(config)
    units: list[CommitUnit] = []

    def commit(before: Game, step: Step, seat: int, cmid: str, kind: str,
               body: dict[str, object], source: str) -> Game:
        units.append(build_unit(table_id, before.version, step, command={
            "seat": seat, "cmid": cmid, "kind": kind, "body": body, "source": source},
            new_table={"creator": None, "config": config.to_dict(), "public": False}
            if kind == "open" else None))
        return step.game

    game = commit(game, game.open(deal), -1, "open", "open", {}, "server")
    for seat, seated in enumerate(seating):
        if seated.account is not None:
            name = names[seated.account]
            game = commit(game, game.claim(seat, seated.account, name, deal), seat,
                          server_cmid("claim", game.version + 1), "claim",
                          {"guest_id": seated.account, "nickname": name}, "client")
    standin = Honest(make_bot("basic", seed=len(table_id)))
    played = [0] * len(seating)
    while game.status != FINISHED:
        assert game.hand is not None and game.turn is not None
        seat = game.turn
        seated = seating[seat]
        source, player = ("bot", seated.player) if seated.level else ("client", seated.player)
        if seat == leaver and played[seat] >= leave_after:
            source, player = "standin", standin
        action = player.choose(game.hand, seat, legal_actions(game.hand))
        played[seat] += 1
        cmid = f"m{game.version + 1}" if source == "client" else server_cmid(
            source, game.version + 1)
        game = commit(game, game.act(seat, action, deal), seat, cmid, "act",
                      {"action": str(action)}, source)
    repo.apply_units(conn, units)


def measure(seeds: int, folder: Path, alphas: tuple[float, ...] = (0.01, 0.2)) -> None:
    """The figures of docs/fair-play.md: each seed's planted history and the same without
    the plant, screened at each of ``alphas`` (the default first)."""
    rows = []
    for seed in range(1, seeds + 1):
        for planted in (True, False):
            path = folder / f"history-{seed}-{int(planted)}.db"
            history = build_history(path, Plan(seed=seed, planted=planted))
            for alpha in alphas:
                started = time.perf_counter()
                with history.engine.connect() as conn:
                    report = screening_report(conn, now=history.now, alpha=alpha)
                took = time.perf_counter() - started
                rows.append({"alpha": alpha, **summary(history, report, took, seed)})
                print(json.dumps(rows[-1]), flush=True)
            history.engine.dispose()
    for alpha in alphas:
        chosen = [r for r in rows if r["alpha"] == alpha]
        planted_rows = [r for r in chosen if r["planted"]]
        print(f"alpha {alpha}:")
        for kind in ("partner_signal", "rating_transfer", "abandon_favour", "pair_frequency",
                     "shared_address"):
            print(f"  planted pair caught by {kind} in "
                  f"{sum(kind in r['caught'] for r in planted_rows)} of {len(planted_rows)} "
                  "seeds")
        honest = sum(r["honest_accounts"] for r in chosen)
        wrong = sum(len(r["honest_flagged"]) for r in chosen)
        print(f"  honest accounts flagged: {wrong} of {honest}; histories with an honest "
              f"account flagged: {sum(1 for r in chosen if r['honest_flagged'])} of "
              f"{len(chosen)}")
    print(f"report: {max(r['seconds'] for r in rows):.2f} s at most for "
          f"{max(r['matches'] for r in rows)} matches")


def time_large(matches: int, folder: Path) -> None:
    """How long the report takes on a larger history (two thirds of it at four)."""
    plan = Plan(seed=99, fours=matches * 2 // 3, twos=matches // 3)
    started = time.perf_counter()
    history = build_history(folder / "large.db", plan)
    built = time.perf_counter() - started
    started = time.perf_counter()
    with history.engine.connect() as conn:
        report = screening_report(conn, now=history.now)
    took = time.perf_counter() - started
    history.engine.dispose()
    checked = report["checked"]
    print(f"built in {built:.1f} s; report in {took:.2f} s: {checked['matches']} matches, "
          f"{checked['hands_replayed']} hands at four replayed, {checked['discards']} "
          f"discards scored, {len(report['flags'])} flags")


def summary(history: History, report: dict[str, Any], took: float,
            seed: int) -> dict[str, Any]:
    """What one screened history shows: the planted pairs caught and the honest flagged."""
    planted_names = {n for pair in history.planted.values() for n in pair}
    caught: dict[str, list[str]] = {}
    for flag in report["flags"]:
        names = tuple(p["username"] for p in flag["players"])
        for kind, pair in history.planted.items():
            if set(names) == set(pair):
                caught.setdefault(flag["kind"], []).append(kind)
    honest_flagged = sorted({p["username"] for f in report["flags"] for p in f["players"]
                             if p["username"] not in planted_names})
    signal = next((f for f in report["flags"] if f["kind"] == "partner_signal"
                   and {p["username"] for p in f["players"]}
                   == set(history.planted.get("colluding", ()))), None)
    return {"seed": seed, "planted": bool(history.planted), "matches": report["checked"]["matches"],
            "seconds": round(took, 3), "caught": caught, "honest_flagged": honest_flagged,
            "honest_accounts": len(history.honest),
            "signal": None if signal is None else {
                "statistic": signal["statistic"], "baseline": signal["baseline"],
                "threshold": signal["threshold"], "z": signal["details"]["z"]},
            "flags": [(f["kind"], [p["username"] for p in f["players"]])
                      for f in report["flags"]]}


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description="screen synthetic histories, seed by seed")
    parser.add_argument("--seeds", type=int, default=10, help="histories of each kind")
    parser.add_argument("--large", type=int, default=0,
                        help="instead: time the report on one history of this many matches")
    arguments = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        if arguments.large:
            time_large(arguments.large, Path(folder))
        else:
            measure(arguments.seeds, Path(folder))
