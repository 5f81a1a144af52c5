// The client's re-implementations against what the engine says (fixtures/engine.json is
// written from the engine and checked by tests/web/test_client_contract.py).
import { describe, expect, it } from "vitest";
import { burracoType, meldShape, typeRules } from "../src/burraco";
import { dealFromOrder } from "../src/deal";
import { commitmentText, sha256Hex } from "../src/sha256";
import engine from "./fixtures/engine.json";

describe("burraco types", () => {
  it.each(engine.melds.map((c) => [c.preset, c.meld, c.type] as const))(
    "%s: %s is %s", (preset, meld, type) => {
      const rules = typeRules((engine.presets as Record<string, Record<string, unknown>>)[preset], {});
      expect(burracoType(meld, rules)).toBe(type);
    });

  it("reads a meld's shape from its text", () => {
    expect(meldShape("5H 6H JK(=7H) 8H")).toMatchObject({ kind: "sequence", wild: 2, lo: 5 });
    expect(meldShape("JK(=4H) 5H 6H")).toMatchObject({ kind: "sequence", wild: 0, lo: 4 });
    expect(meldShape("7H 7D 2C")).toMatchObject({ kind: "set", wild: 2, lo: 7 });
    expect(meldShape("2H 3H 4H")).toMatchObject({ kind: "sequence", wild: -1, lo: 2 });
    expect(meldShape("QS KS AS")).toMatchObject({ kind: "sequence", lo: 12 });
  });

  it("lets a table's options override its preset", () => {
    const fibur = (engine.presets as Record<string, Record<string, unknown>>).fibur;
    const semi = "3S JK(=4S) 5S 6S 7S 8S 9S 10S JS";
    expect(burracoType(semi, typeRules(fibur, {}))).toBe("semi-clean");
    expect(burracoType(semi, typeRules(fibur, { semi_clean: false }))).toBe("dirty");
  });
});

describe("the deal and its commitment", () => {
  it("deals a deck order exactly as the engine does", () => {
    const d = engine.deal;
    const dealt = dealFromOrder(d.order, {
      players: d.players, dealer: d.dealer, cut: d.cut, sizes: d.sizes, handSize: d.hand_size,
    });
    expect(dealt.hands).toEqual(d.hands);
    expect(dealt.pozzetti).toEqual(d.pozzetti);
    expect(dealt.stock).toEqual(d.stock);
    expect(dealt.pile).toEqual(d.pile);
  });

  it("refuses a cut that leaves too few cards", () => {
    const d = engine.deal;
    expect(() => dealFromOrder(d.order, { players: 4, dealer: 0, cut: 5, sizes: d.sizes, handSize: 11 }))
      .toThrow(/cut 5/);
  });

  it("hashes the commitment text as the server does", () => {
    const c = engine.commitment;
    expect(sha256Hex(commitmentText(c.salt, c.order))).toBe(c.sha256);
  });

  it("is SHA-256", () => {
    expect(sha256Hex("abc")).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    expect(sha256Hex("")).toBe("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    expect(sha256Hex("a".repeat(1000))).toBe("41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3");
  });
});
