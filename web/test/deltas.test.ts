// Protocol 2's event deltas (docs/protocol.md §15): the reducer against frames a real server
// sent to seat 0 during two whole hands (recorded by tests/server/test_server_deltas.py with
// BURRACO_UPDATE_FIXTURES=1), checked against the syncs the server gave at the same versions.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { initialState, reduce, type TableState } from "../src/connection";
import { applyDelta } from "../src/deltas";

const recorded = JSON.parse(readFileSync(new URL("./fixtures/deltas.json", import.meta.url), "utf8")) as {
  messages: Record<string, any>[];
  checks: Record<string, { status: string; match: unknown; hand: unknown }>;
};

function play(messages: Record<string, any>[]): { state: TableState; syncs: number; checked: number } {
  let state = initialState();
  let syncs = 0;
  const checked = new Set<number>();
  for (const message of messages) {
    let want: boolean;
    [state, want] = reduce(state, message);
    if (want) syncs += 1;
    const check = recorded.checks[String(state.version)];
    if (check && state.synced === state.version) {
      expect({ status: state.status, match: state.match, hand: state.hand }).toEqual(check);
      checked.add(state.version);
    }
  }
  return { state, syncs, checked: checked.size };
}

describe("event deltas", () => {
  it("rebuild every sync of two recorded hands without asking for one", () => {
    const { syncs, checked, state } = play(recorded.messages);
    expect(state.protocol).toBe(2);
    expect(syncs).toBe(0);
    expect(checked).toBeGreaterThan(30);
    expect(checked).toBe(Object.keys(recorded.checks).length);
  });

  it("wait for a sync after a gap, and apply nothing meanwhile", () => {
    const messages = recorded.messages;
    const at = messages.findIndex((m, i) => i > 10 && m.d?.h?.melds_set);
    let state = initialState();
    for (const message of messages.slice(0, at)) [state] = reduce(state, message);
    const before = state.hand;
    const melding = messages[at];
    const [next, want] = reduce(state, { ...melding, v: state.version + 2 });
    expect(want).toBe(true);
    expect(next.resync).toBe(true);
    expect(next.hand).toBe(before);
    const [later, again] = reduce(next, { ...melding, v: next.version + 1 });
    expect(again).toBe(false);
    expect(later.hand).toBe(before);
    const [synced] = reduce(later, { t: "sync", version: later.version, seat: 0, status: "playing", seats: [],
      clock: null, table: { id: "T", config: {} }, match: later.match, hand: before });
    expect(synced.resync).toBe(false);
    const [applied] = reduce(synced, { ...melding, v: synced.version + 1 });
    expect(applied.hand).not.toBe(before);
  });

  it("ask for one sync after a replayed catch-up", () => {
    let [state] = reduce(initialState(), { t: "hello_ok", table: "T", seat: 0, version: 3, catch_up: "sync", protocol: 2 });
    [state] = reduce(state, { t: "sync", version: 3, seat: 0, status: "playing", seats: [], clock: null,
      table: { id: "T", config: {} }, match: null, hand: null });
    [state] = reduce(state, { t: "hello_ok", table: "T", seat: 0, version: 5, catch_up: "replay", protocol: 2 });
    let want: boolean;
    [state, want] = reduce(state, { v: 4, e: { type: "Drew", seat: 1, card_text: null } });
    expect(want).toBe(false);
    [state, want] = reduce(state, { v: 5 });
    expect(want).toBe(true);
    [state, want] = reduce(state, { v: 6, d: { status: "finished" } });
    expect(want).toBe(false);
    expect(state.status).toBe("playing");
  });

  it("fall back to a sync per event with a server that speaks protocol 1", () => {
    const [state] = reduce(initialState(), { t: "hello_ok", table: "T", seat: 0, version: 3, catch_up: "sync" });
    expect(state.protocol).toBe(1);
    expect(reduce(state, { v: 4, d: { status: "finished" } })[1]).toBe(true);
  });

  it("append tails and set single melds", () => {
    const hand = { pile: ["5H"], moves: [[0, "draw"]], melds: [["5H 6H 7H"], []], hand: ["KD"] } as any;
    const next = applyDelta({ status: "playing", match: null, hand },
      { h: { pile_add: ["KD"], moves_add: [[0, "discard KD"]], melds_set: [[0, 0, "5H 6H 7H 8H"], [1, 0, "QS QD QC"]], hand: [] } });
    expect(next.hand?.pile).toEqual(["5H", "KD"]);
    expect(next.hand?.moves).toEqual([[0, "draw"], [0, "discard KD"]]);
    expect(next.hand?.melds).toEqual([["5H 6H 7H 8H"], ["QS QD QC"]]);
    expect(hand.melds[0]).toEqual(["5H 6H 7H"]);
  });
});
