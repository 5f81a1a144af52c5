"""The commit path's pieces: what one step writes, and the recent command ids a table keeps.

A table stores every step before anything of it is sent (:meth:`TableActor._commit`): the
step becomes one :class:`~burraco.server.storage.repository.CommitUnit` (:func:`build_unit`),
written by the single writer; the ids of the clients' latest commands are kept
(:class:`RecentIds`) so a command sent twice is answered ``duplicate_message``.
"""

from __future__ import annotations

from collections import deque
from typing import Any

from burraco.server.game import Step
from burraco.server.storage import repository as repo
from burraco.server.storage.repository import CommitUnit


class RecentIds:
    """The clients' latest command ids at a table and the versions they got, at most ``size``.

    A table playing for hours must not keep every id it ever saw: past ``size``
    the oldest are forgotten, and from then on (``forgot``) an id not found here
    is looked up in the database.  The server's own commands are not kept: their
    ids are in a namespace no client may use.

    Each id is kept compactly, as one string ``"SEAT:ID"`` and one int packing its
    versions (about 120 bytes, where a tuple key, a tuple of versions and an
    ``OrderedDict`` took 310): a live table may keep thousands.
    """

    def __init__(self, items: dict[tuple[int, str], tuple[int, int]],
                 size: int = repo.RECENT_CMIDS) -> None:
        self.size = size
        self.forgot = len(items) > size
        self._ids: dict[str, int] = {}
        self._order: deque[str] = deque()  # oldest first
        for key, versions in sorted(items.items(), key=lambda item: item[1])[-size:]:
            self.add(key, versions)

    @staticmethod
    def _key(key: tuple[int, str]) -> str:
        return f"{key[0]}:{key[1]}"  # a seat has no colon: SEAT:ID names one (seat, id)

    def get(self, key: tuple[int, str]) -> tuple[int, int] | None:
        packed = self._ids.get(self._key(key))
        if packed is None:
            return None
        return packed >> 32, packed & 0xFFFFFFFF

    def add(self, key: tuple[int, str], versions: tuple[int, int]) -> None:
        first, last = versions
        text = self._key(key)
        if text not in self._ids:  # an id added again keeps its place, as in an OrderedDict
            self._order.append(text)
        self._ids[text] = first << 32 | last  # versions stay far below 2**32
        if len(self._ids) > self.size:
            del self._ids[self._order.popleft()]
            self.forgot = True

    def __len__(self) -> int:
        return len(self._ids)


def build_unit(table_id: str, before: int, step: Step, *, command: dict[str, Any],
               new_table: dict[str, Any] | None = None,
               deal_group: str | None = None) -> CommitUnit:
    """The database writes of one step: events, command, hands begun or ended, snapshot.

    ``deal_group``: the group a new table joins (with ``new_table``).
    """
    events = [(before + 1 + i, e.kind, e.payload) for i, e in enumerate(step.events)]
    game = step.game
    assert game.version == before + len(events), (game.version, before, len(events))
    unit = CommitUnit(table_id, before, game.version, game.status, events, command,
                      new_table=new_table, deal_group=deal_group)
    if step.revealed is not None:
        unit.games_revealed.append(step.revealed)
    if step.started is not None:
        number, secret, dealer, individual = step.started
        started = next(v for v, kind, _ in events if kind == "HandStarted")
        unit.games_started.append({
            "number": number, "dealer": dealer, "started_version": started,
            "commitment": secret.commitment, "deck": list(secret.order), "salt": secret.salt,
            "cut": secret.cut, "individual": individual})
    if step.ended is not None:
        number, result, record = step.ended
        ended = next(v for v, kind, _ in events if kind == "HandEnded")
        unit.games_ended.append({"number": number, "ended_version": ended, "result": result,
                                 "record": record, "reveal_held": number in game.held})
        unit.snapshot = {"version": game.version, "hand_no": game.hand_no,
                         "state": game.snapshot()}
    return unit
