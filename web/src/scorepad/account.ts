/**
 * Which store the pad uses: the account's (synced) one when the browser holds an account's
 * session, the browser's own otherwise.  Checked whenever a pad page shows, so logging in or
 * out in the lobby switches it.
 */
import { localPadStore, padChanged, padStore, setPadStore } from "./store";
import { HttpPadRemote, SyncedPadStore } from "./sync";

const GUEST = "burraco:guest";

interface Saved { guest_id?: string; nickname?: string; token?: string }

function savedAccount(): { id: string; name: string; token: string } | null {
  try {
    const saved = JSON.parse(localStorage.getItem(GUEST) ?? "null") as Saved | null;
    if (saved && typeof saved.token === "string" && saved.token.startsWith("a.") && saved.guest_id) {
      return { id: saved.guest_id, name: saved.nickname ?? "", token: saved.token };
    }
  } catch {
    // no storage: logged out
  }
  return null;
}

let token: string | null = null;
let listening = false;

/** Install the store that fits who is logged in; a new account store syncs at once. */
export function usePadAccount(): void {
  const account = savedAccount();
  if ((account?.token ?? null) === token) return;
  token = account?.token ?? null;
  if (!account) {
    setPadStore(localPadStore);
    padChanged();
    return;
  }
  const store = new SyncedPadStore(localPadStore, new HttpPadRemote(account.token), account.id,
    localStorage, padChanged);
  store.name = account.name;
  setPadStore(store);
  void store.sync();
  if (!listening) {
    listening = true;
    window.addEventListener("online", () => {
      const current = padStore();
      if (current instanceof SyncedPadStore) void current.sync();
    });
  }
}
