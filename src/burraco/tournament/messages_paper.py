"""The words printed on the club's paper in English, by key: the catalogs' source (context
``tournament.paper.<key>``); :mod:`.paper` prints them in any of the platform's languages."""

from __future__ import annotations

from burraco.locale import N_

MESSAGES: dict[str, str] = {
    "paper.table": N_("tournament.paper.table", "Table"),
    "paper.round": N_("tournament.paper.round", "Round"),
    "paper.pair": N_("tournament.paper.pair", "Pair"),
    "paper.ns": N_("tournament.paper.ns", "North-South (NS)"),
    "paper.ew": N_("tournament.paper.ew", "East-West (EW)"),
    "paper.ns_short": N_("tournament.paper.ns_short", "NS"),
    "paper.ew_short": N_("tournament.paper.ew_short", "EW"),
    "paper.scan": N_("tournament.paper.scan", "Scan the code to enter your pair's result"),
    "paper.table_cards": N_("tournament.paper.table_cards", "Table cards"),
    "paper.where": N_("tournament.paper.where", "Where do I sit"),
    "paper.player": N_("tournament.paper.player", "Player"),
    "paper.line": N_("tournament.paper.line", "Line"),
    "paper.bye": N_("tournament.paper.bye", "bye"),
    "paper.score_sheet": N_("tournament.paper.score_sheet", "Score sheet"),
    "paper.smazzata": N_("tournament.paper.smazzata", "Smazzata"),
    "paper.cards": N_("tournament.paper.cards", "Cards"),
    "paper.burraco": N_("tournament.paper.burraco", "Burraco"),
    "paper.closing": N_("tournament.paper.closing", "Closing"),
    "paper.pozzetto": N_("tournament.paper.pozzetto", "Pozzetto"),
    "paper.total": N_("tournament.paper.total", "Total"),
    "paper.totals": N_("tournament.paper.totals", "Totals"),
    "paper.mp": N_("tournament.paper.mp", "Match points (MP)"),
    "paper.mp_short": N_("tournament.paper.mp_short", "MP"),
    "paper.vp": N_("tournament.paper.vp", "VP"),
    "paper.signatures": N_("tournament.paper.signatures",
                           "Signed: filled in by ____________  countersigned by ____________"),
    "paper.sheet_help": N_("tournament.paper.sheet_help",
                           "Cards: value of the cards melded less those in hand. Burraco: clean "
                           "200, semi-clean 150, dirty 100. Closing +100. Pozzetto not taken "
                           "-100."),
    "paper.assignments": N_("tournament.paper.assignments", "Table assignments"),
    "paper.standings": N_("tournament.paper.standings", "Standings"),
    "paper.final": N_("tournament.paper.final", "Final standings"),
    "paper.rank": N_("tournament.paper.rank", "Rank"),
    "paper.diff": N_("tournament.paper.diff", "MP diff"),
    "paper.dup": N_("tournament.paper.dup", "Dup."),
    "paper.penalty": N_("tournament.paper.penalty", "Penalty"),
    "paper.withdrawn": N_("tournament.paper.withdrawn", "withdrawn"),
    "paper.prizes": N_("tournament.paper.prizes", "Prizes"),
    "paper.category": N_("tournament.paper.category", "Category"),
    "paper.place": N_("tournament.paper.place", "Place"),
    "paper.not_awarded": N_("tournament.paper.not_awarded", "not awarded"),
    "paper.overall": N_("tournament.paper.overall", "overall"),
    "paper.ns_ranking": N_("tournament.paper.ns_ranking", "North-South ranking"),
    "paper.ew_ranking": N_("tournament.paper.ew_ranking", "East-West ranking"),
    "paper.deal_sheets": N_("tournament.paper.deal_sheets", "Prepared cards: deal sheets"),
    "paper.board": N_("tournament.paper.board", "Board"),
    "paper.dealer": N_("tournament.paper.dealer", "Dealer"),
    "paper.hand": N_("tournament.paper.hand", "Hand"),
    "paper.stock": N_("tournament.paper.stock", "Stock (top first)"),
    "paper.upcard": N_("tournament.paper.upcard", "First up-card"),
    "paper.deal_help": N_("tournament.paper.deal_help",
                          "Every table of the round plays the same cards. Seats: N and S are the "
                          "NS line, E and W the EW line. Cards: A 2-10 J Q K, suits H hearts D "
                          "diamonds C clubs S spades, JK joker."),
    "paper.seat_n": N_("tournament.paper.seat_n", "N"),
    "paper.seat_e": N_("tournament.paper.seat_e", "E"),
    "paper.seat_s": N_("tournament.paper.seat_s", "S"),
    "paper.seat_w": N_("tournament.paper.seat_w", "W"),
    "paper.no_round": N_("tournament.paper.no_round", "no round started"),
    "paper.evening_card": N_("tournament.paper.evening_card",
                             "One card for the whole evening: the code opens this table's round "
                             "in play."),
}
