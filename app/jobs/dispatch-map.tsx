import { BeaconsLayer } from "../map/beacons-layer";
import { MapHost } from "../map/map-host";
import { ResizeWithBox } from "../map/resize-with-box";
import { PickPointLayer } from "./pick-point-layer";
import { StopsLayer, type MapStop } from "./stops-layer";

type Point = { latitude: number; longitude: number };
const NONE: readonly MapStop[] = [];

/**
 * The dispatch page's map (loaded with the page, mapbox-gl only here): the day's stops and routes,
 * each stop opening its story; the vehicles where they are now, drawn by the fleet map's own layer
 * (the same live positions, clusters and colours as /map; a click on one opens it there); and
 * picking a point. While a proposed plan is open (`proposed`), the map draws it instead of today's
 * routes, dashed (issue 54).
 */
export function DispatchMap({
  token,
  stops,
  openId,
  onOpen,
  picking,
  picked,
  onPicked,
  proposed = null,
}: {
  token: string;
  stops: readonly MapStop[];
  proposed?: readonly MapStop[] | null;
  openId: string | null;
  onOpen: (jobId: string) => void;
  picking: boolean;
  picked: Point | null;
  onPicked: (point: Point) => void;
}) {
  return (
    <MapHost token={token} visible>
      <ResizeWithBox />
      <StopsLayer stops={proposed ? NONE : stops} openId={openId} onOpen={onOpen} />
      {proposed ? <StopsLayer stops={proposed} openId={openId} onOpen={onOpen} variant="proposal" /> : null}
      <PickPointLayer picking={picking} picked={picked} onPick={onPicked} />
      {/* A click on a vehicle opens it on /map: not while a click is picking a point. */}
      {picking ? null : <BeaconsLayer />}
    </MapHost>
  );
}
