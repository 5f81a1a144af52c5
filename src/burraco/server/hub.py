"""The live tables of one server: creating them, and rebuilding them after a restart.

On start the hub migrates the database, loads the token key and rebuilds every
table that is waiting or playing: from its latest snapshot (taken at each hand
end) it replays the commands stored since, dealing each hand from the deck
stored for it, and checks that the replay lands exactly on the stored version.
Tables that are over are loaded on demand (a spectator, a late reconnection).

Deal groups (duplicate play) are set up here, and only from server-side code:
``create_table(..., deal_group=ID)`` puts a table in a group (created on first
use with a secret from ``secrets``), whose tables are dealt alike hand by hand.
When a grouped table ends a hand the hub asks the database which held reveals
every table of the group has now played (:func:`repository.group_releases`) and
has each table publish them; it asks again on start, for what a crash left held.
"""

from __future__ import annotations

import asyncio
import gc
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field, replace
from typing import Any, TypeVar

from sqlalchemy import Connection

from burraco.accounts.identity import Guest, Signer, new_id
from burraco.accounts.service import Players
from burraco.engine.actions import parse_action
from burraco.engine.rules import Rules
from burraco.infra.config import ServerConfig
from burraco.infra.db import make_engine, migrate
from burraco.server import rated
from burraco.server.actor import TableActor
from burraco.server.commit_path import build_unit
from burraco.server.commitment import DealSecret
from burraco.server.game import (
    DealSource,
    Game,
    GameError,
    Holder,
    Step,
    fresh_deal,
    group_deal,
)
from burraco.server.ownership import Ownership
from burraco.server.storage import repository as repo
from burraco.server.storage.writer import Writer
from burraco.server.table_items import Reveal
from burraco.server.tables import TableConfig, TableConfigError, TableRequest, build_config
from burraco.server.tutorial import tutorial_deal

T = TypeVar("T")
log = logging.getLogger("burraco.server.hub")


class RecoveryError(RuntimeError):
    """A table's stored history does not replay to its stored version."""


def replay_command(game: Game, command: dict[str, Any],
                   deals: Callable[[int, Rules, int], DealSecret]) -> Step:
    """Apply one stored command again (recovery), with the stored decks."""
    kind, seat, body = command["kind"], command["seat"], command["body"]
    if kind == "open":
        return game.open(deals)
    if kind == "claim":
        return game.claim(seat, body["guest_id"], body["nickname"], deals,
                          arrived=body.get("arrived", True))
    if kind == "arrive":
        return game.arrive(seat, deals)
    if kind == "act":
        return game.act(seat, parse_action(body["action"]), deals)
    if kind == "hint":
        return game.hint(seat, parse_action(body["action"]))
    if kind == "timeout":
        return game.time_out(seat, parse_action(body["action"]), deals)
    if kind == "undo":
        return game.undo(seat)
    if kind == "reveal":
        return game.reveal(body["number"], body["reveal"])
    raise RecoveryError(f"unknown stored command kind {kind!r}")


def rebuild(load: repo.TableLoad) -> Game:
    """The game a table's stored history leads to."""
    config = TableConfig.from_dict(load.config)
    secrets = {n: DealSecret(tuple(g["deck"]), g["salt"], g["cut"])
               for n, g in load.games.items()}

    def deals(number: int, rules: Rules, cut: int) -> DealSecret:
        del rules, cut  # the stored deck carries its own cut
        if number not in secrets:
            raise RecoveryError(f"table {load.table_id}: hand {number} has no stored deck")
        return secrets[number]

    grouped = load.deal_group is not None
    if load.snapshot is not None:
        number = load.snapshot["hand_no"]
        game = Game.from_snapshot(config, load.snapshot, secrets.get(number), grouped=grouped)
    else:
        game = Game.new(config, grouped=grouped)
    for command in load.commands:
        if command["first"] != game.version + 1:
            raise RecoveryError(f"table {load.table_id}: command at version {command['first']} "
                                f"does not follow version {game.version}")
        try:
            game = replay_command(game, command, deals).game
        except GameError as exc:
            raise RecoveryError(f"table {load.table_id}: stored command {command} no longer "
                                f"applies: {exc.reason}") from None
        if game.version != command["last"]:
            raise RecoveryError(f"table {load.table_id}: command {command['first']} replays to "
                                f"version {game.version}, stored {command['last']}")
    if game.version != load.version:
        raise RecoveryError(f"table {load.table_id}: replay reached version {game.version}, "
                            f"the table is at {load.version}")
    return game


