// What a newcomer tripped over at the table, each pinned: the log after a reload, card names
// in refusals and the log, the score header's order, how far the hand's cards overlap, the
// card back, the address that leads nowhere, and a drag to a meld above the screen.
import { describe, expect, it } from "vitest";
import { EDGE, edgeStep } from "../src/drag";
import { initialState, reduce, type TableState } from "../src/connection";
import { reasonText, setLang, withSuitSymbols } from "../src/i18n";
import { logText } from "../src/table";
import { cardStep, handStep } from "../src/table/handfit";
import { logFromMoves } from "../src/table/movelog";
import { scoreOrder } from "../src/table/scoreorder";
// @ts-expect-error: a build script in plain JavaScript
import { backSvg } from "../scripts/card-backs.mjs";

const SYNC = {
  t: "sync", version: 9, seat: 1, status: "playing", seats: [], clock: null,
  table: { id: "T", config: { players: 2, rules: "fibur", options: {}, seats: [{ kind: "human" }, { kind: "human" }] } },
  match: { mode: "free", target: 2005, smazzate: null, hands: [], scores: [0, 0], vp: null, finished: false, winner: null },
  hand: {
    number: 1, commitment: "c0ffee", hand: ["7H"], hand_ids: [6], melds: [[], []], side_of: [0, 1],
    moves: [[0, "draw"], [0, "meld 5H 6H 7H"], [0, "discard KS"], [1, "pickup"], [1, "attach 1 8H"]],
  },
};

function named(state: TableState): TableState {
  return { ...state, seats: [
    { seat: 0, kind: "human", level: null, nickname: "Marco", online: true, grace_deadline_ms: null, grace_seconds: 0, standin: null },
    { seat: 1, kind: "human", level: null, nickname: "Ada", online: true, grace_deadline_ms: null, grace_seconds: 0, standin: null },
  ] };
}

describe("the move log of a page that joins mid-hand", () => {
  it("starts from the moves the sync carries", () => {
    setLang("en");
    const [state] = reduce(initialState(), SYNC);
    expect(state.log.map((l) => l.type)).toEqual(["HandStarted", "Drew", "Melded", "Discarded", "PickedUp", "Attached"]);
    const texts = state.log.map((l) => logText(named(state), l));
    expect(texts).toEqual([
      "Hand 1 is dealt.", "Marco drew from the stock.", "Marco melded 5♥ 6♥ 7♥.", "Marco discarded K♠.",
      "Ada took the pile.", "Ada attached 8♥.",
    ]);
  });

  it("keeps the live log on a later sync", () => {
    let [state] = reduce(initialState(), { v: 3, e: { type: "Drew", seat: 0 } });
    [state] = reduce(state, SYNC);
    expect(state.log).toHaveLength(1);
  });

  it("gives nothing for a hand without moves", () => {
    expect(logFromMoves({ number: 2, moves: [] })).toEqual([]);
  });
});

describe("card names in words", () => {
  it("writes a refusal's cards with suit symbols, in both languages", () => {
    expect(reasonText("illegal_action", "you do not hold 8H", "en")).toBe("You do not hold 8♥");
    expect(reasonText("illegal_action", "you do not hold 10S", "it")).toBe("Non hai 10♠");
    expect(withSuitSymbols("8H is not of the sequence's suit (§3.1.4)")).toBe("8♥ is not of the sequence's suit (§3.1.4)");
    expect(withSuitSymbols("JK(=7H) and QSX")).toBe("JK(=7H) and QSX");
  });

  it("counts the cards of a pile taken in good grammar, and names every player alike", () => {
    setLang("en");
    const [state] = reduce(initialState(), SYNC);
    const one = { v: 5, type: "PickedUp", seat: 0, data: { cards_text: ["3H"] } };
    expect(logText(named(state), one)).toBe("Marco took the pile (1 card).");
    const drew = { v: 6, type: "Drew", seat: 1, data: { card_text: "QC" } };
    expect(logText(named(state), drew)).toBe("Ada drew Q♣.");
    setLang("it");
    expect(logText(named(state), one)).toBe("Marco ha raccolto gli scarti (1 carta).");
    setLang("en");
  });
});

