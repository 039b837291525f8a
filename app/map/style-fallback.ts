import type { Map as MapboxMap } from "mapbox-gl";
import { offlineStyle, type StreetStyle } from "./map-style";

/** How long the street style's document may take before the map shows the offline geography instead. */
export const STYLE_TIMEOUT_MS = 5000;
/** After a fallback, the street style is asked again after this long, doubling up to RETRY_MAX_MS. */
const RETRY_FIRST_MS = 30_000;
const RETRY_MAX_MS = 5 * 60_000;

/** What the map is drawn on: a street style (Mapbox's or OpenFreeMap's), or the offline geography because it failed. */
export type BaseMap = StreetStyle["id"] | "fallback";

/**
 * Keeps the map from ever going empty because of its street style (unreachable, blocked, offline,
 * a Mapbox token wrong or over quota): the street style counts as working once its document has
 * loaded within STYLE_TIMEOUT_MS and its first tiles have drawn (the map's first "idle") with no
 * error on the way; otherwise the map switches to the offline geography. The browser going
 * offline switches at once; an error on a working street style asks the style again and switches
 * if that fails too. After a fallback the street style is asked again now and then (and when the
 * browser comes back online) and set again once it answers. The map's own layers (vehicles,
 * places, route) are re-added by their owners on each "style.load".
 * `startOffline`: the map was created on the offline style (the browser was offline).
 */
export function watchStreetStyle(map: MapboxMap, street: StreetStyle, onChange: (base: BaseMap) => void, startOffline = false): () => void {
  let state: "pending" | "working" | "fallback" = startOffline ? "fallback" : "pending";
  let styleLoaded = false;
  let checking = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let retryIn = RETRY_FIRST_MS;
  let stopped = false;

  const scheduleProbe = () => {
    clearTimeout(timer);
    timer = setTimeout(() => void probe(), retryIn);
    retryIn = Math.min(retryIn * 2, RETRY_MAX_MS);
  };
  const fallBack = () => {
    if (state === "fallback" || stopped) return;
    state = "fallback";
    map.setStyle(offlineStyle());
    onChange("fallback");
    scheduleProbe();
  };
  const backToStreet = () => {
    state = "pending";
    styleLoaded = false;
    clearTimeout(timer);
    timer = setTimeout(fallBack, STYLE_TIMEOUT_MS);
    map.setStyle(street.style);
    onChange(street.id);
  };
  // A cheap question before giving the map back to the street style: its style document.
  const reachable = () =>
    fetch(street.probeUrl).then(
      (r) => r.ok,
      () => false,
    );
  const probe = async () => {
    if (stopped || state !== "fallback") return;
    if (!navigator.onLine) return scheduleProbe();
    const ok = await reachable();
    if (stopped || state !== "fallback") return;
    if (ok) backToStreet();
    else scheduleProbe();
  };
  const onStyleLoad = () => {
    if (state !== "pending") return;
    styleLoaded = true;
    clearTimeout(timer);
  };
  // The first idle after the street style loaded: its tiles (or their errors) have all arrived.
  const onIdle = () => {
    if (state !== "pending" || !styleLoaded) return;
    state = "working";
    retryIn = RETRY_FIRST_MS;
  };
  // Any error while the street style is loading (style document, sprite, a tile failing or a
  // token refused) means it is not coming. Once working, an error may be one tile: ask the style.
  const onError = () => {
    if (state === "pending") return fallBack();
    if (state !== "working" || checking) return;
    checking = true;
    void reachable().then((ok) => {
      checking = false;
      if (!ok && state === "working") fallBack();
    });
  };
  const onOffline = () => fallBack();
  const onOnline = () => {
    if (state !== "fallback") return;
    retryIn = RETRY_FIRST_MS;
    void probe();
  };
  map.on("style.load", onStyleLoad);
  map.on("idle", onIdle);
  map.on("error", onError);
  window.addEventListener("offline", onOffline);
  window.addEventListener("online", onOnline);
  if (startOffline) {
    onChange("fallback");
    scheduleProbe();
  } else timer = setTimeout(fallBack, STYLE_TIMEOUT_MS);
  return () => {
    stopped = true;
    clearTimeout(timer);
    map.off("style.load", onStyleLoad);
    map.off("idle", onIdle);
    map.off("error", onError);
    window.removeEventListener("offline", onOffline);
    window.removeEventListener("online", onOnline);
  };
}
