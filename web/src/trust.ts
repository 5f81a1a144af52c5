/**
 * Trust and safety (docs/protocol.md): recovery codes, leaving (deleting the account, its
 * data as a file), reports of a player, sanctions, and the moderators' queue, log and
 * screening. Plain TypeScript: the calls, their refusals in the player's words, and the pure
 * parts (a code as typed, the codes' file, a moderator's action checked before it is sent,
 * a sanction in words). The pages are recovery.tsx, account.tsx, report.tsx, mod.tsx and
 * privacy.tsx.
 */
import { ApiError, savedGuest } from "./api";
import { errorText } from "./errors";
import { formatDate, formatNumber, has, t, type Key } from "./i18n";

// --- the calls -----------------------------------------------------------------------------

/** A refused call: ApiError (so errorText reads it) with the field the server named, its
 * Retry-After, and the rest of its body (a ban's reason and end). */
export class TrustError extends ApiError {
  constructor(status: number, code: string, detail: string, public field: string | null = null,
    public retryAfter: string | null = null, public body: Record<string, unknown> = {}) {
    super(status, code, detail);
  }
}

export type Fetch = (input: string, init?: RequestInit) => Promise<Response>;

async function answered(path: string, init: RequestInit, fetcher: Fetch): Promise<Response> {
  const token = savedGuest()?.token;
  const headers = { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(init.headers as Record<string, string> ?? {}) };
  let response: Response;
  try {
    response = await fetcher(path, { credentials: "same-origin", ...init, headers });
  } catch {
    throw new TrustError(0, "network", "the server cannot be reached");
  }
  if (!response.ok) {
    const data = await response.json().catch(() => ({})) as Record<string, unknown>;
    throw new TrustError(response.status, typeof data.code === "string" ? data.code : "error",
      typeof data.detail === "string" ? data.detail : response.statusText,
      typeof data.field === "string" ? data.field : null, response.headers.get("retry-after"), data);
  }
  return response;
}

export async function trust<T>(method: string, path: string, body?: unknown, fetcher: Fetch = fetch): Promise<T> {
  const response = await answered(path, {
    method, body: body !== undefined ? JSON.stringify(body) : undefined,
    headers: body !== undefined ? { "content-type": "application/json" } : {},
  }, fetcher);
  if (response.status === 204) return null as T;
  return await response.json().catch(() => ({})) as T;
}

export type SanctionKind = "warn" | "mute" | "suspend" | "ban";
/** A sanction as /api/me shows it (those in force, and the warnings of the last 30 days). */
export interface Sanction { kind: SanctionKind | string; reason: string; at: number; until: number | null }
/** A moderator's action as the log keeps it. */
export interface LoggedAction extends Sanction {
  sanction_id: string; username: string | null; moderator: string; detail?: string | null; lifted_at?: number | null;
}

export interface MatchSummary {
  seats: { seat: number; side: number; name: string | null; bot: string | null | boolean }[];
  scores: number[]; hands: number; finished_at: number | null;
}
export interface Report {
  report_id: string; reporter: { username: string }; target: { username: string; player_id: string };
  reason: string; text: string | null; context: string; table_id: string | null; message: string | null;
  created: number; status: string; outcome: string | null;
  evidence: { match: MatchSummary | null; replay: string | null; messages: string[] } | null;
  target_sanctions: Sanction[]; target_reports: number;
}
export interface Flag {
  kind: string; players: { username: string; player_id: string }[];
  statistic: number; baseline: number; threshold: number; explanation: string; matches: string[];
}

export const REPORT_REASONS = ["cheating", "abuse", "name", "abandon", "other"] as const;
export type ReportReason = (typeof REPORT_REASONS)[number];
export interface ReportBody {
  username: string; reason: ReportReason; text?: string; context: "table" | "profile" | "message";
  table_id?: string; message?: string;
}

export const MOD_ACTIONS = ["warn", "mute", "suspend", "ban", "rename", "lift", "dismiss"] as const;
export type ModActionKind = (typeof MOD_ACTIONS)[number];
export interface ActionBody {
  username: string; action: Exclude<ModActionKind, "dismiss">; reason: string;
  days?: number; new_username?: string; report_id?: string;
}

const enc = encodeURIComponent;

export const recover = (username: string, code: string, newPassword: string) =>
  trust<{ token: string; username: string; codes_left: number }>("POST", "/api/recover",
    { username: username.trim(), code: typedCode(code), new_password: newPassword });
export const newRecoveryCodes = (password: string) =>
  trust<{ recovery_codes: string[] }>("POST", "/api/me/recovery-codes", { password });
