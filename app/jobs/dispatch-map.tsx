import { MapHost } from "../map/map-host";
import { PickPointLayer } from "./pick-point-layer";
import { StopsLayer, type MapStop } from "./stops-layer";

/** The dispatch page's map (loaded with the page, mapbox-gl only here): the day's stops and routes, and picking a point. */
export function DispatchMap({
  token,
  stops,
  picking,
  onPicked,
}: {
  token: string;
  stops: readonly MapStop[];
  picking: boolean;
  onPicked: (point: { latitude: number; longitude: number }) => void;
}) {
  return (
    <MapHost token={token} visible>
      <StopsLayer stops={stops} />
      {picking ? <PickPointLayer onPick={onPicked} /> : null}
    </MapHost>
  );
}
