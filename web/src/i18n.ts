/**
 * The client's words in every language of the platform, from the message catalogs: English
 * from `locales/en.json` (the browser's source messages) and the template `burraco.pot` (the
 * messages whose source is Python: error codes, presets' notes), every other language from
 * its gettext catalog `src/burraco/locale/<lang>/LC_MESSAGES/burraco.po`, the one file a
 * translator edits (docs/translating.md). Messages are ICU MessageFormat, formatted by
 * i18next with i18next-icu (plurals by each language's own rules). A message a catalog lacks
 * falls back to English. The language comes from the browser (navigator.languages) unless
 * the player picked one, which is remembered.
 */
import i18next from "i18next";
import ICU from "i18next-icu";
import { useEffect, useState } from "preact/hooks";
import { withSuitSymbols } from "./cards";
import en from "./locales/en.json";
import { reasonIn } from "./reasons";
import source from "../../src/burraco/locale/burraco.pot";

/** A message of the browser's own (`locales/en.json`). */
export type Key = keyof typeof en;
export type Lang = "it" | "en" | "es" | "ro" | "sl";
/** The languages, in the order the language picker lists them. */
export const LANGS: Lang[] = ["it", "en", "es", "ro", "sl"];
/** A language by its own name ("Italiano", "Română"), as the browser's CLDR data has it. */
export function langName(code: Lang): string {
  return capitalise(new Intl.DisplayNames([code], { type: "language" }).of(code) ?? code);
}
const STORE = "burraco:lang";

const ENGLISH: Catalog = { messages: { ...source.messages, ...en }, groups: source.groups };
/** Each other language's catalog, a chunk of its own loaded when the language is first used
 * (English, the fallback, is in the main bundle). */
const LOADERS: Record<Exclude<Lang, "en">, () => Promise<{ default: Catalog }>> = {
  it: () => import("../../src/burraco/locale/it/LC_MESSAGES/burraco.po"),
  es: () => import("../../src/burraco/locale/es/LC_MESSAGES/burraco.po"),
  ro: () => import("../../src/burraco/locale/ro/LC_MESSAGES/burraco.po"),
  sl: () => import("../../src/burraco/locale/sl/LC_MESSAGES/burraco.po"),
};

/** The catalogs loaded so far (a language not yet loaded reads English). */
export const CATALOGS: Record<Lang, Catalog> = {
  en: ENGLISH, it: ENGLISH, es: ENGLISH, ro: ENGLISH, sl: ENGLISH,
};
const loaded = new Set<Lang>(["en"]);

function isLang(value: string | null | undefined): value is Lang {
  return !!value && (LANGS as string[]).includes(value);
}

/** The language from the saved choice, else the browser's first preference we speak. */
export function detectLang(saved: string | null, browser: readonly string[]): Lang {
  if (isLang(saved)) return saved;
  for (const tag of browser) {
    const base = tag.toLowerCase().split(/[-_]/)[0];
    if (isLang(base)) return base;
  }
  return "en";
}

/**
 * The server's pages (the tournaments, /tournaments/) read the choice from this cookie: a
 * language picked here holds there too, and one picked there holds here.
 */
const COOKIE = "burraco_lang";

function cookieLang(): string | null {
  const found = /(?:^|;\s*)burraco_lang=([a-z]{2})(?:;|$)/.exec(document.cookie ?? "");
  return found ? found[1] : null;
}

function rememberInCookie(choice: Lang): void {
  document.cookie = `${COOKIE}=${choice}; path=/; max-age=${365 * 86400}; samesite=lax`;
}

function initialLang(): Lang {
  if (typeof window === "undefined") return "en";
  let saved: string | null = null;
  try {
    saved = localStorage.getItem(STORE);
  } catch {
    saved = null;
  }
  const chosen = saved ?? cookieLang();
  if (isLang(chosen)) rememberInCookie(chosen);
  return detectLang(chosen, navigator.languages ?? [navigator.language]);
}

let current: Lang = initialLang();
const listeners = new Set<() => void>();

void i18next.use(ICU).init({
  resources: { en: { translation: ENGLISH.messages } }, lng: current, fallbackLng: "en", initAsync: false,
  keySeparator: false, nsSeparator: false, returnNull: false, returnEmptyString: false,
  interpolation: { escapeValue: false },
});

export function lang(): Lang {
  return current;
}

/** Load a language's catalog (once); the page shows it from then on. */
export async function loadLang(code: Lang): Promise<void> {
  if (loaded.has(code)) return;
  const catalog = (await LOADERS[code as Exclude<Lang, "en">]()).default;
  CATALOGS[code] = catalog;
  i18next.addResourceBundle(code, "translation", catalog.messages, true, true);
  loaded.add(code);
}

/** Every language's catalog loaded (tests, and a page that lists them all). */
export async function loadAllLangs(): Promise<void> {
  await Promise.all(LANGS.map(loadLang));
}

let wanted: Lang = current;

