import type { GeoJSONSource } from "mapbox-gl";
import { useEffect } from "react";
import { usePlaces } from "../store/places-alerts";
import { addLayerBelowBeacons, useMapContext } from "./map-context";
import { labelFont } from "./map-style";
import { placesCollection } from "./place-shapes";

export const PLACES_SOURCE = "places";
const PLACE_COLOUR = "#0d9488";
const PLACE_TEXT_COLOUR = "#115e59";

/**
 * The workspace's places (geofences) as their own layer, a translucent fill, an outline and the
 * place's name under the beacons; on every base style (Mapbox, OpenFreeMap or the offline
 * geography, each with its own glyphs), added again after a style switch.
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
    addLayerBelowBeacons(map, {
      id: `${PLACES_SOURCE}-name`,
      type: "symbol",
      source: PLACES_SOURCE,
      layout: {
        "text-field": ["get", "name"],
        "text-font": labelFont(map),
        "text-size": 13,
        "text-allow-overlap": true,
      },
      paint: { "text-color": PLACE_TEXT_COLOUR, "text-halo-color": "#ffffff", "text-halo-width": 1.5 },
    });
  }, [map, styleGeneration]);

  useEffect(() => {
    (map.getSource(PLACES_SOURCE) as GeoJSONSource | undefined)?.setData(placesCollection(places, selectedId));
  }, [map, styleGeneration, places, selectedId]);

  return null;
}
