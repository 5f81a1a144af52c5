/**
 * One side's score for a hand played with real cards, from what the table shows (RULES.md §9):
 * the port of burraco.engine.scoring.score_side for the score pad, which must work offline.
 * tests/web/test_scorepad_golden.py has the engine score the real melds behind each entry and
 * web/test/scorepad-engine.test.ts checks that this file gives the same figures.
 */
import PRESETS from "./presets.json";

/** The options of a preset that scoring, closing and the match read (engine/rules.py). */
export interface PadRules {
  bonuses: [string, number][];
  closing: string;
  closing_alternatives: string[];
  six_player_closing: string;
  closing_bonus: number;
  pozzetto_penalty: number;
  nobody_pozzetto: string;
  target: number;
  three_player_target: number;
  five_player_target: number;
  individual_from: number;
  five_player_individual_from: number;
  vp_tables: [number, number[]][];
  packs: number;
  three_player_packs: number;
  five_six_player_packs: number;
  hand_size: number;
  pozzetto_size: number;
  big_pozzetto_size: number;
  semi_clean: boolean;
  semi_clean_inner_wild: boolean;
  semi_clean_set_of_nine: boolean;
  champion_burraco: string;
  /** Ranks allowed in sets (null: all but 2; the International code: aces and threes). */
  set_ranks: number[] | null;
  /** The preset's description (engine/rules.py PRESET_NOTES), in English. */
  note: string;
}

export const PRESET_RULES = PRESETS as unknown as Record<string, PadRules>;
export const PRESET_NAMES = Object.keys(PRESET_RULES);

export function presetRules(name: string): PadRules {
  const rules = PRESET_RULES[name];
  if (!rules) throw new Error(`unknown rules preset ${JSON.stringify(name)} (known: ${PRESET_NAMES.join(", ")})`);
  return rules;
}

/** The rules as they apply at a table of `players` (Rules.for_players): 6 players close harder. */
export function tableRules(rules: PadRules, players: number): PadRules {
  if (players === 6 && rules.closing === "any") return { ...rules, closing: rules.six_player_closing };
  return rules;
}

export function packsFor(rules: PadRules, players: number): number {
  if (players === 3) return rules.three_player_packs;
  if (players >= 5) return rules.five_six_player_packs;
  return rules.packs;
}

/** The target a free-play match of `players` ends at under the rules (FreePlayMatch.target). */
export function defaultTarget(rules: PadRules, players: number): number {
  if (players === 3) return rules.three_player_target;
  if (players === 5) return rules.five_player_target;
  return rules.target;
}

/** Bonus of a burraco kind (Rules.bonus): 0 for a kind the rules do not score. */
export function bonus(rules: PadRules, kind: string): number {
  return rules.bonuses.find(([name]) => name === kind)?.[1] ?? 0;
}

/** The burraco kinds a side can enter under these rules, in the preset's order. */
export function kindsOf(rules: PadRules): string[] {
  return rules.bonuses.map(([name]) => name);
}

/** What one side reports at the end of a hand; points are card points (multiples of 5). */
export interface SideEntry {
  /** Card points of every card in the side's melds (wilds at their own value, §9.1). */
  melds: number;
  /** How many burraco of each kind the side has. */
  burraco: Record<string, number>;
  /** A real closing (§7.1), never a hand ended by the stock. */
  closed: boolean;
  /** The side took its pozzetto. */
  took: boolean;
  /** The pozzetto taken was played (false: it was taken but never played, §9.2). */
  played: boolean;
  /** Card points of a pozzetto taken but never played. */
  unplayed: number;
  /** Card points left in the hands of the side's players (§9.2). */
  hand: number;
  /** The cards themselves, for those who count card by card (one meld per line). */
  cards?: { melds: string; hand: string };
}

export type Pozzetto = "taken" | "missing" | "nobody";

/** One side's score in parts, as SideScore.to_dict gives it (burraco as counts). */
export interface SideScore {
  melds: number;
  bonuses: number;
  burraco: Record<string, number>;
  closing: number;
  pozzetto: number;
  hand: number;
  total: number;
}

export function burracoCount(entry: SideEntry): number {
  return Object.values(entry.burraco).reduce((a, b) => a + b, 0);
}

