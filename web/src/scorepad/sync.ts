/**
 * The pad saved to the account when logged in: a `PadStore` that keeps every sheet in the
 * browser's own store (the offline copy, read at once) and mirrors it to the account
 * (docs/protocol.md §14.2, `/api/me/scorepad`).  Of two versions of a sheet the one changed
 * last wins (its `updated`, milliseconds of the browser that changed it: docs/decisions.md).
 *
 * What the browser knows of each sheet is kept beside the sheets (`burraco.pad.sync`): when it
 * was changed here, the version the account last acknowledged, and which account it belongs to.
 * A sheet changed while offline is newer than its acknowledged version and goes up at the next
 * sync; a sheet the account acknowledged once and no longer lists was deleted in another browser
 * and goes here too; a sheet of no account yet (made logged out) goes to the account logged in;
 * a sheet of another account stays in the browser, out of this account's list.
 */
import type { Sheet } from "./sheet";
import type { PadStore } from "./store";

export interface RemoteSheet {
  id: string;
  updated: number;
  sheet: Sheet;
}

/** The account's side of the pad (the HTTP API; the tests give an in-memory one). */
export interface PadRemote {
  list(): Promise<RemoteSheet[]>;
  /** Resolves `null` when kept, or the account's later version (409 `stale`). */
  put(id: string, updated: number, sheet: Sheet): Promise<RemoteSheet | null>;
  remove(id: string): Promise<void>;
}

/** A failed call: `status` 0 for no network, else the server's answer. */
export class RemoteError extends Error {
  constructor(public status: number, public code: string, detail: string) {
    super(detail);
  }
}

interface SheetMeta {
  /** When the sheet was last changed in this browser (ms since the epoch). */
  updated: number;
  /** The version the account acknowledged (absent: never uploaded). */
  synced?: number;
  /** The account the sheet belongs to (absent: none yet). */
  owner?: string;
}

interface SyncMeta {
  sheets: Record<string, SheetMeta>;
  /** Sheets deleted here that the account still has: id → account. */
  deleted: Record<string, string>;
}

export interface SyncReport {
  uploaded: string[];
  downloaded: string[];
  removed: string[];
  /** Sheets the account refused (too big, too many...), with the reason: they stay local. */
  refused: Record<string, string>;
  /** The sync stopped early: the network or the session went away. */
  offline: boolean;
}

const META_KEY = "burraco.pad.sync";

export class SyncedPadStore implements PadStore {
  private queue: Promise<unknown> = Promise.resolve();
  private lastStamp = 0;
  /** The username shown on the pad's page. */
  name = "";
  /** Sheets the account refused at the last try, with its reason (the page shows them). */
  readonly refused: Record<string, string> = {};

  constructor(
    private readonly local: PadStore,
    private readonly remote: PadRemote,
    readonly account: string,
    private readonly storage: Storage | null = typeof localStorage === "undefined" ? null : localStorage,
    private readonly changed: () => void = () => undefined,
    private readonly now: () => number = Date.now,
  ) {}

  list(): Sheet[] {
    const meta = this.meta();
    return this.local.list().filter((s) => this.mine(meta.sheets[s.id]));
  }

  load(id: string): Sheet | null {
    const sheet = this.local.load(id);
    return sheet && this.mine(this.meta().sheets[id]) ? sheet : null;
  }

  save(sheet: Sheet): void {
    this.local.save(sheet);
    const meta = this.meta();
    const updated = this.stamp(meta.sheets[sheet.id]?.updated ?? 0);
    meta.sheets[sheet.id] = { ...meta.sheets[sheet.id], updated, owner: this.account };
    delete meta.deleted[sheet.id];
    this.write(meta);
    this.enqueue(() => this.push(sheet.id)).catch(() => undefined);
  }

  remove(id: string): void {
    this.local.remove(id);
    const meta = this.meta();
    if (meta.sheets[id]?.synced !== undefined) meta.deleted[id] = this.account;
    delete meta.sheets[id];
    this.write(meta);
    this.enqueue(() => this.flushDeleted()).catch(() => undefined);
  }

  /** Bring the browser and the account level (after a login, a reload, coming back online). */
  sync(): Promise<SyncReport> {
    return this.enqueue(() => this.run());
  }

  /** Resolves once every call started so far is done (for tests and the page). */
  idle(): Promise<void> {
    return this.queue.then(() => undefined, () => undefined);
  }

  // --- the work, one call at a time ----------------------------------------------------

  private enqueue<T>(job: () => Promise<T>): Promise<T> {
    const next = this.queue.then(job, job);
    this.queue = next.catch(() => undefined);
    return next;
  }

  private async run(): Promise<SyncReport> {
    const report: SyncReport = { uploaded: [], downloaded: [], removed: [], refused: {}, offline: false };
    try {
      await this.flushDeleted();
      const remote = await this.remote.list();
      const meta = this.meta();
      const seen = new Set<string>();
      let touched = false;
      for (const r of remote) {
        seen.add(r.id);
        if (meta.deleted[r.id] === this.account) continue; // deleted here, the delete failed
        const mine = meta.sheets[r.id];
        const local = this.local.load(r.id);
        if (!local || !mine || mine.updated < r.updated || (mine.owner !== undefined && mine.owner !== this.account)) {
          this.take(meta, r);
          report.downloaded.push(r.id);
          touched = true;
        } else if (mine.updated > r.updated) {
          await this.upload(meta, r.id, report);
        } else {
          mine.synced = r.updated;
          mine.owner = this.account;
        }
      }
      for (const sheet of this.local.list()) {
        if (seen.has(sheet.id)) continue;
        const mine = meta.sheets[sheet.id];
        if (mine?.owner !== undefined && mine.owner !== this.account) continue; // another account's
        if (mine?.synced !== undefined && mine.updated <= mine.synced) {
          this.local.remove(sheet.id); // the account had it and no longer does: deleted elsewhere
          delete meta.sheets[sheet.id];
          report.removed.push(sheet.id);
          touched = true;
        } else {
          meta.sheets[sheet.id] = { ...mine, updated: mine?.updated ?? this.stamp(0), owner: this.account };
          await this.upload(meta, sheet.id, report);
        }
      }
      this.write(meta);
      if (touched) this.changed();
    } catch (err) {
      if (!(err instanceof RemoteError)) throw err;
      report.offline = true;
    }
    return report;
  }

