"""One owner per live table: an asyncio task that handles the table's commands one at a time.

Everything that may change a table goes through :meth:`TableActor.submit` and
is handled in order by :meth:`TableActor.run`.  A command is checked (seat,
client message id, expected version, turn), applied by the engine through
:class:`~burraco.server.game.Game`, and its events are appended to the
database in one transaction; only after the commit does the actor adopt the
new game, send each connection the events as its seat may see them, and ack.
Every client command is answered by exactly one ``ack`` or ``reject``.

The actor also runs what happens by itself at a table: bot seats and
stand-ins for dropped players (:mod:`.table_bots`), the grace countdown of a dropped
player and the turn clock (:mod:`.table_clock`); the commit path's pieces are in
:mod:`.commit_path`, the queue's items in :mod:`.table_items`.

A table of a deal group deals from the group (``deal``), tells the hub when a
hand ends (``on_hand_end``) and publishes a held reveal when the hub says every
table of the group has played that hand (:class:`Reveal`).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections import deque
from collections.abc import Awaitable, Callable
from typing import Any

from burraco.accounts import avatars
from burraco.accounts.identity import Guest
from burraco.engine.actions import ActionParseError, parse_action
from burraco.engine.legal import legal_actions
from burraco.infra.config import ServerConfig
from burraco.server import metrics
from burraco.server.commit_path import RecentIds, build_unit
from burraco.server.deltas import DeltaMaker, with_delta
from burraco.server.game import (
    FINISHED,
    ONE_SEAT,
    PLAYING,
    DealSource,
    Game,
    GameError,
    Step,
    TableEvent,
    fresh_deal,
    holds_another_seat,
)
from burraco.server.projection import frame, frames_for, project, sync_body
from burraco.server.protocol import Act, Hello, HintAsk, Undo, ack, dumps, reject, server_cmid
from burraco.server.quick import QuickLimits, quick_frame, quick_problem
from burraco.server.rematch import Rematch
from burraco.server.seats import SeatBots
from burraco.server.storage import repository as repo
from burraco.server.storage.writer import Writer
from burraco.server.table_bots import SeatPlayers
from burraco.server.table_clock import TurnClock
from burraco.server.table_core import RECENT_EVENTS, log
from burraco.server.table_hints import TableHints
from burraco.server.table_items import (
    BotCommand,
    Claim,
    ClientCommand,
    Conn,
    HintReady,
    Item,
    Join,
    Leave,
    Resync,
    Reveal,
    Timer,
    settle,
)
from burraco.server.tutorial import TUTORIAL_BOT_SEED


class TableActor(TurnClock, SeatPlayers, TableHints):
    def __init__(
        self, table_id: str, game: Game, *, writer: Writer, settings: ServerConfig,
        recent: list[tuple[int, str, dict[str, Any]]] | None = None,
        cmids: dict[tuple[int, str], tuple[int, int]] | None = None,
        on_idle: Callable[[str], None] | None = None,
        deal: DealSource = fresh_deal,
        on_hand_end: Callable[[str], None] | None = None,
    ) -> None:
        self.table_id = table_id
        self.game = game
        self.deal = deal
        """Where the next hands' decks come from: the CSPRNG, or the table's deal group."""
        self._on_hand_end = on_hand_end
        self.writer = writer
        self.settings = settings
        self.config = game.config
        # payloads kept as JSON text: strings are invisible to the garbage collector, and a
        # thousand tables' worth of small dicts would make every full collection crawl
        self.log: deque[tuple[int, str, str]] = deque(
            ((v, kind, json.dumps(payload)) for v, kind, payload in recent or ()),
            maxlen=RECENT_EVENTS)
        self.cmids = RecentIds(cmids or {})
        self.deltas = DeltaMaker()
        self.subs: list[Conn] = []
        self.online = [0] * self.config.players
        self.grace: dict[int, tuple[float, asyncio.TimerHandle]] = {}
        self.standin: set[int] = set()
        self.bots = SeatBots(game.rules, engines=settings.engine_commands,
                             deadline_ms=settings.engine_deadline_ms,
                             seed=TUTORIAL_BOT_SEED if self.config.tutorial else None)
        self._bot_version = -1
        self._hinting: set[int] = set()
        self._bot_task: asyncio.Task[None] | None = None
        self._clock_key: object = None
        self._clock_deadline: float | None = None
        self._clock_handle: asyncio.TimerHandle | None = None
        self._queue: asyncio.Queue[Item | None] = asyncio.Queue()
        self._task: asyncio.Task[None] | None = None
        self._on_idle = on_idle
        self.commands = 0
        self.quick_limits = QuickLimits()
        self.rematch: Rematch | None = None
        """The match's next table, once a holder asked for one (kept in memory only)."""
        self.rematch_lock = asyncio.Lock()
        self.clock_resume: tuple[object, float] | None = None
        """(turn key, deadline) a previous owner's clock had: kept if that turn goes on."""
        self.on_clock: Callable[[str, object, float | None], None] | None = None
        """Told each new turn deadline (a cluster keeps it for the next owner)."""
        self.on_stale: Callable[[str], None] | None = None
        """Called when the database refuses a commit because the table moved on elsewhere
        (another process of a cluster owns it now): this actor must stop."""
        self.avatars: dict[str, str] = {}
        """The avatar of each holder that is an account, by guest id (a guest shows the
        guests' one): read when the table starts and each time an account takes up a seat."""
        self.read_avatars: Callable[[list[str]], Awaitable[dict[str, str]]] | None = None
        """Reads accounts' avatars (the hub's accounts); ``None``: every holder is a guest."""

    # --- running -----------------------------------------------------------------------------

    def start(self) -> None:
        self._task = asyncio.create_task(self.run(), name=f"table-{self.table_id}")
        self._after_change()

    async def stop(self) -> None:
        self._queue.put_nowait(None)
        if self._task is not None:
            await self._task
        while not self._queue.empty():  # what was queued behind the stop is never handled
            left = self._queue.get_nowait()
            if isinstance(left, Join | Claim):
                settle(left, False if isinstance(left, Join) else "table_closed")
        for _, handle in self.grace.values():
            handle.cancel()
        if self._clock_handle is not None:
            self._clock_handle.cancel()
        if self._bot_task is not None:
            self._bot_task.cancel()
        await asyncio.to_thread(self.bots.close)

    def submit(self, item: Item) -> bool:
        """Queue an item; a client command is refused (False) when the table is overloaded."""
        if isinstance(item, ClientCommand) and self._queue.qsize() >= self.settings.queue_limit:
            return False
        self._queue.put_nowait(item)
        return True

    async def run(self) -> None:
        holders = [h.guest_id for h in self.game.holders if h is not None]
        if await self.load_avatars(holders) and self.subs:
            self._send_presence()
        while True:
            item = await self._queue.get()
            if item is None:
                return
            if isinstance(item, ClientCommand | Resync):
                item.conn.pending -= 1
            try:
                await self._handle(item)
            except Exception:  # a bug must not kill the table: log it, answer, carry on
                log.exception("table %s: failed handling %r", self.table_id, item)
                if isinstance(item, Join):
                    settle(item, False)
                    item.conn.close(1011, "internal error")
                if isinstance(item, ClientCommand):
                    self._reject(item.conn, "internal_error", "the server failed on this "
                                 "command (a bug); send sync to see the table", item.message.id)
            # not kept while waiting for the next one: a table left alone would otherwise hold
            # its last item for good, often a Leave and with it a closed connection's socket,
            # request scope and buffers (about 20 kB a table)
            del item

    async def _handle(self, item: Item) -> None:
        if isinstance(item, ClientCommand):
            await self._client_command(item.conn, item.message)
        elif isinstance(item, BotCommand):
            await self._bot_command(item)
        elif isinstance(item, Join):
            settle(item, await self._join(item.conn, item.hello))
        elif isinstance(item, Leave):
            self._leave(item.conn)
        elif isinstance(item, Resync):
            if item.conn in self.subs:  # a connection the table did not admit sees nothing
                self._send_sync(item.conn)
        elif isinstance(item, Timer):
            await self._timer(item)
        elif isinstance(item, Claim):
            if item.guest.account:
                await self.load_avatars([item.guest.id])
            item.done.set_result(await self._claim(item.seat, item.guest, None))
        elif isinstance(item, Reveal):
            await self._reveal(item)
        elif isinstance(item, HintReady):
            await self._give_hint(item)

    # --- commands ------------------------------------------------------------------------------

    def _reject(self, conn: Conn | None, code: str, reason: str, cmid: str | None,
                **extra: Any) -> None:
        if conn is not None:
            conn.send(dumps(reject(code, reason, cmid, self.game.version, **extra)))

    async def _client_command(self, conn: Conn, message: Act | Undo | HintAsk) -> None:
        cmid = message.id
        seat = conn.seat
        if conn not in self.subs:  # never admitted (or gone): its hello was not accepted
            return self._reject(conn, "hello_required", "this connection has not joined the "
                                "table", cmid)
        if seat is None:
            return self._reject(conn, "spectator", "spectators cannot act", cmid)
        holder = self.game.holders[seat] if 0 <= seat < len(self.game.holders) else None
        if holder is None or conn.guest is None or holder.guest_id != conn.guest.id:
            # §4: a held seat needs its seat token *and* its holder's guest token
            return self._reject(conn, "seat_taken", f"seat {seat} is not held by this "
                                "connection's guest", cmid)
        if message.seat is not None and message.seat != seat:
            return self._reject(conn, "not_your_seat", f"this connection holds seat {seat}, "
                                f"not seat {message.seat}", cmid)
        done = self.cmids.get((seat, cmid))
        if done is None and self.cmids.forgot:  # an id too old for memory may be stored
            done = await self._stored_versions(seat, cmid)
        if done is not None:
            return self._reject(
                conn, "duplicate_message",
                f"message {cmid!r} was already applied as versions {done[0]}-{done[1]}",
                cmid, applied={"from": done[0], "to": done[1]})
        if isinstance(message, HintAsk) and not self.config.casual:  # whatever the position
            return self._ask_hint(conn, seat, message)  # refused there: hint_not_allowed
        if self.game.status != PLAYING:
            return self._reject(conn, "not_playing", f"the table is {self.game.status}", cmid)
        if message.v != self.game.version:
            return self._reject(
                conn, "stale_version",
                f"you sent version {message.v} but the table is at {self.game.version}: apply "
                "the events you missed (or send sync) and retry", cmid)
        if isinstance(message, HintAsk):
            return self._ask_hint(conn, seat, message)
        try:
            if isinstance(message, Act):
                try:
                    action = parse_action(message.action)
                except ActionParseError as exc:
                    return self._reject(conn, "bad_action", str(exc), cmid)
                step = self.game.act(seat, action, self.deal)
                kind, body = "act", {"action": str(action)}
            else:
                step = self.game.undo(seat)
                kind, body = "undo", {}
        except GameError as exc:
            return self._reject(conn, exc.code, exc.reason, cmid)
        await self._commit(step, seat=seat, cmid=cmid, kind=kind, body=body, source="client",
                           conn=conn)

    async def _claim(self, seat: int, guest: Guest, conn: Conn | None) -> str | None:
        """Bind ``seat`` to ``guest``; ``None`` when done, else the error code.

        Without a connection (the creator's seat, taken when the table is made) the holder has
        not come yet: the match waits for them (:meth:`_arrive`).
        """
        arrived = conn is not None
        try:
            step = self.game.claim(seat, guest.id, guest.nickname, self.deal, arrived=arrived)
        except GameError as exc:
            if exc.code == "already_holder":
                return None
            self._reject(conn, exc.code, exc.reason, None)
            return exc.code
        body: dict[str, Any] = {"guest_id": guest.id, "nickname": guest.nickname}
        if not arrived:
            body["arrived"] = False
        ok = await self._commit(step, seat=seat, cmid=server_cmid("claim", self.game.version + 1),
                                kind="claim", body=body, source="client", conn=conn)
        return None if ok else "storage_error"

    async def _arrive(self, seat: int, conn: Conn) -> bool:
        """The holder of a seat taken for them came to the table (their first connection)."""
        step = self.game.arrive(seat, self.deal)
        return await self._commit(step, seat=seat,
                                  cmid=server_cmid("arrive", self.game.version + 1),
                                  kind="arrive", body={}, source="client", conn=conn)

    async def _reveal(self, item: Reveal) -> None:
        if item.number not in self.game.held:
            return  # published already (the hub may ask twice)
        step = self.game.reveal(item.number, item.reveal)
        await self._commit(step, seat=-1, cmid=f"reveal-{item.number}", kind="reveal",
                           body={"number": item.number, "reveal": item.reveal},
                           source="server")
        if not self.subs and self.game.status == FINISHED and self._on_idle is not None:
            self._on_idle(self.table_id)  # loaded only to publish this: retire it again

    async def _commit(self, step: Step, *, seat: int, cmid: str, kind: str,
                      body: dict[str, Any], source: str, conn: Conn | None = None) -> bool:
        """Store the step, then adopt it, broadcast its events and ack; False if not stored."""
        previous = self.game
        before = previous.version
        first = before + 1
        unit = build_unit(self.table_id, before, step, command={
            "seat": seat, "cmid": cmid, "kind": kind, "body": body, "source": source})
        started = time.perf_counter()
        try:
            await self.writer.commit(unit)
        except Exception as exc:  # the database's words (SQL, parameters) stay in the log
            metrics.COMMANDS.labels("refused").inc()
            if isinstance(exc, repo.ConflictError) and self.on_stale is not None:
                self.on_stale(self.table_id)
            if source == "client" and await self._reject_if_applied(conn, seat, cmid):
                return False
            log.error("table %s: storing versions %d-%d failed: %s", self.table_id, first,
                      step.game.version, exc)
            self._reject(conn, "storage_error", "the database did not take the command; "
                         "nothing changed, retry", cmid if source == "client" else None)
            return False
        metrics.COMMIT_SECONDS.observe(time.perf_counter() - started)
        metrics.COMMANDS.labels("applied").inc()
        self.game = step.game
        self.commands += 1
        if kind in ("act", "undo", "hint") and source == "client":  # the server's ids are its own
            self.cmids.add((seat, cmid), (first, step.game.version))
        try:
            self._broadcast(first, step.events, previous, step)
        except Exception:  # stored but not shown: never leave a client with a gap
            log.exception("table %s: broadcasting versions %d-%d failed; resyncing everyone",
                          self.table_id, first, step.game.version)
            for other in self.subs:
                self._send_sync(other)
        if conn is not None and kind in ("act", "undo", "hint"):
            conn.send(dumps(ack(cmid, first, step.game.version)))
        self._send_turn_legal()
        self._after_change()
        if step.ended is not None and self._on_hand_end is not None:
            self._on_hand_end(self.table_id)
        return True

    async def _stored_versions(self, seat: int, cmid: str) -> tuple[int, int] | None:
        try:
            return await self.writer.run(
                lambda db: repo.applied_command(db, self.table_id, seat, cmid))
        except Exception:
            log.exception("table %s: cannot look up command id %r", self.table_id, cmid)
            return None

    async def _reject_if_applied(self, conn: Conn | None, seat: int, cmid: str) -> bool:
        """A command refused by the database because its id is stored: ``duplicate_message``."""
        done = await self._stored_versions(seat, cmid)
        if done is None:
            return False
        self._reject(conn, "duplicate_message",
                     f"message {cmid!r} was already applied as versions {done[0]}-{done[1]}",
                     cmid, applied={"from": done[0], "to": done[1]})
        return True

    # --- sending -------------------------------------------------------------------------------

    def _broadcast(self, first: int, events: list[TableEvent], previous: Game,
                   step: Step) -> None:
        seats = {conn.seat for conn in self.subs}
        delta_seats = {conn.seat for conn in self.subs if conn.protocol >= 2}
        if delta_seats:
            deltas = self.deltas.for_step(previous, step, delta_seats)
        else:
            deltas = {}
            self.deltas.forget()  # nobody takes deltas now: keep no views for them
        for offset, event in enumerate(events):
            version = first + offset
            self.log.append((version, event.kind, json.dumps(event.payload)))
            if not seats:
                continue
            texts = frames_for(version, event.kind, event.payload, seats)
            extra = deltas.get(offset)
            for conn in self.subs:
                text = texts[conn.seat]
                if extra is not None and conn.protocol >= 2:
                    text = with_delta(text, extra[conn.seat])
                conn.send(text)

    def _send_sync(self, conn: Conn) -> None:
        body = {"t": "sync", "version": self.game.version, "table": self.public_info(),
                "seat": conn.seat, **sync_body(self.game, conn.seat, conn.protocol),
                "seats": self.presence(), "clock": self._clock_info()}
        conn.send(dumps(body))
        self._send_legal(conn)

    def _send_legal(self, conn: Conn) -> None:
        seat = conn.seat
        if not conn.wants_legal or seat is None or self.game.turn != seat:
            return
        conn.send(dumps(self._legal_message(seat)))

    def _legal_message(self, seat: int) -> dict[str, Any]:
        assert self.game.hand is not None
        undo = self.game.may_undo(seat)
        return {"t": "legal", "version": self.game.version, "seat": seat,
                "actions": [str(a) for a in legal_actions(self.game.hand)], "undo": undo}

    def public_info(self) -> dict[str, Any]:
        return {"id": self.table_id, "config": self.config.to_dict()}

    def presence(self) -> list[dict[str, Any]]:
        out = []
        for seat, spec in enumerate(self.config.seats):
            holder = self.game.holders[seat] if seat < len(self.game.holders) else None
            grace = self.grace.get(seat)
            avatar = self._avatar(spec.kind, spec.level, holder.guest_id if holder else None)
            out.append({
                "seat": seat, "kind": spec.kind, "level": spec.level,
                "nickname": holder.nickname if holder else None, "avatar": avatar,
                "account": holder is not None and holder.guest_id in self.avatars,
                "arrived": holder.arrived if holder else None,
                "online": spec.kind == "bot" or self.online[seat] > 0,
                "grace_deadline_ms": int(grace[0] * 1000) if grace else None,
                "grace_seconds": self.config.grace_seconds,
                "standin": self.config.standin if seat in self.standin else None,
                **({"engine_faults": self.bots.faults(seat) or 0}
                   if spec.kind == "bot" and (spec.level or "").startswith("engine:") else {}),
            })
        return out

    def _avatar(self, kind: str, level: str | None, guest_id: str | None) -> str | None:
        """A seat's picture: its bot level's, its holder's (an account's pick, else the
        guests'), or none for a seat nobody holds."""
        if kind == "bot":
            return avatars.of_bot(level)
        return None if guest_id is None else self.avatars.get(guest_id, avatars.GUEST)

    def _send_presence(self) -> None:
        text = dumps({"t": "presence", "seats": self.presence()})
        for conn in self.subs:
            conn.send(text)

    async def load_avatars(self, guest_ids: list[str]) -> bool:
        """Read the avatars of these holders' accounts; whether any shown changed."""
        if self.read_avatars is None or not guest_ids:
            return False
        try:
            found = await self.read_avatars(guest_ids)
        except Exception:  # a picture is not worth a table: it shows the guests' one
            log.exception("table %s: cannot read the players' avatars", self.table_id)
            return False
        before = dict(self.avatars)
        self.avatars.update(found)
        return self.avatars != before

    def avatar_changed(self, player_id: str, avatar: str) -> None:
        """An account picked a new avatar: shown at once if it holds a seat here."""
        seated = any(h is not None and h.guest_id == player_id for h in self.game.holders)
        if seated and self.avatars.get(player_id) != avatar:
            self.avatars[player_id] = avatar
            self._send_presence()

    # --- connections ---------------------------------------------------------------------------

    def _refuse_join(self, conn: Conn, code: str, reason: str, close_code: int) -> bool:
        self._reject(conn, code, reason, None)
        conn.seat = None  # whatever it pipelined after its hello acts for no seat
        conn.close(close_code, code.replace("_", " "))
        return False

    async def _join(self, conn: Conn, hello: Hello) -> bool:
        """Admit a connection (True), or refuse and close it (False)."""
        seat = conn.seat
        game = self.game
        if seat is not None:
            if not 0 <= seat < self.config.players:
                return self._refuse_join(conn, "no_such_seat", f"no seat {seat} at a table of "
                                         f"{self.config.players}", 4400)
            if self.config.is_bot(seat):
                return self._refuse_join(conn, "bot_seat", f"seat {seat} is played by a bot",
                                         4403)
            holder = game.holders[seat]
            if conn.guest is None:
                return self._refuse_join(conn, "guest_required", "a seat needs a guest", 4401)
            if holder is not None and holder.guest_id != conn.guest.id:
                return self._refuse_join(conn, "seat_taken",
                                         f"seat {seat} is held by {holder.nickname}", 4403)
            if self.config.rated and holds_another_seat(game.holders, seat, conn.guest.id):
                return self._refuse_join(conn, "one_seat", ONE_SEAT, 4403)
            if conn.guest.account:  # a picture picked since the table last read it
                await self.load_avatars([conn.guest.id])
        self.subs.append(conn)
        catch_up = self._catch_up_mode(hello.v)
        hello_ok = {"t": "hello_ok", "table": self.table_id, "seat": seat,
                    "version": game.version, "catch_up": catch_up,
                    "nickname": conn.guest.nickname if conn.guest else None}
        if hello.protocol >= 2:  # a client that names no version gets the old answer exactly
            hello_ok["protocol"] = conn.protocol
        conn.send(dumps(hello_ok))
        if catch_up == "sync":
            self._send_sync(conn)
        else:
            if catch_up == "replay":
                assert hello.v is not None
                for version, kind, text in self.log:
                    if version > hello.v:
                        conn.send(frame(version, project(kind, json.loads(text), seat)))
            conn.send(dumps({"t": "presence", "seats": self.presence()}))
            info = self._clock_info()
            if info is not None:
                conn.send(dumps({"t": "clock", **info}))
            self._send_legal(conn)
        if self.rematch is not None:
            conn.send(dumps(self.rematch.frame_for(seat)))
        if seat is not None:
            assert conn.guest is not None
            self.online[seat] += 1
            grace = self.grace.pop(seat, None)
            if grace is not None:
                grace[1].cancel()
            self.standin.discard(seat)
            holder = game.holders[seat]
            if holder is None and await self._claim(seat, conn.guest, conn):
                self.online[seat] -= 1
                self.subs.remove(conn)
                conn.seat = None
                conn.close(4409, "claim failed")
                return False
            if holder is not None and not holder.arrived and not await self._arrive(seat, conn):
                self.online[seat] -= 1
                self.subs.remove(conn)
                conn.seat = None
                conn.close(4409, "arrival not stored")
                return False
            self._send_presence()
        return True

    def _catch_up_mode(self, client_version: int | None) -> str:
        current = self.game.version
        if client_version is None or client_version > current:
            return "sync"
        if client_version == current:
            return "none"
        if self.log and self.log[0][0] <= client_version + 1:
            return "replay"
        return "sync"

    def _leave(self, conn: Conn) -> None:
        if conn not in self.subs:
            return
        self.subs.remove(conn)
        if conn.protocol >= 2:  # a table its clients left keeps no views for their deltas
            self.deltas.keep({c.seat for c in self.subs if c.protocol >= 2})
        seat = conn.seat
        if seat is not None:
            self.online[seat] -= 1
            if self.game.status == PLAYING:
                self._check_grace()  # starts the grace countdown, which tells everyone
            else:
                self._send_presence()
        if not self.subs and self.game.status == FINISHED and self._on_idle is not None:
            self._on_idle(self.table_id)

    # --- what happens by itself ----------------------------------------------------------------

    def _after_change(self) -> None:
        """After any change of who plays what: grace countdowns, bots, the clock."""
        self._check_grace()
        self._schedule_bot()
        self._arm_clock()
        if self.game.status == FINISHED:  # the match is over: outside engines may go
            asyncio.get_running_loop().run_in_executor(None, self.bots.close)
            if not self.subs and self._on_idle is not None:
                # over with nobody watching (bots or stand-ins played it out, or it was loaded
                # to be read): the hub retires it as it does when the last viewer leaves
                self._on_idle(self.table_id)

    def _send_turn_legal(self) -> None:
        """After a new version: the legal actions to the seat on turn (if it asked for them)."""
        turn = self.game.turn
        if turn is None:
            return
        wanting = [c for c in self.subs if c.seat == turn and c.wants_legal]
        if wanting:
            text = dumps(self._legal_message(turn))
            for conn in wanting:
                conn.send(text)

    # --- company: quick messages and the rematch ------------------------------------------------

    def quick(self, conn: Conn, message_id: str) -> None:
        """Send a seat's quick message to everyone here; a refusal goes to the sender only.

        Called straight from the gateway, not queued: it changes nothing at the table.
        """
        seat = conn.seat
        if conn not in self.subs:
            return self._reject(conn, "hello_required", "this connection has not joined the "
                                "table", None)
        if seat is None:
            return self._reject(conn, "spectator", "spectators cannot send quick messages",
                                None)
        holder = self.game.holders[seat] if 0 <= seat < len(self.game.holders) else None
        if holder is None or conn.guest is None or holder.guest_id != conn.guest.id:
            return self._reject(conn, "seat_taken", f"seat {seat} is not held by this "
                                "connection's guest", None)
        if conn.guest.muted:
            return self._reject(conn, "muted", "a moderator muted this account: no quick "
                                "messages until the mute ends (see your account page)", None)
        problem = quick_problem(message_id)
        if problem is not None:
            return self._reject(conn, "unknown_quick", problem, None)
        empty = self.quick_limits.take(seat)
        if empty is not None:
            return self._reject(conn, "rate_limited", f"at most {empty.burst:g} quick messages "
                                f"at once, then one every {1 / empty.rate:g} s: this one was "
                                f"dropped; send again in {empty.retry_after():.1f} s", None)
        text = dumps(quick_frame(seat, message_id))
        for sub in self.subs:
            sub.send(text)

    def offer_rematch(self, rematch: Rematch) -> None:
        """Tell every connection of the finished match where the next one is played."""
        self.rematch = rematch
        for conn in self.subs:
            conn.send(dumps(rematch.frame_for(conn.seat)))

    # --- for the hub ---------------------------------------------------------------------------

    async def claim(self, seat: int, guest: Guest) -> str | None:
        item = Claim(seat, guest)
        self.submit(item)
        return await item.done

    def close_all(self, code: int, reason: str) -> None:
        for conn in list(self.subs):
            with contextlib.suppress(Exception):
                conn.close(code, reason)
