/**
 * The matchmaking pool, "Play with people" (docs/protocol.md, "Matchmaking"): the choices a
 * player makes and keeps, the calls (`POST`, `GET` and `DELETE /api/pool`, and
 * `POST /api/pool/accept` for a friend's invitation to queue as partners), their refusals in
 * the player's words, and the watch that polls the pool while the player waits, invites or is
 * invited.
 *
 * Everything here is plain TypeScript (no component): the lobby's card is `poolcard.tsx`.
 */
import { savedGuest } from "./api";
import { errorText } from "./errors";
import { has, reasonText, t, type Key } from "./i18n";

// --- the choices ---------------------------------------------------------------------------

/** The formats, shortest first: one hand; free play to 505, 1005, 2005; three hands in VP. */
export const POOL_FORMATS = ["hand", "505", "1005", "2005", "vp3"] as const;
export type PoolFormat = (typeof POOL_FORMATS)[number];
export type PoolForm = "2" | "4";
/** The waits (seconds) a player may pick before bots fill the empty seats; `null`: never. */
export const BOTS_AFTER_CHOICES = [20, 45, 90, 180] as const;

export interface PoolChoice {
  format: PoolFormat;
  form: PoolForm;
  /** Rated play: for accounts only (a guest's choice is kept, but sent as casual). */
  rated: boolean;
  /** Casual only: seconds of waiting before bots may fill the empty seats; `null`: never. */
  botsAfter: number | null;
}

export const DEFAULT_POOL_CHOICE: PoolChoice = { format: "1005", form: "2", rated: false, botsAfter: 45 };
const CHOICE = "burraco:pool";

/** A kept choice, read back field by field (anything odd takes the default). */
export function readPoolChoice(raw: string | null): PoolChoice {
  let data: Partial<Record<keyof PoolChoice, unknown>> | null = null;
  try {
    data = raw ? JSON.parse(raw) : null;
  } catch {
    data = null;
  }
  if (!data || typeof data !== "object") return { ...DEFAULT_POOL_CHOICE };
  const bots = data.botsAfter;
  return {
    format: (POOL_FORMATS as readonly unknown[]).includes(data.format) ? data.format as PoolFormat : DEFAULT_POOL_CHOICE.format,
    form: data.form === "4" ? "4" : data.form === "2" ? "2" : DEFAULT_POOL_CHOICE.form,
    rated: data.rated === true,
    botsAfter: bots === null ? null
      : (BOTS_AFTER_CHOICES as readonly unknown[]).includes(bots) ? bots as number : DEFAULT_POOL_CHOICE.botsAfter,
  };
}

export function savedPoolChoice(store: Pick<Storage, "getItem"> = localStorage): PoolChoice {
  try {
    return readPoolChoice(store.getItem(CHOICE));
  } catch {
    return { ...DEFAULT_POOL_CHOICE };
  }
}

export function keepPoolChoice(choice: PoolChoice, store: Pick<Storage, "setItem"> = localStorage): void {
  try {
    store.setItem(CHOICE, JSON.stringify(choice));
  } catch {
    /* private mode: the choice lasts for this page */
  }
}

export interface JoinBody {
  format: PoolFormat;
  form: PoolForm;
  rated: boolean;
  bots_after: number | null;
  /** Four players only, an account's: the friend invited to queue as partners. */
  partner?: string;
}

/** What `POST /api/pool` is sent: a guest plays casual; a rated pool never takes bots; a
 * partner (a friend's username) for an account's four-player game only. */
export function joinBody(choice: PoolChoice, account: boolean, partner?: string | null): JoinBody {
  const rated = account && choice.rated;
  const body: JoinBody = { format: choice.format, form: choice.form, rated, bots_after: rated ? null : choice.botsAfter };
  if (partner && account && choice.form === "4") body.partner = partner;
  return body;
}

// --- the words -----------------------------------------------------------------------------

const FORMAT_KEYS: Record<PoolFormat, Key> = {
  hand: "format.hands:1", "505": "format.target:505", "1005": "format.target:1005",
  "2005": "pool.format.2005", vp3: "pool.format.vp3",
};

export function formatLabel(format: string): string {
  return format in FORMAT_KEYS ? t(FORMAT_KEYS[format as PoolFormat]) : format;
}

/** A pool in a line: "To 1005 points · 2 players · Casual". */
export function poolLine(pool: { format: string; form: string; rated: boolean }): string {
  return [formatLabel(pool.format), t("tables.players", { n: Number(pool.form) }),
    t(pool.rated ? "pool.rated" : "pool.casual")].join(" · ");
}

