import type { GeoJSONSource, MapMouseEvent } from "mapbox-gl";
import { useEffect, useRef } from "react";
import type { PlaceGeometry, Position } from "../../shared/places";
import { useMapContext } from "./map-context";
import { circleRing, metresBetween } from "./place-shapes";

export type DrawMode = "circle" | "polygon";
const DRAFT = "place-draft";

/**
 * Drawing a place on the map. Circle: click its centre, move to size it, click again. Polygon:
 * click each corner, double-click (or click the first corner) to close it. Escape cancels.
 * The draft is shown as its own source; `onDone` gets the finished geometry.
 */
export function DrawLayer({ mode, onDone, onCancel }: { mode: DrawMode; onDone: (g: PlaceGeometry) => void; onCancel: () => void }) {
  const { map, styleGeneration } = useMapContext();
  const done = useRef(onDone);
  const cancel = useRef(onCancel);
  done.current = onDone;
  cancel.current = onCancel;

  useEffect(() => {
    if (!map.getSource(DRAFT)) {
      map.addSource(DRAFT, { type: "geojson", data: { type: "FeatureCollection", features: [] } });
      map.addLayer({ id: `${DRAFT}-line`, type: "line", source: DRAFT, paint: { "line-color": "#f97316", "line-width": 2, "line-dasharray": [2, 1] } });
    }
    const points: Position[] = [];
    let radius = 0;
    const show = (ring: Position[]) =>
      (map.getSource(DRAFT) as GeoJSONSource | undefined)?.setData({ type: "Feature", properties: {}, geometry: { type: "LineString", coordinates: ring } });
    const at = (e: MapMouseEvent): Position => [e.lngLat.lng, e.lngLat.lat];

    const onClick = (e: MapMouseEvent) => {
      const p = at(e);
      if (mode === "circle") {
        if (!points.length) return void points.push(p);
        if (radius > 0) done.current({ type: "Circle", center: points[0]!, radius: Math.round(radius) });
        return;
      }
      const first = points[0];
      const closes = first && points.length >= 3 && map.project(first as [number, number]).dist(e.point) < 10;
      if (closes) return done.current({ type: "Polygon", coordinates: [points.slice()] });
      points.push(p);
      show(points);
    };
    const onMove = (e: MapMouseEvent) => {
      if (!points.length) return;
      if (mode === "circle") {
        radius = metresBetween(points[0]!, at(e));
        show(circleRing(points[0]!, radius));
      } else show([...points, at(e)]);
    };
    const onDoubleClick = (e: MapMouseEvent) => {
      if (mode !== "polygon") return;
      e.preventDefault(); // no zoom
      // the double-click's two clicks added the same corner twice
      if (points.length >= 2 && metresBetween(points[points.length - 1]!, points[points.length - 2]!) < 0.5) points.pop();
      if (points.length >= 3) done.current({ type: "Polygon", coordinates: [points.slice()] });
    };
    const onKey = (e: KeyboardEvent) => e.key === "Escape" && cancel.current();
    map.getCanvas().style.cursor = "crosshair";
    map.on("click", onClick);
    map.on("mousemove", onMove);
    map.on("dblclick", onDoubleClick);
    window.addEventListener("keydown", onKey);
    return () => {
      map.off("click", onClick);
      map.off("mousemove", onMove);
      map.off("dblclick", onDoubleClick);
      window.removeEventListener("keydown", onKey);
      map.getCanvas().style.cursor = "";
      show([]);
    };
  }, [map, styleGeneration, mode]);

  return null;
}
