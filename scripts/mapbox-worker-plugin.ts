import type { Plugin } from "vite";

/** The module app/map/mapbox-gl.ts imports for the address of mapbox-gl's web worker. */
const WORKER_URL_MODULE = "virtual:mapbox-gl-worker-url";
const RESOLVED = `\0${WORKER_URL_MODULE}`;
/** mapbox-gl's ESM build: its page side (core.js) and its worker's entry, both on top of shared.js. */
const ESM_WORKER = "mapbox-gl/dist/esm/worker.js";
const ESM_CORE = /\/mapbox-gl\/dist\/esm\/core\.js$/;
/** What core.js does when no worker address was set: a worker at its own side, bundled again by Vite. */
const DEFAULT_WORKER = 'new Worker(new URL("worker.js",import.meta.url),{type:"module"})';
/** The worker's side: its entry and shared.js import the worker's optional features lazily. */
const ESM_WORKER_SIDE = /\/mapbox-gl\/dist\/esm\/(worker|shared)\.js$/;
/** Those lazy imports: `import("./standard.worker.js")`. */
const WORKER_FEATURE_IMPORT = /import\("(\.\/\w+\.worker\.js)"\)/g;

/**
 * mapbox-gl's worker as a chunk of the browser build (docs/decisions/0063). mapbox-gl's ESM build
 * splits its code into the page's side (core.js), the worker's (worker.js) and what both run
 * (shared.js, 160 KB gzipped). Left to Vite, `new Worker(new URL("worker.js", import.meta.url))`
 * becomes a worker built on its own with a second copy of shared.js for the phone to download;
 * emitted as one more entry of the browser build instead, Rollup gives the page and the worker the
 * same shared.js chunk, and the page tells mapbox-gl where the worker is (`setWorkerUrl`) through
 * `virtual:mapbox-gl-worker-url`. In `vite dev` and the server build the module says "none", and
 * mapbox-gl keeps its default.
 */
export function mapboxWorker(): Plugin {
  let browserBuild = false;
  let workerChunk = "";
  return {
    name: "fleet-ops:mapbox-worker",
    enforce: "pre",
    configResolved(config) {
      browserBuild = config.command === "build" && !config.build.ssr;
    },
    buildStart() {
      if (browserBuild) workerChunk = this.emitFile({ type: "chunk", id: ESM_WORKER, name: "mapbox-gl-worker" });
    },
    resolveId(id) {
      return id === WORKER_URL_MODULE ? RESOLVED : undefined;
    },
    load(id) {
      if (id !== RESOLVED) return undefined;
      // Rollup writes the chunk's final (fingerprinted) address in place of import.meta.ROLLUP_FILE_URL_….
      return browserBuild ? `export default import.meta.ROLLUP_FILE_URL_${workerChunk};` : "export default undefined;";
    },
    transform(code, id) {
      if (!browserBuild) return undefined;
      // The default is never taken once the address is set; removed, Vite does not build the worker twice.
      if (ESM_CORE.test(id) && code.includes(DEFAULT_WORKER)) {
        return {
          code: code.replace(DEFAULT_WORKER, '(()=>{throw new Error("mapbox-gl: no worker address")})()'),
          map: null,
        };
      }
      // Vite wraps a lazy import whose address is a plain string in its preloading helper, which adds
      // <link>s to the document and lives in the framework chunk: in the worker there is no document,
      // and importing the helper would load React there. A parenthesised address is left alone
      // (Rollup still resolves and bundles it).
      if (ESM_WORKER_SIDE.test(id)) return { code: code.replace(WORKER_FEATURE_IMPORT, 'import(("$1"))'), map: null };
      return undefined;
    },
  };
}