/** The bots' wait as a choice reads: "after 45 s", "after 3 min", "never (people only)". */
export function botsAfterLabel(seconds: number | null): string {
  if (seconds === null) return t("pool.botsNever");
  if (seconds >= 120 && seconds % 60 === 0) return t("pool.botsAfterMin", { n: seconds / 60 });
  return t("pool.botsAfter", { n: seconds });
}

/** The rating window as a player reads it: "±100", "±300", or "anyone" (no window). */
export function windowText(window: readonly [number, number] | readonly number[] | null | undefined): string {
  if (!window || window.length !== 2 || !window.every(Number.isFinite)) return t("pool.window.anyone");
  return t("pool.window.within", { n: Math.round(Math.abs(window[1] - window[0]) / 2) });
}

/** A wait on a clock: "0:07", "1:05", "1:02:03". */
export function clockText(seconds: number): string {
  const whole = Math.max(0, Math.floor(Number.isFinite(seconds) ? seconds : 0));
  const h = Math.floor(whole / 3600);
  const m = Math.floor((whole % 3600) / 60);
  const s = String(whole % 60).padStart(2, "0");
  return h ? `${h}:${String(m).padStart(2, "0")}:${s}` : `${m}:${s}`;
}

// --- the server's answers ------------------------------------------------------------------

export interface PoolName { name?: string; format: string; form: string; rated: boolean }

export interface PoolWaiting {
  state: "waiting";
  pool: PoolName;
  /** Seconds waited when the server answered. */
  waited: number;
  /** [lo, hi] of the ratings this player meets now; null: anyone. */
  window: [number, number] | null;
  bots_after: number | null;
  /** How many wait in this pool (this player too); null until the server has said. */
  waiting: number | null;
  /** The partner this player queues with (four players); null: alone. */
  partner: string | null;
}

/** This player invited a friend to queue as partners; the friend has not answered yet. */
export interface PoolInviting {
  state: "inviting";
  pool: PoolName;
  partner: string;
  /** Seconds the invitation stays open, counted when the server answered. */
  expires_in: number;
  bots_after: number | null;
}

/** A friend invited this player to queue as partners. */
export interface PoolInvited {
  state: "invited";
  pool: PoolName;
  by: string;
  expires_in: number;
  bots_after: number | null;
}

export interface PoolMatch {
  id?: string;
  pool?: PoolName;
  table: string | null;
  pending: boolean;
  seat: number;
  url: string | null;
  token?: string | null;
  rated?: boolean;
  players: (string | null)[];
  bots: string[];
}

export type PoolStatus = { state: "none" } | PoolWaiting | PoolInviting | PoolInvited
  | { state: "matched"; match: PoolMatch };

const num = (value: unknown, fallback: number): number =>
  typeof value === "number" && Number.isFinite(value) ? value : fallback;

function readWindow(value: unknown): [number, number] | null {
  return Array.isArray(value) && value.length === 2 && value.every((v) => typeof v === "number" && Number.isFinite(v))
    ? [value[0], value[1]] : null;
}

function readPool(value: unknown): PoolName {
  const p = (value && typeof value === "object" ? value : {}) as Record<string, unknown>;
  return { name: typeof p.name === "string" ? p.name : undefined, format: String(p.format ?? ""),
    form: String(p.form ?? ""), rated: p.rated === true };
}

/** `GET /api/pool`'s answer (or `POST`'s), read field by field. */
export function readStatus(data: unknown): PoolStatus {
  const d = (data && typeof data === "object" ? data : {}) as Record<string, unknown>;
  if (d.match && typeof d.match === "object") {
    const m = d.match as Record<string, unknown>;
    const table = typeof m.table === "string" ? m.table : null;
    const url = typeof m.url === "string" && m.url ? m.url : null;
    return { state: "matched", match: {
      id: typeof m.id === "string" ? m.id : undefined, pool: m.pool ? readPool(m.pool) : undefined, table,
      pending: m.pending === true || table === null || (url === null && !m.token),
      seat: num(m.seat, 0), url, token: typeof m.token === "string" ? m.token : null, rated: m.rated === true,
      players: Array.isArray(m.players) ? m.players.map((p) => (typeof p === "string" ? p : null)) : [],
      bots: Array.isArray(m.bots) ? m.bots.map(String) : [],
    } };
  }
  if (d.state === "none" || !d.pool) return { state: "none" };
  const botsAfter = typeof d.bots_after === "number" ? d.bots_after : null;
  if (d.state === "inviting" || d.state === "invited") {
    const name = d.state === "inviting" ? d.partner : d.by;
    const left = Math.max(0, num(d.expires_in, 0));
    if (typeof name !== "string") return { state: "none" };
    return d.state === "inviting"
      ? { state: "inviting", pool: readPool(d.pool), partner: name, expires_in: left, bots_after: botsAfter }
      : { state: "invited", pool: readPool(d.pool), by: name, expires_in: left, bots_after: botsAfter };
  }
  return {
    state: "waiting", pool: readPool(d.pool), waited: num(d.waited, 0), window: readWindow(d.window),
    bots_after: botsAfter, waiting: typeof d.waiting === "number" ? d.waiting : null,
    partner: typeof d.partner === "string" ? d.partner : null,
  };
}

