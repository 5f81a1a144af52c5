/** The order the player keeps his cards in: sorted, then rearranged by hand. */
import { sortKey, type SortMode } from "./cards";

export interface HandCard {
  id: number;
  face: string;
}

/** Sorted ids of ``cards`` (stable for equal faces: lower id first). */
export function sortedIds(cards: HandCard[], mode: SortMode): number[] {
  return [...cards]
    .sort((a, b) => sortKey(a.face, mode) - sortKey(b.face, mode) || a.id - b.id)
    .map((c) => c.id);
}

/**
 * Keep the player's order across updates: cards still held stay where they were,
 * cards gone leave, new cards go where the sort mode puts them among the others.
 */
export function reconcile(order: number[], cards: HandCard[], mode: SortMode): number[] {
  const held = new Map(cards.map((c) => [c.id, c]));
  const kept = order.filter((id) => held.has(id));
  const known = new Set(kept);
  const fresh = cards.filter((c) => !known.has(c.id));
  if (kept.length === 0) return sortedIds(cards, mode);
  const out = [...kept];
  for (const card of sortedIds(fresh, mode).map((id) => held.get(id)!)) {
    const key = sortKey(card.face, mode);
    let at = out.length;
    for (let i = 0; i < out.length; i++) {
      if (sortKey(held.get(out[i])!.face, mode) > key) {
        at = i;
        break;
      }
    }
    out.splice(at, 0, card.id);
  }
  return out;
}

/** Move card ``id`` so that it lands at position ``to`` (0 = first). */
export function moveCard(order: number[], id: number, to: number): number[] {
  const from = order.indexOf(id);
  if (from < 0) return order;
  const out = order.filter((c) => c !== id);
  const at = Math.max(0, Math.min(to > from ? to - 1 : to, out.length));
  out.splice(at, 0, id);
  return out;
}
