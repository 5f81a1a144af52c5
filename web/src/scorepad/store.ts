/**
 * Where score sheets are kept.  The pad talks to a `PadStore` only: the browser's own storage
 * (no account needed, works offline), and when logged in the account-backed store of `sync.ts`,
 * which keeps that same storage as its offline copy (installed by `account.ts`).
 */
import type { Sheet } from "./sheet";

export interface PadStore {
  /** Every sheet kept, newest first. */
  list(): Sheet[];
  load(id: string): Sheet | null;
  /** Keep a sheet (a new one, or a newer version of one already kept). */
  save(sheet: Sheet): void;
  remove(id: string): void;
}

const KEY = "burraco.pad.sheets";

/** Sheets in `localStorage` (one JSON list); a page in private mode keeps them in memory. */
export class LocalPadStore implements PadStore {
  private memory: Sheet[] | null = null;

  constructor(private readonly storage: Storage | null = typeof localStorage === "undefined" ? null : localStorage) {}

  list(): Sheet[] {
    if (this.memory) return this.memory;
    try {
      const raw = this.storage?.getItem(KEY);
      const sheets = raw ? (JSON.parse(raw) as Sheet[]) : [];
      return Array.isArray(sheets) ? sheets.filter((s) => s && s.version === 1 && typeof s.id === "string") : [];
    } catch {
      return [];
    }
  }

  load(id: string): Sheet | null {
    return this.list().find((s) => s.id === id) ?? null;
  }

  save(sheet: Sheet): void {
    this.write([sheet, ...this.list().filter((s) => s.id !== sheet.id)]);
  }

  remove(id: string): void {
    this.write(this.list().filter((s) => s.id !== id));
  }

  private write(sheets: Sheet[]): void {
    try {
      this.storage?.setItem(KEY, JSON.stringify(sheets));
      this.memory = null;
    } catch {
      this.memory = sheets; // storage full or refused: keep them for this page
    }
  }
}

/** The browser's own store: what the pad uses logged out, and the offline copy logged in. */
export const localPadStore = new LocalPadStore();
let current: PadStore = localPadStore;
const listeners = new Set<() => void>();

/** Call `fn` whenever sheets change behind the page's back (a sync brought some); returns
 * the function that stops it. */
export function onPadChange(fn: () => void): () => void {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

export function padChanged(): void {
  for (const fn of listeners) fn();
}

/** The store the pad uses; a logged-in account may install its own with `setPadStore`. */
export function padStore(): PadStore {
  return current;
}

export function setPadStore(store: PadStore): void {
  current = store;
}
