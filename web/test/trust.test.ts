// Trust and safety's pure parts: a recovery code as typed, the codes' file, who is a
// moderator, a moderator's action checked and its body, sanctions in words, the refusals in
// the player's words (a ban's reason and end, a throttle's wait), the routes, the calls'
// errors and the export's file name.
import { h } from "preact";
import { renderToString } from "preact-render-to-string";
import { afterEach, describe, expect, it } from "vitest";
import { SanctionList } from "../src/account";
import { FlagCard } from "../src/mod";
import { RecoveryCodes } from "../src/recovery";
import { reasonText, setLang, t } from "../src/i18n";
import { route } from "../src/route";
import { PRIVACY } from "../src/privacy";
import { ReportDialog, reportErrorText } from "../src/report";
import {
  actionBody, actionProblem, codesFile, codesFileName, exportData, gravest, historyLine, isModerator, REPORT_REASONS,
  MOD_ACTIONS, outcomeText, reasonName, sanctionLine, sanctionName, statText, trust, TrustError, trustErrorText, typedCode,
  untilText, type ActionForm, type Fetch,
} from "../src/trust";

afterEach(() => setLang("en"));

const form = (change: Partial<ActionForm>): ActionForm =>
  ({ action: "mute", reason: "insults at the table", days: "3", forever: false, newName: "", ...change });

function answer(status: number, body: unknown, headers: Record<string, string> = {}): Fetch {
  return async () => new Response(typeof body === "string" ? body : JSON.stringify(body), { status, headers });
}

describe("recovery codes", () => {
  it("reads a code however it was typed", () => {
    expect(typedCode("7kq4-m2xd-9tra")).toBe("7KQ4-M2XD-9TRA");
    expect(typedCode(" 7KQ4 M2XD 9TRA ")).toBe("7KQ4-M2XD-9TRA");
    expect(typedCode("7KQ4M2XD9TRA")).toBe("7KQ4-M2XD-9TRA");
    expect(typedCode("7kq4--m2xd 9tra")).toBe("7KQ4-M2XD-9TRA");
    // not twelve letters and digits: left as typed (the server says it is wrong)
    expect(typedCode(" short ")).toBe("SHORT");
  });

  it("writes the codes' file: who, when, what they do, one code a line", () => {
    const codes = ["AAAA-BBBB-CCCC", "DDDD-EEEE-FFFF"];
    const text = codesFile(codes, "ada", Date.UTC(2026, 11, 7, 12) / 1000, "burraco.example");
    const lines = text.split("\n");
    expect(lines[0]).toBe("Burraco recovery codes for ada (burraco.example)");
    expect(lines[1]).toContain("7 December 2026");
    expect(lines).toContain("AAAA-BBBB-CCCC");
    expect(lines).toContain("DDDD-EEEE-FFFF");
    expect(text).toContain("Forgot your password?");
    setLang("it");
    expect(codesFile(codes, "ada", Date.UTC(2026, 11, 7, 12) / 1000, "x")).toContain("7 dicembre 2026");
    expect(codesFileName("Ada_1")).toBe("burraco-recovery-codes-Ada_1.txt");
    expect(codesFileName("a/../b")).toBe("burraco-recovery-codes-ab.txt");
  });

  it("says how many codes are left, by each language's plural", () => {
    expect(t("rec.left", { n: 1 })).toBe("1 recovery code left.");
    expect(t("rec.left", { n: 9 })).toBe("9 recovery codes left.");
    for (const lang of ["it", "es", "ro", "sl"] as const) {
      setLang(lang);
      expect(t("rec.left", { n: 0 })).toContain("0");
      expect(t("rec.left", { n: 2 })).toContain("2");
      expect(t("rec.left", { n: 2 })).not.toBe(t("rec.left", { n: 2 }, "en"));
    }
  });
});