export const deleteAccount = (password: string) => trust<{ deleted: boolean }>("DELETE", "/api/me", { password });
export const sendReport = (body: ReportBody) => trust<{ report_id: string }>("POST", "/api/reports", body);
export const modReports = (status: "open" | "closed") =>
  trust<{ reports: Report[] }>("GET", `/api/mod/reports?status=${status}`);
export const modAction = (body: ActionBody) => trust<{ sanction: LoggedAction }>("POST", "/api/mod/actions", body);
export const closeReport = (id: string, outcome: string) =>
  trust<unknown>("POST", `/api/mod/reports/${enc(id)}/close`, { outcome });
export const modLog = () => trust<{ actions: LoggedAction[] }>("GET", "/api/mod/log");
export const modScreening = () =>
  trust<{ flags: Flag[]; checked?: Record<string, unknown> }>("GET", "/api/mod/screening");

/** The account's data as a file (GET /api/me/export): its name and its contents. */
export async function exportData(fetcher: Fetch = fetch): Promise<{ name: string; blob: Blob }> {
  const response = await answered("/api/me/export", { method: "GET" }, fetcher);
  const disposition = response.headers.get("content-disposition") ?? "";
  const named = /filename\*?=(?:UTF-8'')?"?([^";]+)"?/i.exec(disposition);
  return { name: named ? decodeURIComponent(named[1]) : "burraco-export.json", blob: await response.blob() };
}

/** Hand a file to the browser to save. */
export function saveFile(name: string, blob: Blob): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = url;
  link.download = name;
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

// --- the pure parts ------------------------------------------------------------------------

/** A recovery code as the server reads it: capitals, dashes every four characters whatever
 * the person typed between them (spaces, nothing, dashes). Anything else is left as typed. */
export function typedCode(raw: string): string {
  const bare = raw.replace(/[\s-]+/g, "").toUpperCase();
  if (/^[A-Z0-9]{12}$/.test(bare)) return `${bare.slice(0, 4)}-${bare.slice(4, 8)}-${bare.slice(8)}`;
  return raw.trim().toUpperCase();
}

/** The codes' file (.txt): who they are for, when they were made, what they do, one a line. */
export function codesFile(codes: readonly string[], username: string, at: number, host: string): string {
  return [
    t("rec.fileTitle", { name: username, site: host }),
    t("rec.fileMade", { date: formatDate(at, { dateStyle: "long", timeStyle: "short" }) }),
    "",
    t("rec.fileText"),
    "",
    ...codes,
    "",
  ].join("\n");
}

/** The name of the codes' file. */
export function codesFileName(username: string): string {
  return `burraco-recovery-codes-${username.replace(/[^A-Za-z0-9_-]/g, "")}.txt`;
}

/** Moderators and admins see the moderation pages. */
export function isModerator(roles: unknown): boolean {
  return Array.isArray(roles) && roles.some((r) => r === "moderator" || r === "admin");
}

export const ACTION_DAYS: ReadonlySet<ModActionKind> = new Set(["mute", "suspend", "ban"]);
const NAME = /^[A-Za-z0-9_-]{3,20}$/;

export interface ActionForm {
  action: ModActionKind; reason: string; days: string; forever: boolean; newName: string;
}

/** What is wrong with a moderator's action before it is sent (a message key), or null. */
export function actionProblem(form: ActionForm): Key | null {
  const reason = form.reason.trim();
  if (reason.length < 3) return "mod.needReason";
  if (reason.length > 500) return "mod.reasonLong";
  if (ACTION_DAYS.has(form.action) && !(form.action === "ban" && form.forever)) {
    const days = Number(form.days);
    if (!form.days.trim() || !Number.isFinite(days) || days <= 0 || days > 3650) return "mod.needDays";
  }
  if (form.action === "rename" && !NAME.test(form.newName.trim())) return "mod.needName";
  return null;
}

/** The body of POST /api/mod/actions for a form (not a dismissal: that closes the report). */
export function actionBody(username: string, form: ActionForm, reportId?: string): ActionBody {
  const body: ActionBody = { username, action: form.action as ActionBody["action"], reason: form.reason.trim() };
  if (ACTION_DAYS.has(form.action) && !(form.action === "ban" && form.forever)) body.days = Number(form.days);
  if (form.action === "rename") body.new_username = form.newName.trim();
  if (reportId) body.report_id = reportId;
  return body;
}

/** A sanction's kind in words ("Muted", "Banned"; a kind added later as the server names it). */
export function sanctionName(kind: string): string {
  const key = `sanction.${kind}`;
  return has(key) ? t(key) : kind;
}