describe("the score header", () => {
  it("puts the viewer's side first at any seat", () => {
    const groups = [[0, 2], [1, 3]];
    expect(scoreOrder(groups, 0)).toEqual([0, 1]);
    expect(scoreOrder(groups, 1)).toEqual([1, 0]);
    expect(scoreOrder(groups, 3)).toEqual([1, 0]);
    expect(scoreOrder(groups, null)).toEqual([0, 1]);
    expect(scoreOrder([[0], [1], [2]], 2)).toEqual([2, 0, 1]);
  });
});

describe("the hand's overlap", () => {
  it("shows every card whole when the row has room", () => {
    expect(cardStep(1200, 80, 11)).toBe(84);
  });

  it("overlaps just enough to fit the row", () => {
    const step = cardStep(370, 56, 11);
    expect(56 + 10 * step).toBeLessThanOrEqual(370);
    expect(step).toBeGreaterThan(56 * 0.5);
  });

  it("never hides more than two thirds of a card (the row wraps instead)", () => {
    expect(cardStep(370, 56, 40)).toBeCloseTo(56 * 0.34);
  });

  it("keeps a phone's hand that took a long pile on one row, the corner's index in view", () => {
    // a 390 px phone's row: 356 px inside; eleven cards and a pile of ten
    const step = handStep(356, 56, 21);
    expect(56 + 20 * step).toBeLessThanOrEqual(356);
    expect(step).toBeGreaterThanOrEqual(56 * 0.26);
    expect(handStep(356, 56, 40)).toBeCloseTo(56 * 0.26);
    // a laptop's row keeps the wider overlap
    expect(handStep(900, 72, 60)).toBeCloseTo(72 * 0.34);
  });
});

describe("the card back", () => {
  it("is a drawn design, not a flat block, and light", () => {
    for (const name of ["B1", "B2"]) {
      const svg: string = backSvg(name);
      expect(svg).toContain("<pattern");
      expect(svg).toContain("<ellipse");
      expect(svg.length).toBeLessThan(2000);
    }
    expect(backSvg("B1")).not.toEqual(backSvg("B2"));
  });
});

describe("a drag near the window's edge", () => {
  it("scrolls up at the top, down at the bottom, faster nearer the edge, not in between", () => {
    expect(edgeStep(400, 800)).toBe(0);
    expect(edgeStep(EDGE, 800)).toBe(0);
    expect(edgeStep(800 - EDGE, 800)).toBe(0);
    expect(edgeStep(30, 800)).toBeLessThan(0);
    expect(edgeStep(2, 800)).toBeLessThan(edgeStep(30, 800));
    expect(edgeStep(-50, 800)).toBe(edgeStep(0, 800));
    expect(edgeStep(780, 800)).toBeGreaterThan(0);
    expect(edgeStep(798, 800)).toBeGreaterThan(edgeStep(780, 800));
  });
});

describe("the match's verdict", () => {
  it("agrees the verb with how many won, in both languages", async () => {
    const { winnerText } = await import("../src/table");
    setLang("en");
    expect(winnerText("Bot 2 (basic)", 1, false)).toBe("Bot 2 (basic) wins.");
    expect(winnerText("Ada & Bob", 2, false)).toBe("Ada & Bob win.");
    expect(winnerText("Bot 2 (basic)", 1, true)).toBe("Bot 2 (basic) wins. Better luck next time!");
    setLang("it");
    expect(winnerText("marco_t", 1, false)).toBe("Vince marco_t.");
    expect(winnerText("Ada & Bob", 2, false)).toBe("Vincono Ada & Bob.");
    setLang("en");
  });
});