/** Where a match's seat link leads in this client: `/play/ID?seat=N&token=…` (the table page
 * keeps the seat's token and tidies the address); null while the table is being made. */
export function matchPath(match: PoolMatch, origin = typeof location === "undefined" ? "http://localhost" : location.origin): string | null {
  if (match.url) {
    try {
      const url = new URL(match.url, origin);
      if (url.pathname.startsWith("/play/")) return url.pathname + url.search;
    } catch {
      /* not a link: below, from its parts */
    }
  }
  if (match.table && match.token) {
    return `/play/${encodeURIComponent(match.table)}?seat=${match.seat}&token=${encodeURIComponent(match.token)}`;
  }
  return null;
}

// --- the calls -----------------------------------------------------------------------------

/** A refused or failed pool call: the status (0: no answer), the code, the field named. */
export class PoolError extends Error {
  constructor(public status: number, public code: string, public detail: string,
    public field: string | null = null, public retryAfter: number | null = null) {
    super(detail);
  }
}

export type Fetch = (input: string, init?: RequestInit) => Promise<Response>;

/** The player's token header: the saved guest's or account's, or `token` when given. */
function auth(token?: string): Record<string, string> {
  const bearer = token ?? savedGuest()?.token;
  return bearer ? { authorization: `Bearer ${bearer}` } : {};
}

async function poolCall(method: "GET" | "POST" | "DELETE", body?: unknown, fetcher: Fetch = fetch,
  token?: string, path = "/api/pool"): Promise<unknown> {
  let response: Response;
  try {
    response = await fetcher(path, {
      method, credentials: "same-origin",
      headers: { ...auth(token), ...(body !== undefined ? { "content-type": "application/json" } : {}) },
      body: body !== undefined ? JSON.stringify(body) : undefined,
    });
  } catch {
    throw new PoolError(0, "network", "the server cannot be reached");
  }
  if (response.status === 204) return null;
  const data = await response.json().catch(() => ({})) as Record<string, unknown>;
  if (!response.ok) {
    const retry = Number(response.headers.get("retry-after"));
    throw new PoolError(response.status, typeof data.code === "string" ? data.code : "error",
      typeof data.detail === "string" ? data.detail : response.statusText,
      typeof data.field === "string" ? data.field : null, Number.isFinite(retry) && retry > 0 ? retry : null);
  }
  return data;
}

/** A join's (or an acceptance's) answer: the wait as it starts. */
function joined(data: Record<string, unknown>, body?: JoinBody): PoolWaiting {
  return {
    state: "waiting", pool: readPool(data.pool ?? body), waited: 0, window: readWindow(data.window),
    bots_after: typeof data.bots_after === "number" ? data.bots_after : body?.bots_after ?? null, waiting: null,
    partner: typeof data.partner === "string" ? data.partner : null,
  };
}

/** Join the pool: the wait as it starts; or, with a partner, the invitation as it opens. */
export async function joinPool(body: JoinBody, fetcher?: Fetch): Promise<PoolWaiting | PoolInviting> {
  const data = await poolCall("POST", body, fetcher) as Record<string, unknown>;
  if (data.state === "inviting") {
    const inviting = readStatus({ ...data, pool: data.pool ?? body, partner: data.partner ?? body.partner });
    if (inviting.state === "inviting") return inviting;
  }
  return joined(data, body);
}

/** Accept a friend's invitation to queue as partners (`by`, when named: only theirs): the wait
 * the two now share. */
export async function acceptInvitation(by?: string | null, fetcher?: Fetch): Promise<PoolWaiting> {
  const data = await poolCall("POST", by ? { by } : {}, fetcher, undefined, "/api/pool/accept");
  return joined(data as Record<string, unknown>);
}

