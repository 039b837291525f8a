import type { default as MapboxUmd } from "mapbox-gl";
import { Map, Marker, prewarm, setAccessToken, setBaseApiUrl, setWorkerUrl } from "mapbox-gl/esm";
import workerUrl from "virtual:mapbox-gl-worker-url";

/**
 * mapbox-gl as the map's code uses it, from its ESM build (docs/decisions/0063): a third fewer bytes
 * than the single-file bundle (its optional 3D and raster-array features load only when a style
 * asks for them), and its web worker is a chunk of our build sharing mapbox-gl's shared code with
 * the page (scripts/mapbox-worker-plugin.ts), so a phone downloads that code once.
 * The types stay those of the package's main entry, which the rest of the app's map code names:
 * both describe the same version's classes.
 */
export type Mapbox = Pick<typeof MapboxUmd, "Map" | "Marker" | "prewarm"> & {
  setAccessToken(token: string): void;
  setBaseApiUrl(url: string): void;
};

if (workerUrl) setWorkerUrl(workerUrl);

const mapbox = { Map, Marker, prewarm, setAccessToken, setBaseApiUrl } as unknown as Mapbox;
export default mapbox;
