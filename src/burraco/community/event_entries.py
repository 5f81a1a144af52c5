"""What players ask of online events: schedule one, list them, look at one, register
(alone, or with a partner in form ``"4"``), leave (before the start) or withdraw (after).

Scheduling takes an account; a club's event (members only) takes an admin of the club.
A private club's events are seen by its members only.  A pair registers together: the
partner must be a friend (each follows the other) and neither may have blocked the other.
Every refusal is an :class:`EventRefused` (status, code, detail, field) and changes nothing.
Each player learns only their own seat link: ``me.game.url`` of :meth:`Events.detail`.
"""

from __future__ import annotations

import math
import re
import secrets
import time
from collections.abc import Awaitable, Callable
from dataclasses import replace
from functools import partial
from typing import Any

from sqlalchemy import Connection, select

from burraco.accounts.identity import Guest
from burraco.accounts.models import ClubMemberRow, ClubRow
from burraco.accounts.names import FieldError
from burraco.accounts.social import account_named, are_friends
from burraco.community import event_store as store
from burraco.community import event_tables as tables
from burraco.community.event_store import Stored
from burraco.community.online_events import OnlineEvents
from burraco.community.pool_reads import names_of, rating_of
from burraco.meet import arena, swiss
from burraco.meet.events import EventError, EventState, open_event, register, unregister, withdraw
from burraco.meet.events_json import spec_from_json
from burraco.server.hub import Hub
from burraco.server.rated import wait_text
from burraco.server.tables import TableConfigError, build_config

MEMBERS = ("founder", "admin", "member")
ADMINS = ("founder", "admin")
EARLIEST = 5.0
"""An event starts at least this many seconds after it is scheduled."""
LATEST = 30 * 86400.0
"""And at most this long after."""
SHOWN_AFTER = 86400.0
"""A finished event stays in the list this long."""
LISTED = 200
LIVE_TTL = 1.0
STARTING_SOON = 600.0
"""An entrant is told of an event starting within this many seconds."""
MARKUP = re.compile(r"[<>{}\\]")
FIELDS = ("name", "starts", "kind", "form", "rules", "format", "rounds", "minutes",
          "turn_seconds", "rated", "min_rating", "club", "max_entrants", "show_seconds")
"""What a player may choose (the lot's seed is the server's)."""


class EventRefused(Exception):
    def __init__(self, status: int, code: str, detail: str, field: str | None = None, *,
                 retry_after: int | None = None) -> None:
        super().__init__(detail)
        self.status, self.code, self.detail, self.field = status, code, detail, field
        self.retry_after = retry_after


def _bad(exc: EventError) -> EventRefused:
    return EventRefused(422, "bad_field", exc.message, field=exc.field)


def club_role(conn: Connection, club_id: str, player_id: str) -> str | None:
    return conn.scalar(select(ClubMemberRow.role).where(
        ClubMemberRow.club_id == club_id, ClubMemberRow.player_id == player_id))


def may_see(conn: Connection, stored: Stored, me: str | None) -> bool:
    """A private club's events are its members'; every other event is everyone's."""
    club = stored.state.spec.club
    if club is None:
        return True
    public = conn.scalar(select(ClubRow.public).where(ClubRow.club_id == club))
    return bool(public) or (me is not None and club_role(conn, club, me) in MEMBERS)


