/// <reference lib="webworker" />
/**
 * The service worker (built to /sw.js): precaches the shell of this build (its scripts and
 * styles have hashed names), serves them and the card images from the cache first, pages from
 * the network with the cached index.html when offline, and lets everything else (the API,
 * WebSockets) go to the network untouched.
 */
import { cacheName, policy } from "./policy";

declare const self: ServiceWorkerGlobalScope;
/** Replaced at build time by the build's id and its shell files. */
const BUILD = "__BUILD__";
const SHELL: string[] = JSON.parse("__SHELL__");
const CACHE = cacheName(BUILD);

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(["/", ...SHELL])).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) if (name.startsWith("burraco-") && name !== CACHE) await caches.delete(name);
    await self.clients.claim();
  })());
});

/**
 * A page: the server's index.html while online (so a page never pairs with the files of
 * another build), the cached one when the network is down.
 */
async function shell(request: Request): Promise<Response> {
  const cache = await caches.open(CACHE);
  try {
    const response = await fetch(request);
    if (response.ok && response.type === "basic") await cache.put("/", response.clone());
    return response;
  } catch (err) {
    const cached = await cache.match("/");
    if (cached) return cached;
    throw err;
  }
}

async function asset(request: Request): Promise<Response> {
  const cache = await caches.open(CACHE);
  const cached = await cache.match(request);
  if (cached) return cached;
  const response = await fetch(request);
  if (response.ok && response.type === "basic") cache.put(request, response.clone());
  return response;
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const kind = policy(request.method, new URL(request.url), self.location.origin, request.mode === "navigate");
  if (kind === "shell") event.respondWith(shell(request));
  else if (kind === "asset") event.respondWith(asset(request));
});
