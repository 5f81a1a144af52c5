"""The tournament package's errors: a director's request that cannot be carried out, and a
request its pages refuse before reading it (:class:`Refused`, with its HTTP status)."""

from __future__ import annotations


class TournamentError(ValueError):
    """Bad input or an impossible step; the message names what was wrong.

    Every operation of :mod:`burraco.tournament.model` either returns a new
    tournament or raises this, leaving the old value (and the database) as it was.
    """


class Refused(Exception):
    """A request refused before it is read (a form too large): ``status`` is its answer."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
