/**
 * The engine's and the server's reasons in Italian. The engine explains every refusal in an
 * English sentence citing RULES.md (§); this table gives each its Italian text. Sentences
 * with a card, a number or a name in them are matched by patterns. Anything unknown falls
 * back to the English text, so a new engine reason is never lost, only untranslated.
 */
import { cardLabel } from "./cards";

const EXACT: Record<string, string> = {
  // state.py: the turn
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
  "you may take the pile only if you can use a card at once, of your hand or of the pile: attach one or open a meld (§14.1)":
    "puoi raccogliere gli scarti solo se usi subito una carta, della mano o degli scarti: attaccala o apri un gioco (§14.1)",
  "you may take the pile only if you can use a card at once, one of its own: attach it or open a meld with it (§14.1)":
    "puoi raccogliere gli scarti solo se usi subito una delle loro carte: attaccala o apri un gioco con essa (§14.1)",
  "you may take the lone first up-card only if you can then open a new meld (§14.1)":
    "puoi raccogliere la sola prima carta scoperta solo se poi apri un nuovo gioco (§14.1)",
  "you may take the lone first up-card only if you can open a meld with it (§14.1)":
    "puoi raccogliere la sola prima carta scoperta solo se apri un gioco con essa (§14.1)",
  "you may take a pile holding a pinella only if you can then meld it or open a meld of your own hand cards (§14.1)":
    "puoi raccogliere scarti con una pinella solo se poi la cali o apri un gioco con carte della tua mano (§14.1)",
  "you took a pinella with the pile: meld it, or open a meld of your own hand cards, before anything else (§14.1)":
    "hai raccolto una pinella dagli scarti: prima di tutto calala, o apri un gioco con carte della tua mano (§14.1)",
  "after this play you could neither meld the other pinella taken with the pile nor open a meld of your own hand cards (§14.1)":
    "dopo questa giocata non potresti né calare l'altra pinella raccolta né aprire un gioco con carte della tua mano (§14.1)",
  "you took a pinella with the pile: you may keep it only by opening a meld of your own hand cards; otherwise meld it before discarding (§14.1)":
    "hai raccolto una pinella dagli scarti: puoi tenerla solo aprendo un gioco con carte della tua mano; altrimenti calala prima di scartare (§14.1)",
  "you may take the pile only if you can meld one of its cards (§14.3)":
    "puoi raccogliere gli scarti solo se cali una delle loro carte (§14.3)",
  "your side already has a sequence of this suit": "la tua squadra ha già una scala di questo seme",
  "you took the pile: first meld at least one of its cards (§14.3)":
    "hai raccolto gli scarti: prima cala almeno una delle loro carte (§14.3)",
  "you cannot end your turn without a card to discard: keep one (§7.2)":
    "non puoi finire il turno senza una carta da scartare: tienine una (§7.2)",
  "your last card would be the one just taken from a one-card pile, which you may not discard this turn (§3.1.4)":
    "ti resterebbe la carta appena presa da uno scarto di una sola carta, che in questo turno non puoi scartare (§3.1.4)",
  "your last card would be a wild, which may not be discarded":
    "ti resterebbe una matta, che non si può scartare",
  "you could not close: the closing discard may not be a wild (§7.1)":
    "non potresti chiudere: lo scarto di chiusura non può essere una matta (§7.1)",
  "you took the pile: meld at least one of its cards before discarding (§14.3)":
    "hai raccolto gli scarti: cala almeno una delle loro carte prima di scartare (§14.3)",
  "wild cards may not be discarded under these rules": "con queste regole le matte non si scartano",
  "you cannot close by discarding a wild (§7.1)": "non puoi chiudere scartando una matta (§7.1)",
  // melds.py: reading a meld
  "the cards do not form a set or a sequence": "le carte non formano né una combinazione né una scala",
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
  // server (game.py): commands
  "time is called by the referee, not a player": "il tempo lo chiama l'arbitro, non un giocatore",
  "undo is not allowed at tournament tables": "ai tavoli da torneo non si può annullare",
  "you have not drawn yet": "non hai ancora pescato",
  "no meld or attachment of yours since the draw": "nessun tuo gioco o attacco dopo la pesca",
  "that play took the pozzetto, whose cards have been seen":
    "quella giocata ha preso il pozzetto, le cui carte sono state viste",
  "no hand is being played at this table": "a questo tavolo non si sta giocando una smazzata",
  "spectators cannot act": "gli spettatori non possono giocare",
  // server (game.py, table_hints.py): hints
  "hints are given at casual tables only": "i consigli si danno solo ai tavoli amichevoli",
  "the hint for this position is on its way": "il consiglio per questa posizione sta arrivando",
  "the table moved on while the hint was thought: ask again":
    "il tavolo è andato avanti mentre si pensava il consiglio: chiedi di nuovo",
  "the hint could not be thought; ask again": "non è stato possibile pensare il consiglio; chiedi di nuovo",
};

