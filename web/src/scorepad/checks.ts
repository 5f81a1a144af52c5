/**
 * The slips a score pad must catch before a hand counts (issue item "checks"): every entry a
 * real hand could not produce is refused with the reason, and nothing is saved.  Each refusal
 * names the side and a key of the pad's strings, so it reads in either language.
 */
import { parseCard, parseCards, points as cardPoints, type Card } from "../cards";
import { readMeld } from "./meld";
import {
  burracoCount, canClose, closingNeed, kindsOf, packsFor, type PadRules, type SideEntry,
} from "./score";
import { computeSheet, handMode, handSides, type HandEntry, type Sheet } from "./sheet";
import type { PadKey } from "./strings";

export interface Refusal {
  key: PadKey;
  /** The side (index in the hand) the refusal is about, or -1 for the whole hand. */
  side: number;
  params?: Record<string, string | number>;
}

const MIN_BURRACO_CARDS = 7;
const MIN_CARD_POINTS = 5;

/** Cards and card points of the packs in play (§1.1–1.2, §13). */
export function deckOf(rules: PadRules, players: number): { cards: number; points: number; packs: number } {
  const packs = packsFor(rules, players);
  // per pack: 4 × (A 15 + 2 20 + 3–7 5×5 + 8–K 6×10) + 2 jokers × 30
  return { cards: packs * 108 / 2, points: packs * (4 * (15 + 20 + 25 + 60) + 60), packs };
}

/** The least and most card points `size` cards of the packs can be worth. */
export function pointsRange(size: number, packs: number): [number, number] {
  const supply: [number, number][] = [[30, 2 * packs], [20, 4 * packs], [15, 4 * packs], [10, 24 * packs], [5, 20 * packs]];
  let left = size;
  let most = 0;
  for (const [value, count] of supply) {
    const take = Math.min(left, count);
    most += take * value;
    left -= take;
  }
  return [size * MIN_CARD_POINTS, most];
}

/** Card points of cards written as text (`KH 7S JK`), or the reason they cannot be read. */
export function textPoints(text: string): number | string {
  let cards: Card[];
  try {
    cards = parseCards(text.toUpperCase().replace(/,/g, " "));
  } catch (err) {
    return (err as Error).message;
  }
  return cards.reduce((sum, c) => sum + cardPoints(c.face), 0);
}

