// The score pad's own logic: every refusal of a slip, corrections, 3 and 5 players, storage and
// the share link.  (scorepad-engine.test.ts checks the scoring itself against the engine.)
import { describe, expect, it } from "vitest";
import { cardsBurraco, checkHand, checkInSheet, deckOf, pointsRange, textPoints } from "../src/scorepad/checks";
import { readMeld } from "../src/scorepad/meld";
import { presetRules, tableRules, type SideEntry } from "../src/scorepad/score";
import { decodeSheet, encodeSheet, shareUrl } from "../src/scorepad/share";
import { computeSheet, handSides, newSheet, type HandEntry, type Sheet } from "../src/scorepad/sheet";
import { LocalPadStore } from "../src/scorepad/store";
import { PAD_STRINGS, tp } from "../src/scorepad/strings";

const FIBUR = presetRules("fibur");

function side(change: Partial<SideEntry> = {}): SideEntry {
  return { melds: 0, burraco: {}, closed: false, took: false, played: true, unplayed: 0, hand: 0, ...change };
}
/** A plausible hand of two sides: NS closed with a clean burraco, EW took its pozzetto. */
function goodHand(): HandEntry {
  return {
    solo: -1, sides: [
      side({ melds: 215, burraco: { clean: 1, "semi-clean": 1 }, closed: true, took: true, hand: 15 }),
      side({ melds: 130, burraco: { dirty: 1 }, took: true, hand: 25 }),
    ],
  };
}
const keys = (hand: HandEntry, players = 4, rules = FIBUR, individual = false) =>
  checkHand(players, hand, tableRules(rules, players), individual).map((r) => r.key);