const CLOSING_NEED: Record<string, string> = {
  "a burraco": "un burraco",
  "a clean burraco": "un burraco pulito",
  "a clean and a non-clean burraco": "un burraco pulito e uno non pulito",
};

function rankName(text: string): string {
  // "aces", "threes", "7s", "Ks", "10s"
  const named: Record<string, string> = { aces: "assi", threes: "tre" };
  if (named[text]) return named[text];
  const rank = text.replace(/s$/, "");
  const words: Record<string, string> = { A: "assi", J: "fanti", Q: "donne", K: "re" };
  return words[rank] ?? rank;
}

function card(text: string): string {
  return cardLabel(text);
}

const PATTERNS: [RegExp, (m: RegExpExecArray) => string][] = [
  [/^you do not hold another (\S+)$/, (m) => `non hai un altro ${card(m[1])}`],
  [/^you do not hold (\S+)$/, (m) => `non hai ${card(m[1])}`],
  [/^your side already has a set of (\S+): attach to it \(§4\.2\.3\)$/,
    (m) => `la tua squadra ha già una combinazione di ${rankName(m[1])}: attacca lì (§4.2.3)`],
  [/^your side has no meld (\d+) \(it has (\d+)\)$/,
    (m) => `la tua squadra non ha il gioco ${m[1]} (ne ha ${m[2]})`],
  [/^you could not close: your side needs (.+) \(§7\.1\)$/,
    (m) => `non potresti chiudere: alla tua squadra serve ${CLOSING_NEED[m[1]] ?? m[1]} (§7.1)`],
  [/^you cannot close: your side needs (.+) \(§7\.1\)$/,
    (m) => `non puoi chiudere: alla tua squadra serve ${CLOSING_NEED[m[1]] ?? m[1]} (§7.1)`],
  [/^you may not discard the (\S+) you just took from a one-card pile this turn \(§3\.1\.4\)$/,
    (m) => `in questo turno non puoi scartare il ${card(m[1])} appena preso da uno scarto di una sola carta (§3.1.4)`],
  [/^(\S+) is not of the sequence's suit$/, (m) => `${card(m[1])} non è del seme della scala`],
  [/^sets of (\S+) are not allowed \(only (.+)\)$/,
    (m) => `le combinazioni di ${rankName(m[1])} non sono ammesse (solo ${m[2].split(" and ").map(rankName).join(" e ")})`],
  [/^(\S+) does not belong to a set of (\S+)$/,
    (m) => `${card(m[1])} non appartiene a una combinazione di ${rankName(m[2])}`],
  [/^it is seat (\d+)'s turn, not (\d+)'s$/, (m) => `tocca al posto ${m[1]}, non al ${m[2]}`],
  [/^no seat (\d+) at a table of (\d+)$/, (m) => `non c'è il posto ${m[1]} a un tavolo da ${m[2]}`],
  [/^seat (\d+) is held by (.+)$/, (m) => `il posto ${m[1]} è di ${m[2]}`],
  [/^seat (\d+) is played by a bot$/, (m) => `il posto ${m[1]} è giocato da un bot`],
  [/^the table is (\S+)$/, (m) => `il tavolo è ${({ waiting: "in attesa", finished: "finito", playing: "in gioco" } as Record<string, string>)[m[1]] ?? m[1]}`],
];

/** The engine's (or server's) reason in Italian; the English text when it is not known. */
export function reasonIt(reason: string): string {
  const exact = EXACT[reason];
  if (exact) return exact;
  for (const [pattern, build] of PATTERNS) {
    const match = pattern.exec(reason);
    if (match) return build(match);
  }
  return reason;
}

/** True when ``reason`` has an Italian text (for tests). */
export function hasItalian(reason: string): boolean {
  return reasonIt(reason) !== reason;
}

/** The protocol's error codes (docs/protocol.md), for refusals whose reason is the server's. */
export const CODE_TEXT: Record<string, { en: string; it: string }> = {
  not_your_turn: { en: "It is not your turn.", it: "Non è il tuo turno." },
  stale_version: { en: "The table moved on meanwhile: try again.", it: "Il tavolo è andato avanti nel frattempo: riprova." },
  spectator: { en: "Spectators cannot play.", it: "Gli spettatori non possono giocare." },
  not_your_seat: { en: "That seat is not yours.", it: "Quel posto non è tuo." },
  not_playing: { en: "No hand is being played.", it: "Non si sta giocando una smazzata." },
  undo_not_allowed: { en: "Undo is not possible here.", it: "Qui non si può annullare." },
  nothing_to_undo: { en: "Nothing to undo.", it: "Niente da annullare." },
  hint_not_allowed: { en: "Hints are given at casual tables only.", it: "I consigli si danno solo ai tavoli amichevoli." },
  hint_given: { en: "The hint for this position is already shown.", it: "Il consiglio per questa posizione è già stato dato." },
  overloaded: { en: "The table is busy: try again.", it: "Il tavolo è occupato: riprova." },
  rate_limited: { en: "Too many commands at once: try again in a moment.", it: "Troppi comandi tutti insieme: riprova tra un momento." },
  storage_error: { en: "The server could not save that: try again.", it: "Il server non ha potuto salvare: riprova." },
  internal_error: { en: "The server failed on that command.", it: "Il server ha avuto un errore su quel comando." },
  bad_action: { en: "That action cannot be read.", it: "Quell'azione non è leggibile." },
  forbidden_action: { en: "Players may not do that.", it: "I giocatori non possono farlo." },
  table_not_found: { en: "There is no such table.", it: "Questo tavolo non esiste." },
  bad_token: { en: "This link or token is not valid.", it: "Questo link o gettone non è valido." },
  guest_required: { en: "Pick a nickname first.", it: "Prima scegli un soprannome." },
  seat_token_mismatch: { en: "This invite is for another seat.", it: "Questo invito è per un altro posto." },
  seat_taken: { en: "Someone else holds this seat.", it: "Questo posto è di un altro giocatore." },
  no_such_seat: { en: "The table has no such seat.", it: "Il tavolo non ha questo posto." },
  bot_seat: { en: "A bot plays this seat.", it: "Questo posto è giocato da un bot." },
  watch_token_required: { en: "This table is private: you need its link.", it: "Questo tavolo è privato: serve il suo link." },
  account_required: { en: "Only accounts sit at rated tables: log in or register in the lobby.", it: "Ai tavoli a punteggio siedono solo gli account: accedi o registrati nella sala." },
  rated_wait: { en: "You left a rated match: you must wait before the next one.", it: "Hai abbandonato una partita a punteggio: devi attendere prima della prossima." },
  rated_live: { en: "A rated match can be watched only once it is over.", it: "Una partita a punteggio si può guardare solo quando è finita." },
  one_seat: { en: "You already hold a seat at this rated match: a person plays one seat.", it: "Hai già un posto in questa partita a punteggio: una persona gioca un solo posto." },
  session_ended: { en: "Your session ended (logout or a new password): log in again.", it: "La tua sessione è terminata (uscita o nuova password): accedi di nuovo." },
  table_cancelled: { en: "The table was cancelled by its creator.", it: "Il tavolo è stato annullato da chi l'ha creato." },
  not_creator: { en: "Only the table's creator may cancel it.", it: "Solo chi ha creato il tavolo può annullarlo." },
  not_waiting: { en: "The match has started: it can no longer be cancelled.", it: "La partita è iniziata: non si può più annullare." },
  others_joined: { en: "Another player has taken a seat: the table can no longer be cancelled.", it: "Un altro giocatore si è seduto: il tavolo non si può più annullare." },
  private_table: { en: "A private table is joined by its invite link.", it: "A un tavolo privato si entra con il link d'invito." },
  duplicate_message: { en: "That command was already applied.", it: "Quel comando era già stato applicato." },
  unknown_quick: { en: "That message is not one of the quick messages.", it: "Quel messaggio non è tra i messaggi rapidi." },
  no_rematch: { en: "A rematch is offered to the match's players once it is over.", it: "La rivincita si offre ai giocatori della partita quando è finita." },
  hand_not_over: { en: "That hand is not over yet.", it: "Quella smazzata non è ancora finita." },
};
