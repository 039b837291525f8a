import type { Map as MapboxMap, StyleSpecification } from "mapbox-gl";
import { offlineGeographyStyle } from "./offline-geography";

/** Mapbox's street style, used when a public token is configured. */
export const STREETS_STYLE = "mapbox://styles/mapbox/streets-v12";

/** OpenFreeMap's keyless street style (OpenStreetMap data), used online when no token is set. */
export const OPENFREEMAP_STYLE = "https://tiles.openfreemap.org/styles/liberty";

/** A street style the map starts on, and the cheap request that tells whether it is reachable again. */
export interface StreetStyle {
  id: "mapbox" | "openfreemap";
  style: string;
  probeUrl: string;
}

/**
 * The street style for this deployment (docs/decisions/0025): Mapbox's with a token, else
 * OpenFreeMap's, which needs no key. The offline geography is the fallback of both.
 */
export function streetStyleFor(token: string): StreetStyle {
  if (token) {
    const probeUrl = `https://api.mapbox.com/styles/v1/mapbox/streets-v12?access_token=${encodeURIComponent(token)}`;
    return { id: "mapbox", style: STREETS_STYLE, probeUrl };
  }
  return { id: "openfreemap", style: OPENFREEMAP_STYLE, probeUrl: OPENFREEMAP_STYLE };
}

/**
 * The offline style (DESIGN.md "Map"): only this app's own geography and glyph assets, so the map
 * still shows where things are without a network (and when the street style fails: style-fallback.ts).
 * mapbox-gl needs a non-empty token string even then; the placeholder is never sent anywhere useful.
 */
export const offlineStyle = (): StyleSpecification => offlineGeographyStyle();

export const OFFLINE_TOKEN = "pk.offline";

/** Fonts for the app's own labels (place names): the offline and OpenFreeMap styles both serve Noto Sans. */
export const NOTO_FONT = ["Noto Sans Regular"];
const MAPBOX_FONT = ["Open Sans Regular", "Arial Unicode MS Regular"];

/** The font stack the current style's glyph server has (read when a layer is added, after style.load). */
export function labelFont(map: MapboxMap): string[] {
  return map.getStyle()?.glyphs?.startsWith("mapbox://") ? MAPBOX_FONT : NOTO_FONT;
}
