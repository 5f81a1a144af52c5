/**
 * Every string of the client in English and Italian. The language comes from the browser
 * (navigator.languages) unless the player picked one, which is remembered.
 * `it` is typed as `typeof en`, so a key missing in either language fails the build.
 */
import { useEffect, useState } from "preact/hooks";
import { reasonIt, CODE_TEXT } from "./reasons";

const en = {
  "app.title": "Burraco",
  "app.tagline": "The Italian rummy, by the FIBur rules",
  "nav.lobby": "Lobby",
  "nav.language": "Language",
  "nav.replays": "Replays",
  "common.back": "Back",
  "common.close": "Close",
  "common.copy": "Copy",
  "common.copied": "Copied",
  "common.loading": "Loading…",
  "common.error": "Something went wrong: {reason}",
  "common.network": "The server cannot be reached.",
  "nick.title": "Pick a nickname",
  "nick.label": "Nickname",
  "nick.go": "Enter",
  "nick.hello": "Hello, {name}",
  "nick.change": "Change nickname",
  "quick.title": "Play now",
  "quick.text": "One hand with four players: you and a bot partner against two bots.",
  "quick.button": "Play against bots",
  "quick.level": "Bot level",
  "create.title": "Create a table",
  "create.players": "Players",
  "create.rules": "Rules",
  "create.mode": "Match",
  "create.mode.free": "Free play to a target",
  "create.mode.smazzate": "A fixed number of hands",
  "create.target": "Target score",
  "create.smazzate": "Hands",
  "create.seats": "Seats",
  "create.seat": "Seat {n}",
  "create.human": "Person",
  "create.bot": "Bot",
  "create.mine": "I sit here",
  "create.public": "Public (listed in the lobby; anyone may sit at an open seat)",
  "create.casual": "Casual (undo allowed)",
  "create.turnSeconds": "Turn clock (seconds; empty: none)",
  "create.graceSeconds": "Seconds a dropped player has to come back",
  "create.standin": "Bot that plays for a dropped player",
  "create.botDelay": "Bot thinking pause (seconds)",
  "create.advanced": "Every rule option",
  "create.reset": "Back to the preset",
  "create.submit": "Create the table",
  "create.creating": "Creating…",
  "create.partners": "Partners sit opposite: seats {a}.",
  "invite.title": "Your table is ready",
  "invite.seat": "Invite link for seat {n}",
  "invite.watch": "Link for spectators",
  "invite.go": "Go to the table",
  "tables.title": "Open tables",
  "tables.none": "No open tables yet: create one.",
  "tables.mine": "Your tables",
  "tables.sit": "Sit at seat {n}",
  "tables.watch": "Watch",
  "tables.open": "Open",
  "tables.replay": "Replay",
  "tables.refresh": "Refresh",
  "tables.players": "{n} players",
  "tables.handsDone": "{n} hands played",
  "replays.title": "Finished games",
  "replays.none": "No finished games yet.",
  "status.waiting": "waiting for players",
  "status.playing": "playing",
  "status.finished": "finished",
  "seat.open": "open seat",
  "seat.bot": "Bot {n} ({level})",
  "seat.name": "Seat {n}",
  "level.random": "random",
  "level.basic": "basic",
  "level.advanced": "advanced",
  "level.expert": "expert",
  "table.connecting": "Connecting…",
  "table.reconnecting": "Connection lost: reconnecting…",
  "table.refused": "Cannot join this table: {reason}",
  "table.waiting": "Waiting for players. Share the invite links:",
  "table.watching": "You are watching this table.",
  "table.takeSeat": "Take seat {n}",
  "table.hand": "Hand {n}",
  "table.handOf": "Hand {n} of {m}",
  "table.yourTurn": "Your turn",
  "table.turnOf": "{name} to play",
  "table.draw": "Draw",
  "table.pickup": "Take the pile",
  "table.meld": "Meld",
  "table.discard": "Discard",
  "table.undo": "Undo",
  "table.clear": "Clear selection",
  "table.sortSuit": "By suit",
  "table.sortRank": "By rank",
  "table.moveLeft": "Move left",
  "table.moveRight": "Move right",
  "table.stock": "Stock",
  "table.cards": "{n} cards",
  "table.card1": "1 card",
  "table.pile": "Discard pile",
  "table.pileEmpty": "empty",
  "table.pileShow": "Show all {n}",
  "table.pileHide": "Hide",
  "table.pozzetti": "Pozzetti",
  "table.pozzettoTakenBy": "{side}: taken by {name}",
  "table.pozzettoNotYet": "{side}: not yet",
  "table.pozzettiLeft": "{n} left",
  "table.us": "Us",
  "table.them": "Them",
  "table.sideOf": "{names}",
  "table.newMeld": "Drop cards here to open a new meld",
  "table.noMelds": "No melds yet",
  "table.score": "Score",
  "table.to": "to {n}",
  "table.you": "you",
  "table.partner": "partner",
  "table.opponent": "opponent",
  "table.online": "online",
  "table.offline": "offline",
  "table.grace": "back within {s} s",
  "table.standin": "a bot plays for now",
  "table.clock": "{s} s left",
  "table.hintDraw": "Draw from the stock or take the discard pile (tap, or drag it to your hand).",
  "table.hintPlay": "Select cards, then Meld; tap (or drop on) one of your melds to attach; discard one card to end your turn.",
  "table.hintWait": "Waiting for {name}.",
  "table.finalTurn": "Last round: the stock is nearly out.",
  "table.pozzettoSeen": "Your pozzetto (you play it after your next draw):",
  "table.yourHand": "Your hand",
  "table.log": "Moves",
  "table.meldN": "Meld {n}",
  "table.attachHere": "attach the selected cards",
  "table.burraco": "burraco",
  "table.matchOverShort": "The match is over.",
  "log.handStarted": "Hand {n} is dealt.",
  "log.seatTaken": "{name} sat down.",
  "log.drew": "{name} drew from the stock.",
  "log.drewCard": "You drew {card}.",
  "log.picked": "{name} took the pile ({n} cards).",
  "log.melded": "{name} melded {cards}.",
  "log.attached": "{name} attached {cards}.",
  "log.discarded": "{name} discarded {card}.",
  "log.pozzetto": "{name} took the pozzetto.",
  "log.pozzettoSeen": "{name} may look at the pozzetto now.",
  "log.pairs": "The players pair up.",
  "log.time": "Time is called: {n} turns left.",
  "log.undone": "{name} took back a play.",
  "log.over.closed": "{name} closed the hand.",
  "log.over.stock": "The stock ran out.",
  "log.over.stall": "The hand stalled.",
  "log.over.time": "Time is up.",
  "end.title": "Hand {n}: the score",
  "end.why.closed": "{name} closed.",
  "end.why.stock": "The stock ran out.",
  "end.why.stall": "The hand stalled (§8.3).",
  "end.why.time": "Time ran out (§8.2).",
  "end.redeal": "Nobody took a pozzetto: the hand does not count and is dealt again.",
  "end.side": "Side",
  "end.melds": "Cards in melds",
  "end.bonuses": "Burraco bonuses",
  "end.closing": "Closing",
  "end.pozzetto": "Pozzetto",
  "end.hand": "Cards left in hand",
  "end.total": "Hand total",
  "end.match": "Match score",
  "end.continue": "Continue",
  "end.replay": "Replay this hand",
  "match.title": "The match is over",
  "match.winner": "{names} win.",
  "match.youWin": "You win!",
  "match.youLose": "{names} win. Better luck next time!",
  "match.tie": "It is a tie.",
  "match.vp": "Victory points",
  "match.lobby": "Back to the lobby",
  "type.clean": "clean",
  "type.semi-clean": "semi-clean",
  "type.dirty": "dirty",
  "type.super": "super clean",
  "type.dirty-super": "dirty super",
  "type.royal": "royal",
  "type.dirty-royal": "dirty royal",
  "type.complete": "complete",
  "type.champion": "champion",
  "replay.title": "Replay",
  "replay.hands": "Hands of this table",
  "replay.hand": "Hand {n}",
  "replay.none": "No hand of this table is over yet.",
  "replay.deal": "The deal",
  "replay.move": "Move {i} of {n}",
  "replay.first": "First",
  "replay.prev": "Previous",
  "replay.next": "Next",
  "replay.last": "Last",
  "replay.play": "Play",
  "replay.pause": "Pause",
  "replay.download": "Download the record",
  "replay.commitment": "Deal commitment",
  "replay.checkOk": "Verified in this page: SHA-256 of the revealed deck and salt equals the commitment sent before play, and that deck deals exactly these cards.",
  "replay.checkBad": "Check FAILED: {what}",
  "replay.checkHash": "the SHA-256 does not match the commitment",
  "replay.checkDeal": "the revealed deck does not deal these cards",
  "replay.seenLive": "It also equals the commitment this browser received when the hand began.",
  "replay.seenLiveBad": "It DIFFERS from the commitment this browser received when the hand began.",
  "replay.stock": "Stock (top first)",
  "replay.pozzetti": "Pozzetti not taken",
  "replay.pending": "pozzetto taken with the discard",
  "replay.result": "Result",
  "replay.seat": "{name}",
  "move.draw": "draws",
  "move.pickup": "takes the pile",
  "move.meld": "melds {cards}",
  "move.attach": "attaches {cards} to meld {n}",
  "move.discard": "discards {card}",
  "move.time": "time is called",
};

