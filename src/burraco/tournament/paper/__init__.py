"""The club's paper: printable PDFs of an evening (fpdf2, QR codes by segno).

:func:`render` makes one of :data:`KINDS` in any of the platform's languages:

* ``table-cards``  one page per table: number, NS and EW pairs, a QR code per line; before
                   round 1 the evening's set: one card per table whose codes open the table's
                   round in play all evening
* ``seats``        "where do I sit": every player alphabetically, with table and line
* ``score-sheets`` one sheet per table to fill in by hand (RULES.md §9, §11.7)
* ``round``        the round's assignments
* ``standings``    the standings (final ranking), NS/EW rankings, penalties, prize list
* ``deals``        duplicate events with real cards: the deal sheets of each board
* ``wall``         the movement card: every entrant's table and line in every round, and
                   every table's lines round by round (:mod:`burraco.tournament.wall`)
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from burraco.tournament.errors import TournamentError
from burraco.tournament.i18n import Text
from burraco.tournament.paper.links import LinkBuilder
from burraco.tournament.paper.words import check_lang

if TYPE_CHECKING:
    from burraco.tournament.model import Round, Tournament

KINDS = ("table-cards", "seats", "score-sheets", "round", "standings", "deals", "wall")

__all__ = ["KINDS", "LinkBuilder", "render"]


def _round(t: Tournament, number: int | None) -> Round:
    if number is not None:
        return t.round(number)
    if t.current is None:
        raise TournamentError(Text("error.paper_no_round"))
    return t.current


def render(kind: str, t: Tournament, *, links: LinkBuilder, lang: str = "it",
           round_number: int | None = None) -> bytes:
    """The PDF of ``kind``; ``round_number`` (default: the current round) where it applies."""
    check_lang(lang)
    # the PDF makers (fpdf2, segno) load on the first print, not with every server's start
    from burraco.tournament.paper.deal_sheets import deal_sheets
    from burraco.tournament.paper.lists import assignments, standings_paper, where_do_i_sit
    from burraco.tournament.paper.score_sheets import score_sheets
    from burraco.tournament.paper.table_cards import evening_cards, table_cards
    from burraco.tournament.paper.wall import wall_paper

    if kind == "table-cards":
        if round_number is None and t.current is None:  # before round 1: the evening's set
            return evening_cards(t, links, lang)
        return table_cards(t, _round(t, round_number), links, lang)
    if kind == "seats":
        return where_do_i_sit(t, _round(t, round_number), lang)
    if kind == "score-sheets":
        return score_sheets(t, _round(t, round_number), lang)
    if kind == "round":
        return assignments(t, _round(t, round_number), lang)
    if kind == "standings":
        return standings_paper(t, lang)
    if kind == "deals":
        return deal_sheets(t, round_number, lang)
    if kind == "wall":
        return wall_paper(t, lang)
    raise TournamentError(Text("error.paper_kind", kind=repr(kind), kinds=", ".join(KINDS)))
