// Every message in every language, and every reason the engine gives translated.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { IntlMessageFormat } from "intl-messageformat";
import { CATALOGS, detectLang, formatDate, formatNumber, has, LANGS, reasonText, t } from "../src/i18n";
import { isTranslated, reasonIn } from "../src/reasons";
import engine from "./fixtures/engine.json";

const ROOT = join(__dirname, "..", "..");
const source = (path: string) => readFileSync(join(ROOT, path), "utf8");

/** The plain (not f-) string literals of every call to ``fn(`` in a Python source. */
function literalsOf(text: string, fn: string, lastOnly = false): string[] {
  const out: string[] = [];
  let at = text.indexOf(fn + "(");
  while (at >= 0) {
    let depth = 0;
    let end = at + fn.length;
    for (; end < text.length; end++) {
      if (text[end] === "(") depth++;
      else if (text[end] === ")" && --depth === 0) break;
    }
    const args = text.slice(at + fn.length + 1, end);
    const parts = [...args.matchAll(/(f?)"((?:[^"\\]|\\.)*)"/g)];
    // GameError("code", "reason"): the reason is the last argument; a message may be split in parts
    const chosen = lastOnly ? parts.slice(-1) : parts;
    if (chosen.length && chosen.every((p) => p[1] === "")) out.push(chosen.map((p) => p[2]).join(""));
    at = text.indexOf(fn + "(", end);
  }
  return out;
}