export type Key = keyof typeof en;

const it: Record<Key, string> = {
  "app.title": "Burraco",
  "app.tagline": "Il gioco di carte italiano, con le regole FIBur",
  "nav.lobby": "Sala",
  "nav.language": "Lingua",
  "nav.replays": "Replay",
  "common.back": "Indietro",
  "common.close": "Chiudi",
  "common.copy": "Copia",
  "common.copied": "Copiato",
  "common.loading": "Caricamento…",
  "common.error": "Qualcosa è andato storto: {reason}",
  "common.network": "Il server non è raggiungibile.",
  "nick.title": "Scegli un soprannome",
  "nick.label": "Soprannome",
  "nick.go": "Entra",
  "nick.hello": "Ciao, {name}",
  "nick.change": "Cambia soprannome",
  "quick.title": "Gioca subito",
  "quick.text": "Una smazzata a quattro: tu e un bot compagno contro due bot.",
  "quick.button": "Gioca contro i bot",
  "quick.level": "Livello dei bot",
  "create.title": "Crea un tavolo",
  "create.players": "Giocatori",
  "create.rules": "Regole",
  "create.mode": "Partita",
  "create.mode.free": "Libera, fino a un punteggio",
  "create.mode.smazzate": "Un numero fisso di smazzate",
  "create.target": "Punteggio da raggiungere",
  "create.smazzate": "Smazzate",
  "create.seats": "Posti",
  "create.seat": "Posto {n}",
  "create.human": "Persona",
  "create.bot": "Bot",
  "create.mine": "Mi siedo qui",
  "create.public": "Pubblico (elencato nella sala; chiunque può sedersi a un posto libero)",
  "create.casual": "Amichevole (si può annullare)",
  "create.turnSeconds": "Tempo per turno (secondi; vuoto: nessuno)",
  "create.graceSeconds": "Secondi per rientrare a chi cade la connessione",
  "create.standin": "Bot che gioca per chi è caduto",
  "create.botDelay": "Pausa di riflessione dei bot (secondi)",
  "create.advanced": "Tutte le opzioni delle regole",
  "create.reset": "Torna alle regole scelte",
  "create.submit": "Crea il tavolo",
  "create.creating": "Creazione…",
  "create.partners": "I compagni siedono di fronte: posti {a}.",
  "invite.title": "Il tuo tavolo è pronto",
  "invite.seat": "Link d'invito per il posto {n}",
  "invite.watch": "Link per gli spettatori",
  "invite.go": "Vai al tavolo",
  "tables.title": "Tavoli aperti",
  "tables.none": "Ancora nessun tavolo aperto: creane uno.",
  "tables.mine": "I tuoi tavoli",
  "tables.sit": "Siediti al posto {n}",
  "tables.watch": "Guarda",
  "tables.open": "Apri",
  "tables.replay": "Rivedi",
  "tables.refresh": "Aggiorna",
  "tables.players": "{n} giocatori",
  "tables.handsDone": "{n} smazzate giocate",
  "replays.title": "Partite finite",
  "replays.none": "Ancora nessuna partita finita.",
  "status.waiting": "in attesa di giocatori",
  "status.playing": "in gioco",
  "status.finished": "finita",
  "seat.open": "posto libero",
  "seat.bot": "Bot {n} ({level})",
  "seat.name": "Posto {n}",
  "level.random": "casuale",
  "level.basic": "base",
  "level.advanced": "avanzato",
  "level.expert": "esperto",
  "table.connecting": "Connessione…",
  "table.reconnecting": "Connessione persa: mi riconnetto…",
  "table.refused": "Non puoi entrare a questo tavolo: {reason}",
  "table.waiting": "In attesa dei giocatori. Condividi i link d'invito:",
  "table.watching": "Stai guardando questo tavolo.",
  "table.takeSeat": "Siediti al posto {n}",
  "table.hand": "Smazzata {n}",
  "table.handOf": "Smazzata {n} di {m}",
  "table.yourTurn": "Tocca a te",
  "table.turnOf": "Tocca a {name}",
  "table.draw": "Pesca",
  "table.pickup": "Raccogli gli scarti",
  "table.meld": "Cala",
  "table.discard": "Scarta",
  "table.undo": "Annulla",
  "table.clear": "Deseleziona",
  "table.sortSuit": "Per seme",
  "table.sortRank": "Per valore",
  "table.moveLeft": "Sposta a sinistra",
  "table.moveRight": "Sposta a destra",
  "table.stock": "Tallone",
  "table.cards": "{n} carte",
  "table.card1": "1 carta",
  "table.pile": "Scarti",
  "table.pileEmpty": "vuoto",
  "table.pileShow": "Mostra tutte le {n}",
  "table.pileHide": "Nascondi",
  "table.pozzetti": "Pozzetti",
  "table.pozzettoTakenBy": "{side}: preso da {name}",
  "table.pozzettoNotYet": "{side}: non ancora",
  "table.pozzettiLeft": "{n} da prendere",
  "table.us": "Noi",
  "table.them": "Loro",
  "table.sideOf": "{names}",
  "table.newMeld": "Trascina qui le carte per aprire un nuovo gioco",
  "table.noMelds": "Ancora nessun gioco",
  "table.score": "Punteggio",
  "table.to": "a {n}",
  "table.you": "tu",
  "table.partner": "compagno",
  "table.opponent": "avversario",
  "table.online": "in linea",
  "table.offline": "non in linea",
  "table.grace": "rientro entro {s} s",
  "table.standin": "per ora gioca un bot",
  "table.clock": "{s} s rimasti",
  "table.hintDraw": "Pesca dal tallone o raccogli gli scarti (tocca, o trascinali nella tua mano).",
  "table.hintPlay": "Seleziona le carte, poi Cala; tocca (o trascina su) un tuo gioco per attaccare; scarta una carta per finire il turno.",
  "table.hintWait": "In attesa di {name}.",
  "table.finalTurn": "Ultimo giro: il tallone sta finendo.",
  "table.pozzettoSeen": "Il tuo pozzetto (lo giochi dopo la prossima pesca):",
  "table.yourHand": "La tua mano",
  "table.log": "Mosse",
  "table.meldN": "Gioco {n}",
  "table.attachHere": "attacca le carte selezionate",
  "table.burraco": "burraco",
  "table.matchOverShort": "La partita è finita.",
  "log.handStarted": "Distribuita la smazzata {n}.",
  "log.seatTaken": "{name} si è seduto.",
  "log.drew": "{name} ha pescato dal tallone.",
  "log.drewCard": "Hai pescato {card}.",
  "log.picked": "{name} ha raccolto gli scarti ({n} carte).",
  "log.melded": "{name} ha calato {cards}.",
  "log.attached": "{name} ha attaccato {cards}.",
  "log.discarded": "{name} ha scartato {card}.",
  "log.pozzetto": "{name} ha preso il pozzetto.",
  "log.pozzettoSeen": "{name} ora può guardare il pozzetto.",
  "log.pairs": "I giocatori formano le coppie.",
  "log.time": "Chiamato il tempo: restano {n} turni.",
  "log.undone": "{name} ha annullato una giocata.",
  "log.over.closed": "{name} ha chiuso la smazzata.",
  "log.over.stock": "Il tallone è finito.",
  "log.over.stall": "La smazzata si è bloccata.",
  "log.over.time": "Il tempo è scaduto.",
  "end.title": "Smazzata {n}: il punteggio",
  "end.why.closed": "{name} ha chiuso.",
  "end.why.stock": "Il tallone è finito.",
  "end.why.stall": "La smazzata si è bloccata (§8.3).",
  "end.why.time": "Il tempo è scaduto (§8.2).",
  "end.redeal": "Nessuno ha preso il pozzetto: la smazzata non conta e si ridistribuisce.",
  "end.side": "Squadra",
  "end.melds": "Carte calate",
  "end.bonuses": "Premi dei burraco",
  "end.closing": "Chiusura",
  "end.pozzetto": "Pozzetto",
  "end.hand": "Carte rimaste in mano",
  "end.total": "Totale della smazzata",
  "end.match": "Punteggio della partita",
  "end.continue": "Continua",
  "end.replay": "Rivedi questa smazzata",
  "match.title": "La partita è finita",
  "match.winner": "Vincono {names}.",
  "match.youWin": "Hai vinto!",
  "match.youLose": "Vincono {names}. Andrà meglio la prossima volta!",
  "match.tie": "È un pareggio.",
  "match.vp": "Punti vittoria",
  "match.lobby": "Torna alla sala",
  "type.clean": "pulito",
  "type.semi-clean": "semipulito",
  "type.dirty": "sporco",
  "type.super": "superpulito",
  "type.dirty-super": "super sporco",
  "type.royal": "reale",
  "type.dirty-royal": "reale sporco",
  "type.complete": "completo",
  "type.champion": "champion",
  "replay.title": "Replay",
  "replay.hands": "Smazzate di questo tavolo",
  "replay.hand": "Smazzata {n}",
  "replay.none": "Nessuna smazzata di questo tavolo è ancora finita.",
  "replay.deal": "La distribuzione",
  "replay.move": "Mossa {i} di {n}",
  "replay.first": "Inizio",
  "replay.prev": "Indietro",
  "replay.next": "Avanti",
  "replay.last": "Fine",
  "replay.play": "Riproduci",
  "replay.pause": "Pausa",
  "replay.download": "Scarica la registrazione",
  "replay.commitment": "Impegno sulla distribuzione",
  "replay.checkOk": "Verificato in questa pagina: lo SHA-256 del mazzo e del sale rivelati è uguale all'impegno inviato prima del gioco, e quel mazzo distribuisce esattamente queste carte.",
  "replay.checkBad": "Verifica FALLITA: {what}",
  "replay.checkHash": "lo SHA-256 non corrisponde all'impegno",
  "replay.checkDeal": "il mazzo rivelato non distribuisce queste carte",
  "replay.seenLive": "È anche uguale all'impegno che questo browser ha ricevuto all'inizio della smazzata.",
  "replay.seenLiveBad": "È DIVERSO dall'impegno che questo browser ha ricevuto all'inizio della smazzata.",
  "replay.stock": "Tallone (dall'alto)",
  "replay.pozzetti": "Pozzetti non presi",
  "replay.pending": "pozzetto preso con lo scarto",
  "replay.result": "Risultato",
  "replay.seat": "{name}",
  "move.draw": "pesca",
  "move.pickup": "raccoglie gli scarti",
  "move.meld": "cala {cards}",
  "move.attach": "attacca {cards} al gioco {n}",
  "move.discard": "scarta {card}",
  "move.time": "si chiama il tempo",
};

