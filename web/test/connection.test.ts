// The protocol handling of a table page, with a fake socket (docs/protocol.md).
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { initialState, reduce, TableConnection, type SocketLike } from "../src/connection";

class FakeSocket implements SocketLike {
  readyState = 0;
  sent: Record<string, unknown>[] = [];
  onopen: ((ev: Event) => unknown) | null = null;
  onmessage: ((ev: MessageEvent) => unknown) | null = null;
  onclose: ((ev: CloseEvent) => unknown) | null = null;
  onerror: ((ev: Event) => unknown) | null = null;
  send(text: string) {
    this.sent.push(JSON.parse(text));
  }
  close() {
    this.readyState = 3;
  }
  open() {
    this.readyState = 1;
    this.onopen?.({} as Event);
  }
  receive(message: unknown) {
    this.onmessage?.({ data: JSON.stringify(message) } as MessageEvent);
  }
  drop(code: number) {
    this.readyState = 3;
    this.onclose?.({ code } as CloseEvent);
  }
}

const SYNC = {
  t: "sync", version: 7, seat: 0, status: "playing", seats: [], clock: null,
  table: { id: "T", config: { players: 2, rules: "fibur", options: {}, seats: [] } },
  match: { mode: "free", target: 2005, smazzate: null, hands: [], scores: [0, 0], vp: null, finished: false, winner: null },
  hand: { number: 1, commitment: "c0ffee", hand: ["7H"], hand_ids: [6], melds: [[], []], side_of: [0, 1] },
};

describe("reduce", () => {
  it("takes the version of every event and asks for a sync", () => {
    const [state, sync] = reduce(initialState(), { v: 3, e: { type: "Drew", seat: 1, card_text: null } });
    expect(state.version).toBe(3);
    expect(sync).toBe(true);
    expect(state.log.at(-1)?.type).toBe("Drew");
    const [hidden, again] = reduce(state, { v: 4 });
    expect(hidden.version).toBe(4);
    expect(again).toBe(true);
    expect(hidden.log).toHaveLength(1);
  });

  it("adopts a sync as the truth", () => {
    const [state, sync] = reduce(initialState(), SYNC);
    expect(sync).toBe(false);
    expect(state.version).toBe(7);
    expect(state.synced).toBe(7);
    expect(state.hand?.hand).toEqual(["7H"]);
    expect(state.status).toBe("playing");
  });

  it("keeps the hand's end for the score dialog, and the match's end", () => {
    let [state] = reduce(initialState(), SYNC);
    const result = { reason: "closed", closer: 0, redeal: false, sides: [], seat_totals: [] };
    [state] = reduce(state, { v: 8, e: { type: "HandEnded", number: 1, result, totals: [300, 50], redeal: false, scores: [300, 50], reveal: {} } });
    expect(state.handEnded?.totals).toEqual([300, 50]);
    expect(state.match?.scores).toEqual([300, 50]);
    [state] = reduce(state, { v: 9, e: { type: "MatchOver", winner: 0, scores: [300, 50], vp: null, hands: 1 } });
    expect(state.matchOver?.winner).toBe(0);
    expect(state.status).toBe("finished");
  });

  it("matches acks and rejects to the pending command", () => {
    const pending = { ...initialState(), link: "open" as const, pending: "c1" };
    expect(reduce(pending, { t: "ack", id: "c1", from: 8, to: 8 })[0].pending).toBeNull();
    const [rejected, sync] = reduce(pending, { t: "reject", id: "c1", code: "stale_version", reason: "old", version: 9 });
    expect(rejected.pending).toBeNull();
    expect(rejected.rejected?.code).toBe("stale_version");
    expect(sync).toBe(true);
  });

  it("remembers a refusal before the hello is accepted", () => {
    const [state] = reduce(initialState(), { t: "reject", id: null, code: "seat_taken", reason: "held", version: null });
    expect(state.refused?.code).toBe("seat_taken");
  });
});

describe("TableConnection", () => {
  let sockets: FakeSocket[];
  beforeEach(() => {
    vi.useFakeTimers();
    sockets = [];
  });
  afterEach(() => vi.useRealTimers());

  const connect = () => {
    const conn = new TableConnection("T", { seat: 1, seatToken: "s.T.1.x", guest: "g.a.b.c", watchToken: null },
      () => {
        const socket = new FakeSocket();
        sockets.push(socket);
        return socket;
      });
    conn.connect();
    sockets[0].open();
    return conn;
  };

  it("says hello with its seat and tokens, asks for legal actions, and acts at its version", () => {
    const conn = connect();
    expect(sockets[0].sent[0]).toEqual({ t: "hello", legal: true, protocol: 2, seat: 1, seat_token: "s.T.1.x", guest: "g.a.b.c" });
    sockets[0].receive({ t: "hello_ok", table: "T", seat: 1, version: 7, catch_up: "sync", nickname: "Ada" });
    sockets[0].receive(SYNC);
    conn.act("draw");
    expect(sockets[0].sent[1]).toMatchObject({ t: "act", v: 7, action: "draw" });
    expect(conn.state.pending).toBe(sockets[0].sent[1].id);
  });

  it("asks for one sync after a burst of events", () => {
    connect();
    sockets[0].receive({ t: "hello_ok", table: "T", seat: 1, version: 7, catch_up: "sync", nickname: "Ada" });
    sockets[0].receive(SYNC);
    sockets[0].receive({ v: 8, e: { type: "Drew", seat: 0, card_text: null } });
    sockets[0].receive({ v: 9, e: { type: "Discarded", seat: 0, card_text: "7H" } });
    vi.advanceTimersByTime(100);
    expect(sockets[0].sent.filter((m) => m.t === "sync")).toHaveLength(1);
  });

  it("reconnects after a drop with the last version it saw", () => {
    const conn = connect();
    sockets[0].receive({ t: "hello_ok", table: "T", seat: 1, version: 7, catch_up: "sync", nickname: "Ada" });
    sockets[0].receive(SYNC);
    sockets[0].receive({ v: 8 });
    sockets[0].drop(1006);
    expect(conn.state.link).toBe("reconnecting");
    vi.advanceTimersByTime(1000);
    expect(sockets).toHaveLength(2);
    sockets[1].open();
    expect(sockets[1].sent[0]).toMatchObject({ t: "hello", v: 8 });
  });

  it("gives up when the server refuses the seat", () => {
    const conn = connect();
    sockets[0].receive({ t: "reject", id: null, code: "seat_taken", reason: "seat 1 is held by Bob", version: null });
    sockets[0].drop(4403);
    expect(conn.state.link).toBe("refused");
    vi.advanceTimersByTime(10000);
    expect(sockets).toHaveLength(1);
  });
});