describe("moderators", () => {
  it("are those with the role of moderator or admin", () => {
    expect(isModerator(["moderator"])).toBe(true);
    expect(isModerator(["admin"])).toBe(true);
    expect(isModerator([])).toBe(false);
    expect(isModerator(undefined)).toBe(false);
    expect(isModerator("moderator")).toBe(false);
  });

  it("checks an action before sending it: a reason, days, a new name", () => {
    expect(actionProblem(form({}))).toBeNull();
    expect(actionProblem(form({ reason: "  no " }))).toBe("mod.needReason");
    expect(actionProblem(form({ reason: "x".repeat(501) }))).toBe("mod.reasonLong");
    expect(actionProblem(form({ days: "" }))).toBe("mod.needDays");
    expect(actionProblem(form({ days: "0" }))).toBe("mod.needDays");
    expect(actionProblem(form({ days: "-2" }))).toBe("mod.needDays");
    expect(actionProblem(form({ action: "suspend", days: "abc" }))).toBe("mod.needDays");
    expect(actionProblem(form({ action: "ban", days: "", forever: true }))).toBeNull();
    expect(actionProblem(form({ action: "ban", days: "" }))).toBe("mod.needDays");
    expect(actionProblem(form({ action: "warn", days: "" }))).toBeNull();
    expect(actionProblem(form({ action: "rename", newName: "a b" }))).toBe("mod.needName");
    expect(actionProblem(form({ action: "rename", newName: "Nice_Name" }))).toBeNull();
    expect(actionProblem(form({ action: "dismiss", days: "" }))).toBeNull();
  });

  it("sends what each action needs, and nothing else", () => {
    expect(actionBody("bob", form({}), "r1")).toEqual({ username: "bob", action: "mute", reason: "insults at the table", days: 3, report_id: "r1" });
    expect(actionBody("bob", form({ action: "ban", forever: true }))).toEqual({ username: "bob", action: "ban", reason: "insults at the table" });
    expect(actionBody("bob", form({ action: "ban", days: "30" })).days).toBe(30);
    expect(actionBody("bob", form({ action: "warn", reason: " be kind " }))).toEqual({ username: "bob", action: "warn", reason: "be kind" });
    expect(actionBody("bob", form({ action: "rename", newName: " Better " }))).toEqual(
      { username: "bob", action: "rename", reason: "insults at the table", new_username: "Better" });
    expect(MOD_ACTIONS).toContain("dismiss");
  });
});

describe("sanctions in words", () => {
  const at = Date.UTC(2026, 11, 7, 12) / 1000;
  it("names each kind, its end and its reason", () => {
    expect(sanctionName("mute")).toBe("Muted");
    expect(sanctionName("something_new")).toBe("something_new");
    expect(untilText(null)).toBe("for ever");
    expect(sanctionLine({ kind: "mute", reason: "insults", at, until: at + 86400 })).toMatch(/^Muted until 8 Dec 2026.*: insults$/);
    expect(sanctionLine({ kind: "ban", reason: "cheating", at, until: null })).toBe("Banned for ever: cheating");
    expect(sanctionLine({ kind: "warn", reason: "be kind", at, until: null })).toBe("A moderator warned you on 7 Dec 2026: be kind");
    setLang("it");
    expect(sanctionLine({ kind: "ban", reason: "cheating", at, until: null })).toContain("cheating");
    expect(sanctionLine({ kind: "ban", reason: "cheating", at, until: null })).not.toContain("Banned");
  });

  it("says how a report was closed", () => {
    expect(outcomeText("mute: insults")).toBe("Muted: insults");
    expect(outcomeText("dismiss: nothing wrong: a misunderstanding")).toBe("Report dismissed: nothing wrong: a misunderstanding");
    expect(outcomeText("closed by hand")).toBe("closed by hand");
    expect(outcomeText(null)).toBe("");
  });

  it("puts the gravest first", () => {
    const list = [{ kind: "warn", reason: "a", at, until: null }, { kind: "mute", reason: "b", at, until: at },
      { kind: "ban", reason: "c", at, until: null }];
    expect(gravest(list)?.kind).toBe("ban");
    expect(gravest([])).toBeNull();
  });

  it("writes a player's record for moderators, a lifted sanction said so", () => {
    expect(historyLine({ kind: "rename", reason: "rude name", at, until: null })).toBe("Renamed, 7 Dec 2026: rude name");
    expect(historyLine({ kind: "suspend", reason: "abandons", at, until: null, lifted_at: at + 5 }))
      .toBe("Suspended from rated play, 7 Dec 2026, until for ever: abandons (lifted)");
  });

  it("names every reason of a report, and every screening number in the page's language", () => {
    for (const r of REPORT_REASONS) expect(reasonName(r)).not.toBe(r);
    expect(statText(2.34567)).toBe("2.346");
    setLang("it");
    expect(statText(2.5)).toBe("2,5");
    expect(statText(null)).toBe("–");
  });
});

