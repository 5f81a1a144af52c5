/**
 * One table over its WebSocket (docs/protocol.md): the hello, the events, resyncs, commands
 * with their acks and rejects, and reconnection with the last version seen.
 *
 * The server's `sync` (built from the engine's view for this seat) is the truth the page
 * shows; events update the version at once and feed the move log and the hand-end score.
 * With protocol 2 (deltas.ts) each command's last event frame carries what changed in that
 * view, so the page stays current without asking; a sync is asked for only after a gap or a
 * replayed catch-up (and after every event when the server speaks protocol 1 only).
 */
import type { HandResult, Presence, TableConfig } from "./api";
import { rememberCommitment } from "./api";
import { applyDelta, PROTOCOL, type Delta } from "./deltas";
import { logFromMoves } from "./table/movelog";

export interface HandView {
  seat: number | null;
  players: number;
  rules: string;
  dealer: number;
  turn: number;
  phase: "draw" | "play" | "over";
  side_of: number[];
  hand: string[];
  hand_ids: number[];
  pozzetto_seen: string[];
  hand_counts: number[];
  melds: string[][];
  pile: string[];
  stock_count: number;
  pozzetti_left: number;
  pozzetto_taker: number[];
  known: string[][];
  barred: string | null;
  pending_counts: number[];
  final_turn: boolean;
  time_left: number;
  moves: [number, string][];
  end_reason: string | null;
  closer: number | null;
  revealed: string[][];
  number: number;
  commitment: string;
  pile_count?: number;
  /** Protocol 2: each side's melds and burraco bonuses so far, scored by the engine. */
  table_score?: { melds: number; bonuses: number; total: number }[];
}

export interface MatchInfo {
  mode: string;
  target: number | null;
  smazzate: number | null;
  hands: number[][];
  scores: number[];
  vp: number[] | null;
  finished: boolean;
  winner: number | null;
}

export interface Clock {
  seat: number | null;
  deadline_ms: number | null;
  seconds: number | null;
}

export interface LogLine {
  v: number;
  type: string;
  seat: number | null;
  data: Record<string, unknown>;
}

export interface HandEnded {
  number: number;
  result: HandResult;
  totals: number[];
  redeal: boolean;
  scores: number[];
  reveal: Record<string, unknown>;
  /** The melds as the hand ended (kept from the last view of it). */
  melds: string[][];
  side_of: number[];
}

export interface MatchOver {
  winner: number | null;
  scores: number[];
  vp: number[] | null;
  hands: number;
}

export interface Refusal {
  code: string;
  reason: string;
}

export type Link = "connecting" | "open" | "reconnecting" | "refused";

export interface TableState {
  link: Link;
  refused: Refusal | null;
  seat: number | null;
  nickname: string | null;
  version: number;
  /** version of the last sync applied (the view is as of then) */
  synced: number;
  config: TableConfig | null;
  status: string;
  seats: Presence[];
  match: MatchInfo | null;
  hand: HandView | null;
  clock: Clock | null;
  legal: { version: number; actions: string[]; undo: boolean } | null;
  log: LogLine[];
  handEnded: HandEnded | null;
  matchOver: MatchOver | null;
  rejected: (Refusal & { at: number }) | null;
  pending: string | null;
  /** The protocol the server serves this connection (hello_ok; 1 when it does not say). */
  protocol: number;
  /** A sync is on its way: deltas would apply to an old state, so they wait for it. */
  resync: boolean;
  /** A replayed catch-up ends at this version; then a sync brings the view up to date. */
  replayTo: number | null;
}

export interface Credentials {
  seat: number | null;
  seatToken: string | null;
  guest: string | null;
  watchToken: string | null;
}

/** What a socket must offer (the browser's WebSocket; tests pass a fake). */
export interface SocketLike {
  readyState: number;
  send(text: string): void;
  close(code?: number, reason?: string): void;
  onopen: ((ev: Event) => unknown) | null;
  onmessage: ((ev: MessageEvent) => unknown) | null;
  onclose: ((ev: CloseEvent) => unknown) | null;
  onerror: ((ev: Event) => unknown) | null;
}

const LOG_LIMIT = 80;
/** Close codes after which reconnecting cannot help. */
const FINAL_CLOSES = new Set([4400, 4401, 4403, 4404, 4409, 4410]);
/** The close code of a table its creator cancelled. */
export const CANCELLED = 4410;

export function initialState(): TableState {
  return {
    link: "connecting", refused: null, seat: null, nickname: null, version: 0, synced: -1,
    config: null, status: "waiting", seats: [], match: null, hand: null, clock: null,
    legal: null, log: [], handEnded: null, matchOver: null, rejected: null, pending: null,
    protocol: 1, resync: false, replayTo: null,
  };
}

