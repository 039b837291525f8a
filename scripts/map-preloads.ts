import { readFileSync } from "node:fs";
import path from "node:path";
import type { Plugin } from "vite";

/** The module app/entry.server.tsx imports for the /map page's Link header. */
const PRELOADS_MODULE = "virtual:map-preloads";
const RESOLVED = `\0${PRELOADS_MODULE}`;
/**
 * mapbox-gl (app/map/mapbox-gl.ts, which Rollup merges with mapbox-gl's core.js into a chunk it names
 * after them) and what it imports: 360 KB gzipped of the map page's 600, imported lazily
 * (app/map/lazy-map.ts). Only these: over HTTP/1.1's six connections a host, the map's twenty small
 * modules named too would queue the page's own code behind them, and they download in one wave
 * once the map asks for them.
 */
const MAPBOX_CHUNK = "chunk:mapbox-gl";
/** The page's own entries: whatever they import statically, the HTML already links. */
const PAGE_ENTRIES = ["app/entry.client.tsx", "app/root.tsx", "app/routes/_app.tsx", "app/routes/_app.map.tsx"];

interface ManifestChunk {
  file: string;
  name?: string;
  imports?: string[];
  css?: string[];
}
type Manifest = Record<string, ManifestChunk>;

/** Manifest keys `from` (source paths, with a query for Remix's routes, or `chunk:<name>`) reaches through static imports, themselves included. */
function staticClosure(manifest: Manifest, from: string[]): Set<string> {
  const seen = new Set<string>();
  const stack = Object.keys(manifest).filter(
    (key) => from.includes(key.replace(/\?.*$/, "")) || from.includes(`chunk:${manifest[key]!.name}`),
  );
  while (stack.length) {
    const key = stack.pop()!;
    if (seen.has(key)) continue;
    seen.add(key);
    stack.push(...(manifest[key]?.imports ?? []));
  }
  return seen;
}

/** The `Link` header values that start mapbox-gl's files with the page's HTML. */
export function mapPreloadLinks(manifest: Manifest): string[] {
  const linked = staticClosure(manifest, PAGE_ENTRIES);
  const map = [...staticClosure(manifest, [MAPBOX_CHUNK])].filter((key) => !linked.has(key)).sort();
  const scripts = map.map((key) => `</${manifest[key]!.file}>; rel=modulepreload`);
  const styles = [...new Set(map.flatMap((key) => manifest[key]!.css ?? []))].map(
    (file) => `</${file}>; rel=preload; as=style`,
  );
  return [...styles, ...scripts];
}

/**
 * The /map page's Link header (docs/decisions/0063): mapbox-gl is most of that page's bytes but is
 * imported lazily, so the browser would start it only once the app's code has downloaded and run
 * (4 to 5 s into a throttled phone's load). Named in the response's `Link` header it downloads
 * beside the app's code from the first byte of HTML. Their names are
 * known after the browser build, so the server build (the second) reads them from the browser
 * build's Vite manifest; elsewhere the module is empty.
 */
export function mapPreloads(): Plugin {
  let manifestFile: string | null = null;
  return {
    name: "fleet-ops:map-preloads",
    configResolved(config) {
      if (config.command !== "build" || !config.build.ssr) return;
      // build/server's sibling, build/client (Remix's buildDirectory layout), where Remix's browser build left its manifest.
      const clientDir = path.join(path.dirname(path.resolve(config.root, config.build.outDir)), "client");
      manifestFile = path.join(clientDir, ".vite/manifest.json");
    },
    resolveId(id) {
      return id === PRELOADS_MODULE ? RESOLVED : undefined;
    },
    load(id) {
      if (id !== RESOLVED) return undefined;
      const links = manifestFile ? mapPreloadLinks(JSON.parse(readFileSync(manifestFile, "utf8")) as Manifest) : [];
      return `export default ${JSON.stringify(links)};`;
    },
  };
}
