// Online tournaments: the time left as a clock, a local date and time as seconds, the events
// grouped by what they are doing, the links to a seat or to watch, the bell's items, the
// refusals in the player's words by field, the routes, and the profile's section.
import { h } from "preact";
import { renderToString } from "preact-render-to-string";
import { afterEach, describe, expect, it } from "vitest";
import {
  clock, eventError, eventNotices, grouped, kindLine, live, localInputs, localSeconds, mySeatPath, playPath,
  proposedStart, type EventSummary,
} from "../src/eventapi";
import { ProfileEvents } from "../src/events";
import { setLang, t } from "../src/i18n";
import { route } from "../src/route";
import { SocialError } from "../src/social";

afterEach(() => setLang("en"));

function summary(over: Partial<EventSummary>): EventSummary {
  return {
    id: "e", name: "E", kind: "swiss", form: "2", format: "hand", rules: "fibur", starts: 1000, rounds: 3,
    minutes: null, turn_seconds: 60, show_seconds: 120, rated: false, min_rating: null, club: null,
    max_entrants: 256, phase: "open", round: 0, started: null, finished: null, ends: null, entered: 0,
    recurring: false, registered: false, ...over,
  };
}

describe("time", () => {
  it("writes the time left as a clock, days as days", () => {
    expect(clock(0)).toBe("0:00");
    expect(clock(-5)).toBe("0:00");
    expect(clock(4.2)).toBe("0:05");
    expect(clock(247)).toBe("4:07");
    expect(clock(3729)).toBe("1:02:09");
    expect(clock(86_400 * 3 + 5)).toBe("3 days");
    expect(clock(86_400)).toBe("1 day");
  });

  it("reads the form's local date and time as seconds, and back", () => {
    const at = new Date(2027, 2, 14, 20, 30).getTime();
    expect(localInputs(at)).toEqual({ date: "2027-03-14", time: "20:30" });
    expect(localSeconds("2027-03-14", "20:30")).toBe(at / 1000);
    expect(localSeconds("2027-03-14", "20:30:15")).toBe(at / 1000 + 15);
    expect(localSeconds("", "20:30")).toBeNull();
    expect(localSeconds("2027-03-14", "8pm")).toBeNull();
  });

  it("proposes a start half an hour ahead, on five minutes", () => {
    const now = new Date(2027, 2, 14, 20, 31, 10).getTime();
    expect(proposedStart(now)).toBe(new Date(2027, 2, 14, 21, 5).getTime());
  });
});

describe("the list", () => {
  it("groups the events: running, upcoming soonest first, over latest first", () => {
    const events = [
      summary({ id: "late", starts: 3000 }), summary({ id: "soon", starts: 2000 }),
      summary({ id: "run", phase: "running", started: 900 }),
      summary({ id: "old", phase: "finished", finished: 100 }), summary({ id: "new", phase: "finished", finished: 500 }),
      summary({ id: "off", phase: "cancelled", starts: 300 }),
    ];
    const g = grouped(events);
    expect(g.running.map((e) => e.id)).toEqual(["run"]);
    expect(g.upcoming.map((e) => e.id)).toEqual(["soon", "late"]);
    expect(g.over.map((e) => e.id)).toEqual(["new", "off", "old"]);
    expect(live("open") && live("running")).toBe(true);
    expect(live("finished") || live("cancelled")).toBe(false);
  });

  it("says what kind of event it is", () => {
    expect(kindLine(summary({ kind: "swiss", rounds: 1 }))).toBe("Swiss · 1 round");
    expect(kindLine(summary({ kind: "arena", rounds: null, minutes: 45 }))).toBe("Arena · 45 min");
  });

  it("routes the pages", () => {
    expect(route("/events")).toEqual({ page: "events" });
    expect(route("/events/")).toEqual({ page: "events" });
    expect(route("/events/ab12")).toEqual({ page: "event", id: "ab12" });
    expect(route("/events/ab12/x").page).toBe("notfound");
  });
});

