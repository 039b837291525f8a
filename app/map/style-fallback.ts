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
export function watchStreetStyle(
  map: MapboxMap,
  street: StreetStyle,
  onChange: (base: BaseMap) => void,
  startOffline = false,
): () => void {
  const watch = new StreetStyleWatch(map, street, onChange, startOffline);
  return () => watch.stop();
}

/** The street style's state machine: pending (loading) -> working, or -> fallback and probed back. */
class StreetStyleWatch {
  #state: "pending" | "working" | "fallback";
  #styleLoaded = false;
  #checking = false;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #retryIn = RETRY_FIRST_MS;
  #stopped = false;
  readonly #listeners: [string, () => void][] = [
    ["style.load", () => this.#onStyleLoad()],
    ["idle", () => this.#onIdle()],
    ["error", () => this.#onError()],
  ];
  readonly #onOffline = () => this.#fallBack();
  readonly #onOnline = () => {
    if (this.#state !== "fallback") return;
    this.#retryIn = RETRY_FIRST_MS;
    void this.#probe();
  };

  constructor(
    private readonly map: MapboxMap,
    private readonly street: StreetStyle,
    private readonly onChange: (base: BaseMap) => void,
    startOffline: boolean,
  ) {
    this.#state = startOffline ? "fallback" : "pending";
    for (const [event, listener] of this.#listeners) map.on(event, listener);
    window.addEventListener("offline", this.#onOffline);
    window.addEventListener("online", this.#onOnline);
    if (startOffline) {
      onChange("fallback");
      this.#scheduleProbe();
    } else this.#timer = setTimeout(() => this.#fallBack(), STYLE_TIMEOUT_MS);
  }

  stop() {
    this.#stopped = true;
    clearTimeout(this.#timer);
    for (const [event, listener] of this.#listeners) this.map.off(event, listener);
    window.removeEventListener("offline", this.#onOffline);
    window.removeEventListener("online", this.#onOnline);
  }

  #scheduleProbe() {
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => void this.#probe(), this.#retryIn);
    this.#retryIn = Math.min(this.#retryIn * 2, RETRY_MAX_MS);
  }

  #fallBack() {
    if (this.#state === "fallback" || this.#stopped) return;
    this.#state = "fallback";
    this.map.setStyle(offlineStyle());
    this.onChange("fallback");
    this.#scheduleProbe();
  }

  #backToStreet() {
    this.#state = "pending";
    this.#styleLoaded = false;
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => this.#fallBack(), STYLE_TIMEOUT_MS);
    this.map.setStyle(this.street.style);
    this.onChange(this.street.id);
  }

  /** A cheap question before giving the map back to the street style: its style document. */
  #reachable(): Promise<boolean> {
    return fetch(this.street.probeUrl).then(
      (r) => r.ok,
      () => false,
    );
  }

  async #probe() {
    if (this.#stopped || this.#state !== "fallback") return;
    if (!navigator.onLine) return this.#scheduleProbe();
    const ok = await this.#reachable();
    if (this.#stopped || this.#state !== "fallback") return;
    if (ok) this.#backToStreet();
    else this.#scheduleProbe();
  }

  #onStyleLoad() {
    if (this.#state !== "pending") return;
    this.#styleLoaded = true;
    clearTimeout(this.#timer);
  }

  /** The first idle after the street style loaded: its tiles (or their errors) have all arrived. */
  #onIdle() {
    if (this.#state !== "pending" || !this.#styleLoaded) return;
    this.#state = "working";
    this.#retryIn = RETRY_FIRST_MS;
  }

  /**
   * Any error while the street style is loading (style document, sprite, a tile failing or a
   * token refused) means it is not coming. Once working, an error may be one tile: ask the style.
   */
  #onError() {
    if (this.#state === "pending") return this.#fallBack();
    if (this.#state !== "working" || this.#checking) return;
    this.#checking = true;
    void this.#reachable().then((ok) => {
      this.#checking = false;
      if (!ok && this.#state === "working") this.#fallBack();
    });
  }
}
