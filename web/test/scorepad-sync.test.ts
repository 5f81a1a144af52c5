// The pad saved to the account (scorepad/sync.ts): two browsers of one account against an
// account that follows the server's contract (docs/protocol.md §14.2: the later `updated` wins,
// a stale write is answered with the account's version), offline changes, deletions elsewhere,
// sheets made logged out, and sheets of another account.  The HTTP contract itself is tested
// against a real server (tests/server/test_scorepad_account.py, tests/e2e/test_scorepad_account_web.py).
import { describe, expect, it } from "vitest";
import { newSheet, type Sheet } from "../src/scorepad/sheet";
import { LocalPadStore } from "../src/scorepad/store";
import { RemoteError, SyncedPadStore, type PadRemote, type RemoteSheet } from "../src/scorepad/sync";

function memoryStorage(): Storage {
  const data = new Map<string, string>();
  return {
    getItem: (k: string) => data.get(k) ?? null,
    setItem: (k: string, v: string) => void data.set(k, v),
    removeItem: (k: string) => void data.delete(k),
  } as Storage;
}

/** The account's sheets as the server keeps them, with a switch to cut the network. */
class Account implements PadRemote {
  sheets = new Map<string, RemoteSheet>();
  online = true;
  refuse: string | null = null;
  calls: string[] = [];

  private check(what: string): void {
    this.calls.push(what);
    if (!this.online) throw new RemoteError(0, "network", "the server cannot be reached");
  }

  async list(): Promise<RemoteSheet[]> {
    this.check("GET");
    return [...this.sheets.values()].map((s) => structuredClone(s));
  }

  async put(id: string, updated: number, sheet: Sheet): Promise<RemoteSheet | null> {
    this.check(`PUT ${id}`);
    if (this.refuse === id) throw new RemoteError(413, "too_large", "sheet: larger than 32768 bytes as JSON");
    const kept = this.sheets.get(id);
    if (kept && kept.updated > updated) return structuredClone(kept);
    this.sheets.set(id, { id, updated, sheet: structuredClone(sheet) });
    return null;
  }

  async remove(id: string): Promise<void> {
    this.check(`DELETE ${id}`);
    this.sheets.delete(id);
  }
}

/** A browser: its own storage, its own clock. */
function browser(account: Account, who = "p1", clock = { t: 1_000 }) {
  const storage = memoryStorage();
  const local = new LocalPadStore(storage);
  let changes = 0;
  const store = new SyncedPadStore(local, account, who, storage, () => { changes++; }, () => clock.t);
  return { storage, local, store, clock, changes: () => changes };
}

const sheet = (names = ["Ada", "Bea"]) => newSheet(names, "fibur", "free", null, 3);