/** The melds written card by card, one per line. */
export function meldLines(text: string): string[] {
  return text.split(/\n|\//).map((l) => l.trim()).filter(Boolean);
}

function checkNumber(out: Refusal[], side: number, what: PadKey, value: number): void {
  if (!Number.isInteger(value) || value < 0) out.push({ key: "check.number", side, params: { what, value: String(value) } });
  else if (value % 5) out.push({ key: "check.multiple5", side, params: { what, value } });
}

/** The burraco of melds written card by card, counted by kind; null if a meld does not read. */
export function cardsBurraco(text: string, rules: PadRules, packs: number): Record<string, number> | null {
  const counts: Record<string, number> = {};
  for (const line of meldLines(text)) {
    const meld = readMeld(line, rules, packs);
    if (typeof meld === "string") return null;
    if (meld.type) counts[meld.type] = (counts[meld.type] ?? 0) + 1;
  }
  return counts;
}

function sameCounts(a: Record<string, number>, b: Record<string, number>): boolean {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  return [...keys].every((k) => (a[k] ?? 0) === (b[k] ?? 0));
}

/** Card-by-card entries must read as melds (as the engine reads them) and agree with the figures. */
function checkCards(out: Refusal[], i: number, s: SideEntry, rules: PadRules, packs: number): void {
  if (!s.cards) return;
  const lines = meldLines(s.cards.melds);
  let total = 0;
  for (const line of lines) {
    const meld = readMeld(line, rules, packs);
    if (typeof meld === "string") {
      out.push({ key: "check.meld", side: i, params: { text: line, reason: meld } });
      return;
    }
    total += meld.points;
  }
  if (lines.length && total !== s.melds) out.push({ key: "check.cardsTotal", side: i, params: { cards: total, value: s.melds } });
  const counts = cardsBurraco(s.cards.melds, rules, packs);
  if (lines.length && counts && !sameCounts(counts, s.burraco)) {
    out.push({ key: "check.burracoCards", side: i, params: { long: Object.values(counts).reduce((a, b) => a + b, 0), n: burracoCount(s) } });
  }
  if (s.cards.hand.trim()) {
    const hand = textPoints(s.cards.hand);
    if (typeof hand === "string") out.push({ key: "check.cards", side: i, params: { text: s.cards.hand, reason: hand } });
    else if (hand !== s.hand) out.push({ key: "check.cardsTotal", side: i, params: { cards: hand, value: s.hand } });
  }
}

/** No face is written more often than the packs hold it (two jokers and one of each card a pack). */
function checkCopies(out: Refusal[], hand: HandEntry, packs: number): void {
  const seen = new Map<string, number>();
  for (const s of hand.sides) {
    const text = s.cards ? `${s.cards.melds} ${s.cards.hand}`.toUpperCase() : "";
    for (const token of text.split(/[\s,/]+/).filter(Boolean)) {
      try {
        const face = parseCard(token.replace(/\(=.*\)$/, "")).face;
        seen.set(face, (seen.get(face) ?? 0) + 1);
      } catch {
        /* unreadable: refused by checkCards */
      }
    }
  }
  for (const [face, n] of seen) {
    const most = face === "JK" ? 2 * packs : packs;
    if (n > most) out.push({ key: "check.copies", side: -1, params: { face, n, most } });
  }
}

/** Every reason this hand could not have happened; empty when it may be recorded. */
export function checkHand(players: number, hand: HandEntry, rules: PadRules, individual = false): Refusal[] {
  const out: Refusal[] = [];
  const sides = handSides(players, hand.solo);
  const mode = handMode(players, hand.solo);
  if (hand.sides.length !== sides.length) return [{ key: "check.sides", side: -1, params: { n: sides.length } }];
  if (individual && mode === "pairs") out.push({ key: "check.individual", side: -1 });
  const deck = deckOf(rules, players);
  const kinds = new Set(kindsOf(rules));
  hand.sides.forEach((s, i) => {
    checkNumber(out, i, "field.melds", s.melds);
    checkNumber(out, i, "field.hand", s.hand);
    if (s.took && !s.played) checkNumber(out, i, "field.unplayed", s.unplayed);
    for (const [kind, n] of Object.entries(s.burraco)) {
      if (!Number.isInteger(n) || n < 0) out.push({ key: "check.number", side: i, params: { what: "field.burraco", value: String(n) } });
      else if (n && !kinds.has(kind)) out.push({ key: "check.kind", side: i, params: { kind } });
    }
    const count = burracoCount(s);
    if (s.closed && !s.took) out.push({ key: "check.closedNoPozzetto", side: i });
    if (s.closed && !canClose(s.burraco, rules)) {
      out.push({ key: `check.closedNoBurraco.${closingNeed(rules)}` as PadKey, side: i });
    }
    if (count * MIN_BURRACO_CARDS * MIN_CARD_POINTS > s.melds) {
      out.push({ key: "check.burracoPoints", side: i, params: { n: count, min: count * MIN_BURRACO_CARDS * MIN_CARD_POINTS } });
    }
    if (s.took && s.melds < rules.hand_size * MIN_CARD_POINTS) {
      out.push({ key: "check.tookMelds", side: i, params: { n: rules.hand_size, min: rules.hand_size * MIN_CARD_POINTS } });
    }
    if (s.closed && sides[i].length === 1 && s.hand > 0) out.push({ key: "check.closerHand", side: i });
    if (s.took && !s.played) {
      const size = mode === "pairs" && i === 0 ? rules.big_pozzetto_size : rules.pozzetto_size;
      const [least, most] = pointsRange(size, deck.packs);
      if (s.unplayed < least || s.unplayed > most) {
        out.push({ key: "check.unplayedRange", side: i, params: { size, least, most } });
      }
    }
    checkCards(out, i, s, rules, deck.packs);
  });
  checkCopies(out, hand, deck.packs);
  if (mode === "pairs" && !hand.sides[0].took) out.push({ key: "check.soloTook", side: 0 });
  const closers = hand.sides.filter((s) => s.closed).length;
  if (closers > 1) out.push({ key: "check.twoClosed", side: -1 });
  const allBurraco = hand.sides.reduce((sum, s) => sum + burracoCount(s), 0);
  const most = Math.floor(deck.cards / MIN_BURRACO_CARDS);
  if (allBurraco > most) out.push({ key: "check.tooManyBurraco", side: -1, params: { n: allBurraco, most, cards: deck.cards } });
  const allPoints = hand.sides.reduce((sum, s) => sum + s.melds + s.hand + (s.took && !s.played ? s.unplayed : 0), 0);
  if (allPoints > deck.points) out.push({ key: "check.deckPoints", side: -1, params: { points: allPoints, most: deck.points, cards: deck.cards } });
  if (!hand.sides.some((s) => s.took) && rules.nobody_pozzetto === "redeal") out.push({ key: "check.redeal", side: -1 });
  return out;
}

/** Checks of a hand in its place on the sheet: the match must not be over before it. */
export function checkInSheet(sheet: Sheet, index: number, hand: HandEntry): Refusal[] {
  const before = computeSheet({ ...sheet, hands: sheet.hands.slice(0, index) });
  const out = checkHand(before.players, hand, before.rules, before.individual);
  if (before.finished) out.push({ key: "check.over", side: -1 });
  if (out.length) return out;
  const hands = [...sheet.hands];
  hands[index] = hand;
  // a correction that decides the match earlier leaves the hands after it without a match
  for (let k = index; k < hands.length - 1; k++) {
    const upTo = computeSheet({ ...sheet, hands: hands.slice(0, k + 1) });
    if (upTo.finished) {
      out.push({ key: "check.endsEarlier", side: -1, params: { n: k + 1, later: hands.length - k - 1 } });
      break;
    }
    if (k + 1 < hands.length) {
      const next = handMode(upTo.players, hands[k + 1].solo);
      if (upTo.individual && next === "pairs") {
        out.push({ key: "check.laterIndividual", side: -1, params: { n: k + 2 } });
        break;
      }
    }
  }
  return out;
}
