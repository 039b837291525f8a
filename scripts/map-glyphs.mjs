// Label glyphs for the offline map style (docs/decisions/0025), copied at BUILD time from the
// tileserver-gl-styles package (Noto Sans Regular as SDF glyph ranges, SIL Open Font License)
// into public/glyphs/ (not in git), which Vite serves in development and copies into the build.
// Only the ranges the offline style's labels need: Latin (with its extensions and combining marks,
// Vietnamese), Greek, Cyrillic and punctuation. A label with other characters draws without them.
import { copyFileSync, mkdirSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

const require = createRequire(import.meta.url);

export const GLYPH_FONT = "Noto Sans Regular";
export const GLYPH_RANGES = ["0-255", "256-511", "512-767", "768-1023", "1024-1279", "7680-7935", "8192-8447"];

/** Copies the glyph ranges into `dir`/<font>/<range>.pbf unless the same file is there (npm dates every file 1985: sizes tell). */
export function ensureGlyphs(dir) {
  const from = join(dirname(require.resolve("tileserver-gl-styles/package.json")), "fonts", GLYPH_FONT);
  mkdirSync(join(dir, GLYPH_FONT), { recursive: true });
  for (const range of GLYPH_RANGES) {
    const source = join(from, `${range}.pbf`);
    const target = join(dir, GLYPH_FONT, `${range}.pbf`);
    try {
      if (statSync(target).size === statSync(source).size) continue;
    } catch {
      // Not copied yet.
    }
    copyFileSync(source, target);
  }
  return dir;
}
