/**
 * The cards a player just drew or took with the pile stay marked in the hand until the
 * discard, so after a pickup of eight cards one still sees which ones came from the pile.
 * The marks are the client's own memory (the view does not say which cards are new); they
 * are kept per table in sessionStorage so a reload in the middle of the turn keeps them.
 */

export interface TurnView {
  number: number;
  turn: number;
  phase: string;
  ids: number[];
}

/** The marked card ids after the view went from ``prev`` to ``next`` (pure: unit-tested). */
export function nextFresh(prev: TurnView | null, next: TurnView, me: number | null, fresh: number[]): number[] {
  if (me === null || next.turn !== me || next.phase !== "play") return [];
  if (!prev || prev.number !== next.number) return fresh.filter((id) => next.ids.includes(id));
  if (prev.turn === me && prev.phase === "draw") {
    const had = new Set(prev.ids);
    return [...fresh.filter((id) => next.ids.includes(id)), ...next.ids.filter((id) => !had.has(id))];
  }
  return fresh.filter((id) => next.ids.includes(id));
}

const KEY = "burraco:fresh:";

interface Stored {
  number: number;
  ids: number[];
}

export function loadFresh(tableId: string, number: number): number[] {
  try {
    const stored = JSON.parse(sessionStorage.getItem(KEY + tableId) ?? "null") as Stored | null;
    return stored && stored.number === number ? stored.ids : [];
  } catch {
    return [];
  }
}

export function saveFresh(tableId: string, number: number, ids: number[]): void {
  try {
    if (ids.length) sessionStorage.setItem(KEY + tableId, JSON.stringify({ number, ids }));
    else sessionStorage.removeItem(KEY + tableId);
  } catch {
    // private mode: the marks just do not survive a reload
  }
}