MAX_GROUP_ID = 200


def group_settings(config: TableConfig) -> dict[str, Any]:
    """What the tables of a deal group share, so that equal orders deal equal hands.

    Refused (``TableConfigError``): 3 and 5 players, whose hands are dealt
    individually once a score passes a threshold, and rules that deal a hand
    again when nobody took a pozzetto: in both, tables would drift apart.
    """
    if config.players in (3, 5):
        raise TableConfigError("deal_group", "3 and 5 players switch to individual deals as "
                               "scores grow, so tables cannot share deals")
    if config.rules_value().nobody_pozzetto == "redeal":
        raise TableConfigError("deal_group", "rules that deal a hand again cannot share "
                               "deals between tables")
    return {"players": config.players, "rules": config.rules,
            "options": dict(config.options)}


@dataclass
class Hooks:
    """What layers above the table server ask to be told, or to decide (they register here;
    the hub imports none of them)."""

    started: list[Callable[[], Awaitable[None]]] = field(default_factory=list)
    """Run once the hub is up (tables recovered): e.g. record what a crash left unrecorded."""
    stopping: list[Callable[[], Awaitable[None]]] = field(default_factory=list)
    """Run first when the hub stops."""
    finished: list[Callable[[str], None]] = field(default_factory=list)
    """A match ended (its table id): history, statistics and ratings move."""
    may_release: list[Callable[[str], bool]] = field(default_factory=list)
    """Whether a deal group's held reveals may be published now (each must agree)."""


