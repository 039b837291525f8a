import type { MapMouseEvent, Marker } from "mapbox-gl";
import { useEffect, useRef } from "react";
import { useMapContext } from "../map/map-context";

type Point = { latitude: number; longitude: number };

/**
 * The New job form's "Pick on map": while `picking`, a click on the map hands its point on, with a
 * crosshair cursor; the point picked is marked on the map (and brought into view) until the job is
 * added or another point is picked, so the dispatcher sees where the job will be.
 */
export function PickPointLayer({
  picking,
  picked,
  onPick,
}: {
  picking: boolean;
  picked: Point | null;
  onPick: (point: Point) => void;
}) {
  const { map } = useMapContext();
  const pick = useRef(onPick);
  pick.current = onPick;
  useEffect(() => {
    if (!picking) return;
    const canvas = map.getCanvas();
    canvas.style.cursor = "crosshair";
    const click = (e: MapMouseEvent) => pick.current({ latitude: e.lngLat.lat, longitude: e.lngLat.lng });
    map.on("click", click);
    return () => {
      canvas.style.cursor = "";
      map.off("click", click);
    };
  }, [map, picking]);
  usePickedPointMarker(picked);
  return null;
}

/** A pin at the picked point, an image named for a screen reader; the map pans to it when it is off screen. */
function usePickedPointMarker(picked: Point | null) {
  const { map } = useMapContext();
  const marker = useRef<Marker | null>(null);
  useEffect(() => {
    if (!picked) return;
    let cancelled = false;
    const at: [number, number] = [picked.longitude, picked.latitude];
    void import("../map/mapbox-gl").then(({ default: mapboxgl }) => {
      if (cancelled) return;
      const element = document.createElement("div");
      element.className = "picked-point";
      element.appendChild(document.createElement("span"));
      element.setAttribute("role", "img");
      element.setAttribute("aria-label", `Picked point ${picked.latitude.toFixed(5)}, ${picked.longitude.toFixed(5)}`);
      marker.current = new mapboxgl.Marker({ element, anchor: "bottom" }).setLngLat(at).addTo(map);
      if (!map.getBounds()?.contains(at)) map.easeTo({ center: at });
    });
    return () => {
      cancelled = true;
      marker.current?.remove();
      marker.current = null;
    };
  }, [map, picked]);
}