class Events:
    def __init__(self, service: OnlineEvents, *, clock: Callable[[], float] = time.time) -> None:
        self.service = service
        self.hub: Hub = service.hub
        self.clock = clock
        self._live: tuple[float, list[Stored]] | None = None

    # --- scheduling ----------------------------------------------------------------------

    async def create(self, guest: Guest, body: dict[str, Any],
                     gate: Callable[[], Awaitable[None]] | None = None) -> dict[str, Any]:
        """Schedule an event; ``gate`` runs once every field is right, just before it is
        stored (the routes' rate limit: a refused form costs nothing)."""
        if not guest.account:
            raise EventRefused(403, "account_required", "tournaments are scheduled by "
                               "accounts: register or log in")
        unknown = sorted(set(body) - set(FIELDS))
        if unknown:
            raise EventRefused(422, "bad_field", "no such field of an event", field=unknown[0])
        name = body.get("name")
        if isinstance(name, str) and MARKUP.search(name):
            raise EventRefused(422, "bad_field", "a name is text, without < > { } or \\",
                               field="name")
        now = self.clock()
        starts = body.get("starts")
        if isinstance(starts, int | float) and not isinstance(starts, bool) and not (
                now + EARLIEST <= starts <= now + LATEST):
            raise EventRefused(422, "bad_field", "the start is 5 seconds to 30 days from now "
                               "(seconds since 1970, UTC)", field="starts")
        try:
            spec = spec_from_json({**body, "seed": secrets.randbelow(2**31)})
        except EventError as exc:
            raise _bad(exc) from None
        except TypeError as exc:
            raise EventRefused(422, "bad_field", str(exc), field="body") from None
        settings = self.hub.settings
        try:
            build_config(tables.request_for(spec), engines=tuple(settings.engine_commands),
                         rated_minimum=(settings.rated_min_target, settings.rated_min_hands))
        except TableConfigError as exc:  # e.g. a rated event of one-hand games
            field = "format" if exc.field in ("target", "smazzate") else exc.field
            raise EventRefused(422, "bad_field", f"this server makes no such table: {exc}",
                               field=field) from None
        club = spec.club
        if club is not None:
            role = await self.hub.read(lambda conn: club_role(conn, club, guest.id))
            if role not in ADMINS:
                raise EventRefused(403, "not_club_admin", "a club's events are scheduled by "
                                   "its admins", field="club")
        state = open_event(spec)
        if gate is not None:
            await gate()
        event_id = await self.hub.writer.run(
            lambda conn: store.insert_event(conn, state, guest.id, now))
        assert event_id is not None
        return await self.detail(guest, event_id)

    # --- reading -------------------------------------------------------------------------

    async def listing(self, guest: Guest | None, club: str | None = None) -> dict[str, Any]:
        """The events ``guest`` may see (``club``: that club's only)."""
        me = guest.id if guest is not None else None
        since = self.clock() - SHOWN_AFTER

        def read(conn: Connection) -> list[dict[str, Any]]:
            return [summary(s, me) for s in store.listing(conn, since, LISTED)
                    if (club is None or s.state.spec.club == club) and not never_held(s)
                    and may_see(conn, s, me)]
        return {"events": await self.hub.read(read)}

    async def _visible(self, guest: Guest | None, event_id: str) -> tuple[Stored, dict[str, str]]:
        me = guest.id if guest is not None else None

        def read(conn: Connection) -> tuple[Stored | None, dict[str, str]]:
            stored = store.load(conn, event_id)
            if stored is None or not may_see(conn, stored, me):
                return None, {}
            ids = [a for e in stored.state.entrants for a in e.accounts]
            return stored, names_of(conn, ids)
        stored, names = await self.hub.read(read)
        if stored is None:
            raise EventRefused(404, "event_not_found", f"no tournament {event_id!r:.40}")
        return stored, names

    async def detail(self, guest: Guest | None, event_id: str) -> dict[str, Any]:
        stored, names = await self._visible(guest, event_id)
        body = summary(stored, guest.id if guest is not None else None)
        shown = replace(stored, state=until_round_over(stored.state))
        body.update(entrants_body(stored, names), standings=standings_body(shown.state, names),
                    games=self.games_body(shown, names, closed(stored.state)),
                    me=self.me_body(stored, guest, await self.hub.read(partial(
                        tables.made_at, table_ids=[stored.tables[g.id] for g in
                                                   stored.state.open_games()
                                                   if g.id in stored.tables]))))
        return body

    def games_body(self, stored: Stored, names: dict[str, str],
                   over: set[str]) -> list[dict[str, Any]]:
        """The games, newest first; ``over``: those finished (shown or not yet)."""
        state = stored.state
        out = []
        for game in reversed(state.games[-200:]):
            table = stored.tables.get(game.id)
            watch = None
            if table is not None and game.result is None and state.spec.kind == "arena" \
                    and not state.spec.rated:  # a Swiss round's tables share its deals
                watch = (f"{self.hub.settings.base_url}/play/{table}?watch="
                         f"{self.hub.tokens.watch_token(table)}")
            result = game.result
            out.append({
                "id": game.id, "round": game.round,
                "sides": [[names.get(a, a) for a in state.entrant(e).accounts]
                          for e in game.sides],
                "table": table, "watch": watch,
                "over": game.id in over,
                "result": None if result is None else {
                    "winner": result.winner, "points": result.points, "vp": result.vp,
                    "absent": list(result.absent)}})
        return out

    def me_body(self, stored: Stored, guest: Guest | None,
                made: dict[str, float] | None = None) -> dict[str, Any] | None:
        """The caller's entrant and game now, with their own seat link; ``made``: when the
        open games' tables were made (the time to sit down counts from then)."""
        if guest is None:
            return None
        state = stored.state
        mine = next((e for e in state.entrants if e.joined and guest.id in e.accounts), None)
        if mine is None:
            return None
        game_body = None
        for game in state.open_games():
            if mine.id in game.sides:
                table = stored.tables.get(game.id)
                seat = tables.seats_of(state, game)[guest.id]
                url = token = None
                if table is not None:
                    token = self.hub.tokens.seat_token(table, seat)
                    url = f"{self.hub.settings.base_url}/play/{table}?seat={seat}&token={token}"
                game_body = {"id": game.id, "round": game.round, "table": table,
                             "seat": seat, "url": url, "token": token,
                             "sit_by": max(game.started, (made or {}).get(table or "", 0.0))
                             + state.spec.show_seconds}
        return {"entrant": mine.id, "withdrawn": mine.withdrawn, "missed": mine.missed,
                "game": game_body}

    # --- registering ---------------------------------------------------------------------

    async def join(self, guest: Guest, event_id: str, partner: object = None) -> dict[str, Any]:
        if not guest.account:
            raise EventRefused(403, "account_required", "tournaments are for accounts: "
                               "register or log in")
        stored, _ = await self._visible(guest, event_id)
        form = stored.state.spec.form
        club = stored.state.spec.club
        if stored.state.spec.rated:  # a suspension from rated play, an abandonment's wait
            wait = await self.hub.players.wait_of(guest.id)
            if wait is not None:
                raise EventRefused(403, "rated_wait", wait_text(wait))

        def party_of(conn: Connection) -> tuple[list[tuple[str, float]], list[str]]:
            accounts = [guest.id]
            if form == "4":
                if partner is None:
                    raise EventRefused(422, "bad_field", "a pairs tournament is entered with "
                                       "a partner: give their username", field="partner")
                try:
                    other = account_named(conn, partner)
                except FieldError as exc:
                    raise EventRefused(422, "bad_field", str(exc).split(": ", 1)[-1],
                                       field="partner") \
                        from None
                if other.player_id == guest.id \
                        or not are_friends(conn, guest.id, other.player_id):
                    raise EventRefused(422, "bad_field", "your partner is a friend (you follow "
                                       "each other)", field="partner")
                accounts.append(other.player_id)
            elif partner is not None:
                raise EventRefused(422, "bad_field", "a two-player tournament has no partner",
                                   field="partner")
            members = [a for a in accounts if club is not None
                       and club_role(conn, club, a) in MEMBERS]
            return [(a, rating_of(conn, a, form)) for a in accounts], members

        party, members = await self.hub.read(party_of)
        await self._change(event_id, lambda state, now: register(
            state, party, now, members=members))
        return await self.detail(guest, event_id)

    async def leave(self, guest: Guest, event_id: str) -> dict[str, Any]:
        """Unregister before the start (a pair: both), withdraw after."""
        stored, _ = await self._visible(guest, event_id)
        mine = next((e for e in stored.state.entrants
                     if e.joined and guest.id in e.accounts), None)
        if mine is None:
            raise EventRefused(409, "not_registered", "you are not in this tournament")
        entrant = mine.id
        await self._change(event_id, lambda state, now: (
            unregister(state, entrant, now) if state.phase == "open"
            else withdraw(state, entrant, now)))
        return await self.detail(guest, event_id)

    async def _change(self, event_id: str,
                      change: Callable[[EventState, float], EventState]) -> None:
        for _ in range(10):
            stored = await self.hub.read(lambda conn: store.load(conn, event_id))
            if stored is None:
                raise EventRefused(404, "event_not_found", f"no tournament {event_id!r:.40}")
            if stored.phase == "cancelled":
                raise EventRefused(409, "cancelled", "this tournament was cancelled")
            now = self.clock()
            try:
                state = change(stored.state, now)
            except EventError as exc:
                raise EventRefused(409 if exc.field in ("phase", "starts") else 422,
                                   "refused" if exc.field in ("phase", "starts")
                                   else "bad_field", exc.message, field=exc.field) from None
            if await self.hub.writer.run(partial(store.save, stored=stored, state=state,
                                                 now=now)):
                self.service.wake()
                return
        raise EventRefused(503, "busy", "the tournament is changing: try again")

    # --- notifications -------------------------------------------------------------------

    async def live(self) -> list[Stored]:
        """The live events, read again at most every :data:`LIVE_TTL` seconds (every open
        page asks for its notifications)."""
        now = time.monotonic()
        if self._live is None or now - self._live[0] > LIVE_TTL:
            self._live = (now, await self.hub.read(
                lambda conn: store.listing(conn, math.inf, LISTED)))
        return self._live[1]

    async def notifications(self, guest: Guest) -> list[dict[str, Any]]:
        """A tournament of mine about to start; my game's table ready."""
        if not guest.account:
            return []
        now = self.clock()
        out: list[dict[str, Any]] = []
        for stored in await self.live():
            state = stored.state
            if not any(e.joined and guest.id in e.accounts for e in state.entrants):
                continue
            if state.phase == "open" and state.spec.starts - now <= STARTING_SOON:
                out.append({"kind": "event_starting", "key": f"event_starting:{stored.event_id}",
                            "event": stored.event_id, "name": state.spec.name,
                            "starts": state.spec.starts})
            me = self.me_body(stored, guest)
            game = me["game"] if me else None
            if game is not None and game["url"] is not None:
                out.append({"kind": "event_game", "key": f"event_game:{stored.event_id}:"
                            f"{game['id']}", "event": stored.event_id, "name": state.spec.name,
                            "round": game["round"], "table": game["table"], "url": game["url"]})
        return out