class Hub:
    def __init__(self, settings: ServerConfig) -> None:
        self.settings = settings
        self.engine = make_engine(settings.db_url, sqlite_sync=settings.sqlite_sync)
        sqlite = self.engine.dialect.name == "sqlite"
        self.writer = Writer(self.engine, checkpoint_every=1.0 if sqlite else None)
        self.actors: dict[str, TableActor] = {}
        self.signer: Signer | None = None
        self.broken: dict[str, str] = {}
        self._loading: dict[str, asyncio.Future[TableActor | None]] = {}
        self._settling: set[asyncio.Task[int]] = set()
        self._retiring: dict[str, asyncio.TimerHandle] = {}
        """Finished tables nobody watches, by id: the timer that drops each from memory."""
        self._stopping: set[asyncio.Task[None]] = set()
        self.players = Players(self)
        self.players.avatar_changed.append(self._avatar_changed)
        self.cluster: Ownership | None = None
        """With ``--redis``: this process's part of a cluster (tables owned by lease), plugged
        in by :func:`burraco.server.assembly.new_hub`."""
        self.hooks = Hooks()

    @property
    def tokens(self) -> Signer:
        assert self.signer is not None, "the hub is not started"
        return self.signer

    def identify(self, token: object) -> Guest:
        """Who a token names (an account's session or a guest); ``TokenError`` otherwise."""
        return self.players.identify(token)

    async def read(self, fn: Callable[[Connection], T]) -> T:
        """Run a read-only query in a worker thread."""
        def run() -> T:
            with self.engine.connect() as conn:
                return fn(conn)

        return await asyncio.to_thread(run)

    # --- life -----------------------------------------------------------------------------------

    async def start(self) -> None:
        await asyncio.to_thread(migrate, self.engine)
        self.writer.start()
        self.signer = Signer(await self.writer.run(repo.signing_secret))
        if self.cluster is not None:  # tables are taken by lease, not all by every process
            await self.cluster.start()
            for started in self.hooks.started:
                await started()
            log.warning("burraco server: cluster node %s started", self.cluster.node_id)
            return
        ids = await self.read(repo.live_table_ids)
        for table_id in ids:
            await self._load(table_id)
        for group_id in await self.read(repo.groups_with_held):
            await self.settle_group(group_id)  # reveals a crash may have left held
        for started in self.hooks.started:  # e.g. record the matches a crash left unrecorded
            await started()
        gc.collect()
        gc.freeze()  # what recovery built lives long: keep it out of every later collection
        log.warning("burraco server: %d live tables recovered, %d could not be", len(self.actors),
                    len(self.broken))

    async def stop(self) -> None:
        for task in list(self._settling):
            task.cancel()
        for handle in self._retiring.values():
            handle.cancel()
        self._retiring.clear()
        for stopping in self.hooks.stopping:
            await stopping()
        if self.cluster is not None:
            await self.cluster.drain()  # hands every table over before the database goes
        for actor in list(self.actors.values()):
            actor.close_all(1012, "server restarting")
            await actor.stop()
        await self.writer.close()
        self.engine.dispose()

    async def _load(self, table_id: str) -> TableActor | None:
        load = await self.read(lambda conn: repo.load_table(conn, table_id))
        if load is None:
            return None
        try:
            game = await asyncio.to_thread(rebuild, load)
        except (RecoveryError, ValueError, KeyError) as exc:
            log.error("table %s cannot be rebuilt: %s", table_id, exc)
            self.broken[table_id] = str(exc)
            return None
        deal: DealSource = tutorial_deal if game.config.tutorial else fresh_deal
        if load.deal_group is not None and load.group_secret is not None:
            deal = group_deal(bytes.fromhex(load.group_secret))
        actor = self._new_actor(table_id, game, load.recent_events, load.cmids, deal=deal,
                                group=load.deal_group)
        return actor

    def _new_actor(self, table_id: str, game: Game,
                   recent: list[tuple[int, str, dict[str, Any]]],
                   cmids: dict[tuple[int, str], tuple[int, int]], *,
                   deal: DealSource = fresh_deal, group: str | None = None) -> TableActor:
        def on_hand_end(_table_id: str) -> None:
            if group is not None:
                self._settle_soon(group)
            actor = self.actors.get(table_id)
            if actor is not None and actor.game.status == "finished":
                for finished in self.hooks.finished:  # history, statistics, ratings
                    finished(table_id)

        actor = TableActor(table_id, game, writer=self.writer, settings=self.settings,
                           recent=recent, cmids=cmids, on_idle=self._idle, deal=deal,
                           on_hand_end=on_hand_end)
        actor.read_avatars = self.players.avatars
        if self.cluster is not None:
            actor.on_stale = self.cluster.stale
            actor.on_clock = self.cluster.remember_clock
            actor.clock_resume = self.cluster.clocks.pop(table_id, None)
        self.actors[table_id] = actor
        actor.start()
        return actor

    # --- deal groups ----------------------------------------------------------------------------

    def _settle_soon(self, group_id: str) -> None:
        task = asyncio.get_running_loop().create_task(self.settle_group(group_id))
        self._settling.add(task)
        task.add_done_callback(self._settling.discard)

    async def settle_group(self, group_id: str) -> int:
        """Have each table of the group publish the held reveals the whole group has played.

        Returns how many reveals were asked for.  Safe to run any time and twice:
        a table publishes a hand's reveal once.
        """
        if not all(may(group_id) for may in self.hooks.may_release):
            return 0  # e.g. a daily duplicate's deals stay hidden until its day is over
        try:
            releases = await self.writer.run(lambda conn: repo.group_releases(conn, group_id))
        except Exception:
            log.exception("deal group %s: cannot read what may be revealed", group_id)
            return 0
        for table_id, number, reveal in releases:
            if self.cluster is not None and table_id not in self.actors:
                self.cluster.reveal(table_id, number, reveal)  # its owner publishes it
                continue
            actor = await self.actor_for(table_id)
            if actor is None:
                log.error("deal group %s: table %s cannot publish hand %d's reveal", group_id,
                          table_id, number)
                continue
            actor.submit(Reveal(number, reveal))
        return len(releases)

    def _idle(self, table_id: str) -> None:
        """Retire a finished table nobody watches ``finished_table_seconds`` (a minute) later.

        Told when its last viewer leaves, when it ends with nobody watching (bots or stand-ins
        played it out) and when it is loaded for a reader (an HTTP read, a late reveal).  One
        timer per table, started again at each call; a retired table is loaded again from the
        database when someone asks for it, so finished tables never pile up in memory.
        """
        loop = asyncio.get_running_loop()
        earlier = self._retiring.pop(table_id, None)
        if earlier is not None:
            earlier.cancel()

        def retire() -> None:
            self._retiring.pop(table_id, None)
            actor = self.actors.get(table_id)
            if actor is not None and not actor.subs and actor.game.status == "finished":
                del self.actors[table_id]
                task = loop.create_task(actor.stop())
                self._stopping.add(task)
                task.add_done_callback(self._stopping.discard)

        self._retiring[table_id] = loop.call_later(self.settings.finished_table_seconds, retire)

    async def actor_for(self, table_id: str) -> TableActor | None:
        """The table's actor, loading a table that is over from the database if needed."""
        actor = self.actors.get(table_id)
        if actor is not None or table_id in self.broken or len(table_id) > 32:
            return actor
        if self.cluster is not None and table_id not in self.cluster.owned:
            return None  # another process runs it (or will): only its lease holder loads it
        pending = self._loading.get(table_id)
        if pending is not None:
            return await pending
        future: asyncio.Future[TableActor | None] = asyncio.get_running_loop().create_future()
        self._loading[table_id] = future
        try:
            actor = await self._load(table_id)
            future.set_result(actor)
        except Exception as exc:
            future.set_exception(exc)
            raise
        finally:
            del self._loading[table_id]
        return actor

    # --- guests and tables ----------------------------------------------------------------------

    async def new_guest(self, nickname: str) -> tuple[Guest, str]:
        guest = Guest(new_id(), nickname)
        await self.writer.run(lambda conn: repo.insert_guest(conn, guest.id, guest.nickname))
        return guest, self.tokens.guest_token(guest)

    async def create_table(self, creator: Guest, request: TableRequest, *,
                           deal_group: str | None = None,
                           tutorial: bool = False) -> dict[str, Any]:
        """Create and open a table; raises ``TableConfigError`` for bad settings.

        ``deal_group`` puts the table in that deal group (created on first use):
        hand n is dealt as at every other table of the group, and its reveal is
        held until all of them have played it.  Only server-side code may pass
        it (the HTTP body cannot: a client could otherwise play a group's deals
        ahead of its tables).  Refused for a group whose settings differ or that
        has revealed a deal already.
        """
        return (await self.create_tables(creator, [request], deal_group=deal_group,
                                         tutorial=tutorial))[0]

    async def create_tables(self, creator: Guest, requests: list[TableRequest], *,
                            deal_group: str | None = None,
                            tutorial: bool = False) -> list[dict[str, Any]]:
        """Create several tables at once: all are stored before any starts to play.

        A group's tables must be created this way when bots may play them: a table
        that started alone could end hand 1 before the others join, and once a deal
        is revealed the group takes no new table.  Nothing is created if any
        request is refused.
        """
        engines = tuple(self.settings.engine_commands)
        minimum = (self.settings.rated_min_target, self.settings.rated_min_hands)
        configs = [build_config(request, engines=engines, rated_minimum=minimum)
                   for request in requests]
        if tutorial:  # only server-side code asks: the fixed deck is known to everyone
            configs = [replace(config, tutorial=True) for config in configs]
        for config, request in zip(configs, requests, strict=True):
            refusal = await rated.creation_refusal(
                self.players, creator, config, seated=request.creator_seat is not None)
            if refusal is not None:
                raise TableConfigError("rated", refusal)
        deals: list[DealSource] = []
        for config in configs:
            deals.append(tutorial_deal if config.tutorial else fresh_deal if deal_group is None
                         else await self._join_group(deal_group, config))
        units, opened = [], []
        for config, deal in zip(configs, deals, strict=True):
            table_id = new_id()
            step = Game.new(config, grouped=deal_group is not None).open(deal)
            units.append(build_unit(table_id, 0, step, command={
                "seat": -1, "cmid": "open", "kind": "open", "body": {}, "source": "server"},
                new_table={"creator": creator.id, "config": config.to_dict(),
                           "public": config.public}, deal_group=deal_group))
            opened.append((table_id, step))
        try:
            await self.writer.run(lambda conn: repo.apply_units(conn, units))
        except repo.GroupClosedError as exc:
            raise TableConfigError("deal_group", str(exc)) from None
        actors = []
        for (table_id, step), deal in zip(opened, deals, strict=True):
            if self.cluster is not None:
                await self.cluster.claim_new(table_id)
            recent = [(1 + i, e.kind, e.payload) for i, e in enumerate(step.events)]
            actors.append(self._new_actor(table_id, step.game, recent, {}, deal=deal,
                                          group=deal_group))
        for actor, request in zip(actors, requests, strict=True):
            if request.creator_seat is not None:
                error = await actor.claim(request.creator_seat, creator)
                if error is not None:
                    raise RuntimeError(f"could not seat the creator: {error}")
        if self.cluster is not None:  # new tables go to the least loaded process
            try:
                await self.cluster.balance_new([table_id for table_id, _ in opened])
            except Exception as exc:  # they run here then
                log.warning("cannot balance new tables: %s", exc)
        return [self.table_created(table_id, config)
                for (table_id, _), config in zip(opened, configs, strict=True)]

    async def _join_group(self, group_id: str, config: TableConfig) -> DealSource:
        """The deal source of a new table of ``group_id``, after checking it may join."""
        if not 0 < len(group_id) <= MAX_GROUP_ID:
            raise TableConfigError("deal_group", f"a group id has 1 to {MAX_GROUP_ID} characters")
        settings = group_settings(config)
        secret, stored, closed = await self.writer.run(
            lambda conn: repo.deal_group(conn, group_id, settings))
        if stored != settings:
            raise TableConfigError("deal_group", f"the tables of group {group_id!r} play "
                                   f"{stored}, not {settings}")
        if closed:
            raise TableConfigError("deal_group", f"group {group_id!r} has revealed a deal "
                                   "already: a new table would play known cards")
        return group_deal(bytes.fromhex(secret))

    def table_created(self, table_id: str, config: TableConfig) -> dict[str, Any]:
        base = self.settings.base_url
        seats: list[dict[str, Any]] = []
        for seat, spec in enumerate(config.seats):
            entry: dict[str, Any] = {"seat": seat, "kind": spec.kind, "level": spec.level}
            if spec.kind == "human":
                token = self.tokens.seat_token(table_id, seat)
                entry["token"] = token
                entry["invite"] = f"{base}/play/{table_id}?seat={seat}&token={token}"
            seats.append(entry)
        watch = self.tokens.watch_token(table_id)
        return {
            "table_id": table_id, "config": config.to_dict(), "seats": seats,
            "watch_token": watch, "watch": f"{base}/play/{table_id}?watch={watch}",
            "ws": f"{base.replace('http', 'ws', 1)}/ws/tables/{table_id}",
        }

    async def readable(self, table_id: str) -> TableActor | None:
        """The table for reading (config, game, presence): its actor here, else from storage.

        In a cluster another process may run the table: a copy rebuilt from the
        database answers the HTTP reads (never started: it runs nothing).
        """
        actor = await self.actor_for(table_id)
        if actor is not None or self.cluster is None or len(table_id) > 32:
            return actor
        load = await self.read(lambda conn: repo.load_table(conn, table_id))
        if load is None:
            return None
        try:
            game = await asyncio.to_thread(rebuild, load)
        except (RecoveryError, ValueError, KeyError):
            return None
        copy = TableActor(table_id, game, writer=self.writer, settings=self.settings)
        copy.read_avatars = self.players.avatars
        await copy.load_avatars([h.guest_id for h in game.holders if h is not None])
        return copy

    def _avatar_changed(self, player_id: str, avatar: str) -> None:
        """An account picked an avatar: the tables here where it holds a seat show it now
        (another process's tables show it when the player next joins them)."""
        for actor in self.actors.values():
            actor.avatar_changed(player_id, avatar)

    def holders(self, table_id: str) -> list[Holder | None] | None:
        actor = self.actors.get(table_id)
        return list(actor.game.holders) if actor is not None else None