/** Short labels of the rules options (the server's descriptions are English). */
export const OPTION_LABELS: Record<string, { en: string; it: string }> = {
  direction: { en: "Direction of play", it: "Senso di gioco" },
  tie_break_suits: { en: "Suit order for the seat draw", it: "Ordine dei semi per il sorteggio" },
  pozzetti_by: { en: "Who builds the pozzetti", it: "Chi prepara i pozzetti" },
  packs: { en: "Packs (2 and 4 players)", it: "Mazzi (2 e 4 giocatori)" },
  three_player_packs: { en: "Packs for 3 players", it: "Mazzi per 3 giocatori" },
  five_six_player_packs: { en: "Packs for 5 and 6 players", it: "Mazzi per 5 e 6 giocatori" },
  jokers: { en: "Jokers in play", it: "Jolly in gioco" },
  hand_size: { en: "Cards dealt to each player", it: "Carte distribuite a ciascuno" },
  pozzetto_size: { en: "Cards in a pozzetto", it: "Carte di un pozzetto" },
  big_pozzetto_size: { en: "Cards in the big pozzetto (3 and 5 players)", it: "Carte del pozzetto grande (3 e 5 giocatori)" },
  pile_pickup: { en: "Taking the discard pile", it: "Raccolta degli scarti" },
  pile_use: { en: "The card usable at once", it: "La carta da usare subito" },
  upcard_pickup: { en: "Taking the lone first up-card", it: "Raccolta della sola carta iniziale" },
  collected_pinella: { en: "A pinella taken with the pile", it: "Pinella raccolta dagli scarti" },
  pile_view: { en: "Who may look through the pile", it: "Chi può guardare gli scarti" },
  pile_requires_melded: { en: "Only a side that has melded takes the pile", it: "Raccoglie gli scarti solo chi ha calato" },
  single_card_pile_rule: { en: "A one-card pile's card may not be discarded that turn", it: "La carta di uno scarto singolo non si riscarta nello stesso turno" },
  wild_discard: { en: "Discarding wilds", it: "Scarto delle matte" },
  same_suit_sequences: { en: "Two sequences of one suit allowed", it: "Due scale dello stesso seme ammesse" },
  one_set_per_rank: { en: "One set per rank per side", it: "Una sola combinazione per valore" },
  set_ranks: { en: "Ranks allowed in sets (JSON; null: all but 2)", it: "Valori ammessi nelle combinazioni (JSON; null: tutti tranne il 2)" },
  natural_two_to_wild: { en: "A natural 2 may turn wild", it: "Un 2 naturale può diventare matta" },
  semi_clean: { en: "Semi-clean burraco recognised", it: "Burraco semipulito riconosciuto" },
  semi_clean_inner_wild: { en: "Semi-clean with the wild inside the run", it: "Semipulito con la matta interna" },
  semi_clean_set_of_nine: { en: "A set of 8 naturals + wild is semi-clean", it: "Combinazione di 8 naturali + matta è semipulita" },
  bonuses: { en: "Burraco bonuses (JSON)", it: "Premi dei burraco (JSON)" },
  closing: { en: "Burraco needed to close", it: "Burraco richiesto per chiudere" },
  closing_alternatives: { en: "Burraco types that alone allow closing (JSON)", it: "Tipi di burraco che da soli permettono di chiudere (JSON)" },
  champion_burraco: { en: "What a Champion burraco is", it: "Che cos'è il burraco Champion" },
  closing_bonus: { en: "Closing bonus", it: "Premio di chiusura" },
  pozzetto_penalty: { en: "Penalty for a pozzetto not taken", it: "Penalità per il pozzetto non preso" },
  nobody_pozzetto: { en: "When nobody took a pozzetto", it: "Quando nessuno ha preso il pozzetto" },
  last_turn: { en: "At two stock cards", it: "A due carte nel tallone" },
  stall_rounds: { en: "Stalled rounds that end the hand (0: never)", it: "Giri bloccati che chiudono la smazzata (0: mai)" },
  time_out: { en: "Last round after time is called", it: "Ultimo giro dopo il tempo" },
  target: { en: "Free-play target", it: "Punteggio della partita libera" },
  vp_tables: { en: "Victory-point tables (JSON)", it: "Tabelle dei punti vittoria (JSON)" },
  individual_from: { en: "3 players: individual play from", it: "3 giocatori: gioco individuale da" },
  five_player_individual_from: { en: "5 players: individual play from", it: "5 giocatori: gioco individuale da" },
  three_player_target: { en: "3 players: match end", it: "3 giocatori: fine partita" },
  five_player_target: { en: "5 players: match end", it: "5 giocatori: fine partita" },
  partner_wild_pickup_barred: { en: "3 and 5 players: no pile with a partner's wild", it: "3 e 5 giocatori: niente scarti con la matta del compagno" },
  six_player_closing: { en: "6 players: burraco needed to close", it: "6 giocatori: burraco richiesto per chiudere" },
};

