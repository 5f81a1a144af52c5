"""The terminal client's words in English and Italian, and the engine's reasons in Italian.

The engine explains every refusal in an English sentence that cites RULES.md;
:func:`reason_text` gives it in Italian (the same table as the browser
client's), falling back to the English sentence so a new reason is never lost,
only untranslated.  The language comes from ``--lang`` or the locale.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Mapping

LANGS = ("en", "it")

_EN: dict[str, str] = {
    "title": "Burraco",
    "you": "You",
    "seat": "Seat {n}",
    "bot": "{level} bot",
    "open_seat": "open seat",
    "invite": "Invite for {name}: {link}",
    "waiting_players": "Waiting for the players to sit down",
    "hand_no": "Hand {n}",
    "turn_of": "turn: {name}",
    "your_turn_draw": "Your turn: draw (d) or take the pile (p)",
    "your_turn_play": "Your turn: meld (m), attach (a), discard (x)",
    "waiting_for": "Waiting for {name}",
    "phase.draw": "draws",
    "phase.play": "plays",
    "stock": "Stock",
    "pile": "Pile",
    "pile_empty": "empty",
    "pile_all": "The discard pile, bottom first ({n} cards)",
    "pozzetti": "Pozzetti",
    "pozzetto_left": "{n} left",
    "pozzetto_taken": "{side}: {name}",
    "pozzetto_none": "none taken",
    "score": "Score",
    "target": "to {n}",
    "melds_of": "{side}",
    "no_melds": "no melds",
    "cards": "{n} cards",
    "online": "online",
    "offline": "offline",
    "standin": "stand-in {level}",
    "clock": "clock {s}s",
    "final_turn": "last round",
    "spectator": "Watching",
    "replay": "Replay",
    "replay_pos": "move {i}/{n}",
    "replay_seat": "seen from {name}",
    "selected": "selected: {cards}",
    "nothing_selected": "select cards with space first",
    "attach_which": "attach to which meld? type its number (Esc cancels)",
    "attach_cancel": "attach cancelled",
    "no_such_meld": "your side has no meld {n}",
    "select_one": "select exactly one card to discard",
    "sorted_suit": "hand sorted by suit",
    "sorted_rank": "hand sorted by rank",
    "refused": "Refused: {reason}",
    "rules_at": "see RULES.md {section}",
    "not_your_turn": "It is not your turn.",
    "connecting": "connecting…",
    "reconnecting": "link lost: reconnecting…",
    "connected": "connected",
    "closed_link": "the server closed the link: {reason}",
    "quit_confirm": "Leave the match? (y: yes, any other key: no)",
    "hand_over": "Hand over",
    "hand_over_reason.closed": "{name} closed",
    "hand_over_reason.stock": "the stock ran out",
    "hand_over_reason.stall": "the hand stalled",
    "hand_over_reason.time": "time is up",
    "result_line": "{side}: melds {melds}, burraco {bonuses}, closing {closing}, "
                   "pozzetto {pozzetto}, hand {hand} = {total}",
    "next_hand": "press n for the next hand",
    "saved": "record: {path}",
    "seed": "Seed {seed}: burraco tui --seed {seed} deals these hands again",
    "match_over": "Match over: {winner} win",
    "match_tie": "Match over: a tie",
    "redeal": "Nobody took a pozzetto: the hand is dealt again",
    "turn.draw": "drew",
    "turn.pickup": "took the pile",
    "turn.meld": "melded {cards}",
    "turn.attach": "attached {cards} to {n}",
    "turn.discard": "discarded {card}",
    "turn.time": "time is called",
    "help_title": "Keys",
    "help_close": "any key closes this",
    "help.draw": "draw from the stock",
    "help.pickup": "take the discard pile",
    "help.left": "move left along the hand",
    "help.right": "move right along the hand",
    "help.select": "select or unselect the card",
    "help.meld": "meld the selected cards",
    "help.attach": "attach the selection: then the meld's number",
    "help.discard": "discard the selected card (or the one under the cursor)",
    "help.undo": "take back your last meld or attachment (casual tables)",
    "help.sort": "sort by suit / by rank",
    "help.pile": "show the whole discard pile",
    "help.next": "next hand / replay: next move",
    "help.back": "replay: previous move",
    "help.seat": "replay: see another seat",
    "help.first": "replay: the start",
    "help.last": "replay: the end",
    "key.first": "start",
    "key.last": "end",
    "help.help": "this help",
    "help.quit": "quit",
    "help.mouse": "Mouse: click a card to select it, a meld to attach the selection to it, "
                  "the stock to draw, the pile to take it.",
    "help.settings": "Keys are rebound in {path}",
    "key.draw": "draw",
    "key.pickup": "pile",
    "key.meld": "meld",
    "key.attach": "attach",
    "key.discard": "discard",
    "key.undo": "undo",
    "key.sort": "sort",
    "key.pile": "show pile",
    "key.help": "help",
    "key.quit": "quit",
    "key.select": "select",
    "key.next": "next",
    "key.back": "back",
    "key.seat": "seat",
    "level.random": "Random",
    "level.basic": "Beginner",
    "level.advanced": "Club player",
    "level.expert": "Expert",
    "side.us": "Us",
    "side.them": "Them",
    "burraco.clean": "clean",
    "burraco.semi-clean": "semi-clean",
    "burraco.dirty": "dirty",
    "burraco.other": "burraco",
    "seen_pozzetto": "your pozzetto, played after your next draw: {cards}",
}

_IT: dict[str, str] = {
    "title": "Burraco",
    "you": "Tu",
    "seat": "Posto {n}",
    "bot": "bot {level}",
    "open_seat": "posto libero",
    "invite": "Invito per {name}: {link}",
    "waiting_players": "Si attende che i giocatori si siedano",
    "hand_no": "Smazzata {n}",
    "turn_of": "turno: {name}",
    "your_turn_draw": "Tocca a te: pesca (d) o raccogli gli scarti (p)",
    "your_turn_play": "Tocca a te: cala (m), attacca (a), scarta (x)",
    "waiting_for": "Si attende {name}",
    "phase.draw": "pesca",
    "phase.play": "gioca",
    "stock": "Tallone",
    "pile": "Scarti",
    "pile_empty": "vuoto",
    "pile_all": "Gli scarti, dal fondo ({n} carte)",
    "pozzetti": "Pozzetti",
    "pozzetto_left": "ne restano {n}",
    "pozzetto_taken": "{side}: {name}",
    "pozzetto_none": "nessuno preso",
    "score": "Punti",
    "target": "a {n}",
    "melds_of": "{side}",
    "no_melds": "nessun gioco",
    "cards": "{n} carte",
    "online": "in linea",
    "offline": "non in linea",
    "standin": "sostituto {level}",
    "clock": "orologio {s}s",
    "final_turn": "ultimo giro",
    "spectator": "Spettatore",
    "replay": "Replay",
    "replay_pos": "mossa {i}/{n}",
    "replay_seat": "visto da {name}",
    "selected": "scelte: {cards}",
    "nothing_selected": "prima scegli le carte con la barra spaziatrice",
    "attach_which": "attaccare a quale gioco? scrivi il numero (Esc annulla)",
    "attach_cancel": "attacco annullato",
    "no_such_meld": "la tua squadra non ha il gioco {n}",
    "select_one": "scegli una sola carta da scartare",
    "sorted_suit": "mano ordinata per seme",
    "sorted_rank": "mano ordinata per valore",
    "refused": "Rifiutato: {reason}",
    "rules_at": "vedi RULES.md {section}",
    "not_your_turn": "Non è il tuo turno.",
    "connecting": "connessione…",
    "reconnecting": "collegamento perso: riconnessione…",
    "connected": "connesso",
    "closed_link": "il server ha chiuso il collegamento: {reason}",
    "quit_confirm": "Lasciare la partita? (y: sì, altro tasto: no)",
    "hand_over": "Smazzata finita",
    "hand_over_reason.closed": "{name} ha chiuso",
    "hand_over_reason.stock": "il tallone è finito",
    "hand_over_reason.stall": "la smazzata si è bloccata",
    "hand_over_reason.time": "il tempo è scaduto",
    "result_line": "{side}: giochi {melds}, burraco {bonuses}, chiusura {closing}, "
                   "pozzetto {pozzetto}, mano {hand} = {total}",
    "next_hand": "premi n per la prossima smazzata",
    "saved": "registrazione: {path}",
    "seed": "Con burraco tui --seed {seed} si ridanno le stesse carte",
    "match_over": "Partita finita: vince {winner}",
    "match_tie": "Partita finita: pareggio",
    "redeal": "Nessuno ha preso il pozzetto: si ridistribuisce",
    "turn.draw": "pesca",
    "turn.pickup": "raccoglie gli scarti",
    "turn.meld": "cala {cards}",
    "turn.attach": "attacca {cards} al {n}",
    "turn.discard": "scarta {card}",
    "turn.time": "chiamato il tempo",
    "turn.me.draw": "peschi",
    "turn.me.pickup": "raccogli gli scarti",
    "turn.me.meld": "cali {cards}",
    "turn.me.attach": "attacchi {cards} al {n}",
    "turn.me.discard": "scarti {card}",
    "help_title": "Tasti",
    "help_close": "un tasto qualsiasi chiude",
    "help.draw": "pesca dal tallone",
    "help.pickup": "raccogli gli scarti",
    "help.left": "muovi a sinistra nella mano",
    "help.right": "muovi a destra nella mano",
    "help.select": "scegli o togli la carta",
    "help.meld": "cala le carte scelte",
    "help.attach": "attacca le carte scelte: poi il numero del gioco",
    "help.discard": "scarta la carta scelta (o quella sotto il cursore)",
    "help.undo": "annulla l'ultimo gioco o attacco (tavoli amichevoli)",
    "help.sort": "ordina per seme / per valore",
    "help.pile": "mostra tutti gli scarti",
    "help.next": "prossima smazzata / replay: mossa seguente",
    "help.back": "replay: mossa precedente",
    "help.seat": "replay: guarda un altro posto",
    "help.first": "replay: l'inizio",
    "help.last": "replay: la fine",
    "key.first": "inizio",
    "key.last": "fine",
    "help.help": "questo aiuto",
    "help.quit": "esci",
    "help.mouse": "Mouse: clic su una carta per sceglierla, su un gioco per attaccarvi la "
                  "scelta, sul tallone per pescare, sugli scarti per raccoglierli.",
    "help.settings": "I tasti si cambiano in {path}",
    "key.draw": "pesca",
    "key.pickup": "scarti",
    "key.meld": "cala",
    "key.attach": "attacca",
    "key.discard": "scarta",
    "key.undo": "annulla",
    "key.sort": "ordina",
    "key.pile": "mostra scarti",
    "key.help": "aiuto",
    "key.quit": "esci",
    "key.select": "scegli",
    "key.next": "avanti",
    "key.back": "indietro",
    "key.seat": "posto",
    "level.random": "Casuale",
    "level.basic": "Principiante",
    "level.advanced": "Giocatore di circolo",
    "level.expert": "Esperto",
    "side.us": "Noi",
    "side.them": "Loro",
    "burraco.clean": "pulito",
    "burraco.semi-clean": "semipulito",
    "burraco.dirty": "sporco",
    "burraco.other": "burraco",
    "seen_pozzetto": "il tuo pozzetto, da giocare dopo la prossima pesca: {cards}",
}

STRINGS: Mapping[str, Mapping[str, str]] = {"en": _EN, "it": _IT}

SEAT_NAMES: Mapping[str, Mapping[int, tuple[str, ...]]] = {
    "en": {2: ("North", "South"), 4: ("North", "East", "South", "West")},
    "it": {2: ("Nord", "Sud"), 4: ("Nord", "Est", "Sud", "Ovest")},
}


def detect_lang(env: Mapping[str, str] | None = None) -> str:
    """``it`` when the locale says Italian (LC_ALL, LC_MESSAGES, LANG, LANGUAGE), else ``en``."""
    env = os.environ if env is None else env
    for key in ("LC_ALL", "LC_MESSAGES", "LANG", "LANGUAGE"):
        value = env.get(key, "")
        if value:
            return "it" if value.lower().startswith("it") else "en"
    return "en"


class Words:
    """The strings of one language: ``words("hand_no", n=2)``."""

    def __init__(self, lang: str) -> None:
        if lang not in LANGS:
            raise ValueError(f"unknown language {lang!r} (use {' or '.join(LANGS)})")
        self.lang = lang
        self._table = STRINGS[lang]

    def __call__(self, key: str, **values: object) -> str:
        text = self._table.get(key) or _EN.get(key) or key
        if key.startswith("turn.me.") and key not in self._table:
            text = self._table.get("turn." + key[8:], key)  # "You: drew" needs no own form
        return text.format(**values) if values else text

    def seat_name(self, seat: int, players: int) -> str:
        names = SEAT_NAMES[self.lang].get(players)
        return names[seat] if names else self("seat", n=seat + 1)

    def level(self, level: str) -> str:
        return self(f"level.{level}") if f"level.{level}" in _EN else level

    def reason(self, reason: str) -> str:
        return reason if self.lang == "en" else reason_it(reason)


_SECTION = re.compile(r"§\s?(\d+(?:\.\d+)*)")


def rules_section(reason: str) -> str | None:
    """The RULES.md section a reason cites (``§3.1``), or ``None``."""
    match = _SECTION.search(reason)
    return f"§{match.group(1)}" if match else None


# --- the engine's and the server's reasons in Italian ----------------------------------------

_REASONS_IT: dict[str, str] = {
    "the hand is over": "la smazzata è finita",
    "draw from the stock or take the discard pile first (§3.1)":
        "prima pesca dal tallone o raccogli gli scarti (§3.1)",
    "you have already drawn this turn (§3.1)": "hai già pescato in questo turno (§3.1)",
    "time has already been called": "il tempo è già stato chiamato",
    "the discard pile is empty": "il monte degli scarti è vuoto",
    "only a side that has melded may take the pile (house rule)":
        "può raccogliere gli scarti solo chi ha già calato (regola della casa)",
    "the pile holds a wild your partner discarded: you may not take it (§13.2)":
        "negli scarti c'è una matta scartata dal tuo compagno: non puoi raccoglierli (§13.2)",
    "you may take the pile only if you can use a card at once: attach one or open a meld "
    "(the lone first up-card: open a meld with it) (§14.1)":
        "puoi raccogliere gli scarti solo se usi subito una carta: attaccala o apri un gioco "
        "(la sola prima carta scoperta: apri un gioco con essa) (§14.1)",
    "you may take the pile only if you can meld one of its cards (§14.3)":
        "puoi raccogliere gli scarti solo se cali una delle loro carte (§14.3)",
    "your side already has a sequence of this suit":
        "la tua squadra ha già una scala di questo seme",
    "you took the pile: first meld at least one of its cards (§14.3)":
        "hai raccolto gli scarti: prima cala almeno una delle loro carte (§14.3)",
    "you cannot end your turn without a card to discard: keep one (§7.2)":
        "non puoi finire il turno senza una carta da scartare: tienine una (§7.2)",
    "your last card would be the one just taken from a one-card pile, which you may not "
    "discard this turn (§3.1.4)":
        "ti resterebbe la carta appena presa da uno scarto di una sola carta, che in questo "
        "turno non puoi scartare (§3.1.4)",
    "your last card would be a wild, which may not be discarded":
        "ti resterebbe una matta, che non si può scartare",
    "you could not close: the closing discard may not be a wild (§7.1)":
        "non potresti chiudere: lo scarto di chiusura non può essere una matta (§7.1)",
    "you took the pile: meld at least one of its cards before discarding (§14.3)":
        "hai raccolto gli scarti: cala almeno una delle loro carte prima di scartare (§14.3)",
    "wild cards may not be discarded under these rules":
        "con queste regole le matte non si scartano",
    "you cannot close by discarding a wild (§7.1)": "non puoi chiudere scartando una matta (§7.1)",
    "the cards do not form a set or a sequence":
        "le carte non formano né una combinazione né una scala",
    "two wild cards in one meld": "due matte nello stesso gioco",
    "a meld needs at least two natural cards": "un gioco richiede almeno due carte naturali",
    "too many cards for one set": "troppe carte per una combinazione",
    "a meld needs at least three cards": "un gioco richiede almeno tre carte",
    "the same physical card is named twice": "la stessa carta è indicata due volte",
    "jokers are not in play under these rules": "con queste regole i jolly non sono in gioco",
    "a meld needs at least two natural cards; a set of twos is not allowed":
        "un gioco richiede almeno due carte naturali; una combinazione di 2 non è ammessa",
    "the cards form neither a sequence (one suit) nor a set (one rank)":
        "le carte non formano né una scala (un seme) né una combinazione (un valore)",
    "attach at least one card": "attacca almeno una carta",
    "the cards do not form a sequence": "le carte non formano una scala",
    "a sequence holds one ace, low or high, never both":
        "una scala ha un solo asso, basso o alto, mai entrambi",
    "a sequence cannot hold two cards of the same rank":
        "una scala non può avere due carte dello stesso valore",
    "the cards are not consecutive": "le carte non sono consecutive",
    "no room for the wild: the sequence already runs from ace to ace":
        "non c'è posto per la matta: la scala va già da asso ad asso",
    "time is called by the referee, not a player":
        "il tempo lo chiama l'arbitro, non un giocatore",
    "undo is not allowed at tournament tables": "ai tavoli da torneo non si può annullare",
    "you have not drawn yet": "non hai ancora pescato",
    "no meld or attachment of yours since the draw": "nessun tuo gioco o attacco dopo la pesca",
    "that play took the pozzetto, whose cards have been seen":
        "quella giocata ha preso il pozzetto, le cui carte sono state viste",
    "no hand is being played at this table": "a questo tavolo non si sta giocando una smazzata",
    "spectators cannot act": "gli spettatori non possono giocare",
    # hints (server)
    "hints are given at casual tables only": "i consigli si danno solo ai tavoli amichevoli",
    "the hint for this position is on its way":
        "il consiglio per questa posizione sta arrivando",
    "the table moved on while the hint was thought: ask again":
        "il tavolo è andato avanti mentre si pensava il consiglio: chiedi di nuovo",
    "the hint could not be thought; ask again":
        "non è stato possibile pensare il consiglio; chiedi di nuovo",
    # the International pickup rules (§14.1)
    ('you may take the pile only if you can use a card at once, of your hand'
     ' or of the pile: attach one or open a meld (§14.1)'):
        ('puoi raccogliere gli scarti solo se usi subito una carta, della mano o'
         ' degli scarti: attaccala o apri un gioco (§14.1)'),
    ('you may take the pile only if you can use a card at once, one of its '
     'own: attach it or open a meld with it (§14.1)'):
        ('puoi raccogliere gli scarti solo se usi subito una delle loro carte: '
         'attaccala o apri un gioco con essa (§14.1)'),
    'you may take the lone first up-card only if you can then open a new meld (§14.1)':
        'puoi raccogliere la sola prima carta scoperta solo se poi apri un nuovo gioco (§14.1)',
    'you may take the lone first up-card only if you can open a meld with it (§14.1)':
        'puoi raccogliere la sola prima carta scoperta solo se apri un gioco con essa (§14.1)',
    ('you may take a pile holding a pinella only if you can then meld it or '
     'open a meld of your own hand cards (§14.1)'):
        ('puoi raccogliere scarti con una pinella solo se poi la cali o apri un '
         'gioco con carte della tua mano (§14.1)'),
    ('you took a pinella with the pile: meld it, or open a meld of your own '
     'hand cards, before anything else (§14.1)'):
        ('hai raccolto una pinella dagli scarti: prima di tutto calala, o apri '
         'un gioco con carte della tua mano (§14.1)'),
    ('after this play you could neither meld the other pinella taken with '
     'the pile nor open a meld of your own hand cards (§14.1)'):
        ("dopo questa giocata non potresti né calare l'altra pinella raccolta né"
         ' aprire un gioco con carte della tua mano (§14.1)'),
    ('you took a pinella with the pile: you may keep it only by opening a '
     'meld of your own hand cards; otherwise meld it before discarding '
     '(§14.1)'):
        ('hai raccolto una pinella dagli scarti: puoi tenerla solo aprendo un '
         'gioco con carte della tua mano; altrimenti calala prima di scartare '
         '(§14.1)'),
}

_CLOSING_NEED = {
    "a burraco": "un burraco",
    "a clean burraco": "un burraco pulito",
    "a clean and a non-clean burraco": "un burraco pulito e uno non pulito",
}


def _rank_name(text: str) -> str:
    named = {"aces": "assi", "threes": "tre"}
    if text in named:
        return named[text]
    rank = text.removesuffix("s")
    return {"A": "assi", "J": "fanti", "Q": "donne", "K": "re"}.get(rank, rank)


_PATTERNS: list[tuple[re.Pattern[str], Callable[[re.Match[str]], str]]] = [
    (re.compile(r"^you do not hold another (\S+)$"), lambda m: f"non hai un altro {m[1]}"),
    (re.compile(r"^you do not hold (\S+)$"), lambda m: f"non hai {m[1]}"),
    (re.compile(r"^your side already has a set of (\S+): attach to it \(§4\.2\.3\)$"),
     lambda m: f"la tua squadra ha già una combinazione di {_rank_name(m[1])}: attacca lì "
               "(§4.2.3)"),
    (re.compile(r"^your side has no meld (\d+) \(it has (\d+)\)$"),
     lambda m: f"la tua squadra non ha il gioco {m[1]} (ne ha {m[2]})"),
    (re.compile(r"^you could not close: your side needs (.+) \(§7\.1\)$"),
     lambda m: f"non potresti chiudere: alla tua squadra serve "
               f"{_CLOSING_NEED.get(m[1], m[1])} (§7.1)"),
    (re.compile(r"^you cannot close: your side needs (.+) \(§7\.1\)$"),
     lambda m: f"non puoi chiudere: alla tua squadra serve {_CLOSING_NEED.get(m[1], m[1])} "
               "(§7.1)"),
    (re.compile(r"^you may not discard the (\S+) you just took from a one-card pile this turn "
                r"\(§3\.1\.4\)$"),
     lambda m: f"in questo turno non puoi scartare il {m[1]} appena preso da uno scarto di "
               "una sola carta (§3.1.4)"),
    (re.compile(r"^(\S+) is not of the sequence's suit$"),
     lambda m: f"{m[1]} non è del seme della scala"),
    (re.compile(r"^sets of (\S+) are not allowed \(only (.+)\)$"),
     lambda m: f"le combinazioni di {_rank_name(m[1])} non sono ammesse (solo "
               + " e ".join(_rank_name(r) for r in m[2].split(" and ")) + ")"),
    (re.compile(r"^(\S+) does not belong to a set of (\S+)$"),
     lambda m: f"{m[1]} non appartiene a una combinazione di {_rank_name(m[2])}"),
    (re.compile(r"^it is seat (\d+)'s turn, not (\d+)'s$"),
     lambda m: f"tocca al posto {m[1]}, non al {m[2]}"),
]


def reason_it(reason: str) -> str:
    """The engine's (or server's) reason in Italian; the English text when it is not known."""
    exact = _REASONS_IT.get(reason)
    if exact:
        return exact
    for pattern, build in _PATTERNS:
        match = pattern.match(reason)
        if match:
            return build(match)
    return reason


CODE_TEXT: Mapping[str, Mapping[str, str]] = {
    "not_your_turn": {"en": "It is not your turn.", "it": "Non è il tuo turno."},
    "stale_version": {"en": "The table moved on meanwhile: try again.",
                      "it": "Il tavolo è andato avanti nel frattempo: riprova."},
    "spectator": {"en": "Spectators cannot play.", "it": "Gli spettatori non possono giocare."},
    "not_playing": {"en": "No hand is being played.", "it": "Non si sta giocando una smazzata."},
    "undo_not_allowed": {"en": "Undo is not possible here.", "it": "Qui non si può annullare."},
    "nothing_to_undo": {"en": "Nothing to undo.", "it": "Niente da annullare."},
    "table_not_found": {"en": "There is no such table.", "it": "Questo tavolo non esiste."},
    "bad_token": {"en": "This link or token is not valid.",
                  "it": "Questo link o gettone non è valido."},
    "seat_taken": {"en": "Someone else holds this seat.",
                   "it": "Questo posto è di un altro giocatore."},
    "seat_token_mismatch": {"en": "This invite is for another seat.",
                            "it": "Questo invito è per un altro posto."},
    "bot_seat": {"en": "A bot plays this seat.", "it": "Questo posto è giocato da un bot."},
    "watch_token_required": {"en": "This table is private: you need its link.",
                             "it": "Questo tavolo è privato: serve il suo link."},
}
