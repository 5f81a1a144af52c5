import { describe, expect, it } from "vitest";
import { backImage, cardLabel, faceImage, parseCard, parseCards, points, sortKey } from "../src/cards";
import { moveCard, reconcile, sortedIds } from "../src/handorder";

describe("cards", () => {
  it("reads the server's card texts", () => {
    expect(parseCard("7H")).toEqual({ face: "7H", rank: 7, suit: 0, role: null });
    expect(parseCard("10S")).toMatchObject({ face: "10S", rank: 10, suit: 3 });
    expect(parseCard("TS").face).toBe("10S");
    expect(parseCard("JK")).toEqual({ face: "JK", rank: 0, suit: -1, role: null });
    expect(parseCard("2C(=7H)")).toMatchObject({ face: "2C", role: "7H" });
    expect(parseCard("JK(=10D)")).toMatchObject({ face: "JK", role: "10D" });
    expect(parseCards("5H 6H JK(=7H)").map((c) => c.face)).toEqual(["5H", "6H", "JK"]);
    expect(() => parseCard("XX")).toThrow();
  });

  it("values, images and labels", () => {
    expect(["JK", "2S", "AH", "KD", "8C", "7C", "3S"].map(points)).toEqual([30, 20, 15, 10, 10, 5, 5]);
    expect(faceImage("QS")).toBe("/cards/QS.svg");
    expect(faceImage("JK", 52)).toBe("/cards/JK1.svg");
    expect(faceImage("JK", 54 + 53)).toBe("/cards/JK2.svg");
    expect(backImage(0)).not.toBe(backImage(1));
    expect(cardLabel("10H")).toBe("10♥");
  });

  it("sorts by suit or by rank, jokers last", () => {
    const faces = ["JK", "3H", "AS", "3S", "KH"];
    const bySuit = [...faces].sort((a, b) => sortKey(a, "suit") - sortKey(b, "suit"));
    expect(bySuit).toEqual(["AS", "3S", "3H", "KH", "JK"]);
    const byRank = [...faces].sort((a, b) => sortKey(a, "rank") - sortKey(b, "rank"));
    expect(byRank).toEqual(["AS", "3S", "3H", "KH", "JK"].sort((a, b) => sortKey(a, "rank") - sortKey(b, "rank")));
    expect(byRank[0]).toBe("AS");
    expect(byRank[byRank.length - 1]).toBe("JK");
  });
});

describe("the hand's order", () => {
  const hand = [
    { id: 10, face: "KH" }, { id: 3, face: "3H" }, { id: 20, face: "AS" }, { id: 52, face: "JK" },
  ];

  it("sorts", () => {
    expect(sortedIds(hand, "suit")).toEqual([20, 3, 10, 52]);
  });

  it("keeps the player's order, drops cards played and places new ones by the sort", () => {
    const mine = [52, 10, 3, 20];
    expect(reconcile(mine, hand, "suit")).toEqual(mine);
    const after = [...hand.filter((c) => c.id !== 10), { id: 70, face: "2S" }];
    // the new 2S goes before the first card the sort puts after it (here the joker kept first)
    expect(reconcile(mine, after, "suit")).toEqual([70, 52, 3, 20]);
    const placed = reconcile([20, 3, 52], after, "suit");
    expect(placed).toEqual([20, 70, 3, 52]);
    expect(reconcile([], hand, "rank")).toEqual(sortedIds(hand, "rank"));
  });

  it("moves a card", () => {
    expect(moveCard([1, 2, 3, 4], 1, 4)).toEqual([2, 3, 4, 1]);
    expect(moveCard([1, 2, 3, 4], 4, 0)).toEqual([4, 1, 2, 3]);
    expect(moveCard([1, 2, 3, 4], 2, 3)).toEqual([1, 3, 2, 4]);
    expect(moveCard([1, 2, 3, 4], 9, 0)).toEqual([1, 2, 3, 4]);
  });
});