/** The options' choice values. */
export const CHOICE_LABELS: Record<string, { en: string; it: string }> = {
  clockwise: { en: "clockwise", it: "orario" },
  "counter-clockwise": { en: "counter-clockwise", it: "antiorario" },
  right: { en: "the dealer's right", it: "alla destra del mazziere" },
  left: { en: "the dealer's left", it: "alla sinistra del mazziere" },
  free: { en: "free", it: "libera" },
  "must-use": { en: "a card must be used at once", it: "una carta va usata subito" },
  "must-meld-picked": { en: "a picked card must be melded", it: "una carta raccolta va calata" },
  "hand-or-pile": { en: "from the hand or the pile", it: "della mano o degli scarti" },
  "from-pile": { en: "from the pile", it: "degli scarti" },
  "any-new-meld": { en: "when any new meld can be opened", it: "se si può aprire un gioco" },
  "meld-with-upcard": { en: "when a new meld can hold it", it: "se si può aprire un gioco con essa" },
  "hand-meld-to-keep": { en: "kept only with a meld of hand cards", it: "si tiene solo calando un gioco della mano" },
  everyone: { en: "everyone", it: "tutti" },
  "on-turn": { en: "the player on turn, before drawing", it: "chi è di turno, prima di pescare" },
  "except-closing": { en: "allowed, except to close", it: "ammesso, tranne per chiudere" },
  never: { en: "never", it: "mai" },
  any: { en: "any burraco", it: "un burraco qualsiasi" },
  clean: { en: "a clean burraco", it: "un burraco pulito" },
  "clean-and-other": { en: "a clean and another burraco", it: "un pulito e un altro burraco" },
  "clean-set-of-eight": { en: "a clean set of eight", it: "una combinazione pulita di otto" },
  none: { en: "none", it: "nessuno" },
  score: { en: "score as it stands", it: "si conta così" },
  redeal: { en: "deal again", it: "si ridistribuisce" },
  "penalty-each": { en: "every side pays the penalty", it: "ogni squadra paga la penalità" },
  "complete-turn": { en: "the drawer completes his turn", it: "chi pesca completa il turno" },
  stop: { en: "the hand stops", it: "la smazzata si ferma" },
  "one-more-turn-each": { en: "one more turn each", it: "un turno ancora a testa" },
  "round-back": { en: "back round to the caller", it: "giro fino a chi ha chiamato" },
};

