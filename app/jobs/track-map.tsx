import { useCallback } from "react";
import { MapHost } from "../map/map-host";
import { TrackMapLayer } from "./track-map-layer";

type Point = { lat: number; lng: number };

/**
 * The customer's map, loaded by the page only once it has something to show (a visit still to
 * come, its destination known): its own chunk, so the page's words and ETA never wait for the
 * map's code. Opens on the destination, never on the default view of the whole country.
 */
export default function TrackMap({
  token,
  destination,
  vehicle,
}: {
  token: string;
  destination: Point;
  vehicle: Point | null;
}) {
  const { lat, lng } = destination;
  const initialView = useCallback(() => ({ center: [lng, lat] as [number, number], zoom: 14 }), [lat, lng]);
  return (
    <MapHost token={token} visible initialView={initialView}>
      <TrackMapLayer destination={destination} vehicle={vehicle} />
    </MapHost>
  );
}
