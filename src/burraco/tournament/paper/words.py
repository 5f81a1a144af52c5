"""The words printed on the club's paper, in any of the platform's languages: the catalogs'
``tournament.paper.*`` messages (their English in :mod:`..messages_paper`)."""

from __future__ import annotations

from burraco.locale import LANGUAGES
from burraco.tournament.errors import TournamentError
from burraco.tournament.i18n import Text, tr

LANGS = LANGUAGES


def check_lang(lang: str) -> str:
    if lang not in LANGS:
        raise TournamentError(Text("error.paper_lang", langs=", ".join(LANGS),
                                   lang=repr(lang)))
    return lang


def word(key: str, lang: str) -> str:
    """The paper's word ``key`` in ``lang``."""
    return tr(lang, f"paper.{key}")


def line_word(line: str, lang: str) -> str:
    """``NS`` or ``EW`` as ``lang`` writes it (``EO`` in Italian)."""
    return word(f"{line.lower()}_short", lang)