describe("the pad saved to the account", () => {
  it("uploads a saved sheet, and another browser of the account finds it", async () => {
    const account = new Account();
    const a = browser(account);
    const s = sheet();
    a.store.save(s);
    await a.store.idle();
    expect(account.sheets.get(s.id)?.sheet).toEqual(s);
    const b = browser(account);
    expect(b.store.list()).toEqual([]);
    const report = await b.store.sync();
    expect(report.downloaded).toEqual([s.id]);
    expect(b.store.load(s.id)).toEqual(s);
    expect(b.changes()).toBe(1); // the page is told, so the list shows it
    // nothing left to do: a second sync changes nothing and uploads nothing
    account.calls = [];
    expect(await b.store.sync()).toMatchObject({ uploaded: [], downloaded: [], removed: [] });
    expect(account.calls).toEqual(["GET"]);
  });

  it("keeps working offline, and uploads what was made offline when back", async () => {
    const account = new Account();
    account.online = false;
    const a = browser(account);
    const s = sheet();
    a.store.save(s);
    a.store.save({ ...s, names: ["Ada", "Cleo"] });
    await a.store.idle();
    expect(a.store.load(s.id)?.names).toEqual(["Ada", "Cleo"]); // the offline copy
    expect((await a.store.sync()).offline).toBe(true);
    expect(account.sheets.size).toBe(0);
    account.online = true;
    const report = await a.store.sync();
    expect(report).toMatchObject({ uploaded: [s.id], offline: false });
    expect(account.sheets.get(s.id)?.sheet.names).toEqual(["Ada", "Cleo"]);
  });

  it("last writer wins: the version changed last, whichever reaches the account first", async () => {
    const account = new Account();
    const a = browser(account, "p1", { t: 1_000 });
    const b = browser(account, "p1", { t: 1_000 });
    const s = sheet();
    a.store.save(s);
    await a.store.idle();
    await b.store.sync();
    // both go offline and change the sheet: b later than a
    account.online = false;
    a.clock.t = 5_000;
    a.store.save({ ...s, names: ["Ada", "from a"] });
    b.clock.t = 9_000;
    b.store.save({ ...s, names: ["Ada", "from b"] });
    await Promise.all([a.store.idle(), b.store.idle()]);
    account.online = true;
    await b.store.sync(); // b's (later) change reaches the account first
    const report = await a.store.sync(); // a's earlier change is older: a takes b's
    expect(report.downloaded).toEqual([s.id]);
    expect(a.store.load(s.id)?.names).toEqual(["Ada", "from b"]);
    expect(account.sheets.get(s.id)?.updated).toBe(9_000);
    // a stale upload (the account has a later version) is answered with that version
    b.clock.t = 20_000;
    b.store.save({ ...s, names: ["Ada", "newest"] });
    await b.store.idle();
    a.clock.t = 10_000;
    a.store.save({ ...s, names: ["Ada", "stale"] });
    await a.store.idle();
    expect(a.store.load(s.id)?.names).toEqual(["Ada", "newest"]);
    expect(account.sheets.get(s.id)?.sheet.names).toEqual(["Ada", "newest"]);
  });

  it("a change never goes back in time, even when the clock does", async () => {
    const account = new Account();
    const a = browser(account, "p1", { t: 50_000 });
    const s = sheet();
    a.store.save(s);
    await a.store.idle();
    a.clock.t = 10; // the clock was set back
    a.store.save({ ...s, names: ["Ada", "after"] });
    await a.store.idle();
    expect(account.sheets.get(s.id)?.updated).toBeGreaterThan(50_000);
    expect(account.sheets.get(s.id)?.sheet.names).toEqual(["Ada", "after"]);
  });

  it("a sheet deleted in one browser goes in the others; a delete made offline is sent later", async () => {
    const account = new Account();
    const a = browser(account);
    const b = browser(account);
    const one = sheet();
    const two = sheet(["Carla", "Dino"]);
    a.store.save(one);
    a.store.save(two);
    await a.store.idle();
    await b.store.sync();
    a.store.remove(one.id);
    await a.store.idle();
    expect(account.sheets.has(one.id)).toBe(false);
    expect((await b.store.sync()).removed).toEqual([one.id]);
    expect(b.store.list().map((s) => s.id)).toEqual([two.id]);
    account.online = false;
    b.store.remove(two.id);
    await b.store.idle();
    expect(account.sheets.has(two.id)).toBe(true);
    account.online = true;
    await b.store.sync();
    expect(account.sheets.size).toBe(0);
    expect((await a.store.sync()).removed).toEqual([two.id]);
    expect(a.store.list()).toEqual([]);
  });

  it("sheets made logged out go to the account logged in; another account's stay apart", async () => {
    const storage = memoryStorage();
    const local = new LocalPadStore(storage);
    const guestSheet = sheet(["Guest", "Game"]);
    local.save(guestSheet); // logged out: the browser's own store, as before
    const first = new Account();
    const p1 = new SyncedPadStore(local, first, "p1", storage);
    expect(p1.list().map((s) => s.id)).toEqual([guestSheet.id]);
    expect((await p1.sync()).uploaded).toEqual([guestSheet.id]);
    // p1 logs out, p2 logs in on the same browser: p1's sheet is neither listed nor uploaded
    const second = new Account();
    const p2 = new SyncedPadStore(local, second, "p2", storage);
    expect(p2.list()).toEqual([]);
    expect(p2.load(guestSheet.id)).toBeNull();
    await p2.sync();
    expect(second.sheets.size).toBe(0);
    const own = sheet(["Second", "Account"]);
    p2.save(own);
    await p2.idle();
    expect([...second.sheets.keys()]).toEqual([own.id]);
    expect(p1.list().map((s) => s.id)).toEqual([guestSheet.id]);
    // logged out, the browser shows every sheet it holds, as it always did
    expect(local.list().map((s) => s.id).sort()).toEqual([guestSheet.id, own.id].sort());
  });

  it("a sheet the account refuses stays in the browser, with the reason", async () => {
    const account = new Account();
    const a = browser(account);
    const s = sheet();
    account.refuse = s.id;
    a.local.save(s);
    const report = await a.store.sync();
    expect(report.refused[s.id]).toMatch(/larger than/);
    expect(a.store.load(s.id)).toEqual(s);
    expect(account.sheets.size).toBe(0);
    expect(a.store.refused[s.id]).toMatch(/larger than/); // the page shows it
    expect(a.changes()).toBe(1);
    account.refuse = null;
    expect((await a.store.sync()).uploaded).toEqual([s.id]);
    expect(a.store.refused).toEqual({});
  });
});
