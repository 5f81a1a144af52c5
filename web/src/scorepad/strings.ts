/**
 * The score pad's words: its messages are in the catalogs with every other page's; a
 * parameter that names a message is translated too (a burraco's kind, a rule's name).
 */
import { has, t, lang, type Key, type Lang } from "../i18n";

export type PadKey = Key;

/** A pad string in the current language; a parameter that names a key is translated too. */
export function tp(key: PadKey, params?: Record<string, string | number>, as: Lang = lang()): string {
  const shown = params && Object.fromEntries(Object.entries(params).map(([k, v]) =>
    [k, typeof v === "string" && has(v) ? t(v, undefined, as) : v]));
  return t(key, shown, as);
}

export function kindName(kind: string, as: Lang = lang()): string {
  const key = `kind.${kind}`;
  return has(key) ? t(key, undefined, as) : kind;
}
