/**
 * The social side for accounts (docs/protocol.md §14.3–14.5, §14.7): friends and blocks with
 * the friends' presence, online clubs, challenges, and the notifications the bell shows.
 * Plain TypeScript: the calls, their refusals in the player's words, and the pure parts
 * (presence wording, which notifications are new). The pages are friends.tsx, clubs.tsx and
 * notices.tsx.
 */
import { ApiError, savedGuest } from "./api";
import { errorText } from "./errors";
import { has, t, type Key } from "./i18n";
import { matchPath } from "./pool";

// --- the calls -----------------------------------------------------------------------------

/** A refused call: ApiError (so errorText reads it) with the field the server named. */
export class SocialError extends ApiError {
  constructor(status: number, code: string, detail: string, public field: string | null = null) {
    super(status, code, detail);
  }
}

export type Fetch = (input: string, init?: RequestInit) => Promise<Response>;

export async function social<T>(method: string, path: string, body?: unknown, fetcher: Fetch = fetch): Promise<T> {
  const token = savedGuest()?.token;
  let response: Response;
  try {
    response = await fetcher(path, {
      method, credentials: "same-origin",
      headers: { ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(body !== undefined ? { "content-type": "application/json" } : {}) },
      body: body !== undefined ? JSON.stringify(body) : undefined,
    });
  } catch {
    throw new SocialError(0, "network", "the server cannot be reached");
  }
  if (response.status === 204) return null as T;
  const data = await response.json().catch(() => ({})) as Record<string, unknown>;
  if (!response.ok) {
    throw new SocialError(response.status, typeof data.code === "string" ? data.code : "error",
      typeof data.detail === "string" ? data.detail : response.statusText,
      typeof data.field === "string" ? data.field : null);
  }
  return data as T;
}

const enc = encodeURIComponent;

export interface Person { username: string; avatar?: string | null }
export interface Friends { friends: Person[]; following: Person[]; followers: Person[]; blocked: Person[] }
export interface FriendPresence extends Person {
  online: boolean; table?: string | null; watch?: string | null; pool?: unknown;
}

export const getFriends = () => social<Friends>("GET", "/api/me/friends");
export const getPresence = () => social<{ friends: FriendPresence[] }>("GET", "/api/me/friends/presence");
export const follow = (name: string) => social<Person>("PUT", `/api/me/following/${enc(name)}`);
export const unfollow = (name: string) => social<unknown>("DELETE", `/api/me/following/${enc(name)}`);
export const block = (name: string) => social<unknown>("PUT", `/api/me/blocked/${enc(name)}`);
export const unblock = (name: string) => social<unknown>("DELETE", `/api/me/blocked/${enc(name)}`);

export interface ChallengeAnswer { id: string; state: string; table?: string; seat?: number; token?: string; url?: string }
export const challenge = (to: string, format: string, rated: boolean) =>
  social<{ id: string; expires: number }>("POST", "/api/challenges", { to, format, rated });
export const acceptChallenge = (id: string) => social<ChallengeAnswer>("POST", `/api/challenges/${enc(id)}/accept`);
export const declineChallenge = (id: string) => social<ChallengeAnswer>("POST", `/api/challenges/${enc(id)}/decline`);
export const withdrawChallenge = (id: string) => social<ChallengeAnswer>("DELETE", `/api/challenges/${enc(id)}`);
/** A challenge as `GET /api/challenges` lists it (an accepted one with the caller's seat). */
export interface ChallengeItem {
  id: string; from: string | null; to: string | null; format: string; rated: boolean;
  state: "open" | "accepted" | "declined" | "withdrawn" | "expired"; expires: number;
  table?: string; seat?: number; token?: string; url?: string;
}
export const getChallenges = () =>
  social<{ incoming: ChallengeItem[]; outgoing: ChallengeItem[] }>("GET", "/api/challenges");

