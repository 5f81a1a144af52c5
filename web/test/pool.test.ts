// "Play with people": the choices kept and sent, the words of a wait, the server's answers and
// refusals, and the watch that polls the pool (a fake clock, fake calls, a fake page visibility).
import { afterEach, describe, expect, it } from "vitest";
import { setLang, t } from "../src/i18n";
import {
  acceptInvitation, botsAfterLabel, clockText, DEFAULT_POOL_CHOICE, joinBody, joinPool, leavePool, matchPath, POLL_MS,
  PoolError, poolErrorText, poolLine, poolStatus, PoolWatch, readPoolChoice, readStatus, timeLeft, windowText,
  type Fetch, type PoolStatus, type Watched, type WatchEnv,
} from "../src/pool";

afterEach(() => setLang("en"));

describe("the choices", () => {
  it("reads a kept choice field by field, and defaults to 1005, two players, casual, bots after 45 s", () => {
    expect(readPoolChoice(null)).toEqual({ format: "1005", form: "2", rated: false, botsAfter: 45 });
    expect(readPoolChoice("not json")).toEqual(DEFAULT_POOL_CHOICE);
    expect(readPoolChoice(JSON.stringify({ format: "vp3", form: "4", rated: true, botsAfter: null })))
      .toEqual({ format: "vp3", form: "4", rated: true, botsAfter: null });
    expect(readPoolChoice(JSON.stringify({ format: "999", form: 4, rated: "yes", botsAfter: 7 })))
      .toEqual(DEFAULT_POOL_CHOICE);
  });

  it("sends a guest casual, and a rated pool no bots", () => {
    const rated = { format: "2005" as const, form: "4" as const, rated: true, botsAfter: 45 };
    expect(joinBody(rated, true)).toEqual({ format: "2005", form: "4", rated: true, bots_after: null });
    expect(joinBody(rated, false)).toEqual({ format: "2005", form: "4", rated: false, bots_after: 45 });
    expect(joinBody({ ...rated, rated: false, botsAfter: null }, true))
      .toEqual({ format: "2005", form: "4", rated: false, bots_after: null });
  });
});

describe("a partner", () => {
  it("is sent for an account's game of four only", () => {
    const four = { format: "505" as const, form: "4" as const, rated: false, botsAfter: 45 };
    expect(joinBody(four, true, "Bo")).toEqual({ format: "505", form: "4", rated: false, bots_after: 45, partner: "Bo" });
    expect(joinBody(four, true, "")).not.toHaveProperty("partner");
    expect(joinBody(four, false, "Bo")).not.toHaveProperty("partner");
    expect(joinBody({ ...four, form: "2" }, true, "Bo")).not.toHaveProperty("partner");
  });

  it("reads an invitation sent and one received, and the partner of a wait", () => {
    const pool = { name: "505/4/casual", format: "505", form: "4", rated: false };
    expect(readStatus({ state: "inviting", pool, partner: "Bo", since: 1, expires: 61, expires_in: 58.5, bots_after: 45 }))
      .toEqual({ state: "inviting", pool, partner: "Bo", expires_in: 58.5, bots_after: 45 });
    expect(readStatus({ state: "invited", pool, by: "Ada", since: 1, expires: 61, expires_in: -2, bots_after: null }))
      .toEqual({ state: "invited", pool, by: "Ada", expires_in: 0, bots_after: null });
    expect(readStatus({ state: "invited", pool })).toEqual({ state: "none" });
    expect(readStatus({ state: "waiting", pool, waited: 2, partner: "Ada" })).toMatchObject({ state: "waiting", partner: "Ada" });
    expect(timeLeft({ status: { expires_in: 30 }, at: 1000 }, 11_500)).toBe(19.5);
    expect(timeLeft({ status: { expires_in: 3 }, at: 0 }, 10_000)).toBe(0);
  });

  it("invites, accepts, and names a party's refusals", async () => {
    const calls: [string, RequestInit | undefined][] = [];
    const answer = (status: number, body: unknown): Fetch => async (url, init) => {
      calls.push([url, init]);
      return new Response(JSON.stringify(body), { status });
    };
    const pool = { name: "505/4/casual", format: "505", form: "4", rated: false };
    const inviting = await joinPool({ format: "505", form: "4", rated: false, bots_after: 45, partner: "bo" },
      answer(200, { state: "inviting", pool, partner: "Bo", since: 1, expires: 61, expires_in: 60, bots_after: 45 }));
    expect(inviting).toEqual({ state: "inviting", pool, partner: "Bo", expires_in: 60, bots_after: 45 });
    const joined = await acceptInvitation("Ada", answer(200, { state: "waiting", pool, since: 2, rating: 1500,
      window: [1400, 1600], bots_after: 45, partner: "Ada" }));
    expect(joined).toMatchObject({ state: "waiting", partner: "Ada", waited: 0, window: [1400, 1600] });
    expect(calls[1][0]).toBe("/api/pool/accept");
    expect([calls[1][1]?.method, JSON.parse(String(calls[1][1]?.body))]).toEqual(["POST", { by: "Ada" }]);
    const gone = await acceptInvitation("Ada", answer(409, { code: "no_invitation", detail: "none", field: "by" }))
      .catch((e) => e);
    expect(poolErrorText(gone)).toBe("That invitation is no longer open.");
    expect(poolErrorText(new PoolError(422, "bad_field", "…", "partner"))).toMatch(/^Pick a friend/);
    expect(poolErrorText(new PoolError(403, "account_required", "…", "partner"))).toBe("Playing with a partner needs an account.");
    expect(poolErrorText(new PoolError(409, "partner_busy", "…", "partner"))).toMatch(/^Your friend is busy/);
    expect(poolErrorText(new PoolError(409, "partner_unavailable", "…", "partner"))).toMatch(/rated seat/);
  });
});

