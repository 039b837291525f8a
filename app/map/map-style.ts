import type { StyleSpecification } from "mapbox-gl";

/** Mapbox's street style, used when a public token is configured. */
export const STREETS_STYLE = "mapbox://styles/mapbox/streets-v12";

/**
 * The offline fallback (DESIGN.md "Map"): no remote sources at all, so the map still renders and
 * shows every vehicle without a token or a network. mapbox-gl needs a non-empty token string even
 * then; the placeholder is never sent anywhere useful.
 */
export const OFFLINE_STYLE: StyleSpecification = {
  version: 8,
  name: "Fleet Ops offline",
  sources: {},
  layers: [{ id: "background", type: "background", paint: { "background-color": "#e9eef2" } }],
};

export const OFFLINE_TOKEN = "pk.offline";