/** A side's pozzetto as the engine's scorer names it: it depends on the other sides (§8.4). */
export function pozzettoStatus(took: boolean, anybodyTook: boolean): Pozzetto {
  return took ? "taken" : anybodyTook ? "missing" : "nobody";
}

/** score_side: the same refusals, the same parts, the same total. */
export function scoreSide(entry: SideEntry, status: Pozzetto, rules: PadRules): SideScore {
  const count = burracoCount(entry);
  if (entry.closed && status !== "taken") throw new Error("a side that closed has taken its pozzetto (§7.1)");
  if (entry.closed && count === 0) throw new Error("a side that closed has at least one burraco (§7.1)");
  const unplayed = entry.played ? 0 : entry.unplayed;
  if (unplayed && status !== "taken") throw new Error("unplayed pozzetto cards belong to a side that took its pozzetto");
  let bonuses = 0;
  const burraco: Record<string, number> = {};
  for (const [kind, n] of Object.entries(entry.burraco)) {
    if (!n) continue;
    burraco[kind] = n;
    bonuses += n * bonus(rules, kind);
  }
  const closing = entry.closed ? rules.closing_bonus : 0;
  let pozzetto = 0;
  if (status === "taken") pozzetto = neg(unplayed); // instead of the penalty (§9.2)
  else if (status === "missing") pozzetto = -rules.pozzetto_penalty;
  else if (rules.nobody_pozzetto === "penalty-each") pozzetto = -rules.pozzetto_penalty;
  const hand = neg(entry.hand);
  return {
    melds: entry.melds, bonuses, burraco, closing, pozzetto, hand,
    total: entry.melds + bonuses + closing + pozzetto + hand,
  };
}

/** Minus, never −0 (the figures are compared with the engine's). */
function neg(x: number): number {
  return x === 0 ? 0 : -x;
}

/** Half of a pair's score at 3 and 5 players, rounded up to a multiple of 5 (§13.2). */
export function halfUp(points: number): number {
  return neg(Math.floor(-points / 10) * 5);
}

const CLEAN_BASED = new Set(["clean", "super", "royal", "champion"]);
const WILD_BASED = new Set(["semi-clean", "dirty", "dirty-super", "dirty-royal"]);

/**
 * Could a side with these burraco close (closing_ready, §7.1, §13.4, §14)?  Counts cannot tell
 * whether a "complete" 14-card run holds a wild, so it may stand for either kind.
 */
export function canClose(burraco: Record<string, number>, rules: PadRules): boolean {
  const n = (kind: string) => burraco[kind] ?? 0;
  if (rules.closing_alternatives.some((kind) => n(kind) > 0)) return true;
  let clean = 0;
  let other = 0;
  const either = n("complete");
  for (const [kind, count] of Object.entries(burraco)) {
    if (CLEAN_BASED.has(kind)) clean += count;
    else if (WILD_BASED.has(kind)) other += count;
  }
  if (rules.closing === "any") return clean + other + either > 0;
  if (rules.closing === "clean") return clean + either > 0;
  return (clean > 0 || either > 0) && (other > 0 || either > 0) && clean + other + either >= 2;
}

/** The words of closing_need, as keys of the pad's strings. */
export function closingNeed(rules: PadRules): "any" | "clean" | "clean-and-other" {
  return rules.closing as "any" | "clean" | "clean-and-other";
}

/** VP of a match of `smazzate` from the two lines' MP (vp_for_scores, §11.2). */
export function vpForScores(ns: number, ew: number, smazzate: number, rules: PadRules): [number, number] {
  const table = vpTable(rules, smazzate);
  if (!table) throw new Error(`no VP table is known for matches of ${smazzate} smazzate`);
  const diff = Math.abs(ns - ew);
  const index = table.findIndex((bound) => diff <= bound);
  const winner = index < 0 ? 20 : 10 + index;
  return ns >= ew ? [winner, 20 - winner] : [20 - winner, winner];
}

export function vpTable(rules: PadRules, smazzate: number): number[] | null {
  return rules.vp_tables.find(([count]) => count === smazzate)?.[1] ?? null;
}
