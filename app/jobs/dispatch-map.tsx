import { BeaconsLayer } from "../map/beacons-layer";
import { MapHost } from "../map/map-host";
import { ResizeWithBox } from "../map/resize-with-box";
import { PickPointLayer } from "./pick-point-layer";
import { StopsLayer, type MapStop } from "./stops-layer";

type Point = { latitude: number; longitude: number };

/**
 * The dispatch page's map (loaded with the page, mapbox-gl only here): the day's stops and routes,
 * each stop opening its story; the vehicles where they are now, drawn by the fleet map's own layer
 * (the same live positions, clusters and colours as /map; a click on one opens it there); and
 * picking a point.
 */
export function DispatchMap({
  token,
  stops,
  openId,
  onOpen,
  picking,
  picked,
  onPicked,
}: {
  token: string;
  stops: readonly MapStop[];
  openId: string | null;
  onOpen: (jobId: string) => void;
  picking: boolean;
  picked: Point | null;
  onPicked: (point: Point) => void;
}) {
  return (
    <MapHost token={token} visible>
      <ResizeWithBox />
      <StopsLayer stops={stops} openId={openId} onOpen={onOpen} />
      <PickPointLayer picking={picking} picked={picked} onPick={onPicked} />
      {/* A click on a vehicle opens it on /map: not while a click is picking a point. */}
      {picking ? null : <BeaconsLayer />}
    </MapHost>
  );
}