  /** Upload one sheet if it changed since the account last acknowledged it. */
  private async push(id: string): Promise<void> {
    const meta = this.meta();
    const report: SyncReport = { uploaded: [], downloaded: [], removed: [], refused: {}, offline: false };
    try {
      await this.upload(meta, id, report);
    } catch (err) {
      if (!(err instanceof RemoteError)) throw err;
      return; // offline: the next sync uploads it
    }
    this.write(meta);
    if (report.downloaded.length) this.changed();
  }

  private async upload(meta: SyncMeta, id: string, report: SyncReport): Promise<void> {
    const mine = meta.sheets[id];
    const sheet = this.local.load(id);
    if (!mine || !sheet || (mine.synced !== undefined && mine.synced >= mine.updated)) return;
    let later: RemoteSheet | null;
    try {
      later = await this.remote.put(id, mine.updated, sheet);
    } catch (err) {
      if (err instanceof RemoteError && err.status >= 400 && err.status !== 401 && err.status < 500) {
        report.refused[id] = this.refused[id] = err.message; // stays in the browser only
        this.changed();
        return;
      }
      throw err;
    }
    if (later) {
      this.take(meta, later); // the account's version was changed later: it wins
      report.downloaded.push(id);
    } else {
      mine.synced = mine.updated;
      delete this.refused[id];
      report.uploaded.push(id);
    }
  }

  private take(meta: SyncMeta, r: RemoteSheet): void {
    this.local.save(r.sheet);
    meta.sheets[r.id] = { updated: r.updated, synced: r.updated, owner: this.account };
  }

  private async flushDeleted(): Promise<void> {
    const meta = this.meta();
    for (const [id, owner] of Object.entries(meta.deleted)) {
      if (owner !== this.account) continue;
      await this.remote.remove(id);
      delete meta.deleted[id];
      this.write(meta);
    }
  }

  // --- what the browser knows --------------------------------------------------------

  private mine(meta: SheetMeta | undefined): boolean {
    return meta?.owner === undefined || meta.owner === this.account;
  }

  /** A change time later than the last one, even if the clock stood still or went back. */
  private stamp(previous: number): number {
    this.lastStamp = Math.max(this.now(), previous + 1, this.lastStamp + 1);
    return this.lastStamp;
  }

  private meta(): SyncMeta {
    try {
      const raw = this.storage?.getItem(META_KEY);
      const parsed = raw ? (JSON.parse(raw) as SyncMeta) : null;
      if (parsed && typeof parsed.sheets === "object" && typeof parsed.deleted === "object") return parsed;
    } catch {
      // unreadable: start afresh (every local sheet counts as never uploaded)
    }
    return { sheets: {}, deleted: {} };
  }

  private write(meta: SyncMeta): void {
    try {
      this.storage?.setItem(META_KEY, JSON.stringify(meta));
    } catch {
      // storage full: the next sync compares again
    }
  }
}

/** `/api/me/scorepad` over `fetch`, with the account's session token. */
export class HttpPadRemote implements PadRemote {
  constructor(private readonly token: string, private readonly base = "") {}

  async list(): Promise<RemoteSheet[]> {
    const body = (await this.call("GET", "/api/me/scorepad")) as { sheets: RemoteSheet[] };
    return body.sheets;
  }

  async put(id: string, updated: number, sheet: Sheet): Promise<RemoteSheet | null> {
    try {
      await this.call("PUT", `/api/me/scorepad/${encodeURIComponent(id)}`, { updated, sheet });
      return null;
    } catch (err) {
      const current = (err as RemoteError & { current?: RemoteSheet }).current;
      if (err instanceof RemoteError && err.code === "stale" && current) return current;
      throw err;
    }
  }

  async remove(id: string): Promise<void> {
    await this.call("DELETE", `/api/me/scorepad/${encodeURIComponent(id)}`);
  }

  private async call(method: string, path: string, body?: unknown): Promise<unknown> {
    let response: Response;
    try {
      response = await fetch(this.base + path, {
        method, credentials: "same-origin",
        headers: { authorization: `Bearer ${this.token}`, ...(body !== undefined ? { "content-type": "application/json" } : {}) },
        body: body !== undefined ? JSON.stringify(body) : undefined,
      });
    } catch {
      throw new RemoteError(0, "network", "the server cannot be reached");
    }
    const data = (await response.json().catch(() => ({}))) as Record<string, unknown>;
    if (!response.ok) {
      const err = new RemoteError(response.status, String(data.code ?? "error"), String(data.detail ?? response.statusText));
      (err as RemoteError & { current?: unknown }).current = data.current;
      throw err;
    }
    return data;
  }
}
