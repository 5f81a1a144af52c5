// The rules' § references as links, the digest's anchors in both languages, the quick messages.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { renderRules } from "../src/help/markdown";
import { anchorsFor, ruleAnchor, ruleHref, splitRefs } from "../src/help/refs";
import { reasonText, STRINGS } from "../src/i18n";
import { isQuickId, mutedSeats, QUICK_IDS, quickKey, setMuted } from "../src/quick";

const ROOT = join(__dirname, "..", "..");
const read = (path: string) => readFileSync(join(ROOT, path), "utf8");
const english = renderRules(read("docs/RULES.md"));
const italian = renderRules(read("docs/RULES.it.md"));
const ids = (html: string) => [...html.matchAll(/ id="([^"]+)"/g)].map((m) => m[1]);

describe("§ references", () => {
  it("cuts a refusal into text and links to the sections it cites", () => {
    const reason = "you may not discard the 8H you just took from a one-card pile this turn (§3.1.4)";
    const parts = splitRefs(reason);
    expect(parts).toEqual([
      "you may not discard the 8H you just took from a one-card pile this turn (",
      { ref: "3.1.4", text: "§3.1.4" }, ")",
    ]);
    expect(ruleHref("3.1.4")).toBe("/help/#rule-3-1-4");
    expect(splitRefs("no reference here")).toEqual(["no reference here"]);
    expect(splitRefs("§7.1 and §4.2.3.").filter((p) => typeof p !== "string")).toEqual([
      { ref: "7.1", text: "§7.1" }, { ref: "4.2.3", text: "§4.2.3" }]);
  });

  it("falls back from an item to its section, then its chapter", () => {
    expect(anchorsFor("3.1.4")).toEqual(["rule-3-1-4", "rule-3-1", "rule-3"]);
  });

  it("finds every section a refusal cites, in English and in Italian", () => {
    const reasons = read("web/src/reasons.ts");
    const cited = new Set([...reasons.matchAll(/§(\d+(?:\.\d+)*)/g)].map((m) => m[1]));
    expect(cited.size).toBeGreaterThan(5);
    for (const rendered of [english, italian]) {
      const known = new Set(ids(rendered.html));
      for (const ref of cited) expect(known, ref).toContain(ruleAnchor(ref));
    }
  });

  it("keeps the § in the Italian text of a refusal, so it links there too", () => {
    const text = reasonText("illegal_action", "you cannot close by discarding a wild (§7.1)", "it");
    expect(splitRefs(text).some((p) => typeof p !== "string" && p.ref === "7.1")).toBe(true);
  });
});

describe("the rules digest", () => {
  it("has the same sections and numbered items in both languages", () => {
    const en = ids(english.html).filter((id) => id.startsWith("rule-"));
    const it_ = ids(italian.html).filter((id) => id.startsWith("rule-"));
    expect(en.length).toBeGreaterThan(100);
    expect(it_).toEqual(en);
  });

  it("gives item 4 of §3.1 its own anchor and text", () => {
    const item = /<li id="rule-3-1-4"[^>]*>(.*?)<\/li>/s.exec(english.html)?.[1] ?? "";
    expect(item).toContain("Single-card pile");
    const voce = /<li id="rule-3-1-4"[^>]*>(.*?)<\/li>/s.exec(italian.html)?.[1] ?? "";
    expect(voce).toContain("Monte di una sola carta");
  });

  it("escapes the text and links the addresses", () => {
    const out = renderRules("## 1. A <b> & `x<y`\n\n1. see https://example.org/a_b. and §1.1\n").html;
    expect(out).toContain("&lt;b&gt; &amp; <code>x&lt;y</code>");
    expect(out).toContain('<a href="https://example.org/a_b"');
    expect(out).toContain('href="#rule-1-1"');
    expect(out).not.toContain("<b>");
  });
});

describe("quick messages", () => {
  it("are the server's fixed list, each with a text in both languages", () => {
    const server = read("src/burraco/server/quick.py");
    const listed = /QUICK_MESSAGES = \(([^)]*)\)/s.exec(server)![1];
    expect([...listed.matchAll(/"(\w+)"/g)].map((m) => m[1])).toEqual([...QUICK_IDS]);
    for (const id of ["hello", "well_played", "thanks", "one_moment"]) expect(QUICK_IDS).toContain(id);
    for (const id of QUICK_IDS) {
      expect(STRINGS.en[quickKey(id)]).toBeTruthy();
      expect(STRINGS.it[quickKey(id)]).toBeTruthy();
      expect(STRINGS.it[quickKey(id)]).not.toBe(STRINGS.en[quickKey(id)]);
    }
  });

  it("accept only the list's ids", () => {
    expect(isQuickId("thanks")).toBe(true);
    expect(isQuickId("I hold the 2")).toBe(false);
    expect(isQuickId(3)).toBe(false);
  });

  it("remember the muted players per table", () => {
    const data = new Map<string, string>();
    const store = { getItem: (k: string) => data.get(k) ?? null, setItem: (k: string, v: string) => void data.set(k, v) };
    setMuted("t1", 2, true, store);
    expect([...mutedSeats("t1", store)]).toEqual([2]);
    expect([...mutedSeats("t2", store)]).toEqual([]);
    setMuted("t1", 2, false, store);
    expect([...mutedSeats("t1", store)]).toEqual([]);
  });
});
