/**
 * A meld written card by card, read as the engine reads new cards (burraco.engine.melds.read_meld
 * and meld_from_faces, which `burraco score --melds` uses): set or sequence, the best place for
 * each ace and wild, or the engine's reason why the cards are no meld.  The pad then classifies
 * the arranged meld with the client's burracoType.  web/test/scorepad-engine.test.ts checks both
 * against the engine's readings in fixtures/scorepad.json.
 */
import { burracoType, meldPoints, typeRules } from "../burraco";
import { parseCard, RANK_TEXT, SUIT_LETTERS } from "../cards";
import { bonus, type PadRules } from "./score";

const WILD = 0;
const ACE_HIGH = 14;

interface Face {
  text: string;
  rank: number; // 0 joker, 1–13
  suit: number; // -1 joker
}

export interface ReadMeld {
  /** The meld in table order, each wild with its role: `JK(=4H) 5H 6H`. */
  text: string;
  kind: "set" | "sequence";
  /** The burraco type the rules score, or null below seven cards. */
  type: string | null;
  points: number;
}

function faceOf(token: string): Face {
  const card = parseCard(token.replace(/\(=.*\)$/, ""));
  return { text: card.face, rank: card.rank, suit: card.suit };
}

function slotFace(slot: number, suit: number): string {
  return RANK_TEXT[slot === ACE_HIGH ? 1 : slot] + SUIT_LETTERS[suit];
}

const isWildCapable = (f: Face) => f.rank === 0 || f.rank === 2;

function rankName(rank: number): string {
  return ({ 1: "aces", 3: "threes" } as Record<number, string>)[rank] ?? `${RANK_TEXT[rank]}s`;
}

function finish(text: string, kind: "set" | "sequence", rules: PadRules): ReadMeld {
  const type = burracoType(text, typeRules(rules as unknown as Record<string, unknown>, {}));
  return { text, kind, type, points: meldPoints(text) };
}

function newSet(faces: Face[], rank: number, rules: PadRules, packs: number): ReadMeld | string {
  if (rules.set_ranks !== null && !rules.set_ranks.includes(rank)) {
    return `sets of ${rankName(rank)} are not allowed (only ${rules.set_ranks.map(rankName).join(" and ")})`;
  }
  const naturals = faces.filter((f) => f.rank === rank);
  const wilds = faces.filter((f) => f.rank !== rank);
  if (wilds.some((f) => !isWildCapable(f))) return "the cards do not form a set or a sequence";
  if (wilds.length > 1) return "two wild cards in one meld";
  if (naturals.length < 2) return "a meld needs at least two natural cards";
  if (naturals.length > 4 * packs) return "too many cards for one set";
  const ordered = [...naturals].sort((a, b) => a.suit - b.suit);
  return finish([...ordered, ...wilds].map((f) => f.text).join(" "), "set", rules);
}

function rolesFor(face: Face, suit: number): number[] | string {
  if (face.rank === 0) return [WILD];
  if (face.rank === 2) return face.suit === suit ? [2, WILD] : [WILD];
  if (face.suit !== suit) return `${face.text} is not of the sequence's suit`;
  return face.rank === 1 ? [1, ACE_HIGH] : [face.rank];
}

/** Every choice of one role per card, the last card's choice changing fastest (itertools.product). */
function* product(options: number[][]): Generator<number[]> {
  const index = options.map(() => 0);
  if (options.some((o) => o.length === 0)) return;
  for (;;) {
    yield index.map((k, i) => options[i][k]);
    let i = options.length - 1;
    while (i >= 0 && ++index[i] === options[i].length) index[i--] = 0;
    if (i < 0) return;
  }
}

