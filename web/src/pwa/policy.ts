/**
 * What the service worker does with each request: the app shell (the pages, the built
 * scripts and styles), the card images and the avatars come from its cache, so the app opens
 * fast and offline; the API, the WebSocket, health and metrics always go to the server, never cached
 * (a table's view is secret and live).
 */

export type Policy = "network" | "shell" | "asset";

/** Paths that are pages of the client (the server answers them all with index.html). */
const PAGES = /^\/(?:$|play\/|replay\/|pad(?:\/|$)|players\/|leaderboard$|help(?:\/|$))/;
const NEVER = /^\/(?:api|ws|healthz|metrics|tournaments)(?:\/|$)/;
const ASSETS = /^\/(?:assets|cards|avatars)\/|^\/(?:manifest\.webmanifest|icon[\w-]*\.(?:svg|png))$/;

export function policy(method: string, url: URL, origin: string, navigate: boolean): Policy {
  if (method !== "GET" || url.origin !== origin) return "network";
  if (NEVER.test(url.pathname)) return "network";
  if (navigate && PAGES.test(url.pathname)) return "shell";
  if (ASSETS.test(url.pathname)) return "asset";
  return "network";
}

/** The cache's name carries the build, so a new build starts a new cache and drops the old. */
export function cacheName(build: string): string {
  return `burraco-${build}`;
}
