/**
 * What the table shows of the hand at a glance (the "this hand" panel): each player's last
 * discard, read from the public moves, and a short text for a meld (`5–9♥`, `Q ×4`) so the
 * other side's melds fit one line on a phone. The points come from the server (the engine's
 * scoring, protocol 2's `table_score`), never from here.
 */
import { cardLabel, parseCard, RANK_TEXT, SUIT_SYMBOLS, SUIT_LETTERS } from "./cards";
import { meldShape } from "./burraco";

/** The card each seat discarded last in this hand (null: none yet). */
export function lastDiscards(moves: [number, string][], players: number): (string | null)[] {
  const out: (string | null)[] = Array.from({ length: players }, () => null);
  for (const [seat, text] of moves) {
    if (text.startsWith("discard ") && seat >= 0 && seat < players) out[seat] = text.slice(8).trim();
  }
  return out;
}

function rankText(rank: number): string {
  return RANK_TEXT[rank === 14 ? 1 : rank];
}

/** A meld in a few characters: a sequence `5–9♥`, a set `Q ×4`; `*` marks a wild in it. */
export function meldSummary(text: string): string {
  const shape = meldShape(text);
  const wild = shape.wild >= 0 ? "*" : "";
  const n = shape.cards.length;
  if (shape.kind === "set") return `${rankText(shape.lo)} ×${n}${wild}`;
  const natural = shape.cards.find((c, i) => i !== shape.wild && c.suit >= 0) ?? parseCard(shape.cards[0].face);
  const suit = natural.suit >= 0 ? SUIT_SYMBOLS[SUIT_LETTERS[natural.suit]] : "";
  return `${rankText(shape.lo)}–${rankText(shape.lo + n - 1)}${suit}${wild}`;
}

export { cardLabel };
