import type { GeoJSONSource, Map as MapboxMap, MapMouseEvent, Point } from "mapbox-gl";
import { useEffect, useRef } from "react";
import type { PlaceGeometry, Position } from "../../shared/places/places";
import { useMapContext } from "./map-context";
import { circleRing, metresBetween } from "./place-shapes";

export type DrawMode = "circle" | "polygon";
const DRAFT = "place-draft";
/** How far (px) the pointer must move while pressed to count as a drag, and how near a click must be to close a polygon. */
const DRAG_PX = 4;
const CLOSE_PX = 10;

/**
 * Drawing a place on the map. Circle: press its centre and drag to its edge, or click the centre,
 * move and click at the edge. Polygon: click each corner, then click the first corner or
 * double-click to close it. Escape cancels. The draft is shown as its own source; `onDone` gets the
 * finished geometry (checked by the caller, which may refuse it and start again).
 */
export function DrawLayer({
  mode,
  onDone,
  onCancel,
}: {
  mode: DrawMode;
  onDone: (g: PlaceGeometry) => void;
  onCancel: () => void;
}) {
  const { map, styleGeneration } = useMapContext();
  const done = useRef(onDone);
  const cancel = useRef(onCancel);
  done.current = onDone;
  cancel.current = onCancel;

  useEffect(() => {
    addDraftLayer(map);
    const show = (ring: Position[]) =>
      (map.getSource(DRAFT) as GeoJSONSource | undefined)?.setData({
        type: "Feature",
        properties: {},
        geometry: { type: "LineString", coordinates: ring },
      });
    const handlers =
      mode === "circle"
        ? circleHandlers(map, show, (g) => done.current(g))
        : polygonHandlers(map, show, (g) => done.current(g));
    const onKey = (e: KeyboardEvent) => e.key === "Escape" && cancel.current();
    map.getCanvas().style.cursor = "crosshair";
    // Drawing owns double-clicks (closing a polygon), not the map's zoom.
    map.doubleClickZoom.disable();
    for (const [type, fn] of handlers) map.on(type, fn);
    window.addEventListener("keydown", onKey);
    return () => {
      for (const [type, fn] of handlers) map.off(type, fn);
      window.removeEventListener("keydown", onKey);
      map.getCanvas().style.cursor = "";
      map.doubleClickZoom.enable();
      map.dragPan.enable();
      show([]);
    };
  }, [map, styleGeneration, mode]);

  return null;
}

type Handler = [type: "mousedown" | "mouseup" | "mousemove" | "click" | "dblclick", fn: (e: MapMouseEvent) => void];
const at = (e: MapMouseEvent): Position => [e.lngLat.lng, e.lngLat.lat];

function addDraftLayer(map: MapboxMap) {
  if (map.getSource(DRAFT)) return;
  map.addSource(DRAFT, { type: "geojson", data: { type: "FeatureCollection", features: [] } });
  map.addLayer({
    id: `${DRAFT}-line`,
    type: "line",
    source: DRAFT,
    paint: { "line-color": "#f97316", "line-width": 2, "line-dasharray": [2, 1] },
  });
}

/** A circle: pressed at its centre, then a drag released at the edge, or a second press there. */
function circleHandlers(
  map: MapboxMap,
  show: (ring: Position[]) => void,
  finish: (g: PlaceGeometry) => void,
): Handler[] {
  let centre: Position | null = null;
  let pressedAt: Point | null = null;
  let radius = 0;
  const complete = () => radius > 0 && centre && finish({ type: "Circle", center: centre, radius: Math.round(radius) });
  return [
    [
      "mousedown",
      (e) => {
        if (e.originalEvent.button !== 0) return;
        if (centre) return void complete();
        centre = at(e);
        pressedAt = e.point;
        map.dragPan.disable(); // the drag sizes the circle instead of moving the map
      },
    ],
    [
      "mousemove",
      (e) => {
        if (!centre) return;
        radius = metresBetween(centre, at(e));
        show(circleRing(centre, radius));
      },
    ],
    [
      "mouseup",
      (e) => {
        if (!pressedAt) return;
        const dragged = pressedAt.dist(e.point) > DRAG_PX;
        pressedAt = null;
        if (dragged) complete();
        else map.dragPan.enable(); // a click: the edge is the next click
      },
    ],
  ];
}

/** A polygon: a corner per click; closed by a click near the first corner or a double-click. */
function polygonHandlers(
  map: MapboxMap,
  show: (ring: Position[]) => void,
  finish: (g: PlaceGeometry) => void,
): Handler[] {
  const points: Position[] = [];
  return [
    [
      "click",
      (e) => {
        const first = points[0];
        if (first && points.length >= 3 && map.project(first as [number, number]).dist(e.point) < CLOSE_PX) {
          return finish({ type: "Polygon", coordinates: [points.slice()] });
        }
        points.push(at(e));
        show(points);
      },
    ],
    ["mousemove", (e) => points.length && show([...points, at(e)])],
    [
      "dblclick",
      () => {
        // The double-click's two clicks added the same corner twice.
        if (points.length >= 2 && metresBetween(points[points.length - 1]!, points[points.length - 2]!) < 0.5)
          points.pop();
        if (points.length >= 3) finish({ type: "Polygon", coordinates: [points.slice()] });
      },
    ],
  ];
}
