import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { Map as MapboxMap } from "mapbox-gl";
import { STREETS_STYLE } from "./map-style";
import { STYLE_TIMEOUT_MS, watchStreetStyle, type BaseMap } from "./style-fallback";

/** Just what the watch uses of a mapbox-gl map: events and setStyle. */
function fakeMap() {
  const handlers = new Map<string, Set<() => void>>();
  const styles: unknown[] = [];
  const map = {
    on: (type: string, fn: () => void) => void (handlers.get(type) ?? handlers.set(type, new Set()).get(type)!).add(fn),
    off: (type: string, fn: () => void) => void handlers.get(type)?.delete(fn),
    setStyle: (style: unknown) => void styles.push(style),
  };
  const emit = (type: string) => handlers.get(type)?.forEach((fn) => fn());
  return { map: map as unknown as MapboxMap, emit, styles };
}

describe("watchStreetStyle", () => {
  const fetch = vi.fn<(url: string) => Promise<{ ok: boolean }>>();
  beforeEach(() => {
    vi.useFakeTimers();
    vi.stubGlobal("window", { location: { href: "http://127.0.0.1/map" } });
    vi.stubGlobal("fetch", fetch);
    fetch.mockReset();
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it("keeps the street style when it loads in time", () => {
    const { map, emit, styles } = fakeMap();
    const seen: BaseMap[] = [];
    watchStreetStyle(map, "pk.test", (b) => seen.push(b));
    emit("style.load");
    vi.advanceTimersByTime(STYLE_TIMEOUT_MS * 2);
    expect(seen).toEqual(["streets"]);
    expect(styles).toEqual([]);
  });

  it("falls back to the offline geography at once on an error before the style loaded", () => {
    const { map, emit, styles } = fakeMap();
    const seen: BaseMap[] = [];
    watchStreetStyle(map, "pk.test", (b) => seen.push(b));
    emit("error");
    expect(seen).toEqual(["fallback"]);
    expect(styles).toHaveLength(1);
    expect(styles[0]).toMatchObject({ name: "Fleet Ops offline", sources: { geography: { type: "geojson" } } });
  });

  it("falls back when no style arrives in time, and goes back to the street style once Mapbox answers", async () => {
    const { map, emit, styles } = fakeMap();
    const seen: BaseMap[] = [];
    watchStreetStyle(map, "pk.test", (b) => seen.push(b));
    vi.advanceTimersByTime(STYLE_TIMEOUT_MS);
    expect(seen).toEqual(["fallback"]);
    emit("style.load"); // the offline style loading: not the street style
    expect(seen).toEqual(["fallback"]);

    fetch.mockResolvedValueOnce({ ok: false });
    await vi.advanceTimersByTimeAsync(30_000);
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(fetch.mock.calls[0]![0]).toMatch(/^https:\/\/api\.mapbox\.com\/styles\/v1\/mapbox\/streets-v12\?access_token=pk\.test$/);
    expect(styles).toHaveLength(1);

    fetch.mockResolvedValueOnce({ ok: true });
    await vi.advanceTimersByTimeAsync(60_000); // the retry doubles
    expect(styles.at(-1)).toBe(STREETS_STYLE);
    emit("style.load");
    expect(seen).toEqual(["fallback", "streets"]);
  });

  it("stops watching when the map goes", () => {
    const { map, emit } = fakeMap();
    const seen: BaseMap[] = [];
    const stop = watchStreetStyle(map, "pk.test", (b) => seen.push(b));
    stop();
    emit("error");
    vi.advanceTimersByTime(STYLE_TIMEOUT_MS);
    expect(seen).toEqual([]);
  });
});
