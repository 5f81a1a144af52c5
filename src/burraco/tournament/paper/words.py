"""The words printed on the club's paper, in Italian and English."""

from __future__ import annotations

from burraco.tournament.errors import TournamentError

LANGS = ("it", "en")

WORDS: dict[str, dict[str, str]] = {
    "table": {"it": "Tavolo", "en": "Table"},
    "round": {"it": "Turno", "en": "Round"},
    "pair": {"it": "Coppia", "en": "Pair"},
    "ns": {"it": "Nord-Sud (NS)", "en": "North-South (NS)"},
    "ew": {"it": "Est-Ovest (EW)", "en": "East-West (EW)"},
    "scan": {"it": "Inquadra il codice per inserire il risultato della tua coppia",
             "en": "Scan the code to enter your pair's result"},
    "table_cards": {"it": "Cartellini dei tavoli", "en": "Table cards"},
    "where": {"it": "Dove mi siedo", "en": "Where do I sit"},
    "player": {"it": "Giocatore", "en": "Player"},
    "line": {"it": "Linea", "en": "Line"},
    "bye": {"it": "riposo", "en": "bye"},
    "score_sheet": {"it": "Foglio segnapunti", "en": "Score sheet"},
    "smazzata": {"it": "Smazzata", "en": "Smazzata"},
    "cards": {"it": "Carte", "en": "Cards"},
    "burraco": {"it": "Burraco", "en": "Burraco"},
    "closing": {"it": "Chiusura", "en": "Closing"},
    "pozzetto": {"it": "Pozzetto", "en": "Pozzetto"},
    "total": {"it": "Totale", "en": "Total"},
    "totals": {"it": "Totali", "en": "Totals"},
    "mp": {"it": "Punti (MP)", "en": "Match points (MP)"},
    "vp": {"it": "VP", "en": "VP"},
    "signatures": {"it": "Firme: compilato da ____________  controfirmato da ____________",
                   "en": "Signed: filled in by ____________  countersigned by ____________"},
    "sheet_help": {
        "it": "Carte: valore delle carte calate meno quelle in mano. Burraco: pulito 200, "
              "semipulito 150, sporco 100. Chiusura +100. Pozzetto non preso -100.",
        "en": "Cards: value of the cards melded less those in hand. Burraco: clean 200, "
              "semi-clean 150, dirty 100. Closing +100. Pozzetto not taken -100."},
    "assignments": {"it": "Assegnazione dei tavoli", "en": "Table assignments"},
    "standings": {"it": "Classifica", "en": "Standings"},
    "final": {"it": "Classifica finale", "en": "Final standings"},
    "rank": {"it": "Pos.", "en": "Rank"},
    "diff": {"it": "Scarto", "en": "MP diff"},
    "dup": {"it": "Punti dup.", "en": "Dup."},
    "penalty": {"it": "Penalità", "en": "Penalty"},
    "withdrawn": {"it": "ritirata", "en": "withdrawn"},
    "prizes": {"it": "Premi", "en": "Prizes"},
    "category": {"it": "Categoria", "en": "Category"},
    "place": {"it": "Posto", "en": "Place"},
    "not_awarded": {"it": "non assegnato", "en": "not awarded"},
    "overall": {"it": "assoluta", "en": "overall"},
    "ns_ranking": {"it": "Classifica Nord-Sud", "en": "North-South ranking"},
    "ew_ranking": {"it": "Classifica Est-Ovest", "en": "East-West ranking"},
    "deal_sheets": {"it": "Carte preparate: smazzate", "en": "Prepared cards: deal sheets"},
    "board": {"it": "Smazzata", "en": "Board"},
    "dealer": {"it": "Mazziere", "en": "Dealer"},
    "hand": {"it": "Mano", "en": "Hand"},
    "stock": {"it": "Tallone (dall'alto)", "en": "Stock (top first)"},
    "upcard": {"it": "Prima carta scoperta", "en": "First up-card"},
    "deal_help": {
        "it": "Ogni tavolo del turno gioca le stesse carte. Seduti: N e S sono la linea NS, "
              "E e O la linea EW. Carte: A 2-10 J Q K, semi H cuori D quadri C fiori S picche, "
              "JK jolly.",
        "en": "Every table of the round plays the same cards. Seats: N and S are the NS line, "
              "E and W the EW line. Cards: A 2-10 J Q K, suits H hearts D diamonds C clubs "
              "S spades, JK joker."},
    "seat_n": {"it": "N", "en": "N"},
    "seat_e": {"it": "E", "en": "E"},
    "seat_s": {"it": "S", "en": "S"},
    "seat_w": {"it": "O", "en": "W"},
    "no_round": {"it": "nessun turno iniziato", "en": "no round started"},
}


def check_lang(lang: str) -> str:
    if lang not in LANGS:
        raise TournamentError(f"the paper is printed in {' or '.join(LANGS)}, not {lang!r}")
    return lang


def word(key: str, lang: str) -> str:
    return WORDS[key][lang]
