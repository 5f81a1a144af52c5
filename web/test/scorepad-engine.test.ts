// The score pad against the engine: fixtures/scorepad.json is written from the engine by
// tests/web/test_scorepad_golden.py, for every preset and player count.
import { describe, expect, it } from "vitest";
import { readMeld } from "../src/scorepad/meld";
import { canClose, halfUp, packsFor, presetRules, scoreSide, tableRules, vpForScores, type Pozzetto, type SideEntry } from "../src/scorepad/score";
import { checkHand } from "../src/scorepad/checks";
import { computeSheet, handSides, scoreHand, type Sheet } from "../src/scorepad/sheet";
import golden from "./fixtures/scorepad.json";

interface GoldenSide {
  entry: SideEntry; seats: number[]; closing_ready: boolean;
  score: { melds: number; bonuses: number; burraco: { type: string; points: number }[]; closing: number; pozzetto: number; hand: number; total: number };
}
interface GoldenHand { preset: string; players: number; mode: string; solo: number; sides: GoldenSide[]; seat_totals: number[]; redeal: boolean }

const hands = golden.hands as unknown as GoldenHand[];

describe("one hand, side by side, as the engine scores it", () => {
  it.each(Object.keys(golden.presets))("%s, every player count", (name) => {
    for (const hand of hands.filter((h) => h.preset === name)) checkSynthetic(hand);
  });

  function checkSynthetic(hand: GoldenHand) {
    const { preset, players } = hand;
    const rules = tableRules(presetRules(preset), players);
    expect(handSides(players, hand.solo)).toEqual(hand.sides.map((s) => s.seats));
    const anybody = hand.sides.some((s) => s.entry.took);
    for (const side of hand.sides) {
      const status: Pozzetto = side.entry.took ? "taken" : anybody ? "missing" : "nobody";
      const score = scoreSide(side.entry, status, rules);
      const { burraco, ...parts } = side.score;
      expect({ ...score, burraco: undefined }).toEqual({ ...parts, burraco: undefined });
      const counts: Record<string, number> = {};
      for (const b of burraco) counts[b.type] = (counts[b.type] ?? 0) + 1;
      expect(score.burraco).toEqual(counts);
      if (!side.entry.burraco.complete) expect(canClose(side.entry.burraco, rules)).toBe(side.closing_ready);
      else if (side.closing_ready) expect(canClose(side.entry.burraco, rules)).toBe(true);
    }
    const scored = scoreHand(players, { solo: hand.solo, sides: hand.sides.map((s) => s.entry) }, rules);
    const perScorer = players === 3 || players === 5 ? hand.seat_totals : hand.sides.map((s) => s.score.total);
    expect(scored.points).toEqual(perScorer);
  }

  it("covers every preset and every player count", () => {
    const seen = new Set(hands.map((h) => `${h.preset}/${h.players}`));
    expect(seen.size).toBe(Object.keys(golden.presets).length * 5);
  });
});

interface PlayedHand {
  preset: string; players: number; seed: number; end: string; mode: string; solo: number; redeal: boolean;
  sides: { seats: number[]; total: number; entry: SideEntry }[]; seat_totals: number[];
}
const played = golden.played as unknown as PlayedHand[];

describe("real hands played by bots to the end, entered as the table shows them", () => {
  it.each(Object.keys(golden.presets))("%s, every player count", (name) => {
    for (const hand of played.filter((h) => h.preset === name)) checkPlayed(hand);
  });

  function checkPlayed(hand: PlayedHand) {
    const { preset, players } = hand;
    const rules = tableRules(presetRules(preset), players);
    const order = handSides(players, hand.solo);
    const bySeats = new Map(hand.sides.map((s) => [s.seats.join(","), s]));
    const sides = order.map((seats) => bySeats.get(seats.join(","))!);
    expect(sides.every(Boolean)).toBe(true);
    const entry = { solo: hand.solo, sides: sides.map((s) => s.entry) };
    const scored = scoreHand(players, entry, rules);
    expect(scored.scores.map((s) => s.total)).toEqual(sides.map((s) => s.total));
    const perScorer = players === 3 || players === 5 ? hand.seat_totals
      : order.map((seats) => hand.seat_totals[seats[0]]);
    expect(scored.points).toEqual(perScorer);
    // the pad's checks never refuse a hand that really happened
    const refusals = checkHand(players, entry, rules).map((r) => r.key);
    expect(refusals, `${preset}, ${players} players, seed ${hand.seed}`).toEqual(hand.redeal ? ["check.redeal"] : []);
  }
});