def never_held(stored: Stored) -> bool:
    """A cancelled event nobody had entered (an hourly arena nobody came to): not listed."""
    return stored.phase == "cancelled" and not any(e.joined for e in stored.state.entrants)


def closed(state: EventState) -> set[str]:
    return {g.id for g in state.games if g.result is not None}


def until_round_over(state: EventState) -> EventState:
    """What a Swiss shows while a round is played: the results of the rounds over, none of
    the round being played.  Its tables share their deals (duplicate), so a table's score
    would tell those still playing how the deals went, as no club announces a round's
    results before every table has finished it."""
    if state.spec.kind != "swiss" or not state.open_games():
        return state
    hidden = tuple(replace(g, result=None) if g.round == state.round else g
                   for g in state.games)
    return replace(state, games=hidden)


def summary(stored: Stored, me: str | None) -> dict[str, Any]:
    state = stored.state
    spec = state.spec
    joined = [e for e in state.entrants if e.joined]
    return {"id": stored.event_id, "name": spec.name, "kind": spec.kind, "form": spec.form,
            "format": spec.format, "rules": spec.rules, "starts": spec.starts,
            "rounds": spec.rounds, "minutes": spec.minutes, "turn_seconds": spec.turn_seconds,
            "show_seconds": spec.show_seconds, "rated": spec.rated,
            "min_rating": spec.min_rating, "club": spec.club,
            "max_entrants": spec.max_entrants, "phase": stored.phase, "round": state.round,
            "started": state.started, "finished": state.finished, "ends": state.ends,
            "entered": len(joined), "recurring": stored.series is not None,
            "registered": me is not None and any(me in e.accounts for e in joined)}


