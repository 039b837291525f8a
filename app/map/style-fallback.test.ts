import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { Map as MapboxMap } from "mapbox-gl";
import { OPENFREEMAP_STYLE, STREETS_STYLE, streetStyleFor } from "./map-style";
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

/** The browser's window and navigator, as far as the watch uses them (online state and its events). */
function fakeBrowser() {
  const listeners = new Map<string, () => void>();
  const navigator = { onLine: true };
  vi.stubGlobal("navigator", navigator);
  vi.stubGlobal("window", {
    location: { href: "http://127.0.0.1/map" },
    addEventListener: (type: string, fn: () => void) => listeners.set(type, fn),
    removeEventListener: (type: string) => listeners.delete(type),
  });
  return {
    go(online: boolean) {
      navigator.onLine = online;
      listeners.get(online ? "online" : "offline")?.();
    },
    listening: () => listeners.size,
  };
}

const mapbox = streetStyleFor("pk.test");
const openFreeMap = streetStyleFor("");

describe("streetStyleFor", () => {
  it("is Mapbox's streets with a token and OpenFreeMap's keyless style without", () => {
    expect(mapbox).toEqual({
      id: "mapbox",
      style: STREETS_STYLE,
      probeUrl: "https://api.mapbox.com/styles/v1/mapbox/streets-v12?access_token=pk.test",
    });
    expect(openFreeMap).toEqual({ id: "openfreemap", style: OPENFREEMAP_STYLE, probeUrl: OPENFREEMAP_STYLE });
  });
});

describe("watchStreetStyle", () => {
  const fetch = vi.fn<(url: string) => Promise<{ ok: boolean }>>();
  let browser: ReturnType<typeof fakeBrowser>;
  beforeEach(() => {
    vi.useFakeTimers();
    browser = fakeBrowser();
    vi.stubGlobal("fetch", fetch);
    fetch.mockReset();
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it("keeps the street style when it and its first tiles load", async () => {
    const { map, emit, styles } = fakeMap();
    const seen: BaseMap[] = [];
    watchStreetStyle(map, openFreeMap, (b) => seen.push(b));
    emit("style.load");
    emit("idle");
    vi.advanceTimersByTime(STYLE_TIMEOUT_MS * 2);
    fetch.mockResolvedValueOnce({ ok: true });
    emit("error"); // a working style's error (one tile) asks the style again, which answers
    await vi.advanceTimersByTimeAsync(0);
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(seen).toEqual([]);
    expect(styles).toEqual([]);
  });

  it("falls back to the offline geography at once on an error before the style loaded", () => {
    const { map, emit, styles } = fakeMap();
    const seen: BaseMap[] = [];
    watchStreetStyle(map, mapbox, (b) => seen.push(b));
    emit("error");
    expect(seen).toEqual(["fallback"]);
    expect(styles).toHaveLength(1);
    expect(styles[0]).toMatchObject({ name: "Fleet Ops offline", sources: { geography: { type: "geojson" } } });
  });

  it("falls back when the style loaded but its tiles fail before the map is first idle", () => {
    const { map, emit, styles } = fakeMap();
    const seen: BaseMap[] = [];
    watchStreetStyle(map, openFreeMap, (b) => seen.push(b));
    emit("style.load");
    emit("error");
    expect(seen).toEqual(["fallback"]);
    expect(styles[0]).toMatchObject({ name: "Fleet Ops offline" });
  });

  it("falls back when no style arrives in time, and goes back to the street style once it answers", async () => {
    const { map, emit, styles } = fakeMap();
    const seen: BaseMap[] = [];
    watchStreetStyle(map, mapbox, (b) => seen.push(b));
    vi.advanceTimersByTime(STYLE_TIMEOUT_MS);
    expect(seen).toEqual(["fallback"]);
    emit("style.load"); // the offline style loading: not the street style
    emit("idle");
    expect(seen).toEqual(["fallback"]);

    fetch.mockResolvedValueOnce({ ok: false });
    await vi.advanceTimersByTimeAsync(30_000);
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(fetch.mock.calls[0]![0]).toBe(mapbox.probeUrl);
    expect(styles).toHaveLength(1);

    fetch.mockResolvedValueOnce({ ok: true });
    await vi.advanceTimersByTimeAsync(60_000); // the retry doubles
    expect(styles.at(-1)).toBe(STREETS_STYLE);
    expect(seen).toEqual(["fallback", "mapbox"]);
    emit("style.load");
    emit("idle");
    vi.advanceTimersByTime(STYLE_TIMEOUT_MS);
    expect(seen).toEqual(["fallback", "mapbox"]);
  });

  it("switches to the offline geography when the browser goes offline, and back when it is online and the style answers", async () => {
    const { map, emit, styles } = fakeMap();
    const seen: BaseMap[] = [];
    watchStreetStyle(map, openFreeMap, (b) => seen.push(b));
    emit("style.load");
    emit("idle");
    browser.go(false);
    expect(seen).toEqual(["fallback"]);
    expect(styles[0]).toMatchObject({ name: "Fleet Ops offline" });

    fetch.mockResolvedValueOnce({ ok: true });
    browser.go(true);
    await vi.advanceTimersByTimeAsync(0);
    expect(fetch.mock.calls[0]![0]).toBe(OPENFREEMAP_STYLE);
    expect(styles.at(-1)).toBe(OPENFREEMAP_STYLE);
    expect(seen).toEqual(["fallback", "openfreemap"]);
  });

  it("falls back when a working street style errs and its style no longer answers", async () => {
    const { map, emit, styles } = fakeMap();
    const seen: BaseMap[] = [];
    watchStreetStyle(map, openFreeMap, (b) => seen.push(b));
    emit("style.load");
    emit("idle");
    fetch.mockResolvedValueOnce({ ok: false });
    emit("error");
    await vi.advanceTimersByTimeAsync(0);
    expect(seen).toEqual(["fallback"]);
    expect(styles).toHaveLength(1);
  });

  it("starting offline, stays on the offline geography and asks the street style once online", async () => {
    const { map, styles } = fakeMap();
    const seen: BaseMap[] = [];
    watchStreetStyle(map, openFreeMap, (b) => seen.push(b), true);
    expect(seen).toEqual(["fallback"]);
    fetch.mockResolvedValueOnce({ ok: true });
    browser.go(true);
    await vi.advanceTimersByTimeAsync(0);
    expect(styles).toEqual([OPENFREEMAP_STYLE]);
  });

  it("stops watching when the map goes", () => {
    const { map, emit } = fakeMap();
    const seen: BaseMap[] = [];
    const stop = watchStreetStyle(map, mapbox, (b) => seen.push(b));
    stop();
    emit("error");
    browser.go(false);
    vi.advanceTimersByTime(STYLE_TIMEOUT_MS);
    expect(seen).toEqual([]);
    expect(browser.listening()).toBe(0);
  });
});
