"""The tournament package's errors: a director's request that cannot be carried out, and a
request its pages refuse before reading it (:class:`Refused`, with its HTTP status).

Both carry their message as a :class:`~burraco.tournament.i18n.Text` (a catalog message
and its values) when they can: ``str(error)`` is the English, :func:`~.i18n.say` the
message in the language of whoever reads it (a phone's, the director's).
"""

from __future__ import annotations

from burraco.tournament.i18n import Text


class TournamentError(ValueError):
    """Bad input or an impossible step; the message names what was wrong.

    Every operation of :mod:`burraco.tournament.model` either returns a new
    tournament or raises this, leaving the old value (and the database) as it was.
    ``text``: the message as a catalog message, when it is one (else ``None``).
    """

    def __init__(self, message: str | Text) -> None:
        super().__init__(str(message))
        self.text = message if isinstance(message, Text) else None


EXCERPT = 16
"""The most characters of what was typed that a refusal repeats."""


def excerpt(value: object) -> str | Text:
    """What was typed, quoted, as a refusal repeats it: cut short when long (a 5,000-digit
    entry is not echoed whole)."""
    text = str(value)
    if len(text) <= EXCERPT:
        return repr(text)
    return Text("error.excerpt", start=repr(text[:EXCERPT]), n=len(text))


def cut(value: object) -> str | Text:
    """A number as a refusal repeats it: whole when short, else its start and its length."""
    text = str(value)
    return text if len(text) <= EXCERPT else Text("error.cut", start=text[:EXCERPT],
                                                  n=len(text))


class Refused(Exception):
    """A request refused before it is read (a form too large): ``status`` is its answer."""

    def __init__(self, status: int, message: str | Text) -> None:
        super().__init__(str(message))
        self.status = status
        self.text = message if isinstance(message, Text) else None
