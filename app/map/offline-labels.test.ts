import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { GLYPH_FONT, GLYPH_RANGES } from "../../scripts/map-glyphs.mjs";
import { buildGeography } from "../../scripts/offline-geography.mjs";
import { NOTO_FONT } from "./map-style";
import { offlineGeographyStyle } from "./offline-geography";

/**
 * The offline style's labels (docs/decisions/0025) can only be drawn with glyphs the app ships:
 * the font stacks it names must be the one scripts/map-glyphs.mjs copies, and every character of
 * every city name must fall in a range it copies.
 */
describe("offline labels", () => {
  beforeEach(() => vi.stubGlobal("window", { location: { href: "https://fleet.example/map" } }));
  afterEach(() => vi.unstubAllGlobals());

  it("fetches glyphs from this app's own /glyphs/, in the font it ships", () => {
    const style = offlineGeographyStyle();
    expect(style.glyphs).toBe("https://fleet.example/glyphs/{fontstack}/{range}.pbf");
    const fonts = style.layers.flatMap((l) => (l.type === "symbol" ? [l.layout?.["text-font"]] : []));
    expect(fonts.length).toBeGreaterThan(0);
    for (const font of fonts) expect(font).toEqual([GLYPH_FONT]);
    expect(NOTO_FONT).toEqual([GLYPH_FONT]);
  });

  it("ships a glyph range for every character of every city name", () => {
    const cities = (
      JSON.parse(buildGeography()) as { features: { properties: { kind: string; name?: string; rank?: number } }[] }
    ).features.filter((f) => f.properties.kind === "city");
    expect(cities.length).toBeGreaterThan(1000);
    expect(cities.map((c) => c.properties.name)).toEqual(
      expect.arrayContaining(["Chicago", "Toronto", "Ho Chi Minh City"]),
    );
    const shipped = new Set(GLYPH_RANGES.map((r) => Number(r.split("-")[0])));
    const missing = cities.flatMap((c) =>
      [...c.properties.name!].filter((ch) => !shipped.has(Math.floor(ch.codePointAt(0)! / 256) * 256)),
    );
    expect(missing).toEqual([]);
  });
});