def entrants_body(stored: Stored, names: dict[str, str]) -> dict[str, Any]:
    return {"entrants": [{"id": e.id, "names": [names.get(a, a) for a in e.accounts],
                          "rating": round(e.rating), "withdrawn": e.withdrawn,
                          "missed": e.missed}
                         for e in stored.state.entrants if e.joined]}


def standings_body(state: EventState, names: dict[str, str]) -> list[dict[str, Any]]:
    if state.phase == "open":
        return []
    if state.spec.kind == "swiss":
        return [{"rank": s.rank, "entrant": s.entrant,
                 "names": [names.get(a, a) for a in s.accounts], "score": s.score,
                 "buchholz": s.buchholz, "sonneborn_berger": s.sonneborn_berger,
                 "games": s.games, "wins": s.wins, "draws": s.draws, "losses": s.losses,
                 "byes": s.byes, "withdrawn": s.withdrawn} for s in swiss.standings(state)]
    return [{"rank": s.rank, "entrant": s.entrant,
             "names": [names.get(a, a) for a in s.accounts], "score": s.score,
             "games": s.games, "wins": s.wins, "draws": s.draws, "losses": s.losses,
             "streak": s.streak, "on_fire": s.on_fire,
             "performance": round(s.performance) if s.performance is not None else None,
             "withdrawn": s.withdrawn} for s in arena.standings(state)]
