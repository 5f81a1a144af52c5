"""Where late entries sit in a fixed movement (Mitchell, round robin).

A pair registered after round 1 was drawn (:func:`.changes.late_register`) joins the
movement from the next round, in one of two ways the director chooses:

* ``bye``: it takes an empty place of the movement: the empty EW place of an odd field
  (the bye table: the NS pair that had the bye plays it), else the place of a withdrawn
  pair.  Nobody else moves, so the movement stays free of repeats.  Refused when the
  movement has no empty place.
* ``redraw``: it fills the empty place if there is one, else it opens a new table (NS
  at it, an empty EW place joining the EW line), and the rounds not yet started are
  drawn again over the new number of tables: each round takes the rotation that brings
  no two pairs together again, and where none does, the pairs that would meet again
  play others they have never met (:mod:`.reseat`).

>>> ns, ew = place_lines((1, 2, 3), (4, 5, None), [(6, "bye"), (7, "redraw")], ())
>>> ns, ew
((1, 2, 3, 7), (4, 5, 6, None))
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from burraco.tournament.errors import TournamentError
from burraco.tournament.evening import LateMode
from burraco.tournament.i18n import Text

Line = tuple[int | None, ...]


def place_lines(ns: Sequence[int], ew: Line, late: Sequence[tuple[int, LateMode]],
                withdrawn: Collection[int]) -> tuple[tuple[int, ...], Line]:
    """The Mitchell lines with the ``late`` pairs placed (see the module's docstring)."""
    north, east = list(ns), list(ew)
    taken: set[int] = set()
    for pair, mode in late:
        if None in east:
            east[east.index(None)] = pair
            continue
        gone = next((p for p in (*north, *east) if p in withdrawn and p not in taken), None)
        if mode == "bye":
            if gone is None:
                raise TournamentError(Text("error.late_no_place", pair=pair))
            taken.add(gone)
            if gone in north:
                north[north.index(gone)] = pair
            else:
                east[east.index(gone)] = pair
            continue
        north.append(pair)
        east.append(None)
    return tuple(north), tuple(east)


def place_order(order: Sequence[int], late: Sequence[tuple[int, LateMode]],
                withdrawn: Collection[int]) -> list[int]:
    """A round robin's order with the ``late`` pairs placed: in an odd field the first one
    takes the empty place (it is appended, where the bye sits), a ``bye`` one otherwise
    the place of a withdrawn pair."""
    places = list(order)
    taken: set[int] = set()
    for pair, mode in late:
        if len(places) % 2 == 0 and mode == "bye":
            gone = next((p for p in places if p in withdrawn and p not in taken), None)
            if gone is None:
                raise TournamentError(Text("error.late_no_place", pair=pair))
            taken.add(gone)
            places[places.index(gone)] = pair
        else:
            places.append(pair)
    return places
