"""What of a duplicate round only the director may see yet (RULES.md §11.4).

Every table of a duplicate round plays the same deals, so any score of a table (a hand's,
the match's total, its VP, a team table's, the duplicate score, and the standings they move)
tells a table still playing something about its cards.  A duplicate round is *held* while

* a table of the round has no result yet, or
* a table of the round's deal group on the game server (:func:`.online.deal_group_id`)
  has not finished its match: the director may have entered that table's result by hand
  (or its pairs on their phones) while its web table still plays the deals.

While a round is held, :func:`public` leaves all of its results out: everything computed
from a tournament (pages, CSV, JSON, the big screen, the profile) is computed without the
round.  A table's result, hand by hand included, only comes in once its match is over, and it
is shown only once every table of the group has finished: no hand's score is ever shown before
every table of the group has played that hand (the game server's rule for its held reveals,
``repository.group_releases``, where a finished table holds nothing back).  Events that are
not duplicate hold nothing.

>>> from burraco.tournament.model import Settings
>>> from burraco.tournament.schedule import Schedule
>>> t = Tournament(Settings("Dup", schedule=Schedule.parse("mitchell:1"), duplicate=True))
>>> for name in "ABCD":
...     t, _ = t.register(name)
>>> t = t.start_round().record(1, 1, 1200, 900)
>>> sorted(held_rounds(t)), public(t).results
([1], ())
>>> t = t.record(1, 2, 500, 500)
>>> sorted(held_rounds(t)), len(public(t).results)
([], 2)
>>> sorted(held_rounds(t, playing={1})), public(t, playing={1}).results
([1], ())
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import replace

from sqlalchemy import Connection, inspect, select

from burraco.server.storage.models import DealGroupTableRow, TableRow
from burraco.tournament.model import Tournament
from burraco.tournament.online import deal_group_id
from burraco.tournament.service import Director


def held_rounds(t: Tournament, playing: Collection[int] = ()) -> frozenset[int]:
    """The rounds whose results only the director may see: none unless the event is duplicate.

    ``playing``: the rounds whose deal group has a table still playing (:func:`playing_rounds`).
    """
    if not t.settings.duplicate:
        return frozenset()
    return frozenset(r.number for r in t.rounds
                     if r.number in playing or not t.round_complete(r.number))


def public(t: Tournament, playing: Collection[int] = ()) -> Tournament:
    """What anyone but the director may see: ``t`` without the results of its held rounds.

    ``t`` itself when nothing is held (the pages compare with ``is`` to say so).
    """
    return without(t, held_rounds(t, playing))


def without(t: Tournament, held: Collection[int]) -> Tournament:
    """``t`` without the results of the rounds ``held``; ``t`` itself when none is."""
    if not held:
        return t
    return replace(t, results=tuple(r for r in t.results if r.round not in held))


def playing_rounds(conn: Connection, tid: str, t: Tournament) -> frozenset[int]:
    """The duplicate rounds of ``t`` whose deal group has a table not finished on the server.

    Only the rounds that every table has a result for are asked about (the others are held
    anyway); none when the database holds no game-server tables (``burraco tournament serve``
    on a database of its own).
    """
    if not t.settings.duplicate:
        return frozenset()
    groups = {deal_group_id(tid, r.number): r.number for r in t.rounds
              if t.round_complete(r.number)}
    if not groups:
        return frozenset()
    names = inspect(conn)
    if not (names.has_table(TableRow.__tablename__)
            and names.has_table(DealGroupTableRow.__tablename__)):
        return frozenset()
    found = conn.scalars(
        select(DealGroupTableRow.group_id).distinct()
        .join(TableRow, TableRow.id == DealGroupTableRow.table_id)
        .where(DealGroupTableRow.group_id.in_(list(groups)), TableRow.status != "finished"))
    return frozenset(groups[group] for group in found)


def held_now(director: Director, tid: str, t: Tournament) -> frozenset[int]:
    """:func:`held_rounds` of ``t``, its deal groups read from the director's database."""
    if not t.settings.duplicate:
        return frozenset()
    with director.engine.connect() as conn:
        return held_rounds(t, playing_rounds(conn, tid, t))


def players_view(director: Director, tid: str, t: Tournament) -> Tournament:
    """:func:`public` of ``t``, its deal groups read from the director's database."""
    return without(t, held_now(director, tid, t))