describe("refusals", () => {
  it("says a ban's reason and end, a throttle's wait, and the rest in words", () => {
    const ban = new TrustError(403, "banned", "banned", null, null, { reason: "cheating", until: null });
    expect(trustErrorText(ban)).toBe("This account is banned for ever: cheating");
    const until = Date.UTC(2026, 11, 9, 18) / 1000;
    expect(trustErrorText(new TrustError(403, "banned", "x", null, null, { reason: "abuse", until })))
      .toMatch(/^This account is banned until 9 Dec 2026.*: abuse$/);
    expect(trustErrorText(new TrustError(429, "throttled", "x", null, "42"))).toBe("Too many wrong tries: try again in 42 s.");
    expect(trustErrorText(new TrustError(401, "bad_recovery", "x"))).toMatch(/^Wrong username or recovery code/);
    expect(trustErrorText(new TrustError(429, "rate_limited", "x"))).toMatch(/try again tomorrow/);
    expect(trustErrorText(new TrustError(403, "forbidden", "x"))).toBe("Only moderators see this page.");
    expect(trustErrorText(new TrustError(422, "bad_request", "x", "new_password"))).toMatch(/too short/);
    expect(trustErrorText(new TrustError(409, "username_taken", "x", "new_username"))).toBe("This username is taken.");
    expect(trustErrorText(new TrustError(0, "network", "x"))).toBe("The server cannot be reached.");
    expect(reportErrorText(new TrustError(422, "bad_request", "x", "username"))).toBe("You cannot report yourself.");
    expect(reportErrorText(new TrustError(404, "player_not_found", "x", "username"))).toMatch(/^There is no account/);
    setLang("it");
    expect(trustErrorText(new TrustError(401, "bad_recovery", "x"))).not.toMatch(/^Wrong/);
  });

  it("puts a muted player's refused message at the table in words", () => {
    expect(reasonText("muted", "a moderator muted this account: no quick messages")).toMatch(/^A moderator has muted you/);
    expect(reasonText("muted", "x", "it")).not.toMatch(/^A moderator/);
  });

  it("reads the refusal's body, field and wait from the server", async () => {
    const refused = trust("POST", "/api/recover", {}, answer(429, { code: "throttled", detail: "slow down" }, { "retry-after": "30" }));
    await expect(refused).rejects.toMatchObject({ status: 429, code: "throttled", retryAfter: "30" });
    const field = trust("POST", "/api/reports", {}, answer(422, { code: "bad_request", detail: "self", field: "username" }));
    await expect(field).rejects.toMatchObject({ field: "username" });
    const broken = trust("GET", "/api/mod/log", undefined, answer(500, "not json"));
    await expect(broken).rejects.toMatchObject({ status: 500, code: "error" });
    const offline: Fetch = async () => { throw new TypeError("offline"); };
    await expect(trust("GET", "/api/mod/log", undefined, offline)).rejects.toMatchObject({ code: "network" });
    expect(await trust("GET", "/api/mod/log", undefined, answer(200, { actions: [] }))).toEqual({ actions: [] });
  });

  it("names the exported file as the server does", async () => {
    const named = await exportData(answer(200, { a: 1 }, { "content-disposition": 'attachment; filename="burraco-export.json"' }));
    expect(named.name).toBe("burraco-export.json");
    expect(JSON.parse(await named.blob.text())).toEqual({ a: 1 });
    expect((await exportData(answer(200, {}))).name).toBe("burraco-export.json");
    await expect(exportData(answer(401, { code: "login_required", detail: "log in" }))).rejects.toMatchObject({ code: "login_required" });
  });
});