/** Reasons the engine returns as plain strings from its meld reader (melds.py). */
function meldReasons(text: string): string[] {
  return [...text.matchAll(/(?:return|reason =|reason = \()\s*"([^"{]+)"/g)]
    .map((m) => m[1])
    .filter((r) => /\w+ \w+/.test(r));
}

const OTHERS = LANGS.filter((l) => l !== "en");
const english = CATALOGS.en.messages;
const holes = (text: string) => [...new Set([...text.matchAll(/\{\s*(\w+)/g)].map((m) => m[1]))].sort();

describe("strings", () => {
  it.each(OTHERS)("%s has every message, with the same placeholders, each one formatting", (lang) => {
    const messages = CATALOGS[lang].messages;
    const missing = Object.keys(english).filter((key) => !messages[key]);
    expect(missing, `${lang} lacks these`).toEqual([]);
    for (const [key, text] of Object.entries(messages)) {
      expect(holes(text), `${lang} ${key}`).toEqual(holes(english[key]));
      // an apostrophe before a brace would quote it in ICU: the value must come through
      const simple = [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
      const values = Object.fromEntries(holes(text).map((n) => [n, simple.includes(n) ? `<${n}>` : 2]));
      const out = String(new IntlMessageFormat(text, lang, undefined, { ignoreTag: true }).format(values));
      for (const name of simple) expect(out, `${lang} ${key}`).toContain(`<${name}>`);
    }
  });

  it("labels every rules option, choice and preset in every language", () => {
    for (const name of engine.options) expect(has(`option.${name}`), name).toBe(true);
    for (const preset of Object.keys(engine.presets)) {
      for (const lang of LANGS) expect(CATALOGS[lang].messages[`presetNote.${preset}`], `${lang} ${preset}`).toBeTruthy();
    }
    expect(t("choice.must-use" as never, undefined, "it")).toBe("una carta va usata subito");
  });

  it("writes numbers and dates as each language does", () => {
    expect(formatNumber(12.5, "it")).toBe("12,5");
    expect(formatNumber(12.5, "en")).toBe("12.5");
    for (const lang of ["es", "ro", "sl"] as const) expect(formatNumber(0.5, lang)).toBe("0,5");
    expect(formatNumber(-3, "it", { signDisplay: "exceptZero" })).toBe("-3");
    expect(formatNumber(2005, "en")).toBe("2005");
    expect(formatNumber(14821, "it")).toBe("14.821");
    expect(t("nick.generated", { n: 4821 }, "en")).toBe("Player 4821");
    expect(t("create.paceSeconds", { n: 0.5 }, "it")).toContain("0,5");
    expect(t("create.paceSeconds", { n: 0.5 }, "en")).toContain("0.5");
    const day = Date.UTC(2026, 11, 7, 12) / 1000;
    expect(formatDate(day, { day: "numeric", month: "long" }, "it")).toBe("7 dicembre");
    expect(formatDate(day, { day: "numeric", month: "long" }, "en")).toBe("7 December");
    expect(formatDate(day, { day: "numeric", month: "long" }, "sl")).toBe("7. december");
  });

  it("formats plurals by each language's rules", () => {
    expect(t("table.cards", { n: 3 }, "en")).toBe("3 cards");
    expect(t("table.card1", undefined, "it")).toBe("1 carta");
    for (const lang of LANGS) {
      for (const n of [2, 3, 5, 21, 102]) expect(t("table.cards", { n }, lang)).toContain(String(n));
    }
    // Slovenian has a dual, Romanian a "few" form: the catalogs' plurals follow them
    expect(t("table.cards", { n: 2 }, "sl")).not.toBe(t("table.cards", { n: 5 }, "sl").replace("5", "2"));
    expect(t("table.cards", { n: 21 }, "ro")).not.toBe(t("table.cards", { n: 3 }, "ro").replace("3", "21"));
    for (const lang of LANGS) {
    }
  });

  it("picks the browser's language unless the player chose one", () => {
    expect(detectLang(null, ["it-IT", "en"])).toBe("it");
    expect(detectLang(null, ["de-DE", "en-GB"])).toBe("en");
    expect(detectLang(null, ["fr"])).toBe("en");
    expect(detectLang(null, ["ro-RO", "en"])).toBe("ro");
    expect(detectLang(null, ["es-AR"])).toBe("es");
    expect(detectLang(null, ["sl-SI"])).toBe("sl");
    expect(detectLang("it", ["en-US"])).toBe("it");
    expect(t("table.draw", undefined, "it")).toBe("Pesca");
  });
});

describe("the engine's reasons in every language", () => {
  const engineReasons = [
    ...literalsOf(source("src/burraco/engine/state.py"), "IllegalActionError"),
    ...meldReasons(source("src/burraco/engine/melds.py")),
    ...[...source("src/burraco/engine/state.py").matchAll(/"must-[\w-]+": "([^"]+)"\s*\n?\s*"([^"]+)"/g)]
      .map((m) => m[1] + m[2]),
    ...[...source("src/burraco/engine/state.py").matchAll(/"must-[\w-]+": "([^"]+)",/g)].map((m) => m[1]),
  ];
  const serverReasons = literalsOf(source("src/burraco/server/game.py"), "GameError", true)
    .filter((r) => r.includes(" "));

  it("finds the engine's reasons in its sources", () => {
    expect(engineReasons.length).toBeGreaterThan(30);
    expect(engineReasons).toContain("draw from the stock or take the discard pile first (§3.1)");
    expect(engineReasons).toContain("the cards are not consecutive");
  });

  it.each([...new Set([...engineReasons, ...serverReasons])].filter(Boolean))("%s", (reason) => {
    for (const lang of OTHERS) expect(isTranslated(CATALOGS[lang].groups, reason), lang).toBe(true);
  });

  it.each([
    ["you do not hold 7H", "non hai 7♥"],
    ["you do not hold another 10S", "non hai un altro 10♠"],
    ["your side already has a set of Ks: attach to it (§4.2.3)", "la tua squadra ha già una combinazione di re: attacca lì (§4.2.3)"],
    ["your side has no meld 3 (it has 2)", "la tua squadra non ha il gioco 3 (ne ha 2)"],
    ["you cannot close: your side needs a clean burraco (§7.1)", "non puoi chiudere: alla tua squadra serve un burraco pulito (§7.1)"],
    ["you could not close: your side needs a burraco (§7.1)", "non potresti chiudere: alla tua squadra serve un burraco (§7.1)"],
    ["you may not discard the QS you just took from a one-card pile this turn (§3.1.4)", "in questo turno non puoi scartare il Q♠ appena preso da uno scarto di una sola carta (§3.1.4)"],
    ["7H is not of the sequence's suit", "7♥ non è del seme della scala"],
    ["sets of 7s are not allowed (only aces and threes)", "le combinazioni di 7 non sono ammesse (solo assi e tre)"],
    ["9D does not belong to a set of Qs", "9♦ non appartiene a una combinazione di donne"],
    ["it is seat 2's turn, not 0's", "tocca al posto 2, non al 0"],
  ])("%s", (reason, italian) => {
    expect(reasonIn(CATALOGS.it.groups, reason)).toBe(italian);
  });

  it("falls back to the English text, and shows server codes in the player's language", () => {
    expect(reasonIn(CATALOGS.it.groups, "a reason nobody translated")).toBe("a reason nobody translated");
    expect(reasonText("illegal_action", "the cards are not consecutive", "it")).toBe("Le carte non sono consecutive");
    expect(reasonText("illegal_action", "the cards are not consecutive", "en")).toBe("The cards are not consecutive");
    expect(reasonText("not_your_turn", "it is seat 1's turn, not 0's", "it")).toBe("Non è il tuo turno.");
  });

  it("has a text for every protocol code a player can meet", () => {
    const codes = [...source("src/burraco/server/protocol.py").matchAll(/^\s+"(\w+)": "/gm)].map((m) => m[1]);
    const technical = new Set(["bad_json", "bad_message", "unknown_type", "too_large", "binary_frame",
      "hello_required", "already_joined", "illegal_action"]);
    for (const code of codes.filter((c) => !technical.has(c))) {
      for (const lang of LANGS) expect(CATALOGS[lang].messages[`code.${code}`], `${lang} ${code}`).toBeTruthy();
    }
  });
});
