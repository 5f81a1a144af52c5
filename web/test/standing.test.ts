// The "this hand" panel's helpers: last discards from the public moves, short meld texts.
import { describe, expect, it } from "vitest";
import { lastDiscards, meldSummary } from "../src/standing";

describe("the hand at a glance", () => {
  it("keeps each seat's last discard", () => {
    const moves: [number, string][] = [[0, "draw"], [0, "discard KD"], [1, "pickup"], [1, "meld 5H 6H 7H"],
      [1, "discard 9C"], [2, "draw"], [2, "discard 10S"], [3, "draw"], [0, "draw"], [0, "discard 4H"]];
    expect(lastDiscards(moves, 4)).toEqual(["4H", "9C", "10S", null]);
  });

  it("writes a meld in a few characters", () => {
    expect(meldSummary("5H 6H 7H 8H 9H")).toBe("5–9♥");
    expect(meldSummary("QS QD QC QC")).toBe("Q ×4");
    expect(meldSummary("JK(=3S) 4S 5S")).toBe("3–5♠*");
    expect(meldSummary("QS 2C QD")).toBe("Q ×3*");
    expect(meldSummary("JS QS KS AS")).toBe("J–A♠");
  });
});
