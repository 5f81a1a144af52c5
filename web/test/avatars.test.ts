// The avatars: the client's ids, the drawings and the server's ids are one list; each drawing
// is a small, self-contained SVG; every avatar has a name in both languages; a seat shows the
// picture the server says, or falls back sensibly; the picker is a radio group.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { h } from "preact";
import { renderToString } from "preact-render-to-string";
import { describe, expect, it } from "vitest";
import { AVATAR_IDS, BOT_IDS, GUEST_ID, PEOPLE_IDS, avatarSvg } from "../scripts/avatars.mjs";
import { AvatarPicker, BOTS, ENGINE, GUEST, PEOPLE, avatarName, avatarUrl, botAvatar, known, seatAvatar } from "../src/avatars";
import { t } from "../src/i18n";
import type { Presence } from "../src/api";

const server = readFileSync(join(__dirname, "..", "..", "src", "burraco", "accounts", "avatars.py"), "utf8");

/** The string literals of a Python assignment ``NAME = (...)`` or ``NAME = {...}`` / ``"..."``. */
function pythonStrings(name: string): string[] {
  const start = server.indexOf(`\n${name} = `);
  expect(start, name).toBeGreaterThan(0);
  const rest = server.slice(start + name.length + 4);
  const end = rest.search(/\n(?:"""|\n)/);
  return [...rest.slice(0, end).matchAll(/"([^"]*)"/g)].map((m) => m[1]);
}

function seat(kind: "human" | "bot", level: string | null, nickname: string | null, avatar?: string | null): Presence {
  return { seat: 0, kind, level, nickname, avatar, online: true, grace_deadline_ms: null, grace_seconds: 60, standin: null };
}

describe("the avatars", () => {
  it("are one list in the client, its drawings and the server", () => {
    expect([...PEOPLE]).toEqual(PEOPLE_IDS);
    expect(PEOPLE.length).toBeGreaterThanOrEqual(16);
    expect([...Object.values(BOTS), ENGINE].sort()).toEqual([...BOT_IDS].sort());
    expect(GUEST).toBe(GUEST_ID);
    expect(pythonStrings("PEOPLE")).toEqual([...PEOPLE]);
    const bots = pythonStrings("BOTS"); // key, value, key, value...
    expect(Object.fromEntries(bots.flatMap((v, i) => (i % 2 ? [] : [[v, bots[i + 1]]])))).toEqual(BOTS);
    expect(pythonStrings("ENGINE")).toEqual([ENGINE]);
    expect(pythonStrings("GUEST")).toEqual([GUEST]);
    expect(new Set(AVATAR_IDS).size).toBe(PEOPLE.length + BOT_IDS.length + 1);
  });

  it("are small self-contained SVG drawings, each different", () => {
    const seen = new Set<string>();
    for (const id of AVATAR_IDS) {
      const svg = avatarSvg(id);
      expect(svg, id).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" viewBox="0 0 100 100"[^>]*>/);
      expect(svg.trim().endsWith("</svg>"), id).toBe(true);
      expect(svg.length, id).toBeLessThan(2500);
      expect(svg, id).not.toMatch(/<script|<image|href=|@import|url\((?!#c\))|NaN|undefined/);
      // every tag closes: as many openings (not self-closed) as closings
      const opened = [...svg.matchAll(/<([a-zA-Z]+)[^>]*?(\/?)>/g)].filter((m) => !m[2]).map((m) => m[1]);
      const closed = [...svg.matchAll(/<\/([a-zA-Z]+)>/g)].map((m) => m[1]);
      expect(opened.sort(), id).toEqual(closed.sort());
      seen.add(svg);
    }
    expect(seen.size).toBe(AVATAR_IDS.length);
    expect(() => avatarSvg("unicorn")).toThrow();
  });

  it("have a name in Italian and English, every name its own", () => {
    for (const lang of ["en", "it"] as const) {
      const names = AVATAR_IDS.map((id) => t(`avatar.${id}` as never, undefined, lang));
      for (const [i, name] of names.entries()) expect(name, `${lang} ${AVATAR_IDS[i]}`).toBeTruthy();
      expect(new Set(names).size, lang).toBe(names.length);
    }
    expect(avatarName("owl")).toBeTruthy();
  });

  it("show what the server says, the level's robot for a bot, the guests' for anyone else", () => {
    expect(known("owl")).toBe("owl");
    expect(known("unicorn")).toBe(GUEST);
    expect(known(null)).toBe(GUEST);
    expect(avatarUrl("bot-expert")).toBe("/avatars/bot-expert.svg");
    expect(avatarUrl("../../etc/passwd")).toBe("/avatars/guest.svg");
    expect(botAvatar("advanced")).toBe("bot-advanced");
    expect(botAvatar("engine:mine")).toBe(ENGINE);
    expect(seatAvatar(seat("human", null, "Ada", "panda"))).toBe("panda");
    expect(seatAvatar(seat("human", null, "Ada", "gone"))).toBe(GUEST);
    expect(seatAvatar(seat("bot", "expert", null, "bot-expert"))).toBe("bot-expert");
    // a server from before avatars: bots by their level, people as guests, open seats none
    expect(seatAvatar(seat("bot", "random", null))).toBe("bot-random");
    expect(seatAvatar(seat("human", null, "Ada"))).toBe(GUEST);
    expect(seatAvatar(seat("human", null, null))).toBeNull();
    expect(seatAvatar(undefined, { kind: "bot", level: "basic" })).toBe("bot-basic");
    expect(seatAvatar(undefined)).toBeNull();
  });

  it("are picked in a radio group with the current one checked and every choice named", () => {
    const html = renderToString(h(AvatarPicker, { current: "tiger", testid: "p" }));
    expect(html).toContain("<fieldset");
    expect(html).toContain(`<legend>${t("avatar.title")}</legend>`);
    const radios = [...html.matchAll(/<input type="radio"[^>]*>/g)].map((m) => m[0]);
    expect(radios).toHaveLength(PEOPLE.length);
    expect(radios.every((r) => r.includes('name="avatar-p"'))).toBe(true);
    expect(radios.filter((r) => r.includes("checked"))).toEqual([expect.stringContaining('value="tiger"')]);
    for (const id of PEOPLE) expect(html).toContain(`alt="${avatarName(id)}"`);
    expect(html).not.toContain("bot-");
    expect(html).toContain('role="status"');
  });
});
