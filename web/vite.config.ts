// Builds the client into the server package (src/burraco/app/static/), which
// `burraco serve` serves; `npm run dev` proxies the API and WebSockets to a local server.
// The service worker (src/pwa/sw.ts) is a second entry built to /sw.js; the `service-worker`
// plugin writes into it the build's id and the shell files it precaches.
import { createHash } from "node:crypto";
import type { Plugin } from "vite";
import { defineConfig } from "vitest/config";
import { poCatalogs } from "./po-catalogs";

const server = process.env.BURRACO_SERVER ?? "http://127.0.0.1:8000";

function serviceWorker(): Plugin {
  return {
    name: "service-worker",
    apply: "build",
    generateBundle(_options, bundle) {
      const shell = Object.keys(bundle).filter((name) => name !== "sw.js" && name.startsWith("assets/"))
        .map((name) => `/${name}`).sort();
      shell.push("/manifest.webmanifest", "/icon.svg");
      const build = createHash("sha256").update(shell.join("\n")).digest("hex").slice(0, 12);
      const sw = bundle["sw.js"];
      if (!sw || sw.type !== "chunk") throw new Error("the service worker entry was not built");
      const code = sw.code.replace(/(["'`])__SHELL__\1/, JSON.stringify(JSON.stringify(shell)))
        .replaceAll("__BUILD__", build);
      if (code.includes("__SHELL__") || code.includes("__BUILD__")) throw new Error("sw.js placeholders left");
      sw.code = code;
    },
  };
}

export default defineConfig({
  plugins: [poCatalogs(), serviceWorker()],
  build: {
    outDir: "../src/burraco/app/static",
    emptyOutDir: true,
    sourcemap: false,
    rolldownOptions: {
      input: { index: "index.html", sw: "src/pwa/sw.ts" },
      output: {
        entryFileNames: (chunk) => (chunk.name === "sw" ? "sw.js" : "assets/[name]-[hash].js"),
      },
    },
  },
  server: {
    // the catalogs lie in the Python package (src/burraco/locale/)
    fs: { allow: [".."] },
    proxy: {
      "/api": server,
      "/healthz": server,
      "/ws": { target: server.replace("http", "ws"), ws: true },
    },
  },
  test: {
    include: ["test/**/*.test.ts"],
    setupFiles: ["test/setup.ts"],
  },
});
