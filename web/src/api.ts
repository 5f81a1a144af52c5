/** The server's HTTP API (burraco.server.app and burraco.server.web), and what the browser keeps. */

export class ApiError extends Error {
  constructor(public status: number, public code: string, public detail: string) {
    super(detail);
  }
}

const GUEST = "burraco:guest";

export interface GuestInfo {
  guest_id: string;
  nickname: string;
  token: string;
}

export function savedGuest(): GuestInfo | null {
  try {
    const raw = localStorage.getItem(GUEST);
    return raw ? (JSON.parse(raw) as GuestInfo) : null;
  } catch {
    return null;
  }
}

function authHeaders(): Record<string, string> {
  const guest = savedGuest();
  return guest ? { authorization: `Bearer ${guest.token}` } : {};
}

export async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      headers: { ...authHeaders(), ...(body !== undefined ? { "content-type": "application/json" } : {}) },
      body: body !== undefined ? JSON.stringify(body) : undefined,
      credentials: "same-origin",
    });
  } catch {
    throw new ApiError(0, "network", "the server cannot be reached");
  }
  const data = await response.json().catch(() => ({}));
  if (!response.ok) {
    throw new ApiError(response.status, data.code ?? "error", data.detail ?? response.statusText);
  }
  return data as T;
}

export function forgetGuest(): void {
  localStorage.removeItem(GUEST);
}

/**
 * The saved guest if the server still knows its token (a new database has a new signing key);
 * else forgets it, so the player picks a nickname again. Network trouble keeps it.
 */
export async function checkedGuest(): Promise<GuestInfo | null> {
  const guest = savedGuest();
  if (!guest) return null;
  try {
    await call("GET", "/api/me");
    return guest;
  } catch (err) {
    if (err instanceof ApiError && err.status === 401) {
      forgetGuest();
      return null;
    }
    return guest;
  }
}

export async function newGuest(nickname: string): Promise<GuestInfo> {
  const guest = await call<GuestInfo>("POST", "/api/guests", { nickname });
  localStorage.setItem(GUEST, JSON.stringify(guest));
  return guest;
}

export interface SeatSpec {
  kind: "human" | "bot";
  level: string | null;
}

export interface TableConfig {
  players: number;
  rules: string;
  options: Record<string, unknown>;
  mode: "free" | "smazzate";
  target: number | null;
  smazzate: number | null;
  seats: SeatSpec[];
  public: boolean;
  casual: boolean;
  turn_seconds: number | null;
  grace_seconds: number;
  standin: string;
  bot_delay: number;
  /** the first-hand tutorial's table (a fixed deal) */
  tutorial?: boolean;
  /** rated play: accounts only, no undo, shown to nobody until the match is over */
  rated?: boolean;
}

export interface Presence {
  seat: number;
  kind: "human" | "bot";
  level: string | null;
  nickname: string | null;
  /** The seat's picture (avatars.tsx): its holder's, its bot level's; null for an open seat. */
  avatar?: string | null;
  online: boolean;
  grace_deadline_ms: number | null;
  grace_seconds: number;
  standin: string | null;
  /** False while a seat taken for its holder (the creator's) waits for them to come. */
  arrived?: boolean;
  /** The holder is an account (a guest's nickname may be anybody's username). */
  account?: boolean;
}

export interface TableSummary {
  id: string;
  status: string;
  version: number;
  config: TableConfig;
  seats: Presence[] | null;
  /** A finished table: when it ended (seconds since the epoch) and how (docs/protocol.md). */
  finished_at?: number;
  scores?: number[] | null;
  winner?: number | null;
  /** A finished table's seat holders' nicknames (null for a bot's seat). */
  names?: (string | null)[] | null;
  /** A table read one by one (GET /api/tables/{id}): its match, final scores included. */
  match?: { scores: number[]; winner: number | null } | null;
}

export function listTables(): Promise<{ tables: TableSummary[] }> {
  return call("GET", "/api/tables");
}

export interface TableRequest {
  players: number;
  rules: string;
  options: Record<string, unknown>;
  mode: "free" | "smazzate";
  target: number | null;
  smazzate: number | null;
  seats: { kind: "human" | "bot"; level?: string | null }[];
  public: boolean;
  casual: boolean;
  turn_seconds: number | null;
  grace_seconds: number;
  standin: string;
  bot_delay: number;
  creator_seat: number | null;
  rated?: boolean;
}

export interface CreatedTable {
  table_id: string;
  config: TableConfig;
  seats: { seat: number; kind: string; level: string | null; token?: string; invite?: string }[];
  watch_token: string;
  watch: string;
}

/** Cancel a waiting table this guest created, while nobody else has taken a seat. */
export async function cancelTable(id: string): Promise<void> {
  await call<unknown>("DELETE", `/api/tables/${encodeURIComponent(id)}`);
}

export async function createTable(body: TableRequest): Promise<CreatedTable> {
  const created = await call<CreatedTable>("POST", "/api/tables", body);
  const keep: KeptTable = { seats: {}, watch: created.watch_token, created: Date.now(), invites: {} };
  for (const seat of created.seats) {
    if (seat.token) keep.invites[seat.seat] = seat.invite ?? "";
  }
  if (body.creator_seat !== null) {
    const mine = created.seats[body.creator_seat];
    if (mine?.token) keep.seats[body.creator_seat] = mine.token;
  }
  keepTable(created.table_id, keep);
  return created;
}

