// The rules' § references as links, the players' rules and their anchors in both languages,
// the meld pictures, the quick messages.
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { picture, renderRules, takeAnchors } from "../src/help/markdown";
import { anchorsFor, ruleAnchor, ruleHref, splitRefs } from "../src/help/refs";
import { CATALOGS, LANGS as APP_LANGS, reasonText, type Lang } from "../src/i18n";
import { isQuickId, mutedSeats, QUICK_IDS, quickKey, setMuted } from "../src/quick";

const ROOT = join(__dirname, "..", "..");
const read = (path: string) => readFileSync(join(ROOT, path), "utf8");
const RULES = join("web", "src", "help", "rules");
const LANGS = readdirSync(join(ROOT, RULES)).filter((f) => f.endsWith(".md")).map((f) => f.slice(0, -3) as Lang);
const source = (lang: Lang) => read(join(RULES, `${lang}.md`));
const rendered = Object.fromEntries(LANGS.map((lang) => [lang, renderRules(source(lang), { lang })]));
const english = rendered.en;
const italian = rendered.it;
const ids = (html: string) => [...html.matchAll(/ id="([^"]+)"/g)].map((m) => m[1]);
const ruleIds = (html: string) => ids(html).filter((id) => id.startsWith("rule-"));
/** The text a reader sees: tags out, entities back. */
const text = (html: string) => html.replace(/<[^>]+>/g, " ").replace(/&quot;/g, '"').replace(/&lt;/g, "<")
  .replace(/&gt;/g, ">").replace(/&amp;/g, "&");

/** Every section the refusals cite: the client's Italian texts and the engine's messages. */
function citedRefs(): Set<string> {
  const texts = [read("web/src/reasons.ts")];
  for (const file of ["state.py", "legal.py", "melds.py", "scoring.py"]) texts.push(read(`src/burraco/engine/${file}`));
  const refs = new Set<string>();
  for (const body of texts) for (const m of body.matchAll(/\(§(\d+(?:\.\d+)*)\)/g)) refs.add(m[1]);
  return refs;
}

/** The digest's numbers: its chapters and sections, and the numbered items under them. */
function digestNumbers(markdown: string): Set<string> {
  const out = new Set<string>();
  let section: string | null = null;
  for (const line of markdown.split("\n")) {
    const heading = /^#{2,4}\s+(\d+(?:\.\d+)*)\.?\s/.exec(line);
    if (heading) { section = heading[1]; out.add(section); continue; }
    if (/^#{1,2}\s/.test(line)) section = null;
    const item = /^(\d+)\.\s/.exec(line);
    if (item && section) out.add(`${section}.${item[1]}`);
  }
  return out;
}

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

  it("finds every section a refusal cites on the players' page, in every language", () => {
    const cited = citedRefs();
    expect(cited.size).toBeGreaterThan(10);
    for (const ref of ["3.1", "3.1.4", "4.2.3", "7.1", "7.2", "13.2", "14.1", "14.3"]) expect(cited).toContain(ref);
    for (const lang of LANGS) {
      const known = new Set(ids(rendered[lang].html));
      for (const ref of cited) expect(known, `${lang}: §${ref}`).toContain(ruleAnchor(ref));
    }
  });

  it("keeps the § in the Italian text of a refusal, so it links there too", () => {
    const text = reasonText("illegal_action", "you cannot close by discarding a wild (§7.1)", "it");
    expect(splitRefs(text).some((p) => typeof p !== "string" && p.ref === "7.1")).toBe(true);
  });
});