export async function poolStatus(fetcher?: Fetch, token?: string): Promise<PoolStatus> {
  return readStatus(await poolCall("GET", undefined, fetcher, token));
}

/** Leave the pool (as `token`'s holder when given: the player logged in or out meanwhile). */
export async function leavePool(fetcher?: Fetch, token?: string): Promise<void> {
  await poolCall("DELETE", undefined, fetcher, token);
}

/** Leave as the page goes away (closed, reloaded): a table must not wait for someone gone. */
export function leavePoolOnExit(token?: string): void {
  try {
    void fetch("/api/pool", { method: "DELETE", keepalive: true, credentials: "same-origin", headers: auth(token) })
      .catch(() => undefined);
  } catch {
    /* nothing more can be done as the page closes */
  }
}

const FIELD_KEYS: Record<string, Key> = {
  form: "pool.error.form", rated: "pool.error.rated", bots_after: "pool.error.bots",
  partner: "pool.error.partner",
};

/** The refusals of a party (an invitation, an acceptance), by code. */
export const PARTY_CODE_KEYS: Record<string, Key> = {
  partner_busy: "pool.error.partnerBusy", partner_unavailable: "pool.error.partnerUnavailable",
  no_invitation: "pool.error.noInvitation",
};

/** A refused or failed call in the player's language, naming what was wrong. */
export function poolErrorText(err: unknown, rated = false): string {
  if (!(err instanceof PoolError)) return errorText(err);
  if (err.status === 0) return t("common.network");
  if (err.status === 429) {
    return err.retryAfter ? t("pool.error.tooMany", { n: err.retryAfter }) : t("pool.error.tooManySoon");
  }
  if (err.code === "bad_field" || err.status === 422) {
    if (err.field === "format") return t(rated ? "pool.error.formatRated" : "pool.error.format");
    if (err.field && FIELD_KEYS[err.field]) return t(FIELD_KEYS[err.field]);
    return t("pool.error.field", { field: err.field ?? "?" });
  }
  if (err.code === "already_queued") return t("pool.error.queued");
  if (PARTY_CODE_KEYS[err.code]) return t(PARTY_CODE_KEYS[err.code]);
  if (err.code === "account_required" && err.field === "partner") return t("pool.error.partnerGuest");
  if (err.code === "being_seated") return t("pool.found");
  if (has(`code.${err.code}`)) return reasonText(err.code, err.detail);
  return t("common.error", { reason: err.detail || String(err.status) });
}

// --- the watch -----------------------------------------------------------------------------

/** How often the pool is asked while the player waits. */
export const POLL_MS = 1500;

/** What the watch reports: waiting (the server's last answer, when it came, calls failed since),
 * inviting a friend or invited by one (likewise), being seated, matched (the path to go to),
 * or out of the pool (left elsewhere, dropped, an invitation declined or run out: `after`
 * says what the player was doing before). */
export type Watched =
  | { phase: "waiting"; status: PoolWaiting; at: number; trouble: number }
  | { phase: "inviting"; status: PoolInviting; at: number; trouble: number }
  | { phase: "invited"; status: PoolInvited; at: number; trouble: number }
  | { phase: "seating"; match: PoolMatch; trouble: number }
  | { phase: "matched"; match: PoolMatch; path: string }
  | { phase: "gone"; after?: "waiting" | "inviting" | "invited" | "seating" }
  | { phase: "failed"; error: unknown };

/** Seconds left of an invitation the watch reported, on the clock `now`. */
export function timeLeft(w: { status: { expires_in: number }; at: number }, now: number): number {
  return Math.max(0, w.status.expires_in - (now - w.at) / 1000);
}

export interface WatchEnv {
  get: () => Promise<PoolStatus>;
  now: () => number;
  setTimer: (fn: () => void, ms: number) => unknown;
  clearTimer: (handle: unknown) => void;
  hidden: () => boolean;
  origin?: string;
}

/** The browser's clock, timers and visibility, and the real `GET /api/pool` (as `token()`'s
 * holder: the player the wait is under). */
export function browserEnv(token: () => string | undefined = () => undefined): WatchEnv {
  return {
    get: () => poolStatus(undefined, token()), now: () => Date.now(),
    setTimer: (fn, ms) => setTimeout(fn, ms), clearTimer: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
    hidden: () => document.visibilityState === "hidden",
  };
}

/**
 * Polls the pool every `every` ms while the player waits, one call at a time; not while the
 * page is hidden (`visibility()` resumes it, at once, when it shows again); never after
 * `stop()` (an answer on its way then is dropped). It stops by itself when the player is
 * matched (with a seat link) or no longer in the pool, or the server no longer knows them.
 */
