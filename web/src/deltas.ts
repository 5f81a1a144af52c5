/**
 * Protocol 2's event deltas (docs/protocol.md §15): the `d` of an event frame turns the state
 * of the last sync into the state a sync at the frame's version would give, so the page does
 * not ask the server for a whole sync after every move.
 */
import type { HandView, MatchInfo } from "./connection";

/** The newest protocol version this client reads (announced in the hello). */
export const PROTOCOL = 2;

export interface Delta {
  status?: string;
  match?: MatchInfo;
  hand?: HandView | null;
  /** Changed fields of the hand; `FIELD_add` appends, `melds_set` puts single melds. */
  h?: Record<string, unknown>;
}

export interface Synced {
  status: string;
  match: MatchInfo | null;
  hand: HandView | null;
}

/** `state` with one delta applied (a new object; `state` is left as it was). */
export function applyDelta<S extends Synced>(state: S, delta: Delta): S {
  const out: S = { ...state };
  if (delta.status !== undefined) out.status = delta.status;
  if (delta.match !== undefined) out.match = delta.match;
  if (delta.hand !== undefined) out.hand = delta.hand;
  if (delta.h && out.hand) out.hand = patchHand(out.hand, delta.h);
  return out;
}

function patchHand(hand: HandView, patch: Record<string, unknown>): HandView {
  const out: Record<string, unknown> = { ...hand };
  for (const [key, value] of Object.entries(patch)) {
    if (key.endsWith("_add")) {
      const field = key.slice(0, -4);
      out[field] = [...((out[field] as unknown[]) ?? []), ...(value as unknown[])];
    } else if (key === "melds_set") {
      const melds = hand.melds.map((side) => [...side]);
      for (const [side, index, text] of value as [number, number, string][]) melds[side][index] = text;
      out.melds = melds;
    } else {
      out[key] = value;
    }
  }
  return out as unknown as HandView;
}
