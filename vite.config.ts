import { vitePlugin as remix } from "@remix-run/dev";
import { defineConfig, type Plugin } from "vite";
import { ensureGlyphs } from "./scripts/map-glyphs.mjs";
import { ensureGeography, ensureSketchLand } from "./scripts/offline-geography.mjs";
import { clientChunks } from "./scripts/client-chunks";
import { compileHints } from "./scripts/compile-hints-plugin";
import { mapboxWorker } from "./scripts/mapbox-worker-plugin";
import { serviceWorker } from "./scripts/service-worker-plugin";

/**
 * The map's offline geography is generated before anything is bundled (build, `npm start`,
 * `npm run dev` alike, offline), into .cache/; app/map/offline-geography.ts imports it with
 * `?url`, so it ships as a fingerprinted asset loaded by /map only, not as JavaScript.
 */
const offlineGeography = (): Plugin => ({
  name: "fleet-ops:offline-geography",
  config() {
    ensureGeography(new URL("./.cache/offline-geography.json", import.meta.url).pathname);
    // The coarse land the map's sketch draws before the map (app/map/sketch-land.ts, docs/decisions/0068).
    ensureSketchLand(new URL("./.cache/sketch-land.json", import.meta.url).pathname);
    // Its label glyphs (docs/decisions/0025), static files under /glyphs/ (public/ is copied as is).
    ensureGlyphs(new URL("./public/glyphs", import.meta.url).pathname);
  },
});

// The Worker (wrangler dev, port 8787 unless WORKER_PORT says otherwise) serves /api and the
// realtime rooms; in `npm run dev` Vite serves the pages with hot reload and proxies the rest.
const worker = `http://127.0.0.1:${process.env.WORKER_PORT ?? 8787}`;

export default defineConfig(({ isSsrBuild }) => ({
  plugins: [
    offlineGeography(),
    remix({
      future: {
        v3_fetcherPersist: true,
        v3_relativeSplatPath: true,
        v3_throwAbortReason: true,
        v3_singleFetch: true,
        // Off: the whole route manifest (about 40 routes) comes with the first page, so a navigation
        // never waits on a /__manifest round trip, and works offline to pages not yet linked
        // (docs/decisions/0039).
        v3_lazyRouteDiscovery: false,
      },
    }),
    // mapbox-gl's web worker as a chunk of the browser build, sharing its code with the page (docs/decisions/0063).
    mapboxWorker(),
    // The chunks every signed-in start runs, compiled off the main thread as they arrive (docs/decisions/0107).
    compileHints(),
    // /sw.js with this build's files, after the client build (docs/decisions/0044).
    serviceWorker(),
  ],
  build: {
    // SOURCEMAP=1: source maps beside the files, to read a CPU profile of a phone's start by source
    // file (docs/decisions/0107); never in a build that ships.
    sourcemap: Boolean(process.env.SOURCEMAP),
    // mapbox-gl alone is ~1.9 MB minified; it is loaded only by /map, in its own chunk. Our own
    // code's budget is `npm run bench -- bundle` (JavaScript for /login), not this warning.
    chunkSizeWarningLimit: 2_000,
    rollupOptions: {
      // Rollup copies the imports of a chunk's dependencies into it as bare `import "zod"` lines
      // (a preload hint that means nothing to a Worker); wrangler's esbuild then drops each with an
      // "ignored-bare-import" warning, since those packages declare "sideEffects": false.
      // In the browser those hoisted imports start downloads early, so only the server build drops them.
      // The browser's files in three shared groups rather than dozens of tiny ones (docs/decisions/0054).
      output: { hoistTransitiveImports: !isSsrBuild, manualChunks: isSsrBuild ? undefined : clientChunks() },
    },
  },
  // mapbox-gl's ESM build finds its worker beside its own files (`new URL("worker.js", import.meta.url)`),
  // which pre-bundling would move away from them; `vite dev` serves it as it is.
  optimizeDeps: { exclude: ["mapbox-gl"] },
  // The sync worker (app/sync/sync-worker.ts) is a module worker, bundled on its own.
  worker: { format: "es" },
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
}));