export type Role = "founder" | "admin" | "member" | "invited" | "asked";
export interface Club { id: string; name: string; description: string; public: boolean; members: number; role: Role | null }
export interface Member { username: string; avatar?: string | null; role: Role }
export interface BoardRow { rank: number; username: string; rating: number; matches: number }
export interface ClubView extends Club {
  members_list?: Member[]; pending?: Member[]; leaderboard?: Record<string, BoardRow[]>;
}

export const listClubs = () => social<{ clubs: Club[] }>("GET", "/api/clubs");
export const foundClub = (name: string, description: string, isPublic: boolean) =>
  social<Club>("POST", "/api/clubs", { name, description, public: isPublic });
export const getClub = (id: string) => social<ClubView>("GET", `/api/clubs/${enc(id)}`);
export const joinClub = (id: string) => social<{ role: Role }>("POST", `/api/clubs/${enc(id)}/join`);
export const leaveClub = (id: string) => social<unknown>("DELETE", `/api/clubs/${enc(id)}/membership`);
export const inviteToClub = (id: string, name: string) =>
  social<{ role: Role }>("PUT", `/api/clubs/${enc(id)}/members/${enc(name)}`);
export const acceptRequest = (id: string, name: string) =>
  social<unknown>("POST", `/api/clubs/${enc(id)}/members/${enc(name)}/accept`);
export const removeMember = (id: string, name: string) =>
  social<unknown>("DELETE", `/api/clubs/${enc(id)}/members/${enc(name)}`);
export const setAdmin = (id: string, name: string, admin: boolean) =>
  social<unknown>("PUT", `/api/clubs/${enc(id)}/admins/${enc(name)}`, { admin });

// --- the words -----------------------------------------------------------------------------

const CODE_KEYS: Record<string, Key> = {
  blocked: "social.error.blocked", not_possible: "social.error.blocked",
  already_challenged: "social.error.alreadyChallenged", too_many_open: "social.error.tooManyOpen",
  name_taken: "social.error.nameTaken", not_admin: "social.error.notAdmin",
  not_founder: "social.error.notFounder", not_allowed: "social.error.notAllowed",
  founder: "social.error.founderStays", too_many_clubs: "social.error.tooManyClubs",
  not_asked: "social.error.notAsked", login_required: "social.error.login",
  partner_busy: "pool.error.partnerBusy", partner_unavailable: "pool.error.partnerUnavailable",
  no_invitation: "pool.error.noInvitation",
};

/** A refused or failed call in the player's language: our text for the code, else the
 * platform's text for it (code.*), else the server's own detail. */
export function socialErrorText(err: unknown): string {
  if (err instanceof ApiError) {
    if (err.code === "network") return t("common.network");
    if (CODE_KEYS[err.code]) return t(CODE_KEYS[err.code]);
    const field = err instanceof SocialError ? err.field : null;
    if (err.status === 422 && (field === "username" || field === "to")) return t("social.error.noPlayer");
    if (err.status === 422 && field === "name") return t("social.error.clubName");
    if (err.status === 422 && field === "description") return t("social.error.description");
    if (err.status === 404 && err.code !== "error" && !has(`code.${err.code}`)) return err.detail;
  }
  return errorText(err);
}

/** What a friend is doing, as a message key: at a table, waiting in a pool, online, away. */
export function presenceKey(p: Pick<FriendPresence, "online" | "table" | "pool">): Key {
  if (p.table) return "friends.atTable";
  if (p.pool) return "friends.inPool";
  return p.online ? "friends.online" : "friends.offline";
}

/** Where a seat or watch link leads in this client (a path of this origin), or null. */
export function localPath(url: string | null | undefined,
  origin = typeof location === "undefined" ? "http://localhost" : location.origin): string | null {
  if (!url) return null;
  try {
    const parsed = new URL(url, origin);
    return parsed.origin === new URL(origin).origin ? parsed.pathname + parsed.search : null;
  } catch {
    return null;
  }
}