describe("the words of a wait", () => {
  it("says the rating window as ±half its width, or anyone", () => {
    expect(windowText([1400, 1600])).toBe("±100");
    expect(windowText([1199.5, 1800.5])).toBe("±301");
    expect(windowText([1200, 1800])).toBe("±300");
    expect(windowText(null)).toBe("anyone");
    expect(t("pool.window", { range: windowText(null) })).toBe("Rating range: anyone");
    setLang("it");
    expect(windowText(null)).toBe("chiunque");
    expect(windowText([1400, 1600])).toBe("±100");
  });

  it("counts who waits by each language's plural rules", () => {
    expect(t("pool.count", { n: 1 })).toBe("1 player waiting");
    expect(t("pool.count", { n: 3 })).toBe("3 players waiting");
    setLang("sl");
    expect([1, 2, 3, 5].map((n) => t("pool.count", { n })))
      .toEqual(["1 igralec čaka", "2 igralca čakata", "3 igralci čakajo", "5 igralcev čaka"]);
    setLang("ro");
    expect(t("pool.count", { n: 20 })).toBe("20 de jucători așteaptă");
  });

  it("writes a wait on a clock, and the bots' wait as a choice", () => {
    expect([0, 7.9, 65, 600, 3723, -3, Number.NaN].map(clockText))
      .toEqual(["0:00", "0:07", "1:05", "10:00", "1:02:03", "0:00", "0:00"]);
    expect([20, 45, 180, null].map(botsAfterLabel))
      .toEqual(["after 20 s", "after 45 s", "after 3 min", "never (people only)"]);
    expect(poolLine({ format: "1005", form: "2", rated: false })).toBe("To 1005 points · 2 players · Casual");
    expect(poolLine({ format: "vp3", form: "4", rated: true })).toBe("3 hands, victory points · 4 players · Rated");
  });
});