/** Switch the language: remembered at once (this page's later visits and the server's pages
 * follow it), shown at once when its catalog is loaded, else once it is. */
export function setLang(next: Lang): void {
  wanted = next;
  try {
    localStorage.setItem(STORE, next);
  } catch {
    /* private mode: the choice lasts for this page */
  }
  if (typeof document !== "undefined") rememberInCookie(next);
  if (!loaded.has(next)) {
    // a later choice made while this one loads wins
    void loadLang(next).then(() => { if (wanted === next) show(next); });
    return;
  }
  show(next);
}

function show(next: Lang): void {
  current = next;
  void i18next.changeLanguage(next);
  if (typeof document !== "undefined") document.documentElement.lang = next;
  listeners.forEach((fn) => fn());
}

/** Re-render a component when the language changes; returns the language. */
export function useLang(): Lang {
  const [, bump] = useState(0);
  useEffect(() => {
    const fn = () => bump((n) => n + 1);
    listeners.add(fn);
    return () => {
      listeners.delete(fn);
    };
  }, []);
  return current;
}

type Params = Record<string, string | number>;

const pickerCache = new Map<string, Set<string>>();

/** The arguments a message picks a form by (`{n, plural, …}`), found once per message. */
function pickers(text: string): Set<string> {
  let found = pickerCache.get(text);
  if (!found) {
    found = new Set([...text.matchAll(/\{\s*(\w+)\s*,/g)].map((m) => m[1]));
    pickerCache.set(text, found);
  }
  return found;
}

/** A message in the current language (or `as`), its `{placeholders}` filled from `params`;
 * a number is written as the language writes it (12,5), unless the message picks a plural
 * form by it (the form's `#` is written so too). */
export function t(key: Key, params?: Params, as: Lang = current): string {
  if (!params) return i18next.t(key, { lng: as });
  const text = CATALOGS[as].messages[key] ?? CATALOGS.en.messages[key] ?? "";
  const picked = pickers(text);
  const shown = Object.fromEntries(Object.entries(params).map(([name, value]) =>
    [name, typeof value === "number" && !picked.has(name) ? formatNumber(value, as) : value]));
  return i18next.t(key, { ...shown, lng: as });
}

/** True when `key` names a message (a key built at run time: `avatar.${id}`). */
export function has(key: string): key is Key {
  return key in CATALOGS.en.messages;
}

/** A message whose key is built at run time, or `fallback` when there is no such message. */
export function tOr(key: string, fallback: string, params?: Params, as: Lang = current): string {
  return has(key) ? t(key, params, as) : fallback;
}

/** An engine or server refusal in the player's language. */
export function reasonText(code: string, reason: string, as: Lang = current): string {
  const engine = code === "illegal_action" || code === "nothing_to_undo" || code === "undo_not_allowed";
  if (!engine && has(`code.${code}`)) return t(`code.${code}` as Key, undefined, as);
  // the client's own words for the refusals of trust and safety (a muted player's message)
  if (!engine && has(`refusal.${code}`)) return t(`refusal.${code}` as Key, undefined, as);
  return capitalise(reasonIn(CATALOGS[as].groups, reason));
}

export { withSuitSymbols };

/** "1 card", "5 cards". */
export function cardCount(n: number, as: Lang = current): string {
  return n === 1 ? t("table.card1", undefined, as) : t("table.cards", { n }, as);
}

export function capitalise(text: string): string {
  return text ? text[0].toUpperCase() + text.slice(1) : text;
}

export function optionLabel(name: string, as: Lang = current): string {
  return tOr(`option.${name}`, name, undefined, as);
}

export function choiceLabel(value: string, as: Lang = current): string {
  return tOr(`choice.${value}`, value, undefined, as);
}

/** A preset's name as players know it (the id when it has none). */
export function presetName(name: string): string {
  return tOr(`preset.${name}`, name);
}

/** A preset's note in the player's language (the server's English when it has none). */
export function presetNote(name: string, english: string, as: Lang = current): string {
  return CATALOGS[as].messages[`presetNote.${name}`] ?? english;
}

/** The locale whose conventions a language's numbers and dates follow (English: British). */
export function localeOf(as: Lang = current): string {
  return as === "en" ? "en-GB" : as;
}

/** A number as the language writes it (12,5 and 14.821 in Italian); four digits stay
 * ungrouped in every language (a target of 2005, a rating of 1143), as score sheets write them. */
export function formatNumber(n: number, as: Lang = current, options?: Intl.NumberFormatOptions): string {
  return new Intl.NumberFormat(localeOf(as), { useGrouping: "min2", ...options } as Intl.NumberFormatOptions).format(n);
}

/** A date (and time) as the language writes it, from seconds since the epoch. */
export function formatDate(seconds: number, options?: Intl.DateTimeFormatOptions, as: Lang = current): string {
  return new Date(seconds * 1000).toLocaleString(localeOf(as), options);
}
