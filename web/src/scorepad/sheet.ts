/**
 * A score sheet: the players, the rules, the hands entered so far, and everything that follows
 * from them (sides, running totals, dealer, winner, VP), recomputed from the entries every time
 * so that correcting a hand corrects every total after it.  The match logic is the port of
 * burraco.engine.match (FreePlayMatch, TournamentMatch), checked against it by the golden tests.
 */
import {
  defaultTarget, halfUp, pozzettoStatus, presetRules, scoreSide, tableRules, vpForScores, vpTable,
  type PadRules, type SideEntry, type SideScore,
} from "./score";

export type HandMode = "fixed" | "pairs" | "individual";

export interface HandEntry {
  /** 3 and 5 players: the seat that ran out first and took the big pozzetto, or -1 (all alone). */
  solo: number;
  /** One entry per side of the hand, in the order of `handSides`. */
  sides: SideEntry[];
}

export interface Sheet {
  version: 1;
  id: string;
  created: string;
  /** Seats in playing order (seat s+1 sits on s's left, §2.3). */
  names: string[];
  preset: string;
  mode: "free" | "smazzate";
  target: number;
  smazzate: number;
  /** The dealer of the first hand (§2.3: seat n−1 unless the table drew another). */
  firstDealer: number;
  hands: HandEntry[];
}

export const TARGETS = [505, 1005, 1505, 2005];
export const PLAYER_COUNTS = [2, 3, 4, 5, 6];

/** How many running totals a match keeps: sides, or seats at 3 and 5 players (scorers). */
export function scorerCount(players: number): number {
  return ({ 2: 2, 3: 3, 4: 2, 5: 5, 6: 3 } as Record<number, number>)[players];
}

/** The seats of each scorer: pairs opposite at 4 and 6 (§2.1, §13.4), else one seat each. */
export function scorerSeats(players: number): number[][] {
  if (players === 4 || players === 6) {
    const half = players / 2;
    return Array.from({ length: half }, (_, side) => [side, side + half]);
  }
  return Array.from({ length: players }, (_, seat) => [seat]);
}

/** The sides of one hand.  At 3 and 5 players the first to run out plays solo and the others
 * pair up, partners never neighbours (A solo: B–D and C–E, §13.2–13.3); nobody out: all alone. */
export function handSides(players: number, solo: number): number[][] {
  if (players !== 3 && players !== 5) return scorerSeats(players);
  if (solo < 0) return Array.from({ length: players }, (_, seat) => [seat]);
  const others = Array.from({ length: players - 1 }, (_, k) => (solo + k + 1) % players);
  const pairs = players === 3 ? [[others[0], others[1]]] : [[others[0], others[2]], [others[1], others[3]]];
  const sides = [[solo], ...pairs.map((p) => [...p].sort((a, b) => a - b))];
  return [sides[0], ...sides.slice(1).sort((a, b) => a[0] - b[0])];
}

export function handMode(players: number, solo: number): HandMode {
  if (players !== 3 && players !== 5) return "fixed";
  return solo < 0 ? "individual" : "pairs";
}

export interface ScoredHand {
  number: number;
  dealer: number;
  sides: number[][];
  scores: SideScore[];
  /** What each scorer adds for the hand. */
  points: number[];
  /** Running totals after the hand. */
  totals: number[];
}

export interface SheetState {
  rules: PadRules;
  players: number;
  hands: ScoredHand[];
  totals: number[];
  /** Seat dealing the next hand. */
  dealer: number;
  /** 3 and 5 players: the next hand is dealt with everyone alone (§13.2–13.3). */
  individual: boolean;
  target: number;
  /** Free play: the scorer that won; `null` while nobody has (or the leaders stand level). */
  winner: number | null;
  finished: boolean;
  /** Tournament-style matches: the VP of the MP so far (final once finished). */
  vp: [number, number] | null;
}

export function sheetRules(sheet: Sheet): PadRules {
  const base = tableRules(presetRules(sheet.preset), sheet.names.length);
  return { ...base, target: sheet.target, three_player_target: sheet.target, five_player_target: sheet.target };
}

function dealerOf(players: number, first: number, played: number): number {
  return (first + played) % players;
}

