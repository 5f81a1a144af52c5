/**
 * The quick messages a player may send at a table: a fixed list, never free text, so that
 * partners cannot signal (RULES.md §12). The ids are the server's (burraco.server.quick);
 * each is shown in the reader's language.
 */
import type { Key } from "./i18n";

export const QUICK_IDS = ["hello", "good_luck", "well_played", "thanks", "one_moment", "sorry", "good_game", "bye"] as const;
export type QuickId = (typeof QUICK_IDS)[number];

export function isQuickId(value: unknown): value is QuickId {
  return typeof value === "string" && (QUICK_IDS as readonly string[]).includes(value);
}

/** The i18n key of a quick message's text. */
export function quickKey(id: QuickId): Key {
  return `say.${id}` as Key;
}

const MUTE = "burraco:mute:";

/** The seats muted at a table (this browser only; the muted player is not told). */
export function mutedSeats(tableId: string, store: Pick<Storage, "getItem"> = localStorage): Set<number> {
  try {
    const raw = store.getItem(MUTE + tableId);
    const list = raw ? JSON.parse(raw) : [];
    return new Set(Array.isArray(list) ? list.filter((s) => Number.isInteger(s)) : []);
  } catch {
    return new Set();
  }
}

export function setMuted(tableId: string, seat: number, muted: boolean,
  store: Pick<Storage, "getItem" | "setItem"> = localStorage): Set<number> {
  const seats = mutedSeats(tableId, store);
  if (muted) seats.add(seat);
  else seats.delete(seat);
  store.setItem(MUTE + tableId, JSON.stringify([...seats].sort()));
  return seats;
}