export const PRESET_NOTES_IT: Record<string, string> = {
  fibur: "Codice italiano FIBur, quello predefinito.",
  "fibur-international": "Codice internazionale FIBur: burraco pulito per chiudere, combinazioni solo di assi e di tre, scarti solo se una carta della mano o degli scarti si usa subito (la sola carta iniziale: se si può aprire un gioco), una pinella raccolta si tiene solo calando un gioco di carte della mano (art. 8), niente semipulito.",
  "fibur-revolution": "Burraco Revolution FIBur: scarti solo se una carta si usa subito; si chiude con un pulito e un altro burraco, o con un Burraco Revolution (A–K pulito), che conta come un pulito.",
  champion: "Burraco Champion (Mortera, 2010): due burraco per chiudere (uno pulito), o un burraco Champion; chi raccoglie gli scarti deve calarne una carta; pulito 300, Champion 500, chiusura 200, pozzetto non preso -200. Il «burraco Champion» è una LETTURA DEL PROGETTO: nessuna fonte lo definisce; qui è una combinazione pulita di tutte le otto carte di un valore.",
  fedibur: "Punteggi Fed.I.Bur: niente semipulito (pulito 200, sporco 100).",
  "febur-it": "Punteggi Fe.Bur.It: superpulito (combinazione pulita di 8) 250, over the top (scala pulita di 13) 300, scala completa 400.",
  fitab: "Punteggi F.It.AB: super (combinazione pulita di 8) 250, super sporco 200, reale (A–K o 2–A pulito) 300, reale sporco 250.",
  home: "FIBur con la regola di casa: se nessuno prende il pozzetto si ridistribuisce.",
};

