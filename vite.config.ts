import { vitePlugin as remix } from "@remix-run/dev";
import { defineConfig, type Plugin } from "vite";
import { ensureGeography } from "./scripts/offline-geography.mjs";

/**
 * The map's offline geography is generated before anything is bundled (build, `npm start`,
 * `npm run dev` alike, offline), into .cache/; app/map/offline-geography.ts imports it with
 * `?url`, so it ships as a fingerprinted asset loaded by /map only, not as JavaScript.
 */
const offlineGeography = (): Plugin => ({
  name: "fleet-ops:offline-geography",
  config() {
    ensureGeography(new URL("./.cache/offline-geography.json", import.meta.url).pathname);
  },
});

// The Worker (wrangler dev, port 8787 unless WORKER_PORT says otherwise) serves /api and the
// realtime rooms; in `npm run dev` Vite serves the pages with hot reload and proxies the rest.
const worker = `http://127.0.0.1:${process.env.WORKER_PORT ?? 8787}`;

export default defineConfig({
  plugins: [
    offlineGeography(),
    remix({
      future: {
        v3_fetcherPersist: true,
        v3_relativeSplatPath: true,
        v3_throwAbortReason: true,
        v3_singleFetch: true,
        v3_lazyRouteDiscovery: true,
      },
    }),
  ],
  server: {
    proxy: {
      "/api": worker,
      "/parties": { target: worker, ws: true },
    },
  },
  ssr: {
    // Workers resolve packages with their browser/worker conditions.
    resolve: { conditions: ["workerd", "worker", "browser"], externalConditions: ["workerd", "worker"] },
  },
});
