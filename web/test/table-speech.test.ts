// The table as it is read and said: moves with their cards in words for screen readers (the
// log shows the suit symbols), and each pozzetto's status said as a sentence, whoever took it.
import { describe, expect, it } from "vitest";
import type { HandView, LogLine, TableState } from "../src/connection";
import { initialState } from "../src/connection";
import { setLang } from "../src/i18n";
import { logText, pozzettoStatus } from "../src/table";

const person = (seat: number, nickname: string) => (
  { seat, kind: "human" as const, level: null, nickname, online: true, grace_deadline_ms: null, grace_seconds: 0, standin: null });

function seated(seat: number | null, names: string[]): TableState {
  return { ...initialState(), seat, seats: names.map((n, i) => person(i, n)) };
}

function hand(side_of: number[], pozzetto_taker: number[]): HandView {
  return { side_of, pozzetto_taker } as unknown as HandView;
}

describe("moves read aloud", () => {
  const discard: LogLine = { v: 5, seat: 1, type: "Discarded", data: { seat: 1, card_text: "KC" } };
  const meld: LogLine = { v: 6, seat: 1, type: "Melded", data: { seat: 1, cards_text: ["5H", "6H", "2C(=7H)"] } };
  const state = seated(0, ["Marco", "Ada"]);

  it("shows the symbols and says the words, in the page's language", () => {
    setLang("en");
    expect(logText(state, discard)).toBe("Ada discarded K♣.");
    expect(logText(state, discard, true)).toBe("Ada discarded king of clubs.");
    expect(logText(state, meld, true)).toBe("Ada melded 5 of hearts, 6 of hearts, 2 of clubs (= 7 of hearts).");
    setLang("it");
    expect(logText(state, discard, true)).toBe("Ada ha scartato re di fiori.");
    expect(logText(state, meld, true)).not.toMatch(/[♥♦♣♠]/);
  });
});

describe("the pozzetti's status", () => {
  it("says whose pozzetto it is and who took it, in pairs", () => {
    const state = seated(0, ["Marco", "Ada", "Bea", "Carlo"]);
    const pairs = hand([0, 1, 0, 1], [2, 0]);
    setLang("en");
    expect(pozzettoStatus(state, pairs, 0)).toBe("Our pozzetto: taken by Bea");
    expect(pozzettoStatus(state, hand([0, 1, 0, 1], [0, -1]), 0)).toBe("Our pozzetto: taken by you");
    expect(pozzettoStatus(state, hand([0, 1, 0, 1], [0, -1]), 1)).toBe("Their pozzetto: not taken yet");
    setLang("it");
    expect(pozzettoStatus(state, pairs, 0)).toBe("Il nostro pozzetto: preso da Bea");
    expect(pozzettoStatus(state, hand([0, 1, 0, 1], [0, 3]), 0)).toBe("Il nostro pozzetto: preso da te");
    expect(pozzettoStatus(state, hand([0, 1, 0, 1], [0, 3]), 1)).toBe("Il loro pozzetto: preso da Carlo");
  });

  it("names the one opponent at two, and every side for a spectator", () => {
    setLang("en");
    expect(pozzettoStatus(seated(0, ["Marco", "Ada"]), hand([0, 1], [0, 1]), 0)).toBe("Your pozzetto: taken by you");
    expect(pozzettoStatus(seated(0, ["Marco", "Ada"]), hand([0, 1], [0, 1]), 1)).toBe("Pozzetto of Ada: taken by Ada");
    setLang("it");
    const watching = seated(null, ["Marco", "Ada", "Bea", "Carlo"]);
    expect(pozzettoStatus(watching, hand([0, 1, 0, 1], [-1, 1]), 0)).toBe("Pozzetto di Marco & Bea: non ancora preso");
    expect(pozzettoStatus(watching, hand([0, 1, 0, 1], [-1, 1]), 1)).toBe("Pozzetto di Ada & Carlo: preso da Ada");
  });
});