export type Lang = "en" | "it";
export const LANGS: Lang[] = ["it", "en"];
const STORE = "burraco:lang";
const TABLES: Record<Lang, Record<Key, string>> = { en, it };

/** The language from the saved choice, else the browser's first Italian or English preference. */
export function detectLang(saved: string | null, browser: readonly string[]): Lang {
  if (saved === "it" || saved === "en") return saved;
  for (const tag of browser) {
    const base = tag.toLowerCase().split("-")[0];
    if (base === "it" || base === "en") return base;
  }
  return "en";
}

function initialLang(): Lang {
  if (typeof window === "undefined") return "en";
  let saved: string | null = null;
  try {
    saved = localStorage.getItem(STORE);
  } catch {
    saved = null;
  }
  return detectLang(saved, navigator.languages ?? [navigator.language]);
}

let current: Lang = initialLang();
const listeners = new Set<() => void>();

export function lang(): Lang {
  return current;
}

export function setLang(next: Lang): void {
  current = next;
  try {
    localStorage.setItem(STORE, next);
  } catch {
    /* private mode: the choice lasts for this page */
  }
  if (typeof document !== "undefined") document.documentElement.lang = next;
  listeners.forEach((fn) => fn());
}

/** Re-render a component when the language changes; returns the language. */
export function useLang(): Lang {
  const [, bump] = useState(0);
  useEffect(() => {
    const fn = () => bump((n) => n + 1);
    listeners.add(fn);
    return () => {
      listeners.delete(fn);
    };
  }, []);
  return current;
}

