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
 * layout. Most of their functions run on every start.
 */
const STARTUP_CHUNKS = new Set(["framework", "shell", "app-layout"]);

/** A module of our own (app/, shared/), not a package's or a bundler's virtual one. */
const ownModule = (id: string) => !id.includes("/node_modules/") && !id.startsWith("\0");

/**
 * Hinted: the startup chunks, and every chunk of our own code alone (a page's route module and
 * what only some pages share), which runs when its page opens. A chunk holding a package (mapbox-gl,
 * Chart.js) stays lazily compiled: most of a library's functions never run on a given page.
 */
function hinted(chunk: { name: string; moduleIds: readonly string[] }): boolean {
  return STARTUP_CHUNKS.has(chunk.name) || (chunk.moduleIds.length > 0 && chunk.moduleIds.every(ownModule));
}

/**
 * Puts the compile hint at the top of the chunks a page runs as it opens (docs/decisions/0107).
 * The hint must be the file's very first line, which minification would strip, so it is added to
 * the finished chunk (its source map file, when the build has one, gains an empty first line to
 * match) and named in the chunk's hash: a file's name changes with its content, as the service
 * worker and the immutable cache of /assets/ expect.
 */
export function compileHints(): Plugin {
  let browserBuild = false;
  return {
    name: "fleet-ops:compile-hints",
    configResolved(config) {
      browserBuild = config.command === "build" && !config.build.ssr;
    },
    augmentChunkHash(chunk) {
      return browserBuild && hinted(chunk) ? COMPILE_HINT : undefined;
    },
    generateBundle: {
      // After Vite's own, which puts its preload map (`__vite__mapDeps`) at the chunk's top.
      order: "post",
      handler(_options, bundle) {
        if (!browserBuild) return;
        for (const file of Object.values(bundle)) {
          if (file.type !== "chunk" || !hinted(file)) continue;
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