describe("the server's answers", () => {
  it("reads not queued, waiting and matched", () => {
    expect(readStatus({ state: "none" })).toEqual({ state: "none" });
    expect(readStatus({ state: "waiting", pool: { name: "1005/2/casual", format: "1005", form: "2", rated: false },
      since: 1, waited: 12.5, rating: 1500, window: [1400, 1600], bots_after: 45, waiting: 3 })).toEqual({
      state: "waiting", pool: { name: "1005/2/casual", format: "1005", form: "2", rated: false },
      waited: 12.5, window: [1400, 1600], bots_after: 45, waiting: 3, partner: null,
    });
    const pending = readStatus({ state: "matched", match: { table: null, pending: true, seat: 1, url: null, token: null,
      players: ["Ada", "Bo"], bots: [] } });
    expect(pending.state === "matched" && pending.match.pending).toBe(true);
    const seated = readStatus({ state: "matched", match: { table: "T1", pending: false, seat: 1,
      url: "https://burraco.example/play/T1?seat=1&token=abc", token: "abc", players: ["Ada", null], bots: ["basic"] } });
    expect(seated.state === "matched" && seated.match).toMatchObject({ table: "T1", pending: false, seat: 1, bots: ["basic"] });
  });

  it("goes to the seat link in this client, whatever host the server names", () => {
    const match = { table: "T1", pending: false, seat: 2, url: "https://other.example/play/T1?seat=2&token=a%2Bb", token: "a+b",
      players: [], bots: [] };
    expect(matchPath(match, "http://localhost:8000")).toBe("/play/T1?seat=2&token=a%2Bb");
    expect(matchPath({ ...match, url: null }, "http://localhost")).toBe("/play/T1?seat=2&token=a%2Bb");
    expect(matchPath({ ...match, url: null, token: null, table: null, pending: true })).toBeNull();
  });

  it("names what was wrong in the player's language", () => {
    expect(poolErrorText(new PoolError(422, "bad_field", "…", "format"))).toBe(t("pool.error.format"));
    expect(poolErrorText(new PoolError(422, "bad_field", "…", "format"), true)).toBe(t("pool.error.formatRated"));
    expect(poolErrorText(new PoolError(422, "bad_field", "…", "bots_after"))).toMatch(/^Bots may join/);
    expect(poolErrorText(new PoolError(422, "bad_field", "…", "colour"))).toBe("The server did not accept the choice “colour”.");
    expect(poolErrorText(new PoolError(429, "rate_limited", "…", null, 12))).toBe("Too many tries in a short time: wait 12 s and try again.");
    expect(poolErrorText(new PoolError(0, "network", "…"))).toBe("The server cannot be reached.");
    expect(poolErrorText(new PoolError(409, "already_queued", "…"))).toBe("You are already waiting in the pool.");
    setLang("it");
    expect(poolErrorText(new PoolError(422, "bad_field", "…", "form"))).toBe("Scegli 2 o 4 giocatori.");
    expect(poolErrorText(new PoolError(403, "account_required", "rated pools are for accounts"))).toBe(t("code.account_required" as never));
  });

  it("calls /api/pool and keeps the refusal's field and wait", async () => {
    const calls: [string, RequestInit | undefined][] = [];
    const answer = (status: number, body: unknown, headers: Record<string, string> = {}): Fetch => async (url, init) => {
      calls.push([url, init]);
      return new Response(body === null ? null : JSON.stringify(body), { status, headers });
    };
    const joined = await joinPool({ format: "505", form: "4", rated: false, bots_after: 20 }, answer(200,
      { pool: { name: "505/4/casual", format: "505", form: "4", rated: false }, since: 5, rating: 1500, window: [1400, 1600], bots_after: 20 }));
    expect(joined).toMatchObject({ state: "waiting", waited: 0, window: [1400, 1600], bots_after: 20, waiting: null });
    expect(calls[0][0]).toBe("/api/pool");
    expect(calls[0][1]?.method).toBe("POST");
    expect(JSON.parse(String(calls[0][1]?.body))).toEqual({ format: "505", form: "4", rated: false, bots_after: 20 });
    const bad = await joinPool({ format: "hand", form: "2", rated: false, bots_after: 45 },
      answer(422, { code: "bad_field", field: "bots_after", detail: "no" })).catch((e) => e);
    expect(bad).toBeInstanceOf(PoolError);
    expect([bad.status, bad.code, bad.field]).toEqual([422, "bad_field", "bots_after"]);
    const busy = await poolStatus(answer(429, { code: "rate_limited", detail: "slow" }, { "retry-after": "7" })).catch((e) => e);
    expect(busy.retryAfter).toBe(7);
    await expect(leavePool(answer(204, null))).resolves.toBeUndefined();
    const down = await poolStatus(async () => { throw new TypeError("offline"); }).catch((e) => e);
    expect([down.status, down.code]).toEqual([0, "network"]);
  });
});

