"""What the server asks of moderation: reports, the queue, actions and their effect at once.

A ban ends every session of the person on every process (their sockets close) and refuses
log-in and recovery; a mute, a rename or a lift makes every process read the person's
sessions again (their sockets close and reopen), so a mute stops quick messages at once.
A suspension from rated play is a wait of :mod:`burraco.accounts.fairplay`, which every
rated path already checks.
"""

from __future__ import annotations

import math
from typing import Any

from sqlalchemy import Connection

from burraco.accounts import moderation
from burraco.accounts.moderation import ModerationError
from burraco.accounts.names import FieldError, check_username
from burraco.accounts.service import Players
from burraco.infra.rates import RateLimits, storage_for

REPORTS_PER_DAY = "10/day"


class Moderators:
    def __init__(self, players: Players) -> None:
        self.players = players
        settings = players.host.settings
        self.limits = RateLimits({"reports": REPORTS_PER_DAY},
                                 storage_for(settings.redis_url, settings.redis_prefix))

    async def check_staff(self, player_id: str) -> None:
        if not await self.players.host.read(
                lambda conn: moderation.is_moderator(conn, player_id)):
            raise ModerationError(403, "forbidden", "moderators only")

    async def report(self, reporter: str, body: dict[str, Any]) -> str:
        """File a checked report (:class:`ModerationError` or :class:`FieldError`)."""
        reason = body["reason"]
        if reason not in moderation.REASONS:
            raise FieldError("reason", f"one of {', '.join(moderation.REASONS)}")
        context = body["context"]
        if context not in moderation.CONTEXTS:
            raise FieldError("context", f"one of {', '.join(moderation.CONTEXTS)}")
        text = body.get("text") or ""
        if len(text) > 1000:
            raise FieldError("text", "at most 1000 characters")
        table_id, message = body.get("table_id"), body.get("message")
        if context == "table" and not table_id:
            raise FieldError("table_id", "a report from a table names the table")
        if context == "message" and not message:
            raise FieldError("message", "a report of a message names the message")
        for field, value in (("table_id", table_id), ("message", message)):
            if value is not None and not (1 <= len(value) <= 32 and value.replace(
                    "-", "").replace("_", "").isalnum()):
                raise FieldError(field, "1 to 32 letters, digits, '-' or '_'")
        target = await self.players.host.read(
            lambda conn: moderation.target_of(conn, body["username"]))
        if target == reporter:
            raise FieldError("username", "you cannot report yourself")
        refusal = await self.limits.hit("reports", reporter)
        if refusal is not None:
            raise ModerationError(429, "rate_limited", f"at most {REPORTS_PER_DAY} reports: "
                                  "try again tomorrow")
        return await self.players.host.writer.run(lambda conn: moderation.report(
            conn, reporter, target, reason, " ".join(text.split()), context, table_id,
            message))

    async def queue(self, moderator: str, status: str) -> list[dict[str, Any]]:
        await self.check_staff(moderator)
        return await self.players.host.read(lambda conn: moderation.queue(conn, status))

    async def log(self, moderator: str) -> list[dict[str, Any]]:
        await self.check_staff(moderator)
        return await self.players.host.read(moderation.log)

    async def close(self, moderator: str, report_id: str, outcome: object) -> None:
        await self.check_staff(moderator)
        text = moderation.check_reason(outcome, "outcome")
        if not await self.players.host.writer.run(
                lambda conn: moderation.close(conn, report_id, moderator, text)):
            raise ModerationError(404, "report_not_found", "no open report of that id")

    async def act(self, moderator: str, body: dict[str, Any]) -> dict[str, Any]:
        """Check and carry out an action; the sanction as the log shows it."""
        await self.check_staff(moderator)
        action = body["action"]
        if action not in moderation.ACTIONS:
            raise FieldError("action", f"one of {', '.join(moderation.ACTIONS)}")
        reason = moderation.check_reason(body["reason"])
        days = body.get("days")
        if action in moderation.LASTING:
            if days is None and action != "ban":
                raise FieldError("days", f"how many days the {action} lasts")
            if days is not None and not (isinstance(days, (int, float))
                                         and math.isfinite(days)
                                         and 0 < days <= moderation.MAX_DAYS):
                raise FieldError("days", f"more than 0 and at most {moderation.MAX_DAYS}")
        elif days is not None:
            raise FieldError("days", f"a {action} lasts no time")
        new_username = body.get("new_username")
        if action == "rename":
            new_username = check_username(new_username, "new_username")
        elif new_username is not None:
            raise FieldError("new_username", "only a rename takes a new username")
        report_id = body.get("report_id")

        def run(conn: Connection) -> tuple[dict[str, Any], list[str]]:
            target = moderation.target_of(conn, body["username"])
            if target == moderator:
                raise FieldError("username", "a moderator does not sanction themself")
            if report_id is not None and not moderation.report_exists(conn, report_id):
                raise FieldError("report_id", "no report of that id")
            row = moderation.act(conn, moderator, target, action, reason, days,
                                 new_username, report_id)
            sessions = moderation.sessions_of(conn, target, end=action == "ban")
            return row, sessions

        row, sessions = await self.players.host.writer.run(run)
        if action in ("ban", "mute", "rename", "lift"):
            await self.players.end_sessions(sessions)
        return row
