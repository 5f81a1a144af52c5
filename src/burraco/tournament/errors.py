"""The one error of the tournament package: a director's request that cannot be carried out."""

from __future__ import annotations


class TournamentError(ValueError):
    """Bad input or an impossible step; the message names what was wrong.

    Every operation of :mod:`burraco.tournament.model` either returns a new
    tournament or raises this, leaving the old value (and the database) as it was.
    """
