// The create-table form's request: only options that differ from the preset are sent.
import { describe, expect, it } from "vitest";
import { tableRequest } from "../src/create";
import { route } from "../src/route";
import engine from "./fixtures/engine.json";

const OPTS = {
  presets: [{ name: "fibur", note: "", values: { semi_clean: true, closing_bonus: 100, bonuses: [["clean", 200]], target: 2005 } }],
  options: [
    { name: "semi_clean", section: "§5", doc: "", kind: "bool" as const },
    { name: "closing_bonus", section: "§9.1", doc: "", kind: "int" as const },
    { name: "bonuses", section: "§5", doc: "", kind: "json" as const },
    { name: "target", section: "§9.3", doc: "", kind: "int" as const },
  ],
  levels: ["random", "basic"],
  table: [],
};

const FORM = {
  players: 4, rules: "fibur", mode: "free" as const, target: "1005", smazzate: "1", format: "target",
  kinds: ["bot", "human", "bot", "human", "bot", "bot"] as ("human" | "bot")[], levels: ["random", "basic", "basic", "basic", "basic", "basic"],
  mine: 1, public: false, casual: true, turnSeconds: "30", graceSeconds: "60", standin: "basic", botDelay: "0.5",
  options: { semi_clean: "true", closing_bonus: "150", bonuses: '[["clean",200]]', target: "2005" },
};

describe("the create-table request", () => {
  it("sends every table setting and only the changed rule options", () => {
    const body = tableRequest(FORM, OPTS);
    expect(body).toEqual({
      players: 4, rules: "fibur", options: { closing_bonus: 150 }, mode: "free", target: 1005, smazzate: null,
      seats: [{ kind: "bot", level: "random" }, { kind: "human" }, { kind: "bot", level: "basic" }, { kind: "human" }],
      public: false, casual: true, turn_seconds: 30, grace_seconds: 60, standin: "basic", bot_delay: 0.5,
      creator_seat: 1,
    });
    // `rated` is sent only when ticked (below); every other field always
    expect(Object.keys(body).sort()).toEqual(engine.table_fields.filter((f) => f !== "rated"));
  });

  it("asks for a number of hands in smazzate mode, and sits nobody on a bot seat", () => {
    const body = tableRequest({ ...FORM, mode: "smazzate", smazzate: "3", mine: 0, turnSeconds: "" }, OPTS);
    expect(body).toMatchObject({ mode: "smazzate", smazzate: 3, target: null, creator_seat: null, turn_seconds: null });
  });
});

describe("routes", () => {
  it("reads the page from the path", () => {
    expect(route("/")).toEqual({ page: "lobby" });
    expect(route("/play/abc")).toEqual({ page: "table", id: "abc" });
    expect(route("/replay/abc")).toEqual({ page: "replay", id: "abc" });
    expect(route("/pad/")).toEqual({ page: "pad" });
    expect(route("/pad/g/3f9a")).toEqual({ page: "pad" });
    expect(route("/nowhere")).toEqual({ page: "notfound" });
    expect(route("/index.html")).toEqual({ page: "lobby" });
  });
});

describe("players' pages", () => {
  it("reads profiles and the leaderboard from the path", () => {
    expect(route("/players/Ada_1")).toEqual({ page: "profile", name: "Ada_1" });
    expect(route("/players/a%3Cb")).toEqual({ page: "profile", name: "a<b" });
    expect(route("/leaderboard")).toEqual({ page: "leaderboard" });
  });

  it("asks for a rated table only when the option is ticked", () => {
    expect(tableRequest({ ...FORM, rated: true }, OPTS)).toMatchObject({ rated: true, casual: false });
    expect("rated" in tableRequest(FORM, OPTS)).toBe(false);
  });
});
