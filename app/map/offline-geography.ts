import type { ExpressionSpecification, GeoJSONSource, Map as MapboxMap, StyleSpecification } from "mapbox-gl";
// Generated at build time by scripts/offline-geography.mjs (the Vite plugin in vite.config.ts)
// and emitted as a fingerprinted asset: the JavaScript only carries its URL.
import geographyPath from "../../.cache/offline-geography.json?url";

/** Colours of a light street map; none is near a beacon, cluster or place colour, which tests look for on screen (city names too). */
export const GEOGRAPHY_COLOURS = {
  water: "#aad3df",
  land: "#f2efe9",
  countryBorder: "#8c6d9e",
  stateBorder: "#c2b0cf",
  countyBorder: "#ddd3e3",
  city: "#713f12",
  cityHalo: "#ffffff",
} as const;

const GEOGRAPHY_SOURCE = "geography";

/**
 * Fills the offline style's geography. Deferred until the map is idle: mapbox-gl parses GeoJSON in
 * a web worker (one on a 2-core machine), and 2 MB of geography queued first would hold back the
 * vehicles' own source for seconds on a slow device.
 */
export function loadOfflineGeography(map: MapboxMap) {
  // mapbox-gl fetches sources from a web worker, where a relative URL means nothing.
  const url = new URL(geographyPath, window.location.href).href;
  (map.getSource(GEOGRAPHY_SOURCE) as GeoJSONSource | undefined)?.setData(url);
}

/** Counties only appear from this zoom (a state or so across the screen). */
export const COUNTY_MIN_ZOOM = 6;

/**
 * From this zoom (a city's width across the screen) the offline geography draws land only, no
 * water: its coasts are the 1:10m and 1:50m outlines, off by up to a kilometre (about 9 px here,
 * 70 px at street zoom), which put a lakefront depot in the lake. A plain land colour is right
 * everywhere a vehicle drives; the "Street map unavailable" notice says the detail is missing.
 */
export const COAST_MAX_ZOOM = 10;

/**
 * Label glyphs served by this app (scripts/map-glyphs.mjs copies them into /glyphs/ at build time;
 * docs/decisions/0025). Absolute: mapbox-gl fetches them from a web worker.
 */
export function offlineGlyphsUrl(): string {
  return `${new URL("/glyphs/", window.location.href).href}{fontstack}/{range}.pbf`;
}

/** City names by size: the largest from zoom 2, 500,000+ from zoom 4, the rest (100,000+ in the US and Canada) from 6. */
const CITY_NAME_BY_ZOOM: ExpressionSpecification = [
  "step",
  ["zoom"],
  ["case", ["==", ["get", "rank"], 1], ["get", "name"], ""],
  4,
  ["case", ["<=", ["get", "rank"], 2], ["get", "name"], ""],
  6,
  ["get", "name"],
];

/**
 * The offline base map (docs/decisions/0014, 0025): land, water, country, US state and county
 * borders from public-domain data and the larger cities named, in one GeoJSON source filled by
 * URL (loadOfflineGeography) once the map has drawn its vehicles; labels use this app's own glyphs.
 * Nothing here needs a server other than this app's.
 */
export function offlineGeographyStyle(): StyleSpecification {
  const data = { type: "FeatureCollection" as const, features: [] };
  const kind = (k: string) => ["==", ["get", "kind"], k] as ["==", ["get", "kind"], string];
  const c = GEOGRAPHY_COLOURS;
  return {
    version: 8,
    name: "Fleet Ops offline",
    glyphs: offlineGlyphsUrl(),
    sources: { [GEOGRAPHY_SOURCE]: { type: "geojson", data, tolerance: 0.5 } },
    layers: [
      {
        id: "water",
        type: "background",
        paint: { "background-color": ["step", ["zoom"], c.water, COAST_MAX_ZOOM, c.land] },
      },
      { id: "land", type: "fill", source: "geography", filter: kind("land"), paint: { "fill-color": c.land } },
      {
        id: "us-water",
        type: "fill",
        source: "geography",
        maxzoom: COAST_MAX_ZOOM,
        filter: kind("us-water"),
        paint: { "fill-color": c.water },
      },
      { id: "us-land", type: "fill", source: "geography", filter: kind("us-land"), paint: { "fill-color": c.land } },
      {
        id: "county-borders",
        type: "line",
        source: "geography",
        minzoom: COUNTY_MIN_ZOOM,
        filter: kind("county-border"),
        paint: { "line-color": c.countyBorder, "line-width": 0.6 },
      },
      {
        id: "state-borders",
        type: "line",
        source: "geography",
        filter: kind("state-border"),
        paint: {
          "line-color": c.stateBorder,
          "line-width": ["interpolate", ["linear"], ["zoom"], 3, 0.6, 8, 1.6],
          "line-dasharray": [3, 2],
        },
      },
      {
        id: "country-borders",
        type: "line",
        source: "geography",
        filter: kind("country-border"),
        paint: { "line-color": c.countryBorder, "line-width": ["interpolate", ["linear"], ["zoom"], 2, 0.8, 8, 2] },
      },
      ...cityLayers(kind("city")),
    ],
  };
}

/** A dot and a name per city; a city's dot appears with its name (CITY_NAME_BY_ZOOM), larger cities first when names collide. */
function cityLayers(filter: ["==", ["get", "kind"], string]): StyleSpecification["layers"] {
  const c = GEOGRAPHY_COLOURS;
  const shown: ExpressionSpecification = [
    "step",
    ["zoom"],
    ["case", ["==", ["get", "rank"], 1], 1, 0],
    4,
    ["case", ["<=", ["get", "rank"], 2], 1, 0],
    6,
    1,
  ];
  return [
    {
      id: "city-dots",
      type: "circle",
      source: GEOGRAPHY_SOURCE,
      filter,
      paint: {
        "circle-radius": 2.5,
        "circle-color": c.city,
        "circle-opacity": shown,
        "circle-stroke-width": 1,
        "circle-stroke-color": c.cityHalo,
        "circle-stroke-opacity": shown,
      },
    },
    {
      id: "city-labels",
      type: "symbol",
      source: GEOGRAPHY_SOURCE,
      filter,
      layout: {
        "text-field": CITY_NAME_BY_ZOOM,
        "text-font": ["Noto Sans Regular"],
        "text-size": ["match", ["get", "rank"], 1, 14, 2, 13, 12],
        "text-anchor": "top",
        "text-offset": [0, 0.4],
        "symbol-sort-key": ["-", ["get", "population"]],
      },
      paint: { "text-color": c.city, "text-halo-color": c.cityHalo, "text-halo-width": 1.5 },
    },
  ];
}
