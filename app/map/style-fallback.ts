import type { Map as MapboxMap } from "mapbox-gl";
import { offlineStyle, STREETS_STYLE } from "./map-style";

/** How long Mapbox's street style may take before the map shows the offline geography instead. */
export const STYLE_TIMEOUT_MS = 5000;
/** After a fallback, Mapbox is asked again after this long, doubling up to RETRY_MAX_MS. */
const RETRY_FIRST_MS = 30_000;
const RETRY_MAX_MS = 5 * 60_000;

/** What the map is drawn on: Mapbox's streets, the offline geography by choice (no token), or by necessity. */
export type BaseMap = "streets" | "offline" | "fallback";

/**
 * Keeps a map with a Mapbox token from ever going empty because of Mapbox (unreachable, token
 * wrong, revoked or over quota): if the street style has not loaded within STYLE_TIMEOUT_MS, or
 * fails before that, the map switches to the offline geography; Mapbox is then asked again now
 * and then, and the street style comes back once its style document answers. The map's own
 * layers (vehicles, route) are re-added by their owners on each "style.load".
 */
export function watchStreetStyle(map: MapboxMap, token: string, onChange: (base: BaseMap) => void): () => void {
  let pending = true;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let retryIn = RETRY_FIRST_MS;
  let stopped = false;

  const fallBack = () => {
    if (!pending || stopped) return;
    pending = false;
    clearTimeout(timer);
    map.setStyle(offlineStyle());
    onChange("fallback");
    timer = setTimeout(probe, retryIn);
  };
  const arm = () => {
    pending = true;
    clearTimeout(timer);
    timer = setTimeout(fallBack, STYLE_TIMEOUT_MS);
  };
  // A cheap question to Mapbox before giving the map back to it: the style document itself.
  const probe = async () => {
    const url = `https://api.mapbox.com/styles/v1/mapbox/streets-v12?access_token=${encodeURIComponent(token)}`;
    const ok = await fetch(url).then(
      (r) => r.ok,
      () => false
    );
    if (stopped) return;
    if (ok) {
      arm();
      map.setStyle(STREETS_STYLE);
    } else {
      retryIn = Math.min(retryIn * 2, RETRY_MAX_MS);
      timer = setTimeout(probe, retryIn);
    }
  };
  const onStyleLoad = () => {
    if (!pending) return;
    pending = false;
    clearTimeout(timer);
    retryIn = RETRY_FIRST_MS;
    onChange("streets");
  };
  // Any error while the street style is still loading (style document, sprite, a tile's 401)
  // means it is not coming: tiles failing later on a loaded style are left to mapbox-gl.
  const onError = () => {
    if (pending) fallBack();
  };
  map.on("style.load", onStyleLoad);
  map.on("error", onError);
  arm();
  return () => {
    stopped = true;
    clearTimeout(timer);
    map.off("style.load", onStyleLoad);
    map.off("error", onError);
  };
}