export function seatToken(tableId: string, seat: number): Promise<{ token: string }> {
  return call("POST", `/api/web/tables/${encodeURIComponent(tableId)}/seats/${seat}`);
}

export interface RuleOption {
  name: string;
  section: string;
  doc: string;
  kind: "bool" | "int" | "choice" | "text" | "json";
  choices?: string[];
  min?: number;
  max?: number;
}

export interface FormOptions {
  presets: { name: string; note: string; values: Record<string, unknown> }[];
  options: RuleOption[];
  levels: string[];
  table: { name: string; default: unknown }[];
}

let optionsOnce: Promise<FormOptions> | null = null;

/** What the server offers for new tables (fetched once per page). */
export function formOptions(): Promise<FormOptions> {
  optionsOnce ??= call<FormOptions>("GET", "/api/web/options").catch((err) => {
    optionsOnce = null;
    throw err;
  });
  return optionsOnce;
}

export interface HandRow {
  number: number;
  dealer: number;
  commitment: string;
  started_version: number;
  ended_version: number | null;
  result: HandResult | null;
  reveal: { order: number[]; salt: string; cut: number; individual: boolean } | null;
  record: Record<string, unknown> | null;
}

export interface SideResult {
  seats: number[];
  melds: number;
  bonuses: number;
  burraco: { type: string; points: number }[];
  closing: number;
  pozzetto: number;
  hand: number;
  total: number;
}

export interface HandResult {
  reason: string;
  closer: number;
  redeal: boolean;
  sides: SideResult[];
  seat_totals: number[];
}

function tokenQuery(token: string | null): string {
  return token ? `?token=${encodeURIComponent(token)}` : "";
}

export function tableHands(tableId: string, token: string | null): Promise<{ hands: HandRow[] }> {
  return call("GET", `/api/tables/${encodeURIComponent(tableId)}/hands${tokenQuery(token)}`);
}

export function tableInfo(tableId: string, token: string | null): Promise<Record<string, unknown>> {
  return call("GET", `/api/tables/${encodeURIComponent(tableId)}${tokenQuery(token)}`);
}

export type CardPair = [string, number];

export interface ReplayFrame {
  index: number;
  seat: number | null;
  move: string | null;
  turn: number;
  phase: string;
  hands: CardPair[][];
  pending: CardPair[][];
  melds: { text: string; type: string | null }[][];
  pile: CardPair[];
  stock: CardPair[];
  pozzetti: CardPair[][];
  pozzetto_taker: number[];
  side_of: number[];
}

export interface HandReplay {
  table_id: string;
  number: number;
  config: TableConfig;
  commitment: string;
  dealer: number;
  reveal: { order: number[]; salt: string; cut: number; individual: boolean };
  result: HandResult;
  record: {
    seats?: string[];
    players: number;
    dealer: number;
    deal: { card_ids: { hands: number[][]; pozzetti: number[][]; stock: number[]; pile: number[] } };
    moves: string[];
    [key: string]: unknown;
  };
  frames: ReplayFrame[];
}

export function handReplay(tableId: string, number: number, token: string | null): Promise<HandReplay> {
  return call("GET", `/api/web/tables/${encodeURIComponent(tableId)}/hands/${number}/replay${tokenQuery(token)}`);
}

// --- what this browser keeps about tables ------------------------------------------------

export interface KeptTable {
  /** seat -> seat token */
  seats: Record<number, string>;
  watch: string | null;
  created: number;
  /** seat -> invite link (tables this browser created) */
  invites: Record<number, string>;
}

const TABLE = "burraco:table:";

export function keptTable(id: string): KeptTable | null {
  try {
    const raw = localStorage.getItem(TABLE + id);
    return raw ? (JSON.parse(raw) as KeptTable) : null;
  } catch {
    return null;
  }
}

export function keepTable(id: string, table: KeptTable): void {
  localStorage.setItem(TABLE + id, JSON.stringify(table));
}

export function updateKept(id: string, change: (t: KeptTable) => void): KeptTable {
  const table = keptTable(id) ?? { seats: {}, watch: null, created: Date.now(), invites: {} };
  change(table);
  keepTable(id, table);
  return table;
}

export function keptTableIds(): string[] {
  const out: [string, number][] = [];
  for (let i = 0; i < localStorage.length; i++) {
    const key = localStorage.key(i);
    if (key?.startsWith(TABLE)) {
      const id = key.slice(TABLE.length);
      out.push([id, keptTable(id)?.created ?? 0]);
    }
  }
  return out.sort((a, b) => b[1] - a[1]).map(([id]) => id);
}

const COMMIT = "burraco:commitment:";

/** The commitment this browser saw when a hand began (checked again in the replay). */
export function rememberCommitment(tableId: string, hand: number, commitment: string): void {
  try {
    localStorage.setItem(`${COMMIT}${tableId}:${hand}`, commitment);
  } catch {
    /* full or private: the replay checks against the server's copy only */
  }
}

export function seenCommitment(tableId: string, hand: number): string | null {
  try {
    return localStorage.getItem(`${COMMIT}${tableId}:${hand}`);
  } catch {
    return null;
  }
}