describe("refusals of impossible entries (issue item 2)", () => {
  it("accepts a plausible hand", () => {
    expect(keys(goodHand())).toEqual([]);
  });

  it("refuses card points that are not a multiple of 5, or not a number", () => {
    const hand = goodHand();
    hand.sides[1].melds = 123;
    hand.sides[0].hand = -5;
    hand.sides[1].hand = Number("abc");
    expect(keys(hand)).toEqual(expect.arrayContaining(["check.multiple5", "check.number"]));
    expect(tp("check.multiple5", { what: "field.melds", value: 123 }, "en"))
      .toBe("Card points in melds: 123 is not a multiple of 5 (every card is worth 5, 10, 15, 20 or 30, §1.2).");
  });

  it("refuses a closing without a burraco or without the pozzetto (§7.1)", () => {
    const hand = goodHand();
    hand.sides[0] = side({ melds: 200, closed: true, took: false });
    expect(keys(hand)).toEqual(expect.arrayContaining(["check.closedNoPozzetto", "check.closedNoBurraco.any"]));
  });

  it("asks for the burraco the preset's closing needs (§13.4, §14)", () => {
    const dirtyOnly = goodHand();
    dirtyOnly.sides[0].burraco = { dirty: 2 };
    expect(keys(dirtyOnly)).toEqual([]);
    expect(keys(dirtyOnly, 4, presetRules("fibur-international"))).toContain("check.closedNoBurraco.clean");
    expect(keys(dirtyOnly, 4, presetRules("champion"))).toContain("check.closedNoBurraco.clean-and-other");
    const six = { solo: -1, sides: [dirtyOnly.sides[0], side({ melds: 60 }), side({ melds: 30 })] };
    expect(keys(six, 6)).toContain("check.closedNoBurraco.clean-and-other"); // 6 players, §13.4
    const champion = goodHand();
    champion.sides[0].burraco = { champion: 1 };
    expect(keys(champion, 4, presetRules("champion"))).toEqual([]); // a closing alternative (§14.3)
  });

  it("refuses two sides closing", () => {
    const hand = goodHand();
    hand.sides[1].closed = true;
    expect(keys(hand)).toContain("check.twoClosed");
  });

  it("refuses more burraco than the cards in play allow", () => {
    const hand = goodHand();
    hand.sides[0].burraco = { clean: 9 };
    hand.sides[0].melds = 700;
    hand.sides[1].burraco = { dirty: 7 };
    hand.sides[1].melds = 500;
    expect(keys(hand)).toContain("check.tooManyBurraco"); // 16 × 7 > 108
    expect(deckOf(FIBUR, 4)).toEqual({ cards: 108, points: 1080, packs: 2 });
    expect(deckOf(FIBUR, 5)).toEqual({ cards: 162, points: 1620, packs: 3 });
    const few = goodHand();
    few.sides[0].burraco = { clean: 2 };
    few.sides[0].melds = 60;
    expect(keys(few)).toContain("check.burracoPoints"); // two burraco are 14 cards: ≥ 70 points
  });

  it("refuses more card points than the packs hold", () => {
    const hand = goodHand();
    hand.sides[0].melds = 900;
    hand.sides[1].hand = 300;
    expect(keys(hand)).toContain("check.deckPoints");
  });

  it("refuses a card count above what a hand could hold", () => {
    const alone = { solo: -1, sides: [side({ melds: 215, burraco: { clean: 1 }, closed: true, took: true, hand: 10 }), side({ melds: 40 })] };
    expect(keys(alone, 2)).toContain("check.closerHand"); // 2 players: the closer holds nothing
    expect(keys({ ...goodHand() })).not.toContain("check.closerHand"); // 4: his partner may
    const unplayed = goodHand();
    unplayed.sides[1] = side({ melds: 130, burraco: { dirty: 1 }, took: true, played: false, unplayed: 40 });
    expect(keys(unplayed)).toContain("check.unplayedRange"); // 11 cards are worth at least 55
    unplayed.sides[1].unplayed = 265;
    expect(keys(unplayed)).toContain("check.unplayedRange"); // and at most 4 jokers + 7 twos = 260
    unplayed.sides[1].unplayed = 260;
    expect(keys(unplayed)).toEqual([]);
    expect(pointsRange(11, 2)).toEqual([55, 260]);
    expect(pointsRange(18, 2)).toEqual([90, 370]);
    const little = goodHand();
    little.sides[1].melds = 45;
    little.sides[1].burraco = {};
    expect(keys(little)).toContain("check.tookMelds"); // the taker melded his 11 cards first
  });

  it("refuses a hand nobody took a pozzetto in under the home rule (§8.4)", () => {
    const hand = { solo: -1, sides: [side({ melds: 60 }), side({ melds: 30 })] };
    expect(keys(hand)).toEqual([]);
    expect(keys(hand, 4, presetRules("home"))).toContain("check.redeal");
  });

  it("reads melds written card by card as the engine does, and checks them against the figures", () => {
    expect(textPoints("KH 7S JK 2C AD")).toBe(10 + 5 + 30 + 20 + 15);
    expect(textPoints("KH XX")).toMatch(/cannot read card/);
    const hand = goodHand();
    hand.sides[1] = side({ melds: 130, burraco: {}, took: true, hand: 25,
      cards: { melds: "5H 6H JK 8H 9H 10H JH\nQD KD AD\n7C 7D 7S", hand: "7H 8S QS" } });
    expect(keys(hand)).toEqual(["check.burracoCards"]); // a dirty burraco written, none counted
    hand.sides[1].burraco = { dirty: 1 };
    expect(keys(hand)).toEqual([]);
    expect(cardsBurraco(hand.sides[1].cards!.melds, FIBUR, 2)).toEqual({ dirty: 1 });
    hand.sides[1].cards!.melds += "\nKS KH";
    expect(keys(hand)).toEqual(["check.meld"]);
    const refusal = checkHand(4, hand, FIBUR).find((r) => r.key === "check.meld")!;
    expect(refusal.params).toEqual({ text: "KS KH", reason: "a meld needs at least three cards" });
    hand.sides[1].cards!.melds = "5H 6H 8H";
    expect(checkHand(4, hand, FIBUR)[0].params?.reason).toBe("the cards are not consecutive");
    hand.sides[1].cards!.melds = "5H 6H ZZ";
    expect(keys(hand)).toEqual(["check.meld"]);
  });

  it("reads aces, wilds and natural twos as the engine places them (§4)", () => {
    const read = (text: string, rules = FIBUR) => {
      const m = readMeld(text, rules, 2);
      return typeof m === "string" ? m : `${m.text} = ${m.type}`;
    };
    expect(read("AH KH QH JH 10H 9H 8H")).toBe("8H 9H 10H JH QH KH AH = clean");
    expect(read("5H JK 6H 7H")).toBe("JK(=4H) 5H 6H 7H = null");
    expect(read("3S JK 5S 6S 7S 8S 9S 10S JS")).toBe("3S JK(=4S) 5S 6S 7S 8S 9S 10S JS = semi-clean");
    expect(read("AH 2H 3H 4H 5H 6H 7H")).toBe("AH 2H 3H 4H 5H 6H 7H = clean");
    expect(read("KD KH KS KC KD KH KS KC", presetRules("fitab"))).toBe("KH KH KD KD KC KC KS KS = super");
    expect(read("ah, kh, qh, jh, 10h, 9h, 8h")).toBe("8H 9H 10H JH QH KH AH = clean"); // as typed on a phone
    expect(textPoints("jk, 7h")).toBe(35);
    expect(read("7S 7S 7H 2C 2D")).toBe("two wild cards in one meld");
    expect(read("7S 8H 9S")).toBe("the cards form neither a sequence (one suit) nor a set (one rank)");
    expect(read("KS KH KC", presetRules("fibur-international"))).toBe("sets of Ks are not allowed (only aces and threes)");
  });

  it("refuses a card written more often than the packs hold it", () => {
    const hand = goodHand();
    hand.sides[0].cards = { melds: "", hand: "KH KH" };
    hand.sides[0].hand = 20;
    hand.sides[1] = side({ melds: 130, burraco: { dirty: 1 }, took: true, hand: 10,
      cards: { melds: "5H 6H JK 8H 9H 10H JH\nQD KD AD\n7C 7D 7S", hand: "KH" } });
    hand.sides[1].hand = 10;
    expect(keys(hand)).toEqual(["check.copies"]); // three KH, two packs
    expect(keys(hand, 6)).not.toContain("check.copies"); // three packs at 6 players
  });

  it("at 3 and 5 players the solo took the big pozzetto, and the threshold means all alone", () => {
    const pairs: HandEntry = { solo: 1, sides: [side({ melds: 300, burraco: { clean: 1 }, took: false }), side({ melds: 100 })] };
    expect(keys(pairs, 3)).toContain("check.soloTook");
    pairs.sides[0].took = true;
    pairs.sides[0].played = false;
    pairs.sides[0].unplayed = 60; // the big pozzetto has 18 cards: at least 90
    expect(keys(pairs, 3)).toContain("check.unplayedRange");
    pairs.sides[0].unplayed = 90;
    expect(keys(pairs, 3)).toEqual([]);
    expect(keys(pairs, 3, FIBUR, true)).toContain("check.individual");
  });

  it("has its refusals in the catalogs (every language's completeness: i18n.test.ts)", () => {
    expect(tp("check.twoClosed", undefined, "it")).toBe("Una smazzata la chiude una parte sola (§7.1).");
    expect(tp("check.twoClosed", undefined, "en")).toContain("(§7.1)");
  });
});

