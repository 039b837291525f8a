import type { GeoJSONSource } from "mapbox-gl";
import { useEffect, useRef } from "react";
import { useMapContext } from "./map-context";

const SOURCE = "shared-vehicle";

/**
 * The one vehicle of a share page (app/routes/share.$token.tsx): a dot at its latest position,
 * the camera following it. Added again after each style load (the offline fallback included).
 */
export function SharedVehicleLayer({ position }: { position: { lat: number; lng: number } | null }) {
  const { map, styleGeneration } = useMapContext();
  const centred = useRef(false);

  useEffect(() => {
    if (!map.getSource(SOURCE)) {
      map.addSource(SOURCE, { type: "geojson", data: { type: "FeatureCollection", features: [] } });
      map.addLayer({
        id: SOURCE,
        type: "circle",
        source: SOURCE,
        paint: {
          "circle-radius": 9,
          "circle-color": "#2563eb",
          "circle-stroke-width": 3,
          "circle-stroke-color": "#ffffff",
        },
      });
    }
  }, [map, styleGeneration]);

  useEffect(() => {
    const source = map.getSource(SOURCE) as GeoJSONSource | undefined;
    source?.setData(
      position
        ? { type: "Feature", properties: {}, geometry: { type: "Point", coordinates: [position.lng, position.lat] } }
        : { type: "FeatureCollection", features: [] },
    );
    if (!position) return;
    const center: [number, number] = [position.lng, position.lat];
    if (!centred.current) map.jumpTo({ center, zoom: 14 });
    else if (!map.getBounds()?.contains(center)) map.easeTo({ center });
    centred.current = true;
  }, [map, styleGeneration, position]);

  return null;
}