/**
 * Apply one server message to the state; returns the new state and whether a sync should
 * be asked for. Pure, so the protocol handling is unit-tested without a socket.
 */
export function reduce(state: TableState, message: Record<string, any>): [TableState, boolean] {
  if ("v" in message && !("t" in message)) {
    let next = { ...state, version: message.v as number };
    let wantSync = true;
    if (state.protocol >= 2) {
      const gap = message.v !== state.version + 1;
      const delta = message.d as Delta | undefined;
      if (delta && !gap && !state.resync && state.synced >= 0) {
        next = { ...applyDelta(next, delta), synced: message.v };
      }
      const replayed = state.replayTo !== null && message.v >= state.replayTo;
      if (replayed) next.replayTo = null;
      wantSync = gap || replayed;
      if (wantSync) next.resync = true;
    }
    const event = message.e as Record<string, any> | undefined;
    if (!event) return [next, wantSync];
    const line: LogLine = { v: message.v, type: event.type, seat: event.seat ?? null, data: event };
    next.log = [...state.log.slice(-(LOG_LIMIT - 1)), line];
    if (event.type === "HandEnded") {
      next.handEnded = {
        number: event.number, result: event.result, totals: event.totals, redeal: event.redeal,
        scores: event.scores, reveal: event.reveal,
        melds: next.hand?.melds ?? [], side_of: next.hand?.side_of ?? [],
      };
      if (next.match) next.match = { ...next.match, scores: event.scores };
    } else if (event.type === "MatchOver") {
      next.matchOver = { winner: event.winner, scores: event.scores, vp: event.vp, hands: event.hands };
      next.status = "finished";
    } else if (event.type === "HandStarted") {
      next.status = "playing";
    }
    return [next, wantSync];
  }
  switch (message.t) {
    case "hello_ok":
      return [{ ...state, link: "open", seat: message.seat, nickname: message.nickname ?? null,
        version: message.catch_up === "none" ? message.version : state.version,
        protocol: typeof message.protocol === "number" ? message.protocol : 1,
        resync: message.catch_up === "sync",
        replayTo: message.catch_up === "replay" ? message.version : null }, false];
    case "sync": {
      const hand = message.hand as HandView | null;
      return [{
        ...state, version: message.version, synced: message.version, seat: message.seat, resync: false,
        config: message.table.config, status: message.status, seats: message.seats,
        match: message.match, hand, clock: message.clock,
        matchOver: state.matchOver,
        // a page that joined mid-hand starts its log from the moves the sync carries
        log: state.log.length === 0 && hand ? logFromMoves(hand) : state.log,
      }, false];
    }
    case "legal":
      return [{ ...state, legal: { version: message.version, actions: message.actions, undo: message.undo } }, false];
    case "presence":
      return [{ ...state, seats: message.seats }, false];
    case "clock":
      return [{ ...state, clock: { seat: message.seat, deadline_ms: message.deadline_ms, seconds: message.seconds } }, false];
    case "ack":
      return [{ ...state, pending: state.pending === message.id ? null : state.pending }, false];
    case "reject": {
      const refusal = { code: message.code, reason: message.reason, at: Date.now() };
      const mine = message.id !== null && message.id === state.pending;
      const next = { ...state, rejected: refusal, pending: mine ? null : state.pending };
      if (message.id === null && state.link !== "open") next.refused = refusal;
      const stale = message.code === "stale_version";
      if (stale) next.resync = true;
      return [next, stale];
    }
    default:
      return [state, false];
  }
}

let counter = 0;

export class TableConnection {
  state: TableState = initialState();
  private socket: SocketLike | null = null;
  private listeners = new Set<() => void>();
  private frameListeners = new Set<(message: Record<string, any>) => void>();
  private syncTimer: ReturnType<typeof setTimeout> | null = null;
  private retryTimer: ReturnType<typeof setTimeout> | null = null;
  private retries = 0;
  private closed = false;
  private everOpened = false;

  constructor(
    readonly tableId: string,
    private creds: Credentials,
    private makeSocket: (url: string) => SocketLike = (url) => new WebSocket(url),
  ) {}