function sheetWith(hands: HandEntry[], target = 505): Sheet {
  return { ...newSheet(["Anna", "Bruno", "Carlo", "Dora"], "fibur", "free", target, 3), hands };
}

describe("the sheet: corrections, dealer, winner", () => {
  const big = (ns: number, ew: number): HandEntry => ({
    solo: -1, sides: [side({ melds: ns, took: true }), side({ melds: ew, took: true })],
  });

  it("recomputes the totals after a correction", () => {
    const sheet = sheetWith([big(300, 100), big(100, 100)]);
    expect(computeSheet(sheet).totals).toEqual([400, 200]);
    const corrected = { ...sheet, hands: [big(300, 100), big(100, 250)] };
    expect(checkInSheet(sheet, 1, big(100, 250))).toEqual([]);
    expect(computeSheet(corrected).totals).toEqual([400, 350]);
  });

  it("passes the deal to the left and announces the winner at the target (§2.3, §9.3)", () => {
    const sheet = sheetWith([big(300, 100), big(250, 100)]);
    const state = computeSheet(sheet);
    expect(state.hands.map((h) => h.dealer)).toEqual([3, 0]);
    expect(state.dealer).toBe(1);
    expect(state.winner).toBe(0);
    expect(checkInSheet(sheet, 2, big(100, 100)).map((r) => r.key)).toEqual(["check.over"]);
  });

  it("plays one more hand when the leaders stand level past the target (§9.3)", () => {
    const state = computeSheet(sheetWith([big(300, 300), big(250, 250)]));
    expect(state.totals).toEqual([550, 550]);
    expect(state.winner).toBeNull();
    expect(state.finished).toBe(false);
  });

  it("refuses a correction that would end the match before hands already played", () => {
    const sheet = sheetWith([big(300, 100), big(100, 100), big(100, 100)]);
    expect(checkInSheet(sheet, 0, big(600, 100)).map((r) => r.key)).toEqual(["check.endsEarlier"]);
  });

  it("gives VP to a tournament-style match (§11.2)", () => {
    const sheet = { ...newSheet(["NS", "EW"], "fibur", "smazzate", null, 3), hands: [big(300, 100), big(100, 100), big(100, 45)] };
    const state = computeSheet(sheet);
    expect(state.totals).toEqual([500, 245]);
    expect(state.vp).toEqual([13, 7]);
    expect(state.finished).toBe(true);
    expect(() => newSheet(["A", "B", "C"], "fibur", "smazzate", null, 3)).toThrow(/no VP table/);
  });

  it("halves a pair's score at 3 and 5 players (§13.2)", () => {
    expect(handSides(5, 0)).toEqual([[0], [1, 3], [2, 4]]);
    expect(handSides(3, 2)).toEqual([[2], [0, 1]]);
    const sheet = { ...newSheet(["A", "B", "C"], "fibur", "free", null, 3), hands: [
      { solo: 0, sides: [side({ melds: 780, took: true }), side({ melds: 1215, took: true })] }] };
    const state = computeSheet(sheet);
    expect(state.totals).toEqual([780, 610, 610]);
    expect(state.target).toBe(1505);
    expect(state.individual).toBe(false);
  });
});