function newSequence(faces: Face[], suit: number, rules: PadRules): ReadMeld | string {
  const options: number[][] = [];
  for (const face of faces) {
    const roles = rolesFor(face, suit);
    if (typeof roles === "string") return roles;
    options.push(roles);
  }
  let best: { score: number[]; meld: ReadMeld } | null = null;
  let reason = "the cards do not form a sequence";
  for (const roles of product(options)) {
    const slots = new Map<number, Face>();
    const wilds: Face[] = [];
    let clash = 0;
    for (let i = 0; i < faces.length; i++) {
      const role = roles[i];
      if (role === WILD) wilds.push(faces[i]);
      else if (slots.has(role)) { clash = role; break; } else slots.set(role, faces[i]);
    }
    if (clash) {
      reason = clash === 1 || clash === ACE_HIGH ? "a sequence holds one ace, low or high, never both"
        : "a sequence cannot hold two cards of the same rank";
      continue;
    }
    if (wilds.length > 1) { reason = "two wild cards in one meld"; continue; }
    if (slots.size < 2) { reason = "a meld needs at least two natural cards"; continue; }
    if (slots.has(1) && slots.has(ACE_HIGH)) { reason = "a sequence holds one ace, low or high, never both"; continue; }
    const keys = [...slots.keys()];
    const low = Math.min(...keys);
    const high = Math.max(...keys);
    const gaps = high - low + 1 - slots.size;
    let wildSlot = 0;
    if (gaps > 1 || (gaps === 1 && !wilds.length)) { reason = "the cards are not consecutive"; continue; }
    if (gaps === 1) {
      for (let s = low; s < high; s++) if (!slots.has(s)) { wildSlot = s; break; }
    } else if (wilds.length) {
      wildSlot = low > 1 ? low - 1 : high + 1;
      if (wildSlot > ACE_HIGH) { reason = "no room for the wild: the sequence already runs from ace to ace"; continue; }
    }
    if (wildSlot === 2 && wilds[0].text === slotFace(2, suit)) continue; // natural in its slot: another reading
    const naturals = slots.size;
    const aceHigh = slots.has(ACE_HIGH) ? 1 : 0;
    if (wildSlot) slots.set(wildSlot, wilds[0]);
    const lo = Math.min(...slots.keys());
    const tokens: string[] = [];
    for (let s = lo; s < lo + slots.size; s++) {
      const face = slots.get(s)!;
      tokens.push(s === wildSlot ? `${face.text}(=${slotFace(s, suit)})` : face.text);
    }
    const meld = finish(tokens.join(" "), "sequence", rules);
    const value = tokens.length >= 7 && meld.type ? bonus(rules, meld.type) : 0;
    const score = [naturals, value, aceHigh];
    if (!best || compare(score, best.score) > 0) best = { score, meld };
  }
  return best ? best.meld : reason;
}

function compare(a: number[], b: number[]): number {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i] - b[i];
  return 0;
}

/** Read cards (`5H JK 6H 7H`; lower case and commas too; roles ignored) as a new meld, or give the engine's reason. */
export function readMeld(text: string, rules: PadRules, packs: number): ReadMeld | string {
  let faces: Face[];
  try {
    faces = text.toUpperCase().split(/[\s,]+/).filter(Boolean).map(faceOf);
  } catch (err) {
    return (err as Error).message;
  }
  if (faces.length < 3) return "a meld needs at least three cards";
  const naturals = faces.filter((f) => !isWildCapable(f));
  if (!naturals.length) {
    const twos = faces.filter((f) => f.rank === 2);
    if (new Set(twos.map((f) => f.suit)).size === 1 && twos.length >= 2) return "a meld needs at least two natural cards";
    return "a meld needs at least two natural cards; a set of twos is not allowed";
  }
  const ranks = new Set(naturals.map((f) => f.rank));
  const suits = new Set(naturals.map((f) => f.suit));
  if (ranks.size === 1 && naturals.length >= 2) return newSet(faces, naturals[0].rank, rules, packs);
  if (suits.size === 1) return newSequence(faces, naturals[0].suit, rules);
  return "the cards form neither a sequence (one suit) nor a set (one rank)";
}