/** The path to a seat a challenge or a pool match gave (`/play/ID?seat=N&token=…`). */
export function seatPath(item: { url?: string | null; table?: string | null; seat?: number; token?: string | null }): string | null {
  return matchPath({ url: item.url ?? null, table: item.table ?? null, seat: item.seat ?? 0, token: item.token ?? null,
    pending: false, players: [], bots: [] });
}

// --- the notifications -----------------------------------------------------------------------

export type Notice =
  | { kind: "pool_match"; key: string; table: string; url: string }
  | { kind: "challenge"; key: string; id: string; from: string; format: string; rated: boolean; expires: number }
  | { kind: "challenge_accepted"; key: string; id: string; to: string; table: string; url: string }
  | { kind: "club_invite"; key: string; club: string; name: string }
  | { kind: "club_request"; key: string; club: string; username: string }
  | { kind: "follower"; key: string; username: string; since: number }
  | { kind: "party_invite"; key: string; by: string; pool: { name?: string; format: string; form: string; rated: boolean };
      expires: number };

const KINDS = new Set(["pool_match", "challenge", "challenge_accepted", "club_invite", "club_request", "follower",
  "party_invite"]);

/** The items to show: kinds this client knows, each key once, none the player dismissed. */
export function freshNotices(items: unknown, dismissed: ReadonlySet<string>): Notice[] {
  if (!Array.isArray(items)) return [];
  const seen = new Set<string>();
  const out: Notice[] = [];
  for (const item of items) {
    if (!item || typeof item !== "object") continue;
    const { kind, key } = item as { kind?: unknown; key?: unknown };
    if (typeof kind !== "string" || typeof key !== "string" || !KINDS.has(kind)) continue;
    if (seen.has(key) || dismissed.has(key)) continue;
    seen.add(key);
    out.push(item as Notice);
  }
  return out;
}

const DISMISSED = "burraco:notices:dismissed";
/** How many dismissed keys are kept (the oldest go first). */
export const KEEP_DISMISSED = 300;

export function dismissedKeys(store: Pick<Storage, "getItem"> = localStorage): Set<string> {
  try {
    const raw = JSON.parse(store.getItem(DISMISSED) ?? "[]");
    return new Set(Array.isArray(raw) ? raw.filter((k): k is string => typeof k === "string") : []);
  } catch {
    return new Set();
  }
}

/** Remember that `key` was dealt with: it is not shown again. */
export function dismissKey(key: string, store: Pick<Storage, "getItem" | "setItem"> = localStorage): Set<string> {
  const keys = [...dismissedKeys(store)].filter((k) => k !== key);
  keys.push(key);
  const kept = keys.slice(-KEEP_DISMISSED);
  try {
    store.setItem(DISMISSED, JSON.stringify(kept));
  } catch {
    /* private mode: dismissed for this page only */
  }
  return new Set(kept);
}

/** How often the bell asks; and, while a challenge sent waits for its answer, how often then. */
export const NOTICE_POLL_MS = 20_000;
export const NOTICE_FAST_MS = 3_000;
const FAST_FOR_MS = 5 * 60_000;
let fastUntil = 0;

/** A challenge was sent: ask often for the next five minutes (its answer comes to the bell). */
export function expectAnswer(now = Date.now()): void {
  fastUntil = now + FAST_FOR_MS;
  if (typeof window !== "undefined") window.dispatchEvent(new Event("burraco:notices-soon"));
}

/** Something changed what waits (a follow back, a request accepted): the bell asks again now. */
export function noticesChanged(): void {
  if (typeof window !== "undefined") window.dispatchEvent(new Event("burraco:notices-now"));
}

export function noticeDelay(now = Date.now()): number {
  return now < fastUntil ? NOTICE_FAST_MS : NOTICE_POLL_MS;
}

export const getNotices = () => social<{ notifications: unknown[] }>("GET", "/api/me/notifications");
