import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { build, type Plugin } from "vite";
import { shellsFromRouteFiles } from "../app/service-worker/shells";

/** Files of the client build the service worker never keeps: headers config, Vite's manifest, itself. */
const notPrecached = (file: string) => file === "_headers" || file === "sw.js" || file.startsWith(".vite/");

function filesUnder(dir: string, prefix = ""): string[] {
  return readdirSync(path.join(dir, prefix), { withFileTypes: true }).flatMap((entry) => {
    const name = prefix ? `${prefix}/${entry.name}` : entry.name;
    return entry.isDirectory() ? filesUnder(dir, name) : [name];
  });
}

const hashOf = (data: string | Buffer) => createHash("sha256").update(data).digest("hex").slice(0, 16);

/**
 * The map's own large files: mapbox-gl and its split bundles, the offline geography, the sketch's
 * land and the glyphs, about two thirds of the build by size. The service worker keeps them after it
 * has taken control (docs/decisions/0075), so a first visit can open offline sooner.
 */
const MAP_FILES =
  /^(glyphs\/|assets\/(mapbox-gl|offline-geography|sketch-land|(hd|hd_standard|standard|lite|debug|raster_array)\.(main|worker|shared|model))-)/;

/**
 * This build's precache list: every client file but the map's (fingerprinted ones under assets/
 * by name alone, the others by a hash of their content), and every page shell at a revision naming
 * the whole build, so a new build fetches every shell anew and an unchanged one none; then the
 * map's files, kept once the worker is in control.
 */
function precacheList(outDir: string, routesDir: string) {
  const files = filesUnder(outDir)
    .filter((f) => !notPrecached(f))
    .sort();
  const entries = files.map((file) => ({
    url: `/${encodeURI(file)}`,
    revision: file.startsWith("assets/") ? null : hashOf(readFileSync(path.join(outDir, file))),
  }));
  const buildId = hashOf(JSON.stringify(entries));
  const shells = shellsFromRouteFiles(readdirSync(routesDir));
  const later = entries.filter((_, i) => MAP_FILES.test(files[i]!)).map((e) => e.url);
  const first = entries.filter((_, i) => !MAP_FILES.test(files[i]!));
  return { buildId, shells, later, precache: [...first, ...shells.map((s) => ({ url: s.url, revision: buildId }))] };
}

/**
 * Builds /sw.js (app/service-worker/sw.ts, docs/decisions/0044) with this build's file list written
 * in: the worker is not part of the Remix bundle, and its own address must stay the same from build
 * to build so browsers find the next one. It runs at the end of the server build, the second of
 * `remix vite:build`'s two, because Remix writes the browser's route manifest
 * (build/client/assets/manifest-*.js) only then.
 */
export function serviceWorker(): Plugin {
  let clientDir = "";
  let root = "";
  let ssr = false;
  return {
    name: "fleet-ops:service-worker",
    apply: "build",
    configResolved(config) {
      ssr = Boolean(config.build.ssr);
      // build/server's sibling, build/client (Remix's buildDirectory layout).
      clientDir = path.join(path.dirname(path.resolve(config.root, config.build.outDir)), "client");
      root = config.root;
    },
    async closeBundle() {
      if (!ssr) return;
      const { buildId, shells, later, precache } = precacheList(clientDir, path.join(root, "app/routes"));
      await build({
        configFile: false,
        logLevel: "warn",
        define: {
          __SW_PRECACHE__: JSON.stringify(precache),
          __SW_SHELLS__: JSON.stringify(shells),
          __SW_LATER__: JSON.stringify(later),
          __SW_BUILD__: JSON.stringify(buildId),
          "process.env.NODE_ENV": JSON.stringify("production"),
        },
        build: {
          outDir: clientDir,
          emptyOutDir: false,
          copyPublicDir: false,
          lib: {
            entry: path.join(root, "app/service-worker/sw.ts"),
            formats: ["iife"],
            name: "fleetOpsSw",
            fileName: () => "sw.js",
          },
        },
      });
    },
  };
}