/** Scores of one hand's sides and what each scorer adds (seat totals halved for pairs at 3/5). */
export function scoreHand(players: number, hand: HandEntry, rules: PadRules): { sides: number[][]; scores: SideScore[]; points: number[] } {
  const sides = handSides(players, hand.solo);
  if (hand.sides.length !== sides.length) {
    throw new Error(`a hand of ${players} players with this solo has ${sides.length} sides, got ${hand.sides.length}`);
  }
  const anybody = hand.sides.some((s) => s.took);
  const scores = hand.sides.map((s) => scoreSide(s, pozzettoStatus(s.took, anybody), rules));
  const mode = handMode(players, hand.solo);
  let points: number[];
  if (players === 3 || players === 5) {
    points = Array(players).fill(0);
    sides.forEach((seats, i) => {
      for (const seat of seats) points[seat] = mode === "pairs" && seats.length === 2 ? halfUp(scores[i].total) : scores[i].total;
    });
  } else {
    points = scores.map((s) => s.total);
  }
  return { sides, scores, points };
}

/** Recompute the whole sheet from its entries. */
export function computeSheet(sheet: Sheet): SheetState {
  const players = sheet.names.length;
  const rules = sheetRules(sheet);
  const count = scorerCount(players);
  let totals = Array(count).fill(0) as number[];
  const hands: ScoredHand[] = sheet.hands.map((hand, i) => {
    const scored = scoreHand(players, hand, rules);
    totals = totals.map((t, k) => t + scored.points[k]);
    return { number: i + 1, dealer: dealerOf(players, sheet.firstDealer, i), ...scored, totals };
  });
  const target = sheet.mode === "free" ? sheet.target : 0;
  let winner: number | null = null;
  let finished = false;
  let vp: [number, number] | null = null;
  if (sheet.mode === "free") {
    const best = totals.indexOf(Math.max(...totals));
    if (totals[best] >= target && totals.filter((t) => t === totals[best]).length === 1) winner = best;
    finished = winner !== null;
  } else {
    finished = hands.length >= sheet.smazzate;
    vp = vpForScores(totals[0], totals[1], sheet.smazzate, rules);
    if (finished && vp[0] !== vp[1]) winner = vp[0] > vp[1] ? 0 : 1;
  }
  let individual = false;
  if (players === 3) individual = totals.some((t) => t >= rules.individual_from);
  if (players === 5) individual = totals.some((t) => t >= rules.five_player_individual_from);
  return {
    rules, players, hands, totals, dealer: dealerOf(players, sheet.firstDealer, hands.length), individual,
    target, winner, finished, vp,
  };
}

/** Is a tournament-style match of `smazzate` possible for `players` under `preset` (VP table)? */
export function smazzateAllowed(preset: string, players: number, smazzate: number): boolean {
  return (players === 2 || players === 4) && vpTable(presetRules(preset), smazzate) !== null;
}

export function newSheet(names: string[], preset: string, mode: "free" | "smazzate", target: number | null,
  smazzate: number, firstDealer?: number): Sheet {
  const players = names.length;
  if (!PLAYER_COUNTS.includes(players)) throw new Error(`a score sheet is for 2 to 6 players, not ${players}`);
  const rules = presetRules(preset);
  if (mode === "smazzate" && !smazzateAllowed(preset, players, smazzate)) {
    throw new Error(`no VP table for ${smazzate} smazzate at ${players} players`);
  }
  const first = firstDealer ?? players - 1;
  if (!(first >= 0 && first < players)) throw new Error(`no seat ${first} at a table of ${players}`);
  return {
    version: 1, id: newId(), created: new Date().toISOString(), names, preset, mode,
    target: target ?? defaultTarget(rules, players), smazzate, firstDealer: first, hands: [],
  };
}

function newId(): string {
  const bytes = new Uint8Array(6);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** A blank entry for a side. */
export function blankSide(): SideEntry {
  return { melds: 0, burraco: {}, closed: false, took: false, played: true, unplayed: 0, hand: 0 };
}

export function blankHand(players: number, solo = -1): HandEntry {
  return { solo, sides: handSides(players, solo).map(blankSide) };
}

/** Names of a side's seats: "Anna", or "Anna & Carlo". */
export function sideName(names: string[], seats: number[]): string {
  return seats.map((s) => names[s]).join(" & ");
}

export function scorerNames(names: string[]): string[] {
  return scorerSeats(names.length).map((seats) => sideName(names, seats));
}