// --- the watch -------------------------------------------------------------------------------

class FakeEnv implements WatchEnv {
  time = 0;
  hiddenNow = false;
  calls = 0;
  answers: (PoolStatus | Error | "hang")[] = [];
  pending: ((s: PoolStatus) => void)[] = [];
  timers = new Map<number, [number, () => void]>();
  private next = 1;
  origin = "http://localhost";

  get = (): Promise<PoolStatus> => {
    this.calls += 1;
    const answer = this.answers.shift() ?? WAITING;
    if (answer === "hang") return new Promise((resolve) => this.pending.push(resolve));
    return answer instanceof Error ? Promise.reject(answer) : Promise.resolve(answer);
  };
  now = () => this.time;
  setTimer = (fn: () => void, ms: number) => {
    const id = this.next++;
    this.timers.set(id, [this.time + ms, fn]);
    return id;
  };
  clearTimer = (id: unknown) => { this.timers.delete(id as number); };
  hidden = () => this.hiddenNow;

  /** Let the clock run `ms`, firing each timer that falls due, and the answers after it. */
  async advance(ms: number): Promise<void> {
    const end = this.time + ms;
    for (;;) {
      await flush();
      const due = [...this.timers.entries()].filter(([, [at]]) => at <= end).sort((a, b) => a[1][0] - b[1][0])[0];
      if (!due) break;
      this.timers.delete(due[0]);
      this.time = due[1][0];
      due[1][1]();
    }
    this.time = end;
    await flush();
  }
}

async function flush(): Promise<void> {
  for (let i = 0; i < 10; i++) await Promise.resolve();
}

const POOL = { name: "1005/2/casual", format: "1005", form: "2", rated: false };
const WAITING: PoolStatus = { state: "waiting", pool: POOL, waited: 3, window: [1400, 1600], bots_after: 45, waiting: 2 };
const PENDING: PoolStatus = { state: "matched", match: { table: null, pending: true, seat: 0, url: null, token: null, players: ["Ada", "Bo"], bots: [] } };
const SEATED: PoolStatus = { state: "matched", match: { table: "T9", pending: false, seat: 1, url: "http://x/play/T9?seat=1&token=tok",
  token: "tok", players: ["Ada", "Bo"], bots: [] } };

function watching(env: FakeEnv) {
  const seen: Watched[] = [];
  const watch = new PoolWatch(env, (w) => seen.push(w));
  return { watch, seen };
}

