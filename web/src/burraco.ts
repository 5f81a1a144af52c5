/**
 * A table meld read from its text, and its burraco type (RULES.md §5, §15), as the engine
 * classifies it (burraco.engine.melds.burraco_type): the client needs it to mark each
 * burraco clean, semi-clean or dirty while the hand is played.
 */
import { isWildCapable, parseCards, type Card } from "./cards";

/** The rules options that decide a burraco's type (GET /api/web/options gives every preset's). */
export interface TypeRules {
  semi_clean: boolean;
  semi_clean_inner_wild: boolean;
  semi_clean_set_of_nine: boolean;
  champion_burraco: string;
  bonuses: [string, number][];
}

export const FIBUR_TYPES: TypeRules = {
  semi_clean: true,
  semi_clean_inner_wild: true,
  semi_clean_set_of_nine: true,
  champion_burraco: "clean-set-of-eight",
  bonuses: [["clean", 200], ["semi-clean", 150], ["dirty", 100]],
};

/** The type rules of a table: its preset's values with the table's own options over them. */
export function typeRules(presetValues: Record<string, unknown>, options: Record<string, unknown>): TypeRules {
  const merged: Record<string, unknown> = { ...FIBUR_TYPES, ...presetValues, ...options };
  return {
    semi_clean: Boolean(merged.semi_clean),
    semi_clean_inner_wild: Boolean(merged.semi_clean_inner_wild),
    semi_clean_set_of_nine: Boolean(merged.semi_clean_set_of_nine),
    champion_burraco: String(merged.champion_burraco),
    bonuses: merged.bonuses as [string, number][],
  };
}

export interface MeldShape {
  cards: Card[];
  kind: "set" | "sequence";
  /** Index of the card acting as wild, or -1. */
  wild: number;
  /** Sequence: slot of the first card (1–14; 14 = high ace). Set: its rank. */
  lo: number;
}

const ACE_HIGH = 14;

export function meldShape(text: string): MeldShape {
  const cards = parseCards(text);
  const roled = cards.findIndex((c) => c.role !== null);
  const naturals = cards.filter((c) => !isWildCapable(c.face));
  const ranks = new Set(naturals.map((c) => c.rank));
  if (roled < 0 && naturals.length >= 2 && ranks.size === 1) {
    const rank = naturals[0].rank;
    return { cards, kind: "set", wild: cards.findIndex((c) => c.rank !== rank), lo: rank };
  }
  const first = cards[0];
  const firstRank = first.role !== null ? parseCards(first.role)[0].rank : first.rank;
  return { cards, kind: "sequence", wild: roled, lo: firstRank };
}

function baseType(shape: MeldShape, rules: TypeRules): string | null {
  const n = shape.cards.length;
  if (n < 7) return null;
  if (shape.wild < 0) return "clean";
  if (!rules.semi_clean) return "dirty";
  if (shape.kind === "set") {
    const semi = n - 1 >= 7 && (rules.semi_clean_set_of_nine || n === 8);
    return semi ? "semi-clean" : "dirty";
  }
  const left = shape.wild;
  const right = n - 1 - shape.wild;
  const semi = rules.semi_clean_inner_wild
    ? Math.max(left, right) >= 7
    : (left === 0 || right === 0) && n - 1 >= 7;
  return semi ? "semi-clean" : "dirty";
}

function specialTypes(shape: MeldShape, rules: TypeRules): string[] {
  const n = shape.cards.length;
  const hasWild = shape.wild >= 0;
  if (shape.kind === "set") {
    if (n - (hasWild ? 1 : 0) >= 8) {
      if (hasWild) return ["dirty-super"];
      return rules.champion_burraco === "clean-set-of-eight" ? ["champion", "super"] : ["super"];
    }
    return [];
  }
  const kinds: string[] = [];
  if (n === 14) kinds.push("complete");
  const lo = shape.lo;
  const hi = lo + n - 1;
  if ((lo <= 1 && hi >= 13) || (lo <= 2 && hi >= ACE_HIGH)) kinds.push(hasWild ? "dirty-royal" : "royal");
  return kinds;
}

/** The most specific burraco type the rules score, or null below seven cards. */
export function burracoType(text: string, rules: TypeRules = FIBUR_TYPES): string | null {
  const shape = meldShape(text);
  const base = baseType(shape, rules);
  if (base === null) return null;
  const scored = new Set(rules.bonuses.map(([name]) => name));
  return specialTypes(shape, rules).find((kind) => scored.has(kind)) ?? base;
}

/** The card points of a meld (wilds at their own value). */
export function meldPoints(text: string): number {
  let total = 0;
  for (const card of parseCards(text)) {
    total += card.rank === 0 ? 30 : card.rank === 2 ? 20 : card.rank === 1 ? 15 : card.rank >= 8 ? 10 : 5;
  }
  return total;
}