describe("storage and sharing", () => {
  it("keeps sheets in the browser's storage, newest first", () => {
    const data = new Map<string, string>();
    const storage = { getItem: (k: string) => data.get(k) ?? null, setItem: (k: string, v: string) => void data.set(k, v) } as Storage;
    const store = new LocalPadStore(storage);
    const a = sheetWith([]);
    const b = sheetWith([]);
    store.save(a);
    store.save(b);
    expect(store.list().map((s) => s.id)).toEqual([b.id, a.id]);
    store.save({ ...a, hands: [goodHand()] });
    expect(store.load(a.id)?.hands.length).toBe(1);
    expect(new LocalPadStore(storage).list().map((s) => s.id)).toEqual([a.id, b.id]);
    store.remove(a.id);
    expect(store.list().map((s) => s.id)).toEqual([b.id]);
    data.set("burraco.pad.sheets", "{not json");
    expect(store.list()).toEqual([]);
  });

  it("round-trips a sheet through the link's fragment, and refuses altered links", () => {
    const sheet = sheetWith([goodHand()]);
    sheet.names[0] = "Zoë & Ætla";
    const url = shareUrl(sheet, "http://pad.example");
    expect(url.startsWith("http://pad.example/pad/view#s1.")).toBe(true);
    expect(decodeSheet(url.slice(url.indexOf("#")))).toEqual(sheet);
    const fragment = encodeSheet(sheet);
    expect((decodeSheet(fragment.slice(0, 40)) as Error).message).toMatch(/cut short|not a score sheet/);
    expect((decodeSheet("x" + fragment) as Error).message).toMatch(/version/);
    const other = { ...sheet, preset: "nonsense" };
    expect((decodeSheet(encodeSheet(other)) as Error).message).toMatch(/unknown rules preset/);
    const broken = { ...sheet, hands: [{ solo: -1, sides: [goodHand().sides[0]] }] };
    expect((decodeSheet(encodeSheet(broken)) as Error).message).toMatch(/has 2 sides, got 1/);
  });
});
