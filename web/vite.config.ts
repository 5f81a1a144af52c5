// Builds the client into the server package (src/burraco/server/static/), which
// `burraco serve` serves; `npm run dev` proxies the API and WebSockets to a local server.
import { defineConfig } from "vitest/config";

const server = process.env.BURRACO_SERVER ?? "http://127.0.0.1:8000";

export default defineConfig({
  build: {
    outDir: "../src/burraco/server/static",
    emptyOutDir: true,
    sourcemap: false,
  },
  server: {
    proxy: {
      "/api": server,
      "/healthz": server,
      "/ws": { target: server.replace("http", "ws"), ws: true },
    },
  },
  test: {
    include: ["test/**/*.test.ts"],
  },
});
