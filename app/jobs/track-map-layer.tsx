import type { GeoJSONSource, LngLatBoundsLike, Map as MapboxMap } from "mapbox-gl";
import { useEffect, useRef } from "react";
import { useMapContext } from "../map/map-context";

const SOURCE = "track-points";
type Point = { lat: number; lng: number };

/**
 * The customer's map (app/routes/track.$token.tsx, issue 53): the destination, a ring in the
 * route's red, and the vehicle, a blue dot, while it comes. Circle layers, not HTML markers, so
 * nothing depends on mapbox-gl's stylesheet. The map opens on the destination (the page's
 * initial view); once the vehicle is known both are fitted in, and again when it leaves the view.
 * Added again after each style load (the offline fallback included).
 */
export function TrackMapLayer({ destination, vehicle }: { destination: Point; vehicle: Point | null }) {
  const { map, styleGeneration } = useMapContext();
  const fitted = useRef(false);

  useEffect(() => addTrackLayers(map), [map, styleGeneration]);

  useEffect(() => {
    const source = map.getSource(SOURCE) as GeoJSONSource | undefined;
    source?.setData({
      type: "FeatureCollection",
      features: [feature(destination, "destination"), ...(vehicle ? [feature(vehicle, "vehicle")] : [])],
    });
    if (!vehicle) return;
    const inView = map.getBounds()?.contains([vehicle.lng, vehicle.lat]) ?? false;
    if (fitted.current && inView) return;
    map.fitBounds(boundsOf(destination, vehicle), { padding: 48, maxZoom: 15, animate: fitted.current });
    fitted.current = true;
  }, [map, styleGeneration, destination, vehicle]);

  return null;
}

const feature = (p: Point, kind: "destination" | "vehicle") => ({
  type: "Feature" as const,
  properties: { kind },
  geometry: { type: "Point" as const, coordinates: [p.lng, p.lat] },
});

const boundsOf = (a: Point, b: Point): LngLatBoundsLike => [
  [Math.min(a.lng, b.lng), Math.min(a.lat, b.lat)],
  [Math.max(a.lng, b.lng), Math.max(a.lat, b.lat)],
];

function addTrackLayers(map: MapboxMap) {
  if (map.getSource(SOURCE)) return;
  map.addSource(SOURCE, { type: "geojson", data: { type: "FeatureCollection", features: [] } });
  map.addLayer({
    id: `${SOURCE}-destination`,
    type: "circle",
    source: SOURCE,
    filter: ["==", ["get", "kind"], "destination"],
    paint: {
      "circle-radius": 11,
      "circle-color": "#ffffff",
      "circle-stroke-width": 5,
      "circle-stroke-color": "#dc2626",
    },
  });
  map.addLayer({
    id: `${SOURCE}-vehicle`,
    type: "circle",
    source: SOURCE,
    filter: ["==", ["get", "kind"], "vehicle"],
    paint: {
      "circle-radius": 9,
      "circle-color": "#2563eb",
      "circle-stroke-width": 3,
      "circle-stroke-color": "#ffffff",
    },
  });
}
