/**
 * The engine's and the server's refusals in the player's language. The engine explains every
 * refusal in an English sentence citing RULES.md (§); the catalogs hold each sentence's
 * template (context `reason`, `{card}` where a value goes) and its translations, the same
 * entries the terminal client and the server read (src/burraco/locale/reasons.py). A reason
 * is matched to its template, its values put into the translation (a card with its suit
 * symbol, a rank's plural, a closing need and a table's state translated too). Anything
 * unknown stays the English text, so a new engine reason is never lost, only untranslated.
 */
import { withSuitSymbols } from "./cards";
import source from "../../src/burraco/locale/burraco.pot";

type Groups = Catalog["groups"];

const SLOT = /\{(\w+)\}/g;
const WHAT: Record<string, string> = {
  card: "(\\S+)", ranks: "(\\S+)", seat: "(\\d+)", other: "(\\d+)", players: "(\\d+)",
  meld: "(\\d+)", count: "(\\d+)", status: "(\\S+)",
};

interface Template { text: string; pattern: RegExp; names: string[] }

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

function compile(text: string): Template {
  const names: string[] = [];
  let last = 0;
  let pattern = "";
  for (const slot of text.matchAll(SLOT)) {
    pattern += escape(text.slice(last, slot.index)) + (WHAT[slot[1]] ?? "(.+)");
    names.push(slot[1]);
    last = slot.index! + slot[0].length;
  }
  pattern += escape(text.slice(last));
  return { text, pattern: new RegExp(`^${pattern}$`), names };
}

const literal = (text: string) => text.replace(SLOT, "").length;
// the most literal first: "you do not hold another {card}" before "you do not hold {card}"
const TEMPLATES: Template[] = Object.keys(source.groups.reason ?? {}).map(compile)
  .sort((a, b) => literal(b.text) - literal(a.text));

/** The template `reason` was written from and its values, or null. */
export function matchReason(reason: string): { template: string; values: Record<string, string> } | null {
  for (const template of TEMPLATES) {
    const found = template.pattern.exec(reason);
    if (found) {
      return { template: template.text, values: Object.fromEntries(template.names.map((name, i) => [name, found[i + 1]])) };
    }
  }
  return null;
}

/** `text` with each `{name}` replaced by its value (an unknown name left as it is). */
export function fill(text: string, values: Record<string, string>): string {
  return text.replace(SLOT, (whole, name: string) => values[name] ?? whole);
}

function value(groups: Groups, name: string, text: string): string {
  const word = (group: string) => groups[group]?.[text] ?? text;
  switch (name) {
    case "card": return withSuitSymbols(text);
    case "ranks": return word("reason.ranks");
    case "need": return word("reason.need");
    case "status": return word("reason.status");
    case "allowed": {
      const words = text.split(" and ").map((part) => value(groups, "ranks", part));
      if (words.length < 2) return words.join(", ");
      const joined = groups["reason.list"]?.["{first} and {last}"] ?? "{first} and {last}";
      return fill(joined, { first: words.slice(0, -1).join(", "), last: words[words.length - 1] });
    }
    default: return text;
  }
}

/** The reason in the language of `groups` (a catalog's reason entries), cards with suits. */
export function reasonIn(groups: Groups, reason: string): string {
  const found = matchReason(reason);
  if (!found) return withSuitSymbols(reason);
  const translated = groups.reason?.[found.template] ?? found.template;
  return fill(translated, Object.fromEntries(Object.entries(found.values).map(([name, v]) => [name, value(groups, name, v)])));
}

/** True when the catalog of `groups` has `reason` (for tests). */
export function isTranslated(groups: Groups, reason: string): boolean {
  const found = matchReason(reason);
  return !!found && !!groups.reason?.[found.template];
}
