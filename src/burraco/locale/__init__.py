"""The message catalogs: every word a person reads, in every language of the platform.

One gettext catalog per language, ``<lang>/LC_MESSAGES/burraco.po`` beside this file, English
the source language (its messages are the catalogs' msgids, so it has no catalog of its own).
The same files serve the Python side (the terminal client, the server's pages and PDFs, the
CLI) and the browser app, whose build reads them (``web/scripts/po-plugin.mjs``). A compiled
``.mo`` is used when the install built it and it is not older than its ``.po``; otherwise the
``.po`` is compiled in memory on first use. ``scripts/i18n`` extracts, updates and reports
(docs/translating.md).
"""

from __future__ import annotations

import functools
import gettext
import io
import os
from collections.abc import Iterable
from pathlib import Path

from babel import Locale
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

#: The languages, in the order a language picker shows them.
LANGUAGES: tuple[str, ...] = ("it", "en", "es", "ro", "sl")
SOURCE = "en"
DOMAIN = "burraco"
HERE = Path(__file__).resolve().parent


def native_name(lang: str) -> str:
    """A language by its own name ("Italiano", "Română"), from Babel's CLDR data."""
    name = Locale.parse(check_language(lang)).get_display_name(lang) or lang
    return name[:1].upper() + name[1:]


def N_(context: str, message: str) -> str:
    """Marks ``message`` (English) of ``context`` for the catalogs; returns it unchanged.

    ``scripts/i18n extract`` finds these calls; the text is translated where it is shown
    (:func:`pgettext_in`)."""
    return message


def catalog_path(lang: str, suffix: str = ".po") -> Path:
    """Where ``lang``'s catalog lies (``.po``, or the compiled ``.mo``)."""
    return HERE / lang / "LC_MESSAGES" / f"{DOMAIN}{suffix}"


def check_language(lang: str) -> str:
    """``lang`` itself when it is one of the platform's languages; ValueError naming it if not."""
    if lang not in LANGUAGES:
        raise ValueError(f"unknown language {lang!r}: one of {', '.join(LANGUAGES)}")
    return lang


@functools.cache
def translations(lang: str) -> gettext.NullTranslations:
    """``lang``'s translations; English (the source) and a missing catalog give the msgids."""
    check_language(lang)
    po = catalog_path(lang)
    if lang == SOURCE or not po.exists():
        return gettext.NullTranslations()
    mo = catalog_path(lang, ".mo")
    if mo.exists() and mo.stat().st_mtime >= po.stat().st_mtime:
        with mo.open("rb") as handle:
            return gettext.GNUTranslations(handle)
    return gettext.GNUTranslations(io.BytesIO(compile_po(po)))


def compile_po(po: Path) -> bytes:
    """The ``.mo`` bytes of a ``.po`` file: fuzzy and empty entries left out (they fall back)."""
    with po.open("rb") as handle:
        catalog = read_po(handle, abort_invalid=True)
    out = io.BytesIO()
    write_mo(out, catalog, use_fuzzy=False)
    return out.getvalue()


def gettext_in(lang: str, message: str) -> str:
    """``message`` (English) in ``lang``."""
    return translations(lang).gettext(message)


def pgettext_in(lang: str, context: str, message: str) -> str:
    """``message`` (English) of ``context`` in ``lang``."""
    return translations(lang).pgettext(context, message)


def ngettext_in(lang: str, singular: str, plural: str, n: int) -> str:
    """The form of ``singular``/``plural`` for ``n``, in ``lang`` (its own plural rules)."""
    return translations(lang).ngettext(singular, plural, n)


def negotiate(preferred: Iterable[str], default: str = SOURCE) -> str:
    """The first of ``preferred`` (``it-IT``, ``ro_RO.UTF-8``, ``sl``) the platform speaks."""
    for tag in preferred:
        base = tag.replace("_", "-").split("-")[0].split(".")[0].strip().lower()
        if base in LANGUAGES:
            return base
    return default


def from_environment(env: dict[str, str] | None = None) -> str:
    """The language of a terminal, as gettext reads it: the first of ``LANGUAGE`` (a colon
    list), ``LC_ALL``, ``LC_MESSAGES``, ``LANG`` that is set; English for the C locale or a
    language we do not speak."""
    env = dict(os.environ) if env is None else env
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(name, "")
        if not value:
            continue
        if value in ("C", "POSIX") or value.startswith("C."):
            return SOURCE
        return negotiate(value.split(":"))
    return SOURCE


#: Each language by its own name, in the picker's order.
NATIVE_NAMES: dict[str, str] = {lang: native_name(lang) for lang in LANGUAGES}