export class PoolWatch {
  private timer: unknown = null;
  private running = false;
  private inFlight = false;
  private trouble = 0;
  private last: Watched | null = null;
  /** Which start the call in flight belongs to: an answer to an earlier one is dropped. */
  private run = 0;

  constructor(private env: WatchEnv, private report: (w: Watched) => void, readonly every = POLL_MS) {}

  get active(): boolean {
    return this.running;
  }

  /** Begin (with what the server said already, if anything): asks at once, then every `every`. */
  start(first?: PoolStatus): void {
    this.stop();
    this.run += 1;
    this.running = true;
    this.trouble = 0;
    if (first) this.take(first, false);
    void this.poll();
  }

  stop(): void {
    this.running = false;
    this.clear();
  }

  /** The page was hidden or shown again. */
  visibility(): void {
    if (!this.running) return;
    if (this.env.hidden()) this.clear();
    else if (this.timer === null && !this.inFlight) void this.poll();
  }

  private clear(): void {
    if (this.timer !== null) this.env.clearTimer(this.timer);
    this.timer = null;
  }

  private schedule(): void {
    this.clear();
    if (!this.running || this.env.hidden()) return;
    this.timer = this.env.setTimer(() => {
      this.timer = null;
      void this.poll();
    }, this.every);
  }

  private emit(w: Watched): void {
    this.last = w;
    this.report(w);
  }

  private async poll(): Promise<void> {
    if (!this.running || this.inFlight || this.env.hidden()) return;
    this.clear();
    this.inFlight = true;
    const run = this.run;
    let status: PoolStatus;
    try {
      status = await this.env.get();
    } catch (err) {
      this.inFlight = false;
      if (this.stale(run)) return;
      if (err instanceof PoolError && (err.status === 401 || err.status === 403)) {
        this.running = false;
        this.emit({ phase: "failed", error: err });
        return;
      }
      // the network, or the server busy: say so, and keep asking
      this.trouble += 1;
      const last = this.last;
      if (last && (last.phase === "waiting" || last.phase === "inviting" || last.phase === "invited"
        || last.phase === "seating")) this.emit({ ...last, trouble: this.trouble });
      this.schedule();
      return;
    }
    this.inFlight = false;
    if (this.stale(run)) return;
    this.take(status, true);
  }

  /** Is an answer to start `run` stale (stopped since, or started again: then asked anew)? */
  private stale(run: number): boolean {
    if (!this.running) return true;
    if (run === this.run) return false;
    void this.poll();
    return true;
  }

  private take(status: PoolStatus, schedule: boolean): void {
    if (status.state === "waiting") {
      this.trouble = 0;
      this.emit({ phase: "waiting", status, at: this.env.now(), trouble: 0 });
    } else if (status.state === "inviting") {
      this.trouble = 0;
      this.emit({ phase: "inviting", status, at: this.env.now(), trouble: 0 });
    } else if (status.state === "invited") {
      this.trouble = 0;
      this.emit({ phase: "invited", status, at: this.env.now(), trouble: 0 });
    } else if (status.state === "matched") {
      this.trouble = 0;
      const path = status.match.pending ? null : matchPath(status.match, this.env.origin);
      if (path) {
        this.running = false;
        this.clear();
        this.emit({ phase: "matched", match: status.match, path });
        return;
      }
      this.emit({ phase: "seating", match: status.match, trouble: 0 });
    } else {
      const last = this.last?.phase;
      this.running = false;
      this.clear();
      this.emit(last === "waiting" || last === "inviting" || last === "invited" || last === "seating"
        ? { phase: "gone", after: last } : { phase: "gone" });
      return;
    }
    if (schedule) this.schedule();
  }
}

// --- news between the bell and the card --------------------------------------------------------

/** What changed in the pool outside the card: `check` (ask where the player is: an invitation
 * may have come, or been accepted elsewhere), `left` (the player declined or left). */
export type PoolNews = "check" | "left";
const NEWS = "burraco:pool-news";

export function poolNews(news: PoolNews): void {
  if (typeof window !== "undefined") window.dispatchEvent(new CustomEvent<PoolNews>(NEWS, { detail: news }));
}

/** Listen for `poolNews`; the listener's removal. */
export function onPoolNews(listener: (news: PoolNews) => void): () => void {
  const handler = (e: Event) => listener((e as CustomEvent<PoolNews>).detail);
  window.addEventListener(NEWS, handler);
  return () => window.removeEventListener(NEWS, handler);
}
