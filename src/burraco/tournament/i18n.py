"""The club's words, from the message catalogs (:mod:`burraco.locale`), in every language.

Each message has a key and its English here (the catalogs' source, context
``tournament.<key>``): the pages' and notices' words in :mod:`.messages_pages`, the
refusals in :mod:`.messages_refusals`, the paper's in :mod:`.messages_paper`.  A page
asks :func:`tr` for a message in its language, its ``{name}`` values filled in: numbers
as the language writes them (Babel), a negative one with a true minus sign (``1650 –
−150`` does not read as a range).  A refusal is raised with a :class:`Text`: a message
and its values, said in the language of whoever reads it (``str``: English, as the CLI,
the JSON and the logs have it).

Numbers follow the browser app's rule: four digits ungrouped, as on a score sheet and as
typed in a score field (``1650``), more grouped by the language (``14.821`` in Italian);
decimals take the language's separator (``+12,5`` in Italian).
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from fractions import Fraction

from babel.dates import format_time
from babel.numbers import format_decimal

from burraco.locale import LANGUAGES, NATIVE_NAMES, SOURCE, negotiate, ngettext_in, pgettext_in
from burraco.tournament.messages_pages import MESSAGES as PAGE_MESSAGES
from burraco.tournament.messages_paper import MESSAGES as PAPER_MESSAGES
from burraco.tournament.messages_refusals import MESSAGES as REFUSAL_MESSAGES

__all__ = ["LANGUAGES", "MESSAGES", "NATIVE_NAMES", "PLURALS", "Lang", "Text", "count", "decimal",
           "english", "language", "negotiate", "number", "say", "time_of_day", "tr"]

Lang = str
"""One of :data:`~burraco.locale.LANGUAGES`."""
CONTEXT = "tournament"

MESSAGES: Mapping[str, str] = {**PAGE_MESSAGES, **REFUSAL_MESSAGES, **PAPER_MESSAGES}
"""Every message's English by key (context ``tournament.<key>``)."""


def language(value: object, default: Lang = SOURCE) -> Lang:
    """``value`` when it is one of the platform's languages, else ``default``."""
    return value if isinstance(value, str) and value in LANGUAGES else default


def english(key: str) -> str:
    """The message's English (its msgid)."""
    return MESSAGES[key]


def _minus(text: str) -> str:
    return "−" + text[1:] if text.startswith("-") else text


def number(lang: Lang, value: int, *, signed: bool = False) -> str:
    """A whole number as ``lang`` writes it (``+355``, ``−150`` with ``signed``): four digits
    ungrouped, as a score sheet has them (``1650``), more grouped (``14.821`` in Italian)."""
    digits = "#,##0" if abs(value) >= 10_000 else "0"
    pattern = f"+{digits};-{digits}" if signed else f"{digits};-{digits}"
    return _minus(format_decimal(value, format=pattern, locale=language(lang)))


def decimal(lang: Lang, value: float | Fraction, *, signed: bool = True) -> str:
    """A number with one decimal as ``lang`` writes it (a duplicate score: ``+12,5``)."""
    return _minus(format_decimal(round(float(value), 1),
                                 format="+0.0;-0.0" if signed else "0.0;-0.0",
                                 locale=language(lang)))


def time_of_day(lang: Lang, at: datetime, *, seconds: bool = False) -> str:
    """``at`` in this machine's time zone, as ``lang`` writes a time (``15:04``, ``3:04 PM``)."""
    return format_time(at.astimezone(), "medium" if seconds else "short", locale=language(lang))


def _shown(lang: Lang, value: object) -> str:
    if isinstance(value, Text):
        return value.in_(lang)
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, int):
        return number(lang, value)
    if isinstance(value, str) and value[1:].isdigit() and value.startswith("-"):
        return "−" + value[1:]
    return str(value)


def tr(lang: Lang, key: str, **values: object) -> str:
    """The message ``key`` in ``lang``, its values filled in as a page shows them."""
    text = pgettext_in(language(lang), f"{CONTEXT}.{key}", MESSAGES[key])
    return text.format(**{name: _shown(lang, value) for name, value in values.items()})


PLURALS: Mapping[str, tuple[str, str]] = {
    "pair": ("{n} pair", "{n} pairs"), "player": ("{n} player", "{n} players"),
    "team": ("{n} team", "{n} teams"), "round": ("{n} round", "{n} rounds")}
"""The counted words (:func:`count`): their catalog entries have a plural and no context."""


def count(lang: Lang, what: str, n: int) -> str:
    """``n`` of ``what`` (``pair``, ``player``, ``team``, ``round``) with its plural form in
    ``lang``: "1 pair", "6 pairs"."""
    lang = language(lang)
    if what == "pair":
        text = ngettext_in(lang, "{n} pair", "{n} pairs", n)
    elif what == "player":
        text = ngettext_in(lang, "{n} player", "{n} players", n)
    elif what == "team":
        text = ngettext_in(lang, "{n} team", "{n} teams", n)
    else:
        text = ngettext_in(lang, "{n} round", "{n} rounds", n)
    return text.format(n=number(lang, n))


class Text:
    """A message and its values, said later in the language of whoever reads it.

    ``str(text)`` is the English; the values are written as they were given (a refusal
    repeats what was typed), a value that is itself a :class:`Text` in the same language.
    """

    __slots__ = ("key", "values")

    def __init__(self, key: str, /, **values: object) -> None:
        if key not in MESSAGES:
            raise KeyError(f"no tournament message {key!r}")
        self.key = key
        self.values = values

    def in_(self, lang: Lang) -> str:
        """The message in ``lang``."""
        text = pgettext_in(language(lang), f"{CONTEXT}.{self.key}", MESSAGES[self.key])
        return text.format(**{name: value.in_(lang) if isinstance(value, Text) else value
                              for name, value in self.values.items()})

    def __str__(self) -> str:
        return self.in_(SOURCE)

    def __repr__(self) -> str:
        return f"Text({self.key!r}, {self.values!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Text) and (self.key, self.values) == (other.key, other.values)

    def __hash__(self) -> int:
        return hash(self.key)


def say(lang: Lang, message: object) -> str:
    """What an exception or a message says in ``lang``: a :class:`Text` (or an exception
    carrying one as ``text``) translated, anything else as it is written."""
    text = getattr(message, "text", message)
    return text.in_(lang) if isinstance(text, Text) else str(message)
