/**
 * Online tournaments ("events", docs/protocol.md, "Online tournaments"): the calls, their
 * refusals in the player's words, and the pure parts the pages share (the time left as a
 * clock, a local date and time as seconds, the events grouped by what they are doing, the
 * bell's two kinds of item). The pages are events.tsx.
 */
import { ApiError } from "./api";
import { t, type Key } from "./i18n";
import { matchPath } from "./pool";
import { social, SocialError, socialErrorText } from "./social";

// --- the shapes ----------------------------------------------------------------------------

export type Phase = "open" | "running" | "finished" | "cancelled";
export type Kind = "swiss" | "arena";

export interface EventSummary {
  id: string; name: string; kind: Kind; form: "2" | "4"; format: string; rules: string;
  starts: number; rounds: number | null; minutes: number | null; turn_seconds: number;
  show_seconds: number; rated: boolean; min_rating: number | null; club: string | null;
  max_entrants: number; phase: Phase; round: number; started: number | null;
  finished: number | null; ends: number | null; entered: number; recurring: boolean;
  registered: boolean;
}

export interface EventEntrant { id: string; names: string[]; rating: number; withdrawn: boolean; missed: number }

export interface StandingRow {
  rank: number; entrant: string; names: string[]; score: number; games: number; wins: number;
  draws: number; losses: number; withdrawn: boolean;
  /** a Swiss's tie-breaks and byes */
  buchholz?: number; sonneborn_berger?: number; byes?: number;
  /** an arena's streak, fire (a streak doubles the points) and performance rating */
  streak?: number; on_fire?: boolean; performance?: number | null;
}

export interface EventGame {
  id: string; round: number; sides: string[][]; table: string | null; watch: string | null;
  result: null | { winner: number | null; points: number[] | null; vp: number[] | null; absent: string[] };
}

export interface MyGame { id: string; round: number; table: string | null; seat: number;
  url: string | null; token: string | null; sit_by: number }

export interface EventDetail extends EventSummary {
  entrants: EventEntrant[]; standings: StandingRow[]; games: EventGame[];
  me: null | { entrant: string; withdrawn: boolean; missed: number; game: MyGame | null };
}

export interface NewEvent {
  name: string; starts: number; kind: Kind; form: "2" | "4"; rules: string; format: string;
  rounds: number | null; minutes: number | null; turn_seconds: number; rated: boolean;
  min_rating: number | null; club: string | null; max_entrants: number; show_seconds: number;
}

/** A profile's finished event, and the podium badges counted. */
export interface PastEvent { event: string; name: string; kind: Kind; rank: number; entrants: number;
  score: number; finished: number; badge: Badge | null }
export type Badge = "gold" | "silver" | "bronze";
export const BADGES: Badge[] = ["gold", "silver", "bronze"];
export const MEDAL: Record<Badge, string> = { gold: "🥇", silver: "🥈", bronze: "🥉" };

// --- the calls -----------------------------------------------------------------------------

const enc = encodeURIComponent;

export const listEvents = () => social<{ events: EventSummary[] }>("GET", "/api/events");
export const getEvent = (id: string) => social<EventDetail>("GET", `/api/events/${enc(id)}`);
export const createEvent = (body: NewEvent) => social<EventDetail>("POST", "/api/events", body);
export const joinEvent = (id: string, partner?: string) =>
  social<EventDetail>("POST", `/api/events/${enc(id)}/join`, partner ? { partner } : {});
export const leaveEvent = (id: string) => social<EventDetail>("DELETE", `/api/events/${enc(id)}/join`);

/** How often an open or running event's page asks again (a finished one does not). */
export const EVENT_POLL_MS = 2_500;
/** And the list of events. */
export const LIST_POLL_MS = 15_000;

// --- time ----------------------------------------------------------------------------------

const pad = (n: number) => String(n).padStart(2, "0");

/** Time left as a clock: "4:07", "1:02:09"; a day or more in days ("3 days"). */
export function clock(seconds: number): string {
  const s = Math.max(0, Math.ceil(seconds));
  if (s >= 86_400) return t("events.days", { n: Math.floor(s / 86_400) });
  const h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), r = s % 60;
  return h ? `${h}:${pad(m)}:${pad(r)}` : `${m}:${pad(r)}`;
}

/** The `<input type=date>` and `<input type=time>` values of a moment, in local time. */
export function localInputs(ms: number): { date: string; time: string } {
  const d = new Date(ms);
  return { date: `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`, time: `${pad(d.getHours())}:${pad(d.getMinutes())}` };
}

/** A local date and time (the inputs' values) as seconds since the epoch; null if malformed. */
export function localSeconds(date: string, time: string): number | null {
  const d = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  const hm = /^(\d{2}):(\d{2})(?::(\d{2}))?$/.exec(time);
  if (!d || !hm) return null;
  const at = new Date(Number(d[1]), Number(d[2]) - 1, Number(d[3]), Number(hm[1]), Number(hm[2]), Number(hm[3] ?? 0));
  return Number.isNaN(at.getTime()) ? null : Math.round(at.getTime() / 1000);
}