describe("pages", () => {
  it("routes the pages of trust and safety", () => {
    expect(route("/recover")).toEqual({ page: "recover" });
    expect(route("/privacy")).toEqual({ page: "privacy" });
    expect(route("/account")).toEqual({ page: "account" });
    expect(route("/mod")).toEqual({ page: "mod" });
    expect(route("/mod/extra")).toEqual({ page: "notfound" });
  });

  it("has every privacy section's words in every language", () => {
    for (const lang of ["en", "it", "es", "ro", "sl"] as const) {
      setLang(lang);
      for (const section of PRIVACY) {
        expect(t(section.title)).toBeTruthy();
        for (const block of section.blocks) for (const key of [block].flat()) expect(t(key).length, `${lang} ${key}`).toBeGreaterThan(20);
      }
    }
  });
});

describe("what the pieces show", () => {
  const noop = () => undefined;
  it("shows the ten codes once, with Copy, Download and I saved them", () => {
    const codes = Array.from({ length: 10 }, (_, i) => `AAAA-BBBB-CC${String(i).padStart(2, "0")}`);
    const html = renderToString(h(RecoveryCodes, { codes, username: "ada", onDone: noop }));
    expect(html.match(/<code>/g)?.length).toBe(10);
    expect(html).toContain("AAAA-BBBB-CC09");
    for (const id of ["codes-copy", "codes-download", "codes-saved"]) expect(html).toContain(`data-testid="${id}"`);
    expect(html).toContain("each lets you back in once if you forget your password");
  });

  it("asks a report's reason among five, and says about which message", () => {
    const html = renderToString(h(ReportDialog, { username: "bob", context: "message", message: "well_played", onClose: noop }));
    expect(html.match(/name="report-reason"/g)?.length).toBe(5);
    expect(html).toContain("Report bob");
    expect(html).toContain("About the message “Well played!”");
    expect(html).toContain('maxlength="1000"');
  });

  it("shows a screening flag: its kind in words, the players, the numbers, the matches' replays", () => {
    const flag = { kind: "pair_frequency", players: [{ username: "ada", player_id: "p1" }, { username: "bob", player_id: "p2" }],
      statistic: 12.3456, baseline: 2.5, threshold: 7, explanation: "ada and bob met 12 times", matches: ["t1", "t2"] };
    const html = renderToString(h(FlagCard, { flag }));
    expect(html).toContain("Often at the same tables");
    expect(html).toContain('href="/players/ada"');
    expect(html).toContain("Measured 12.346 · usual 2.5 · flagged above 7");
    expect(html).toContain('href="/replay/t2"');
    setLang("it");
    expect(renderToString(h(FlagCard, { flag }))).toContain("Misurato 12,346");
  });

  it("lists the sanctions in force with what each stops, or nothing", () => {
    const at = Date.UTC(2026, 11, 7, 12) / 1000;
    const html = renderToString(h(SanctionList, { sanctions: [{ kind: "suspend", reason: "left twice", at, until: at + 86400 }] }));
    expect(html).toContain("Suspended from rated play until");
    expect(html).toContain("left twice");
    expect(html).toContain("you cannot play rated matches");
    expect(renderToString(h(SanctionList, { sanctions: [] }))).toBe("");
  });
});
