/** The player's table preferences, remembered in localStorage: sound muted, four-colour deck. */
import { useEffect, useState } from "preact/hooks";

export type Pref = "muted" | "fourColour";
const KEYS: Record<Pref, string> = { muted: "burraco:muted", fourColour: "burraco:four-colour" };
const listeners = new Set<() => void>();

const cache = new Map<Pref, boolean>();

export function pref(name: Pref): boolean {
  if (!cache.has(name)) {
    let value = false;
    try {
      value = typeof localStorage !== "undefined" && localStorage.getItem(KEYS[name]) === "1";
    } catch {
      value = false;
    }
    cache.set(name, value);
  }
  return cache.get(name)!;
}

export function setPref(name: Pref, on: boolean): void {
  cache.set(name, on);
  try {
    if (on) localStorage.setItem(KEYS[name], "1");
    else localStorage.removeItem(KEYS[name]);
  } catch {
    // storage refused: the choice lasts for this page only
  }
  applyDeckClass();
  listeners.forEach((fn) => fn());
}

/** `four-colour` on <html> lets the stylesheet tell the suits apart by colour too. */
export function applyDeckClass(): void {
  if (typeof document !== "undefined") document.documentElement.classList.toggle("four-colour", pref("fourColour"));
}

export function usePref(name: Pref): boolean {
  const [value, setValue] = useState(pref(name));
  useEffect(() => {
    const update = () => setValue(pref(name));
    listeners.add(update);
    return () => {
      listeners.delete(update);
    };
  }, [name]);
  return value;
}