  subscribe(fn: () => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  /** Every frame as it arrives, for the table's extras (quick messages, the rematch). */
  onFrame(fn: (message: Record<string, any>) => void): () => void {
    this.frameListeners.add(fn);
    return () => this.frameListeners.delete(fn);
  }

  /** Send a message that is not a command (no id, no ack): a quick message. */
  send(message: Record<string, unknown>): boolean {
    return this.sendRaw(message);
  }

  private set(next: TableState): void {
    this.state = next;
    this.listeners.forEach((fn) => fn());
  }

  url(): string {
    const here = typeof location === "undefined" ? { protocol: "http:", host: "localhost" } : location;
    const proto = here.protocol === "https:" ? "wss:" : "ws:";
    return `${proto}//${here.host}/ws/tables/${encodeURIComponent(this.tableId)}`;
  }

  connect(): void {
    this.closed = false;
    const socket = this.makeSocket(this.url());
    this.socket = socket;
    socket.onopen = () => {
      const hello: Record<string, unknown> = { t: "hello", legal: true, protocol: PROTOCOL };
      const { seat, seatToken, guest, watchToken } = this.creds;
      if (seat !== null) {
        hello.seat = seat;
        hello.seat_token = seatToken;
      }
      if (guest) hello.guest = guest;
      if (watchToken) hello.watch_token = watchToken;
      if (this.everOpened && this.state.synced >= 0) hello.v = this.state.version;
      socket.send(JSON.stringify(hello));
    };
    socket.onmessage = (ev) => this.receive(String(ev.data));
    socket.onclose = (ev) => this.onClose(socket, ev.code);
    socket.onerror = () => undefined;
  }

  private receive(text: string): void {
    let message: Record<string, any>;
    try {
      message = JSON.parse(text);
    } catch {
      return;
    }
    if (message.t === "hello_ok") {
      this.everOpened = true;
      this.retries = 0;
    }
    if (message.t === "sync" && message.hand?.commitment) {
      rememberCommitment(this.tableId, message.hand.number, message.hand.commitment);
    }
    if (message.e?.type === "HandStarted" && message.e.commitment) {
      rememberCommitment(this.tableId, message.e.number, message.e.commitment);
    }
    const [next, wantSync] = reduce(this.state, message);
    this.set(next);
    this.frameListeners.forEach((fn) => fn(message));
    if (wantSync) this.requestSync();
  }

  private onClose(socket: SocketLike, code: number): void {
    if (socket !== this.socket || this.closed) return;
    this.socket = null;
    if (FINAL_CLOSES.has(code) || this.state.refused) {
      const cancelled = code === CANCELLED ? { code: "table_cancelled", reason: "the table was cancelled by its creator" } : null;
      this.set({ ...this.state, link: "refused",
        refused: cancelled ?? this.state.refused ?? this.state.rejected ?? { code: "closed", reason: `closed (${code})` } });
      return;
    }
    this.set({ ...this.state, link: "reconnecting", pending: null });
    const delay = Math.min(5000, 300 * 2 ** this.retries);
    this.retries += 1;
    this.retryTimer = setTimeout(() => this.connect(), delay);
  }

  /** Ask for a resync soon (events often come in bursts: one sync answers them all). */
  requestSync(): void {
    if (this.syncTimer !== null) return;
    this.syncTimer = setTimeout(() => {
      this.syncTimer = null;
      this.sendRaw({ t: "sync" });
    }, 40);
  }

  private sendRaw(message: Record<string, unknown>): boolean {
    const socket = this.socket;
    if (!socket || socket.readyState !== 1) return false;
    socket.send(JSON.stringify(message));
    return true;
  }

  /** Send an action (`draw`, `meld 5H 6H 7H`, ...); its ack or reject comes back by id. */
  act(action: string): void {
    const id = `c${Date.now().toString(36)}${(counter++).toString(36)}`;
    if (this.sendRaw({ t: "act", id, v: this.state.version, action })) {
      this.set({ ...this.state, pending: id, rejected: null });
    }
  }

  undo(): void {
    const id = `u${Date.now().toString(36)}${(counter++).toString(36)}`;
    if (this.sendRaw({ t: "undo", id, v: this.state.version })) {
      this.set({ ...this.state, pending: id, rejected: null });
    }
  }

  /** Ask what the expert would do now (casual tables): answered by a `HintGiven` event. */
  hint(): void {
    const id = `h${Date.now().toString(36)}${(counter++).toString(36)}`;
    if (this.sendRaw({ t: "hint", id, v: this.state.version })) {
      this.set({ ...this.state, pending: id, rejected: null });
    }
  }

  dismissHandEnd(): void {
    this.set({ ...this.state, handEnded: null });
  }

  dismissReject(): void {
    this.set({ ...this.state, rejected: null });
  }

  close(): void {
    this.closed = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    if (this.syncTimer) clearTimeout(this.syncTimer);
    this.socket?.close(1000, "bye");
    this.socket = null;
  }
}
