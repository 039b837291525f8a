import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { crc32, deflateSync } from "node:zlib";
import type { Page } from "@playwright/test";

/**
 * OpenFreeMap faked at its HTTP boundary (tests have no network): its one host answers a tiny
 * street style of our own (a raster source through a TileJSON, like the real style's shaded relief,
 * and its glyph URL), one solid-colour PNG for every tile, and glyphs from the same package the
 * app's offline style uses. Registered after the fixture's block of the host, so it wins.
 */
export const OPENFREEMAP_HOST = "https://tiles.openfreemap.org";
/** The fake tiles' colour: far from the offline geography's, the beacons' and the places' colours. */
export const TILE_COLOUR: [number, number, number] = [0xff, 0xd1, 0xdc];

const style = {
  version: 8,
  name: "OpenFreeMap (test)",
  glyphs: `${OPENFREEMAP_HOST}/fonts/{fontstack}/{range}.pbf`,
  sources: { openmaptiles: { type: "raster", url: `${OPENFREEMAP_HOST}/planet`, tileSize: 256 } },
  layers: [
    { id: "background", type: "background", paint: { "background-color": "#ffffff" } },
    { id: "tiles", type: "raster", source: "openmaptiles" },
  ],
};
const tileJson = {
  tilejson: "2.2.0",
  tiles: [`${OPENFREEMAP_HOST}/planet/test/{z}/{x}/{y}.png`],
  minzoom: 0,
  maxzoom: 14,
};

/** A 256 × 256 PNG of one colour (RGB, no filter), built by hand: signature, IHDR, IDAT, IEND. */
function solidPng([r, g, b]: [number, number, number], size = 256): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
    const out = Buffer.alloc(body.length + 8);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc32(body), body.length + 4);
    return out;
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8 bits, RGB, deflate, no filter, no interlace
  const row = Buffer.concat([Buffer.from([0]), Buffer.from(Array.from({ length: size }, () => [r, g, b]).flat())]);
  const pixels = deflateSync(Buffer.concat(Array.from({ length: size }, () => row)));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", pixels),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

const fonts = join(dirname(createRequire(import.meta.url).resolve("tileserver-gl-styles/package.json")), "fonts");
const tile = solidPng(TILE_COLOUR);
const cors = { "Access-Control-Allow-Origin": "*" };

/** What the fake answers: everything, or the style but no tiles (a blocked or failing tile server). */
export async function fakeOpenFreeMap(page: Page, { tiles = true }: { tiles?: boolean } = {}) {
  const requests: string[] = [];
  await page.route(new RegExp(`^${OPENFREEMAP_HOST.replace(/\./g, "\\.")}/`), (route) => {
    const { pathname } = new URL(route.request().url());
    requests.push(pathname);
    if (pathname === "/styles/liberty") return route.fulfill({ json: style, headers: cors });
    if (pathname === "/planet") return route.fulfill({ json: tileJson, headers: cors });
    if (pathname.startsWith("/planet/test/"))
      return tiles ? route.fulfill({ body: tile, contentType: "image/png", headers: cors }) : route.abort();
    const glyphs = /^\/fonts\/([^/]+)\/(\d+-\d+)\.pbf$/.exec(pathname);
    if (glyphs) {
      const file = join(fonts, decodeURIComponent(glyphs[1]!).split(",")[0]!, `${glyphs[2]}.pbf`);
      if (existsSync(file))
        return route.fulfill({ body: readFileSync(file), contentType: "application/x-protobuf", headers: cors });
    }
    return route.fulfill({ status: 404, headers: cors });
  });
  return requests;
}
