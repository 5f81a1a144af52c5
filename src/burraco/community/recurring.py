"""The server's own recurring online events (``burraco serve --events``).

The setting is a JSON list (or ``@FILE`` naming a file of one, or ``none``); each item is a
series: ``key`` (letters, digits and ``-``: the series' name in the database), ``every``
(``hour`` or ``day``), ``at`` (``MM`` past the hour, or ``HH:MM`` of the day), ``zone``
(an IANA time zone, default ``Europe/Rome``), ``announce`` (minutes before the start the
event opens for registration: default 60, and at most the period) and the event's own
fields (:class:`burraco.meet.events.EventSpec` without ``starts``: ``name``, ``kind``,
``form``, ``format``, ``rounds`` or ``minutes``, ``turn_seconds``, ``rated``...).

>>> [s.key for s in parse("default")]
['hourly-arena', 'nightly-swiss']
>>> parse('[{"key": "x", "every": "week"}]')
Traceback (most recent call last):
...
burraco.community.recurring.RecurringError: events[0].every: 'hour' or 'day', not 'week'
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from burraco.meet.events import EventError, EventState, open_event
from burraco.meet.events_json import spec_from_json

DEFAULT: list[dict[str, Any]] = [
    {"key": "hourly-arena", "every": "hour", "at": "00", "name": "Hourly arena",
     "kind": "arena", "form": "2", "format": "hand", "minutes": 45, "turn_seconds": 45},
    {"key": "nightly-swiss", "every": "day", "at": "21:00", "name": "Nightly pairs Swiss",
     "kind": "swiss", "form": "4", "format": "505", "rounds": 4, "turn_seconds": 60},
]
"""An hourly two-player arena of one-hand games, and a nightly Swiss of pairs at 21:00
(Italian time)."""
SERIES_FIELDS = ("key", "every", "at", "zone", "announce")
KEY = re.compile(r"^[a-z0-9][a-z0-9-]{0,39}$")


class RecurringError(ValueError):
    """A malformed ``--events`` setting; the message names the item and field."""


@dataclass(frozen=True, slots=True)
class Recurring:
    key: str
    every: str
    at: tuple[int, int]
    """(hour, minute) of the day, or (0, minute) past each hour."""
    zone: str
    announce: float
    """Seconds before the start the event is scheduled (opens for registration)."""
    fields: tuple[tuple[str, Any], ...]

    def start_after(self, now: float) -> float:
        """The first start of the series after ``now``."""
        zone = ZoneInfo(self.zone)
        local = datetime.fromtimestamp(now, UTC).astimezone(zone)
        if self.every == "hour":
            start = local.replace(minute=self.at[1], second=0, microsecond=0)
            step = timedelta(hours=1)
        else:
            start = local.replace(hour=self.at[0], minute=self.at[1], second=0, microsecond=0)
            step = timedelta(days=1)
        while start.timestamp() <= now:
            start = (start + step).astimezone(zone)  # a day: the same wall time after a shift
            if self.every == "day":
                start = start.replace(hour=self.at[0], minute=self.at[1])
        return start.timestamp()

    def next_event(self, now: float) -> tuple[EventState | None, str]:
        """The next event of the series and its key, or ``None`` until it is announced."""
        starts = self.start_after(now)
        key = f"{self.key}@{int(starts)}"
        if starts - now > self.announce:
            return None, key
        spec = spec_from_json({**dict(self.fields), "starts": starts, "seed": int(starts)})
        return open_event(spec), key


def parse(text: str) -> list[Recurring]:
    """The series of a ``--events`` setting (``default``, ``none``, JSON, ``@FILE``)."""
    text = text.strip()
    if text in ("", "none"):
        return []
    if text == "default":
        items: Any = DEFAULT
    else:
        if text.startswith("@"):
            try:
                text = Path(text[1:]).read_text(encoding="utf-8")
            except OSError as exc:
                raise RecurringError(f"events: cannot read {text[1:]!r}: {exc.strerror}") \
                    from None
        try:
            items = json.loads(text)
        except json.JSONDecodeError as exc:
            raise RecurringError(f"events: not JSON ({exc.msg}, at character {exc.pos})") \
                from None
    if not isinstance(items, list):
        raise RecurringError("events: a JSON list of series")
    out = [_series(i, item) for i, item in enumerate(items)]
    keys = [s.key for s in out]
    if len(set(keys)) != len(keys):
        raise RecurringError("events: two series have the same key")
    return out


def _series(index: int, item: Any) -> Recurring:
    where = f"events[{index}]"
    if not isinstance(item, dict):
        raise RecurringError(f"{where}: a series is a JSON object")
    key = item.get("key")
    if not isinstance(key, str) or not KEY.match(key):
        raise RecurringError(f"{where}.key: lower-case letters, digits and -, up to 40")
    every = item.get("every")
    if every not in ("hour", "day"):
        raise RecurringError(f"{where}.every: 'hour' or 'day', not {every!r}")
    at = _at(where, every, item.get("at", "00" if every == "hour" else "21:00"))
    zone = item.get("zone", "Europe/Rome")
    try:
        ZoneInfo(zone)
    except (ZoneInfoNotFoundError, ValueError, TypeError):
        raise RecurringError(f"{where}.zone: no time zone {zone!r}") from None
    period = 60.0 if every == "hour" else 1440.0
    announce = item.get("announce", 60)
    if isinstance(announce, bool) or not isinstance(announce, int | float) \
            or not 1 <= announce <= period:
        raise RecurringError(f"{where}.announce: 1 to {period:g} minutes")
    fields = {k: v for k, v in item.items() if k not in SERIES_FIELDS}
    try:
        spec_from_json({**fields, "starts": 0.0})
    except EventError as exc:
        raise RecurringError(f"{where}.{exc.field}: {exc.message}") from None
    except TypeError as exc:
        raise RecurringError(f"{where}: {exc}") from None
    return Recurring(key, every, at, zone, 60.0 * announce, tuple(sorted(fields.items())))


def _at(where: str, every: str, at: Any) -> tuple[int, int]:
    pattern = r"^(\d{1,2})$" if every == "hour" else r"^(\d{1,2}):(\d{2})$"
    found = re.match(pattern, at) if isinstance(at, str) else None
    numbers = [int(g) for g in found.groups()] if found else []
    if every == "hour" and numbers and numbers[0] < 60:
        return 0, numbers[0]
    if every == "day" and numbers and numbers[0] < 24 and numbers[1] < 60:
        return numbers[0], numbers[1]
    wanted = "MM, minutes past the hour" if every == "hour" else "HH:MM"
    raise RecurringError(f"{where}.at: {wanted}, not {at!r}")
