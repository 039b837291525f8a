/**
 * Test and tooling hooks of the map (data-* attributes, window.__fleetMap) are off unless asked
 * for: `?debug=map` in the address, or `window.__fleetOpsDebug = ["map"]` set before the app
 * starts (what the browser tests and the bench do). Read once, when the map is created.
 */
declare global {
  interface Window {
    __fleetOpsDebug?: string[];
    __fleetMap?: FleetMapDebug;
    /** Switches the map's style again (as the street style's fallback does), for tests of the layers' re-adding. */
    __fleetMapRestyle?: () => void;
  }
}

export interface FleetMapDebug {
  /** Vehicles with a slot in the beacons layer. */
  vehicleCount(): number;
  /** Where the selected vehicle is drawn now, "lat,lng" with 6 decimals, or null. */
  selectedPosition(): string | null;
  /** Clusters drawn now: their counts and screen positions. */
  clusters(): { count: number; x: number; y: number }[];
  /** Screen position of a vehicle's beacon now (page pixels relative to the map), or null. */
  beaconAt(vehicleId: string): { x: number; y: number } | null;
  /** Frames the beacons layer has drawn. */
  frames(): number;
  /** Drops the layer's WebGL objects as a lost context does (headless Chromium cannot restore a real one). */
  dropGl(): void;
}

export function mapDebugEnabled(): boolean {
  if (typeof window === "undefined") return false;
  return (
    Boolean(window.__fleetOpsDebug?.includes("map")) ||
    new URLSearchParams(window.location.search).getAll("debug").includes("map")
  );
}