describe("the players' rules", () => {
  it("exist in every language of the app, one file a language", () => {
    for (const lang of APP_LANGS) expect(LANGS).toContain(lang);
    expect(LANGS).toContain("en"); // the fallback of a language with no file yet
  });

  it("have the same anchors in every language, and every chapter from 1 to 15", () => {
    const en = ruleIds(english.html);
    expect(en.length).toBeGreaterThan(60);
    for (const lang of LANGS) expect(ruleIds(rendered[lang].html), lang).toEqual(en);
    for (let n = 1; n <= 15; n += 1) expect(en).toContain(`rule-${n}`);
    expect(new Set(en).size).toBe(en.length);
  });

  it("number their sections as the developers' digest does", () => {
    const digest = digestNumbers(read("docs/RULES.md"));
    expect(digest).toContain("3.1.4");
    expect(digestNumbers(read("docs/RULES.it.md"))).toEqual(digest);
    for (const id of ruleIds(english.html)) {
      const number = id.slice(5).replace(/-/g, ".");
      expect(digest, `${id} is not a section or item of docs/RULES.md`).toContain(number);
    }
    // the chapters' titles carry their numbers once: "6. The pozzetto"
    const chapters = english.toc.filter((e) => e.level === 2 && e.id.startsWith("rule-"));
    expect(chapters.map((e) => e.id)).toEqual(Array.from({ length: 15 }, (_, i) => `rule-${i + 1}`));
    for (const lang of LANGS) {
      for (const entry of rendered[lang].toc) {
        expect(entry.title, entry.title).not.toMatch(/^\d+(\.\d+)*\.?\s+\d+\./);
        expect(entry.title).not.toContain("`");
      }
    }
    expect(english.toc.find((e) => e.id === "rule-6")?.title).toBe("6. The pozzetto");
    expect(italian.toc.find((e) => e.id === "rule-6")?.title).toBe("6. Il pozzetto");
  });

  it("are written for players: no research notes, no code, no links out of the page", () => {
    const banned = /CONFLICT|CONFLITTO|UNVERIFIED|NON VERIFICAT|AMBIGU|open question|domande aperte|\bengine\b|\bmotore\b|project decision|scelta del progetto|\bS00\d\b|\bFIB\d\d\b|\bEB:|preset|https?:|www\./i;
    for (const lang of LANGS) {
      const md = source(lang);
      expect(md, lang).not.toMatch(banned);
      expect(md, lang).not.toContain("`");
      const html = rendered[lang].html;
      expect(text(html), lang).not.toContain("`");
      expect(html).not.toMatch(/<code>|href="(?!#)/);
      for (const href of html.matchAll(/href="#([^"]+)"/g)) expect(ids(html), `${lang}: #${href[1]}`).toContain(href[1]);
    }
  });

  it("give §3.1.4 its own paragraph and heading, in both languages", () => {
    const block = (html: string) => /<h5 id="rule-3-1-4">(.*?)<\/h5>/s.exec(html)?.[1] ?? "";
    expect(block(english.html)).toBe("A pile of only one card");
    expect(block(italian.html)).toBe("Scarti di una sola carta");
  });

  it("show the melds they speak of as pictures of cards", () => {
    for (const lang of LANGS) {
      const pictures = rendered[lang].html.match(/<figure class="meld-picture/g) ?? [];
      expect(pictures.length, lang).toBeGreaterThan(30);
    }
    expect(english.html).toContain('aria-label="6 of clubs, joker as 7 of clubs, 8 of clubs plus 7 of clubs, 10 of clubs becomes');
    expect(italian.html).toContain('aria-label="6 di fiori, jolly come 7 di fiori, 8 di fiori più 7 di fiori, 10 di fiori diventa');
  });
});

describe("the Markdown reader", () => {
  it("escapes the text, links § references in the page, and shows no outside link", () => {
    const out = renderRules("## 1. A <b> & x\n\nsee https://example.org/a_b and §1.1 and [five](#rule-5) and [out](https://example.org)\n", { lang: "en" }).html;
    expect(out).toContain("A &lt;b&gt; &amp; x");
    expect(out).not.toContain("<b>");
    expect(out).not.toContain('href="https://');
    expect(out).toContain('href="#rule-1-1"');
    expect(out).toContain('<a href="#rule-5">five</a>');
  });

  it("gives a heading its number's anchor and a block the anchors it names", () => {
    const out = renderRules("## 3. The turn\n\n### 3.1 Drawing\n\n#### One card {#3.1.4}\n\nText. {#3.1.5 #3.1.6}\n\n- an item {#3.2.1}\n", { lang: "en" });
    expect(out.html).toContain('<h3 id="rule-3">3. The turn</h3>');
    expect(out.html).toContain('<h4 id="rule-3-1">3.1 Drawing</h4>');
    expect(out.html).toContain('<h5 id="rule-3-1-4">One card</h5>');
    expect(out.html).toContain('<p id="rule-3-1-5"><span class="anchor" id="rule-3-1-6"></span>Text.</p>');
    expect(out.html).toContain('<li id="rule-3-2-1">an item</li>');
    expect(out.toc.map((e) => [e.id, e.title, e.level])).toEqual([
      ["rule-3", "3. The turn", 2], ["rule-3-1", "3.1 Drawing", 3], ["rule-3-1-4", "One card", 4]]);
    expect(takeAnchors("plain {text}")).toEqual({ text: "plain {text}", ids: [] });
  });

  it("draws a meld with its words in the page's language", () => {
    const en = picture("[[4H 5H JK(=6H) | A sequence]]", { lang: "en" });
    expect(en.match(/<img src="\/cards\/[^"]+"/g)).toEqual([
      '<img src="/cards/4H.svg"', '<img src="/cards/5H.svg"', '<img src="/cards/JK1.svg"']);
    expect(en).toContain('role="img" aria-label="4 of hearts, 5 of hearts, joker as 6 of hearts"');
    expect(en).toContain('<span class="role">6♥</span>');
    expect(en).toContain("<figcaption>A sequence</figcaption>");
    const it_ = picture("[[QS KS AS]]", { lang: "it" });
    expect(it_).toContain('aria-label="donna di picche, re di picche, asso di picche"');
    expect(it_).not.toContain("figcaption");
    const four = picture("[[2C 2D 2H]]", { lang: "en", fourColour: true });
    expect(four).toContain("/cards/4c/2C.svg");
    expect(four).toContain("/cards/4c/2D.svg");
    expect(four).toContain('"/cards/2H.svg"');
  });

  it("draws a move and what is not allowed", () => {
    const move = picture("[[2C(=4C) 5C 6C + 8C → 5C 6C 2C(=7C) 8C]]", { lang: "en" });
    expect(move).toContain('aria-label="2 of clubs as 4 of clubs, 5 of clubs, 6 of clubs plus 8 of clubs becomes 5 of clubs, 6 of clubs, 2 of clubs as 7 of clubs, 8 of clubs"');
    expect(move.match(/class="pic-op"/g)).toHaveLength(2);
    const wrong = picture("[[! KC AC 2C | No corner]]", { lang: "it" });
    expect(wrong).toContain('class="meld-picture wrong"');
    expect(wrong).toContain('aria-label="Non ammesso: re di fiori, asso di fiori, 2 di fiori"');
    expect(wrong).toContain("✗ Non ammesso</span>No corner");
  });

  it("refuses a card it cannot read", () => {
    expect(() => picture("[[4H 5X]]", { lang: "en" })).toThrow(/5X/);
    expect(() => picture("[[ + ]]", { lang: "en" })).toThrow();
  });

  it("groups consecutive pictures in one row", () => {
    const html = renderRules("[[4H 5H 6H]]\n[[7S 7S 7D]]\n\nText.", { lang: "en" }).html;
    expect(html.match(/<div class="meld-pictures">/g)).toHaveLength(1);
    expect(html.match(/<figure/g)).toHaveLength(2);
  });
});

describe("quick messages", () => {
  it("are the server's fixed list, each with a text in every language", () => {
    const server = read("src/burraco/server/quick.py");
    const listed = /QUICK_MESSAGES = \(([^)]*)\)/s.exec(server)![1];
    expect([...listed.matchAll(/"(\w+)"/g)].map((m) => m[1])).toEqual([...QUICK_IDS]);
    for (const id of ["hello", "well_played", "thanks", "one_moment"]) expect(QUICK_IDS).toContain(id);
    for (const id of QUICK_IDS) {
      expect(CATALOGS.en.messages[quickKey(id)]).toBeTruthy();
      for (const lang of APP_LANGS.filter((l) => l !== "en")) {
        expect(CATALOGS[lang].messages[quickKey(id)], lang).toBeTruthy();
        expect(CATALOGS[lang].messages[quickKey(id)], lang).not.toBe(CATALOGS.en.messages[quickKey(id)]);
      }
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
