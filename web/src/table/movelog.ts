/**
 * The move log of a page that joined mid-hand (a reload, a spectator): the server's sync
 * carries the hand's public moves as (seat, action text); they become log lines of the same
 * shapes the live events give, so the log reads the same however the page got there.
 */
import type { HandView, LogLine } from "../connection";

/** One public move (`draw`, `pickup`, `meld 5H 6H 7H`, `attach 2 8H`, `discard KS`) as a log line. */
export function moveLine(seat: number, text: string): LogLine {
  const [verb, ...rest] = text.trim().split(/\s+/);
  const base = { v: 0, seat };
  switch (verb) {
    case "draw": return { ...base, type: "Drew", data: { seat } };
    case "pickup": return { ...base, type: "PickedUp", data: { seat } };
    case "meld": return { ...base, type: "Melded", data: { seat, cards_text: rest } };
    case "attach": return { ...base, type: "Attached", data: { seat, meld: Number(rest[0]) - 1, cards_text: rest.slice(1) } };
    case "discard": return { ...base, type: "Discarded", data: { seat, card_text: rest[0] } };
    default: return { ...base, seat: null, type: "Move", data: { text } };
  }
}

/** The log a fresh page starts from: the hand's deal, then every public move so far. */
export function logFromMoves(hand: Pick<HandView, "number" | "moves">): LogLine[] {
  const moves = hand.moves ?? [];
  if (!moves.length) return [];
  return [
    { v: 0, type: "HandStarted", seat: null, data: { number: hand.number } },
    ...moves.map(([seat, text]) => moveLine(seat, text)),
  ];
}