/** The start a new form proposes: half an hour ahead, on the next five minutes. */
export function proposedStart(nowMs: number): number {
  const step = 5 * 60_000;
  return Math.ceil((nowMs + 30 * 60_000) / step) * step;
}

/** The quick starts of the form, in seconds from now ("at": a date and a time). */
export const SOON = [30, 120, 300, 900, 3600] as const;

// --- the list ------------------------------------------------------------------------------

/** The events by what they are doing: running, upcoming (soonest first), over (latest first). */
export function grouped(events: EventSummary[]): { running: EventSummary[]; upcoming: EventSummary[]; over: EventSummary[] } {
  const by = (phase: Phase[]) => events.filter((e) => phase.includes(e.phase));
  return {
    running: by(["running"]).sort((a, b) => (a.started ?? a.starts) - (b.started ?? b.starts)),
    upcoming: by(["open"]).sort((a, b) => a.starts - b.starts),
    over: by(["finished", "cancelled"]).sort((a, b) => (b.finished ?? b.starts) - (a.finished ?? a.starts)),
  };
}

/** "Swiss · 5 rounds", "Arena · 60 min". */
export function kindLine(e: Pick<EventSummary, "kind" | "rounds" | "minutes">): string {
  return e.kind === "swiss" ? `${t("events.kind.swiss")} · ${t("events.roundsN", { n: e.rounds ?? 0 })}`
    : `${t("events.kind.arena")} · ${t("events.minutesN", { n: e.minutes ?? 0 })}`;
}

/** Whether the page should keep asking: the event may still change. */
export function live(phase: Phase): boolean {
  return phase === "open" || phase === "running";
}

/** Where a seat or watch link leads in this client (`/play/…`), or null. */
export function playPath(url: string | null | undefined): string | null {
  if (!url) return null;
  try {
    const parsed = new URL(url, "http://localhost");
    return parsed.pathname.startsWith("/play/") ? parsed.pathname + parsed.search : null;
  } catch {
    return null;
  }
}

/** The path of my seat at my game (the link, else from its table, seat and token). */
export function mySeatPath(game: MyGame | null | undefined): string | null {
  if (!game) return null;
  return matchPath({ url: game.url, table: game.table, seat: game.seat, token: game.token,
    pending: false, players: [], bots: [] });
}

// --- the refusals --------------------------------------------------------------------------

/** What the player is doing when refused: the same field means other things. */
export type Doing = "create" | "join" | "leave" | "read";

const CREATE_FIELDS: Record<string, Key> = {
  name: "events.error.name", starts: "events.error.starts", rounds: "events.error.rounds",
  minutes: "events.error.minutes", turn_seconds: "events.error.turn", max_entrants: "events.error.maxEntrants",
  min_rating: "events.error.minRating", show_seconds: "events.error.show", club: "events.error.clubAdmin",
};
const JOIN_FIELDS: Record<string, Key> = {
  partner: "events.error.partner", max_entrants: "events.error.full", min_rating: "events.error.rating",
  club: "events.error.members", account: "events.error.already", starts: "events.error.closed",
  phase: "events.error.closed",
};
const CODES: Record<string, Key> = {
  not_club_admin: "events.error.clubAdmin", not_registered: "events.error.notIn",
  cancelled: "events.error.cancelled", busy: "events.error.busy", event_not_found: "events.error.notFound",
};

/** A refusal in the player's words, and the form's field it is about (null: the whole form). */
export function eventError(err: unknown, doing: Doing): { field: string | null; text: string } {
  const field = err instanceof SocialError ? err.field : null;
  if (err instanceof ApiError) {
    if (CODES[err.code]) return { field, text: t(CODES[err.code]) };
    if (err.code === "refused" && doing === "leave") return { field: null, text: t("events.error.over") };
    const fields = doing === "create" ? CREATE_FIELDS : JOIN_FIELDS;
    if (field && fields[field] && (err.status === 422 || err.status === 409)) return { field, text: t(fields[field]) };
    if (err.status === 422 && field) return { field, text: t("events.error.field") };
  }
  return { field, text: socialErrorText(err) };
}

// --- the bell ------------------------------------------------------------------------------

export type EventNotice =
  | { kind: "event_starting"; key: string; event: string; name: string; starts: number }
  | { kind: "event_game"; key: string; event: string; name: string; round: number; table: string; url: string };

/** The bell's tournament items: each key once, none dismissed, none malformed. */
export function eventNotices(items: unknown, dismissed: ReadonlySet<string>): EventNotice[] {
  if (!Array.isArray(items)) return [];
  const seen = new Set<string>();
  const out: EventNotice[] = [];
  for (const item of items) {
    if (!item || typeof item !== "object") continue;
    const { kind, key, event, name } = item as Record<string, unknown>;
    if (kind !== "event_starting" && kind !== "event_game") continue;
    if (typeof key !== "string" || typeof event !== "string" || typeof name !== "string") continue;
    if (seen.has(key) || dismissed.has(key)) continue;
    seen.add(key);
    out.push(item as EventNotice);
  }
  return out;
}