/** Until when, in words: a date, or "for ever" (a ban without end). */
export function untilText(until: number | null): string {
  return until === null ? t("sanction.forever") : formatDate(until, { dateStyle: "medium", timeStyle: "short" });
}

/** One sanction as a line: "Muted until 9 Dec 2026, 18:00: insults at the table". */
export function sanctionLine(s: Sanction): string {
  const what = sanctionName(s.kind);
  if (s.kind === "warn") return t("sanction.warnLine", { date: formatDate(s.at, { dateStyle: "medium" }), reason: s.reason });
  if (s.until === null) return t("sanction.foreverLine", { what, reason: s.reason });
  return t("sanction.untilLine", { what, until: untilText(s.until), reason: s.reason });
}

/** One line of a person's record for moderators: what, when, until when (the lasting
 * kinds), why; a lifted sanction says so. */
export function historyLine(s: Sanction & { lifted_at?: number | null; detail?: string | null }): string {
  const what = sanctionName(s.kind);
  const date = formatDate(s.at, { dateStyle: "medium" });
  const lasting = s.kind === "mute" || s.kind === "suspend" || s.kind === "ban";
  const line = lasting ? t("sanction.historyUntil", { what, date, until: untilText(s.until), reason: s.reason })
    : t("sanction.history", { what, date, reason: s.reason });
  return s.lifted_at ? `${line} ${t("sanction.lifted")}` : line;
}

/** How a report was closed, in words: "<action>: <reason>" as the server keeps it. */
export function outcomeText(outcome: string | null): string {
  if (!outcome) return "";
  const found = /^(warn|mute|suspend|ban|rename|lift|dismiss): ([\s\S]*)$/.exec(outcome);
  return found ? `${sanctionName(found[1])}: ${found[2]}` : outcome;
}

/** What a sanction stops: a sentence for the person under it. */
export function sanctionEffect(kind: string): string | null {
  const key = `sanction.effect.${kind}`;
  return has(key) ? t(key) : null;
}

/** The most serious of the sanctions one is under (the lobby names it first). */
export function gravest<T extends Sanction>(list: readonly T[]): T | null {
  const order = ["ban", "suspend", "mute", "warn"];
  const rank = (s: Sanction) => { const i = order.indexOf(s.kind); return i < 0 ? order.length : i; };
  return [...list].sort((a, b) => rank(a) - rank(b))[0] ?? null;
}

/** A report's reason in words. */
export function reasonName(reason: string): string {
  const key = `report.reason.${reason}`;
  return has(key) ? t(key) : reason;
}

/** A screening flag's kind in words, and what it looks for. */
export function flagName(kind: string): string {
  const key = `mod.flag.${kind}`;
  return has(key) ? t(key) : kind;
}

export function flagText(kind: string): string | null {
  const key = `mod.flagText.${kind}`;
  return has(key) ? t(key) : null;
}

/** A number as a moderator reads it, in the page's language: at most three decimals. */
export function statText(value: unknown): string {
  if (typeof value !== "number" || !Number.isFinite(value)) return String(value ?? "–");
  return formatNumber(value, undefined, { maximumFractionDigits: 3 });
}

/** A refused trust call in the player's words (the server's English for a code it adds later). */
export function trustErrorText(err: unknown): string {
  if (!(err instanceof ApiError)) return String(err);
  const e = err as Partial<TrustError> & ApiError;
  switch (err.code) {
    case "bad_credentials": return t("acct.badPassword");
    case "bad_recovery": return t("rec.bad");
    case "throttled": return t("rec.throttled", { s: e.retryAfter ?? "?" });
    case "rate_limited": return t("report.limited");
    case "login_required": return t("trust.loginRequired");
    case "player_not_found": return t("trust.noSuchPlayer");
    case "forbidden": return t("mod.forbidden");
    case "banned": return bannedText(e.body ?? {});
    case "username_taken": return t("acc.taken");
  }
  if (err.status === 422) {
    if (e.field === "new_password") return t("rec.shortPassword");
    if (e.field === "new_username") return t("mod.needName");
    if (e.field === "reason") return t("mod.needReason");
    if (e.field === "days") return t("mod.needDays");
  }
  return errorText(err);
}

/** A banned person's log-in refused: until when, and why. */
export function bannedText(body: Record<string, unknown>): string {
  const until = typeof body.until === "number" ? body.until : null;
  const reason = typeof body.reason === "string" ? body.reason : "";
  return until === null ? t("sanction.bannedForever", { reason }) : t("sanction.bannedUntil", { until: untilText(until), reason });
}