export function format(text: string, params?: Record<string, string | number>): string {
  if (!params) return text;
  return text.replace(/\{(\w+)\}/g, (whole, name: string) =>
    name in params ? String(params[name]) : whole);
}

export function t(key: Key, params?: Record<string, string | number>, as: Lang = current): string {
  return format(TABLES[as][key], params);
}

/** An engine or server refusal in the player's language. */
export function reasonText(code: string, reason: string, as: Lang = current): string {
  if (code === "illegal_action" || code === "nothing_to_undo" || code === "undo_not_allowed") {
    const text = as === "it" ? reasonIt(reason) : reason;
    return capitalise(text);
  }
  const known = CODE_TEXT[code];
  if (known) return known[as];
  return capitalise(as === "it" ? reasonIt(reason) : reason);
}

/** "1 card", "5 cards". */
export function cardCount(n: number, as: Lang = current): string {
  return n === 1 ? t("table.card1", undefined, as) : t("table.cards", { n }, as);
}

export function capitalise(text: string): string {
  return text ? text[0].toUpperCase() + text.slice(1) : text;
}

export function optionLabel(name: string, as: Lang = current): string {
  return OPTION_LABELS[name]?.[as] ?? name;
}

export function choiceLabel(value: string, as: Lang = current): string {
  return CHOICE_LABELS[value]?.[as] ?? value;
}

export function presetNote(name: string, english: string, as: Lang = current): string {
  return as === "it" ? PRESET_NOTES_IT[name] ?? english : english;
}

export const STRINGS = TABLES;