describe("links", () => {
  it("goes to a seat or a watch link in this client, whatever the server's address", () => {
    const game = { id: "g", round: 1, table: "T1", seat: 2, token: "tok", sit_by: 0,
      url: "https://burraco.example/play/T1?seat=2&token=tok" };
    expect(mySeatPath(game)).toBe("/play/T1?seat=2&token=tok");
    expect(mySeatPath({ ...game, url: null })).toBe("/play/T1?seat=2&token=tok");
    expect(mySeatPath({ ...game, url: null, token: null })).toBeNull();
    expect(mySeatPath(null)).toBeNull();
    expect(playPath("http://x/play/T1?watch=w")).toBe("/play/T1?watch=w");
    expect(playPath("javascript:alert(1)")).toBeNull();
    expect(playPath("https://evil.example/steal")).toBeNull();
    expect(playPath(null)).toBeNull();
  });
});

describe("the bell", () => {
  it("shows the tournaments' items once each, none dismissed or malformed", () => {
    const starting = { kind: "event_starting", key: "event_starting:e1", event: "e1", name: "Friday", starts: 5 };
    const game = { kind: "event_game", key: "event_game:e1:g1", event: "e1", name: "Friday", round: 1, table: "T", url: "/play/T" };
    const items = [starting, { ...starting }, game, { kind: "challenge", key: "c" }, { kind: "event_game", key: "x" }, null];
    expect(eventNotices(items, new Set()).map((n) => n.key)).toEqual(["event_starting:e1", "event_game:e1:g1"]);
    expect(eventNotices(items, new Set(["event_starting:e1"])).map((n) => n.key)).toEqual(["event_game:e1:g1"]);
    expect(eventNotices("nope", new Set())).toEqual([]);
  });
});

describe("refusals", () => {
  const refused = (status: number, code: string, field: string | null = null) => new SocialError(status, code, "English", field);

  it("names the form's field, in the player's words", () => {
    expect(eventError(refused(422, "bad_field", "starts"), "create")).toEqual({ field: "starts", text: t("events.error.starts") });
    expect(eventError(refused(422, "bad_field", "rounds"), "create").text).toBe(t("events.error.rounds"));
    expect(eventError(refused(403, "not_club_admin", "club"), "create")).toEqual({ field: "club", text: t("events.error.clubAdmin") });
    expect(eventError(refused(422, "bad_field", "kind"), "create").text).toBe(t("events.error.field"));
  });

  it("says why a join is refused", () => {
    expect(eventError(refused(422, "bad_field", "partner"), "join").text).toBe(t("events.error.partner"));
    expect(eventError(refused(422, "bad_field", "max_entrants"), "join").text).toBe(t("events.error.full"));
    expect(eventError(refused(409, "refused", "starts"), "join").text).toBe(t("events.error.closed"));
    expect(eventError(refused(409, "refused", "phase"), "leave").text).toBe(t("events.error.over"));
    expect(eventError(refused(404, "event_not_found"), "read").text).toBe(t("events.error.notFound"));
    expect(eventError(refused(0, "network"), "read").text).toBe(t("common.network"));
  });

  it("speaks each language", () => {
    setLang("it");
    expect(eventError(refused(422, "bad_field", "starts"), "create").text).toBe(t("events.error.starts", undefined, "it"));
    expect(t("events.error.starts", undefined, "it")).not.toBe(t("events.error.starts", undefined, "en"));
  });
});

describe("the profile", () => {
  it("lists the finished events with their medals, and the podium counted", () => {
    const html = renderToString(h(ProfileEvents, {
      events: [{ event: "e1", name: "Friday <Swiss>", kind: "swiss", rank: 1, entrants: 12, score: 4.5, finished: 1_800_000_000, badge: "gold" },
        { event: "e2", name: "Arena", kind: "arena", rank: 7, entrants: 30, score: 21, finished: 1_799_000_000, badge: null }],
      badges: { gold: 1, silver: 0, bronze: 2 },
    }));
    expect(html).toContain('href="/events/e1"');
    expect(html).toContain("Friday &lt;Swiss>");
    expect(html).toContain("🥇");
    expect(html).toContain("1 of 12");
    expect(html).toContain("7 of 30");
    expect(html).toContain(t("events.medals", { gold: 1, silver: 0, bronze: 2 }));
    expect(renderToString(h(ProfileEvents, { events: [], badges: { gold: 0, silver: 0, bronze: 0 } }))).toBe("");
    expect(renderToString(h(ProfileEvents, {}))).toBe("");
  });
});
