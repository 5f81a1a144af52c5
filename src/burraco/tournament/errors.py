"""The tournament package's errors: a director's request that cannot be carried out, and a
request its pages refuse before reading it (:class:`Refused`, with its HTTP status)."""

from __future__ import annotations


class TournamentError(ValueError):
    """Bad input or an impossible step; the message names what was wrong.

    Every operation of :mod:`burraco.tournament.model` either returns a new
    tournament or raises this, leaving the old value (and the database) as it was.
    """


EXCERPT = 16
"""The most characters of what was typed that a refusal repeats."""


def excerpt(value: object) -> str:
    """What was typed, quoted, as a refusal repeats it: cut short when long (a 5,000-digit
    entry is not echoed whole)."""
    text = str(value)
    if len(text) <= EXCERPT:
        return repr(text)
    return f"{text[:EXCERPT]!r}… ({len(text)} characters)"


def cut(value: object) -> str:
    """A number as a refusal repeats it: whole when short, else its start and its length."""
    text = str(value)
    return text if len(text) <= EXCERPT else f"{text[:EXCERPT]}… ({len(text)} digits)"


class Refused(Exception):
    """A request refused before it is read (a form too large): ``status`` is its answer."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
