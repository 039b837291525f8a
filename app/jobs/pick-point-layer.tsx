import type { MapMouseEvent } from "mapbox-gl";
import { useEffect, useRef } from "react";
import { useMapContext } from "../map/map-context";

/** While rendered, a click on the map hands its point on (the New job form's "Pick on map"), with a crosshair cursor. */
export function PickPointLayer({ onPick }: { onPick: (point: { latitude: number; longitude: number }) => void }) {
  const { map } = useMapContext();
  const pick = useRef(onPick);
  pick.current = onPick;
  useEffect(() => {
    const canvas = map.getCanvas();
    canvas.style.cursor = "crosshair";
    const click = (e: MapMouseEvent) => pick.current({ latitude: e.lngLat.lat, longitude: e.lngLat.lng });
    map.on("click", click);
    return () => {
      canvas.style.cursor = "";
      map.off("click", click);
    };
  }, [map]);
  return null;
}
