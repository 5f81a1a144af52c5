"""The live tables of one server: creating them, and rebuilding them after a restart.

On start the hub migrates the database, loads the token key and rebuilds every
table that is waiting or playing: from its latest snapshot (taken at each hand
end) it replays the commands stored since, dealing each hand from the deck
stored for it, and checks that the replay lands exactly on the stored version.
Tables that are over are loaded on demand (a spectator, a late reconnection).
"""

from __future__ import annotations

import asyncio
import gc
import logging
from collections.abc import Callable
from typing import Any, TypeVar

from sqlalchemy import Connection

from burraco.engine.actions import parse_action
from burraco.engine.rules import Rules
from burraco.server.actor import TableActor, build_unit
from burraco.server.commitment import DealSecret
from burraco.server.config import ServerConfig
from burraco.server.game import Game, GameError, Holder, Step, fresh_deal
from burraco.server.identity import Guest, Signer, new_id
from burraco.server.storage import repository as repo
from burraco.server.storage.db import make_engine, migrate
from burraco.server.storage.writer import Writer
from burraco.server.tables import TableConfig, TableRequest, build_config

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
        return game.claim(seat, body["guest_id"], body["nickname"], deals)
    if kind == "act":
        return game.act(seat, parse_action(body["action"]), deals)
    if kind == "undo":
        return game.undo(seat)
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

    if load.snapshot is not None:
        number = load.snapshot["hand_no"]
        game = Game.from_snapshot(config, load.snapshot, secrets.get(number))
    else:
        game = Game.new(config)
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

    @property
    def tokens(self) -> Signer:
        assert self.signer is not None, "the hub is not started"
        return self.signer

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
        ids = await self.read(repo.live_table_ids)
        for table_id in ids:
            await self._load(table_id)
        gc.collect()
        gc.freeze()  # what recovery built lives long: keep it out of every later collection
        log.warning("burraco server: %d live tables recovered, %d could not be", len(self.actors),
                    len(self.broken))

    async def stop(self) -> None:
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
        actor = self._new_actor(table_id, game, load.recent_events, load.cmids)
        return actor

    def _new_actor(self, table_id: str, game: Game,
                   recent: list[tuple[int, str, dict[str, Any]]],
                   cmids: dict[tuple[int, str], tuple[int, int]]) -> TableActor:
        actor = TableActor(table_id, game, writer=self.writer, settings=self.settings,
                           recent=recent, cmids=cmids, on_idle=self._idle)
        self.actors[table_id] = actor
        actor.start()
        return actor

    def _idle(self, table_id: str) -> None:
        """A finished table lost its last viewer: retire it a minute later if still unwatched."""
        def retire() -> None:
            actor = self.actors.get(table_id)
            if actor is not None and not actor.subs and actor.game.status == "finished":
                del self.actors[table_id]
                asyncio.get_running_loop().create_task(actor.stop())

        asyncio.get_running_loop().call_later(60, retire)

    async def actor_for(self, table_id: str) -> TableActor | None:
        """The table's actor, loading a table that is over from the database if needed."""
        actor = self.actors.get(table_id)
        if actor is not None or table_id in self.broken or len(table_id) > 32:
            return actor
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

    async def create_table(self, creator: Guest, request: TableRequest) -> dict[str, Any]:
        """Create and open a table; raises ``TableConfigError`` for bad settings."""
        config = build_config(request)
        table_id = new_id()
        game = Game.new(config)
        step = game.open(fresh_deal)
        unit = build_unit(table_id, 0, step, command={
            "seat": -1, "cmid": "open", "kind": "open", "body": {}, "source": "server"},
            new_table={"creator": creator.id, "config": config.to_dict(),
                       "public": config.public})
        await self.writer.commit(unit)
        recent = [(1 + i, e.kind, e.payload) for i, e in enumerate(step.events)]
        actor = self._new_actor(table_id, step.game, recent, {(-1, "open"): (1, step.game.version)})
        if request.creator_seat is not None:
            error = await actor.claim(request.creator_seat, creator)
            if error is not None:
                raise RuntimeError(f"could not seat the creator: {error}")
        return self.table_created(table_id, config)

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

    def holders(self, table_id: str) -> list[Holder | None] | None:
        actor = self.actors.get(table_id)
        return list(actor.game.holders) if actor is not None else None
