import type { StyleSpecification } from "mapbox-gl";
import { offlineGeographyStyle } from "./offline-geography";

/** Mapbox's street style, used when a public token is configured. */
export const STREETS_STYLE = "mapbox://styles/mapbox/streets-v12";

/**
 * The offline style (DESIGN.md "Map"): only this app's own geography asset, so the map still
 * shows where things are without a token or a network (and when Mapbox fails: style-fallback.ts).
 * mapbox-gl needs a non-empty token string even then; the placeholder is never sent anywhere useful.
 */
export const offlineStyle = (): StyleSpecification => offlineGeographyStyle();

export const OFFLINE_TOKEN = "pk.offline";
