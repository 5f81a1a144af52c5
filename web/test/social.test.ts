// Friends, clubs and the bell: which notifications are shown (each key once, none dismissed),
// the dismissed keys kept on the device, the friends' presence in words, the links a challenge
// or a watch gives, the routes, and the server's refusals in the player's words.
import { afterEach, describe, expect, it } from "vitest";
import { setLang, t } from "../src/i18n";
import { route } from "../src/route";
import {
  dismissedKeys, dismissKey, expectAnswer, freshNotices, KEEP_DISMISSED, localPath, noticeDelay,
  NOTICE_FAST_MS, NOTICE_POLL_MS, presenceKey, seatPath, social, SocialError, socialErrorText, type Fetch,
} from "../src/social";

afterEach(() => setLang("en"));

function memory(): Storage {
  const data = new Map<string, string>();
  return {
    getItem: (k: string) => data.get(k) ?? null, setItem: (k: string, v: string) => void data.set(k, v),
    removeItem: (k: string) => void data.delete(k), clear: () => data.clear(), key: () => null,
    get length() { return data.size; },
  } as Storage;
}

const challenge = { kind: "challenge", key: "challenge:c1", id: "c1", from: "ada", format: "1005", rated: false, expires: 1 };
const follower = { kind: "follower", key: "follower:bob", username: "bob", since: 1 };

describe("the notifications", () => {
  it("shows each key once, and nothing dismissed, unknown or malformed", () => {
    const items = [challenge, { ...challenge }, follower, { kind: "web_push", key: "x" }, { kind: "follower" }, null, 3];
    expect(freshNotices(items, new Set()).map((n) => n.key)).toEqual(["challenge:c1", "follower:bob"]);
    expect(freshNotices(items, new Set(["challenge:c1"])).map((n) => n.key)).toEqual(["follower:bob"]);
    expect(freshNotices({ notifications: [] }, new Set())).toEqual([]);
  });

  it("knows a friend's invitation to queue as partners, and names a party's refusals", () => {
    const invite = { kind: "party_invite", key: "party_invite:ada:5", by: "ada",
      pool: { name: "505/4/casual", format: "505", form: "4", rated: false }, expires: 65 };
    expect(freshNotices([invite, follower], new Set()).map((n) => n.kind)).toEqual(["party_invite", "follower"]);
    expect(socialErrorText(new SocialError(409, "no_invitation", "none"))).toBe("That invitation is no longer open.");
    expect(socialErrorText(new SocialError(409, "partner_busy", "busy"))).toMatch(/^Your friend is busy/);
  });

  it("remembers dismissed keys on the device, the newest kept", () => {
    const store = memory();
    expect(dismissedKeys(store).size).toBe(0);
    dismissKey("challenge:c1", store);
    dismissKey("follower:bob", store);
    dismissKey("challenge:c1", store);
    expect([...dismissedKeys(store)]).toEqual(["follower:bob", "challenge:c1"]);
    for (let i = 0; i < KEEP_DISMISSED + 5; i++) dismissKey(`k${i}`, store);
    const kept = dismissedKeys(store);
    expect(kept.size).toBe(KEEP_DISMISSED);
    expect(kept.has(`k${KEEP_DISMISSED + 4}`)).toBe(true);
    expect(kept.has("follower:bob")).toBe(false);
    store.setItem("burraco:notices:dismissed", "not json");
    expect(dismissedKeys(store).size).toBe(0);
  });

  it("asks every 20 s, and every 3 s for five minutes after a challenge is sent", () => {
    const now = 1_000_000_000_000;
    expect(noticeDelay(now)).toBe(NOTICE_POLL_MS);
    expectAnswer(now);
    expect(noticeDelay(now + 1000)).toBe(NOTICE_FAST_MS);
    expect(noticeDelay(now + 6 * 60_000)).toBe(NOTICE_POLL_MS);
  });
});

describe("presence", () => {
  it("says where a friend is: at a table before in a pool before online", () => {
    expect(presenceKey({ online: true, table: "t1", pool: { format: "1005" } })).toBe("friends.atTable");
    expect(presenceKey({ online: true, table: null, pool: { format: "1005" } })).toBe("friends.inPool");
    expect(presenceKey({ online: true })).toBe("friends.online");
    expect(presenceKey({ online: false, table: null, pool: null })).toBe("friends.offline");
    expect(t(presenceKey({ online: true, table: "t" }))).toBe("At a table");
    setLang("it");
    expect(t(presenceKey({ online: false }))).toBe("Assente");
  });

  it("counts by each language's plurals", () => {
    expect(t("clubs.members", { n: 1 })).toBe("1 member");
    expect(t("notice.bell", { n: 3 })).toBe("3 notifications");
    setLang("sl");
    expect([1, 2, 3, 5].map((n) => t("clubs.members", { n }))).toEqual(["1 član", "2 člana", "3 člani", "5 članov"]);
  });
});

describe("links", () => {
  it("keeps a seat or watch link on this origin only", () => {
    const origin = "https://burraco.example";
    expect(localPath("/play/t1?watch=w", origin)).toBe("/play/t1?watch=w");
    expect(localPath("https://burraco.example/play/t1?watch=w", origin)).toBe("/play/t1?watch=w");
    expect(localPath("https://elsewhere.example/play/t1", origin)).toBeNull();
    expect(localPath(null, origin)).toBeNull();
  });

  it("goes to the seat an accepted challenge gives", () => {
    expect(seatPath({ url: "http://localhost/play/t9?seat=1&token=abc", table: "t9", seat: 1, token: "abc" }))
      .toBe("/play/t9?seat=1&token=abc");
    expect(seatPath({ table: "t9", seat: 0, token: "x y" })).toBe("/play/t9?seat=0&token=x%20y");
    expect(seatPath({})).toBeNull();
  });

  it("routes the friends and clubs pages", () => {
    expect(route("/friends")).toEqual({ page: "friends" });
    expect(route("/clubs")).toEqual({ page: "clubs" });
    expect(route("/clubs/the-green-table")).toEqual({ page: "club", id: "the-green-table" });
    expect(route("/clubs/a/b")).toEqual({ page: "notfound" });
  });
});

describe("refusals", () => {
  const answer = (status: number, body: unknown): Fetch => async () =>
    new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

  it("says a known code in the player's words, else the server's detail", async () => {
    const taken = await social("POST", "/api/clubs", {}, answer(409, { code: "name_taken", detail: "taken" })).catch((e) => e);
    expect(taken).toBeInstanceOf(SocialError);
    expect(socialErrorText(taken)).toBe(t("social.error.nameTaken"));
    const nobody = await social("POST", "/api/challenges", {},
      answer(422, { code: "bad_request", detail: "no such player", field: "to" })).catch((e) => e);
    expect(socialErrorText(nobody)).toBe(t("social.error.noPlayer"));
    const odd = await social("POST", "/api/x", {}, answer(409, { code: "something_new", detail: "Something new happened" }))
      .catch((e) => e);
    expect(socialErrorText(odd)).toBe("Something new happened");
    setLang("es");
    expect(socialErrorText(new SocialError(403, "blocked", "blocked"))).toBe("No es posible: hay un bloqueo entre tú y este jugador.");
    expect(socialErrorText(new SocialError(0, "network", "x"))).toBe(t("common.network"));
  });
});