describe("melds written card by card, read as the engine reads them", () => {
  const cases = Object.entries(golden.melds).flatMap(([preset, list]) =>
    (list as { players: number; cards: string; meld?: string; type?: string | null; points?: number; reason?: string }[])
      .map((c) => [preset, c.players, c.cards, c] as const));
  it.each(Object.keys(golden.presets))("%s", (name) => {
    for (const [preset, players, cards, c] of cases.filter(([p]) => p === name)) {
      const rules = tableRules(presetRules(preset), players);
      const read = readMeld(cards, rules, packsFor(rules, players));
      if (c.reason !== undefined) expect(read, cards).toBe(c.reason);
      else expect(read, cards).toEqual({ text: c.meld, kind: expect.any(String), type: c.type, points: c.points });
    }
  });

  it("covers readings and refusals", () => {
    expect(cases.filter(([, , , c]) => c.reason).length).toBeGreaterThan(100);
    expect(new Set(cases.map(([, , , c]) => c.type).filter(Boolean)).size).toBeGreaterThanOrEqual(8);
  });
});

describe("what the engine refuses to score", () => {
  it.each(golden.errors.map((e) => [e.preset, e.engine, e] as const))("%s: %s", (preset, message, e) => {
    expect(() => scoreSide(e.entry as SideEntry, e.status as Pozzetto, presetRules(preset))).toThrow(message);
  });
});

describe("halves at 3 and 5 players", () => {
  it("rounds up to 5 as half_up does", () => {
    for (const [x, half] of golden.half_up) expect(halfUp(x)).toBe(half);
  });
});

function sheetOf(preset: string, players: number, mode: "free" | "smazzate", target: number, smazzate: number, first: number): Sheet {
  return {
    version: 1, id: "t", created: "", names: Array.from({ length: players }, (_, i) => `P${i}`), preset, mode, target,
    smazzate, firstDealer: first, hands: [],
  };
}

describe("free-play matches as FreePlayMatch plays them", () => {
  it.each(Object.keys(golden.presets))("%s, every player count and target", (name) => {
    golden.matches.forEach((m) => { if (m.preset === name) checkMatch(m); });
  });

  function checkMatch(m: (typeof golden.matches)[number]) {
    const { preset, players, target } = m;
    const sheet = sheetOf(preset, players, "free", target, 0, m.first_deal);
    // every hand's points go straight in as one side's melds, so the match logic alone is tested
    const state = (n: number) =>
      computeSheet({ ...sheet, hands: m.steps.slice(0, n).map((s) => totalsHand(players, s.totals)) });
    m.steps.forEach((step, k) => {
      const s = state(k + 1);
      const label = `${players} players to ${target}, hand ${k + 1}`;
      expect(s.totals, label).toEqual(step.scores);
      expect(s.dealer, label).toBe(step.dealer);
      expect(s.winner, label).toBe(step.winner);
      expect(s.individual, label).toBe(step.individual);
    });
    expect(computeSheet(sheet).dealer).toBe(m.first_deal);
  }
});

describe("tournament matches: VP as TournamentMatch gives them", () => {
  it.each(golden.tournaments.map((m, i) => [m.preset, m.players, m.smazzate, i] as const))("%s, %i players, %i smazzate", (preset, players, smazzate, i) => {
    const m = golden.tournaments[i];
    const rules = presetRules(preset);
    m.steps.forEach((step, k) => {
      expect(vpForScores(step.mp[0], step.mp[1], smazzate, rules)).toEqual(step.vp);
      const s = computeSheet({ ...sheetOf(preset, players, "smazzate", 0, smazzate, players - 1),
        hands: m.steps.slice(0, k + 1).map((x) => totalsHand(players, x.totals)) });
      expect(s.totals).toEqual(step.mp);
      expect(s.vp).toEqual(step.vp);
      expect(s.dealer).toBe(step.dealer);
    });
  });
});

/** A hand whose scorers score exactly `totals`: each scorer alone, nobody took a pozzetto. */
function totalsHand(players: number, totals: number[]) {
  const sides = handSides(players, -1);
  return {
    solo: -1, sides: sides.map((_, i) => {
      const t = totals[i];
      return { melds: Math.max(t, 0), hand: Math.max(-t, 0), burraco: {}, closed: false, took: false, played: true, unplayed: 0 };
    }),
  };
}
