import type { OutputBundle } from "rollup";
import type { Plugin } from "vite";

/**
 * V8's explicit compile hint (Chrome 136 and later): a file that starts with this comment has all
 * its functions compiled as it streams in, on a background thread, instead of each one on the
 * main thread the first time it is called (docs/decisions/0107).
 */
export const COMPILE_HINT = "//# allFunctionsCalledOnLoad\n";

/**
 * The browser build's chunks every signed-in page runs before its first content
 * (scripts/client-chunks.ts): React and Remix, what the root route imports, and the signed-in
 * layout. Most of their functions run on every start; the rest of the build (each page's own code,
 * the map, the sync worker) stays lazily compiled.
 */
const STARTUP_CHUNKS = new Set(["framework", "shell", "app-layout"]);

/**
 * Puts the compile hint at the top of the startup chunks (docs/decisions/0107). The hint must be
 * the file's very first line, which minification would strip, so it is added to the finished chunk
 * (its source map file, when the build has one, gains an empty first line to match) and named in the
 * chunk's hash: a file's name changes with its content, as the service worker and the immutable
 * cache of /assets/ expect.
 */
export function compileHints(): Plugin {
  let browserBuild = false;
  return {
    name: "fleet-ops:compile-hints",
    configResolved(config) {
      browserBuild = config.command === "build" && !config.build.ssr;
    },
    augmentChunkHash(chunk) {
      return browserBuild && STARTUP_CHUNKS.has(chunk.name) ? COMPILE_HINT : undefined;
    },
    generateBundle: {
      // After Vite's own, which puts its preload map (`__vite__mapDeps`) at the chunk's top.
      order: "post",
      handler(_options, bundle) {
        if (!browserBuild) return;
        for (const file of Object.values(bundle)) {
          if (file.type !== "chunk" || !STARTUP_CHUNKS.has(file.name)) continue;
          file.code = COMPILE_HINT + file.code;
          shiftSourceMap(bundle[`${file.fileName}.map`]);
        }
      },
    },
  };
}

/** A chunk's source map file (already emitted by now) made to skip the hint's line. */
function shiftSourceMap(asset: OutputBundle[string] | undefined) {
  if (asset?.type !== "asset" || typeof asset.source !== "string") return;
  const map = JSON.parse(asset.source) as { mappings: string };
  map.mappings = `;${map.mappings}`;
  asset.source = JSON.stringify(map);
}
