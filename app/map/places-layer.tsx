import type { GeoJSONSource } from "mapbox-gl";
import { useEffect } from "react";
import { usePlaces } from "../store/places-alerts";
import { addLayerBelowBeacons, useMapContext } from "./map-context";
import { placesCollection } from "./place-shapes";

export const PLACES_SOURCE = "places";
const PLACE_COLOUR = "#0d9488";

/**
 * The workspace's places (geofences) as their own layer, a translucent fill and an outline under
 * the beacons; on every base style (street or offline), added again after a style switch.
 */
export function PlacesLayer({ selectedId = null }: { selectedId?: string | null }) {
  const { map, styleGeneration } = useMapContext();
  const places = usePlaces();

  useEffect(() => {
    if (map.getSource(PLACES_SOURCE)) return;
    map.addSource(PLACES_SOURCE, { type: "geojson", data: { type: "FeatureCollection", features: [] } });
    addLayerBelowBeacons(map, {
      id: `${PLACES_SOURCE}-fill`,
      type: "fill",
      source: PLACES_SOURCE,
      paint: { "fill-color": PLACE_COLOUR, "fill-opacity": ["case", ["get", "selected"], 0.35, 0.18] },
    });
    addLayerBelowBeacons(map, {
      id: `${PLACES_SOURCE}-line`,
      type: "line",
      source: PLACES_SOURCE,
      paint: { "line-color": PLACE_COLOUR, "line-width": ["case", ["get", "selected"], 3, 1.5] },
    });
  }, [map, styleGeneration]);

  useEffect(() => {
    (map.getSource(PLACES_SOURCE) as GeoJSONSource | undefined)?.setData(placesCollection(places, selectedId));
  }, [map, styleGeneration, places, selectedId]);

  return null;
}