describe("the watch", () => {
  it("asks at once, then every 1.5 s, one call at a time", async () => {
    const env = new FakeEnv();
    const { watch, seen } = watching(env);
    watch.start({ ...WAITING, waited: 0, waiting: null } as PoolStatus);
    expect(seen[0]).toMatchObject({ phase: "waiting", at: 0 });
    await env.advance(0);
    expect(env.calls).toBe(1);
    await env.advance(POLL_MS - 1);
    expect(env.calls).toBe(1);
    await env.advance(1);
    expect(env.calls).toBe(2);
    await env.advance(POLL_MS * 4);
    expect(env.calls).toBe(6);
    expect(seen.at(-1)).toMatchObject({ phase: "waiting", status: { waiting: 2 }, at: POLL_MS * 5, trouble: 0 });
    // a slow answer: no second call until it comes
    env.answers.push("hang");
    await env.advance(POLL_MS * 5);
    expect(env.calls).toBe(7);
    env.pending.shift()!(WAITING);
    await env.advance(POLL_MS);
    expect(env.calls).toBe(8);
    watch.stop();
  });

  it("does not ask while the page is hidden, and asks at once when it shows again", async () => {
    const env = new FakeEnv();
    const { watch } = watching(env);
    watch.start();
    await env.advance(0);
    expect(env.calls).toBe(1);
    env.hiddenNow = true;
    watch.visibility();
    await env.advance(POLL_MS * 10);
    expect(env.calls).toBe(1);
    expect(env.timers.size).toBe(0);
    env.hiddenNow = false;
    watch.visibility();
    await env.advance(0);
    expect(env.calls).toBe(2);
    await env.advance(POLL_MS);
    expect(env.calls).toBe(3);
    watch.stop();
  });

  it("stops when cancelled, and drops an answer that comes after", async () => {
    const env = new FakeEnv();
    const { watch, seen } = watching(env);
    env.answers.push("hang");
    watch.start();
    await env.advance(0);
    watch.stop();
    env.pending.shift()!(SEATED);
    await env.advance(POLL_MS * 10);
    expect(env.calls).toBe(1);
    expect(seen).toEqual([]);
    expect(watch.active).toBe(false);
    // and a shown page does not wake a stopped watch
    watch.visibility();
    await env.advance(POLL_MS);
    expect(env.calls).toBe(1);
  });

  it("waits while the table is made, then stops with the seat's path", async () => {
    const env = new FakeEnv();
    const { watch, seen } = watching(env);
    env.answers.push(WAITING, PENDING, PENDING, SEATED);
    watch.start();
    await env.advance(POLL_MS * 10);
    expect(seen.map((w) => w.phase)).toEqual(["waiting", "seating", "seating", "matched"]);
    expect(seen.at(-1)).toMatchObject({ phase: "matched", path: "/play/T9?seat=1&token=tok" });
    expect(env.calls).toBe(4);
    expect(watch.active).toBe(false);
    expect(env.timers.size).toBe(0);
  });

  it("says when the player is no longer in the pool, and stops", async () => {
    const env = new FakeEnv();
    const { watch, seen } = watching(env);
    env.answers.push(WAITING, { state: "none" });
    watch.start();
    await env.advance(POLL_MS * 10);
    expect(seen.map((w) => w.phase)).toEqual(["waiting", "gone"]);
    expect(env.calls).toBe(2);
  });

  it("follows an invitation: sent, then a wait together; received, then gone (declined or run out)", async () => {
    const pool = { name: "505/4/casual", format: "505", form: "4", rated: false };
    const inviting: PoolStatus = { state: "inviting", pool, partner: "Bo", expires_in: 60, bots_after: 45 };
    const invited: PoolStatus = { state: "invited", pool, by: "Ada", expires_in: 60, bots_after: 45 };
    const env = new FakeEnv();
    const { watch, seen } = watching(env);
    env.answers.push(inviting, { ...WAITING, partner: "Bo" } as PoolStatus);
    watch.start(inviting);
    await env.advance(POLL_MS);
    expect(seen.map((w) => w.phase)).toEqual(["inviting", "inviting", "waiting"]);
    expect(watch.active).toBe(true);
    watch.stop();
    const other = watching(env);
    env.answers.splice(0, env.answers.length, invited, { state: "none" });
    other.watch.start();
    await env.advance(POLL_MS * 3);
    expect(other.seen).toEqual([expect.objectContaining({ phase: "invited" }), { phase: "gone", after: "invited" }]);
    expect(other.watch.active).toBe(false);
  });

  it("drops an answer to an earlier start, and asks again for the new one", async () => {
    const env = new FakeEnv();
    const { watch, seen } = watching(env);
    const invited: PoolStatus = { state: "invited", pool: POOL, by: "Ada", expires_in: 60, bots_after: 45 };
    env.answers.push("hang");
    watch.start(invited);
    await env.advance(0);
    watch.start(WAITING);
    env.pending.shift()!(invited);
    await env.advance(0);
    expect(seen.map((w) => w.phase)).toEqual(["invited", "waiting", "waiting"]);
    expect(env.calls).toBe(2);
    watch.stop();
  });

  it("keeps asking through network trouble, and gives up when the server no longer knows the player", async () => {
    const env = new FakeEnv();
    const { watch, seen } = watching(env);
    env.answers.push(WAITING, new PoolError(0, "network", "down"), new PoolError(503, "overloaded", "busy"), WAITING,
      new PoolError(401, "bad_token", "who?"));
    watch.start();
    await env.advance(POLL_MS * 20);
    expect(seen.map((w) => (w.phase === "waiting" ? `waiting/${w.trouble}` : w.phase)))
      .toEqual(["waiting/0", "waiting/1", "waiting/2", "waiting/0", "failed"]);
    expect(env.calls).toBe(5);
    expect(watch.active).toBe(false);
  });
});
