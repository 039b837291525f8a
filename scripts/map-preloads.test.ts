import { describe, expect, it } from "vitest";
import { mapPreloadLinks } from "./map-preloads";

/** A browser build's Vite manifest as Remix leaves it: route keys carry a query, shared chunks an underscore. */
const manifest = {
  "app/entry.client.tsx": { file: "assets/entry.client-1.js", imports: ["_framework-1.js"] },
  "app/root.tsx?__remix-build-client-route": { file: "assets/root-1.js", imports: ["_framework-1.js", "_shell-1.js"] },
  "app/routes/_app.tsx?__remix-build-client-route": {
    file: "assets/_app-1.js",
    imports: ["_app-layout-1.js"],
  },
  "app/routes/_app.map.tsx?__remix-build-client-route": { file: "assets/_app.map-1.js", imports: ["_framework-1.js"] },
  "_framework-1.js": { file: "assets/framework-1.js", name: "framework" },
  "_shell-1.js": { file: "assets/shell-1.js", name: "shell", imports: ["_framework-1.js"] },
  "_app-layout-1.js": { file: "assets/app-layout-1.js", name: "app-layout", imports: ["_shell-1.js"] },
  // app/map/mapbox-gl.ts merged with mapbox-gl's core.js; shared.js is also the worker's.
  "_mapbox-gl-1.js": {
    file: "assets/mapbox-gl-1.js",
    name: "mapbox-gl",
    imports: ["_shared-1.js", "_framework-1.js"],
    css: ["assets/mapbox-gl-1.css"],
  },
  "_shared-1.js": { file: "assets/shared-1.js", name: "shared" },
  "app/map/fleet-map.tsx": { file: "assets/fleet-map-1.js", imports: ["_framework-1.js"] },
};

describe("the /map page's Link header", () => {
  it("names mapbox-gl's chunks and stylesheet, nothing the page's HTML already links", () => {
    expect(mapPreloadLinks(manifest)).toEqual([
      "</assets/mapbox-gl-1.css>; rel=preload; as=style",
      "</assets/mapbox-gl-1.js>; rel=modulepreload",
      "</assets/shared-1.js>; rel=modulepreload",
    ]);
  });

  it("names nothing when the build has no mapbox-gl chunk", () => {
    const { "_mapbox-gl-1.js": _mapbox, ...withoutMap } = manifest;
    expect(mapPreloadLinks(withoutMap)).toEqual([]);
  });
});
