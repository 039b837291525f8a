// mapbox-gl's stylesheet comes with the map's lazily loaded code, not on every page (docs/decisions/0054).
import "mapbox-gl/dist/mapbox-gl.css";
import { useNavigate, useSearchParams } from "@remix-run/react";
import { useCallback } from "react";
import { BeaconsLayer } from "./beacons-layer";
import { FitBounds } from "./fit-bounds";
import { MapHost } from "./map-host";
import { PlacesLayer } from "./places-layer";
import { RouteLayer } from "./route-layer";
import { TripReplay } from "./trip-replay";

/**
 * The fleet map: the map host and its layers, one component each. Layers of other features
 * (a route line, trip replay) insert their mapbox layers with addLayerBelowBeacons so the
 * vehicles stay on top. A timeline event shown on the map (`?event=`, a trip or a stop) replaces
 * the live route and pauses the live camera (FitBounds) until it is closed.
 */
export function FleetMap({ token, visible }: { token: string; visible: boolean }) {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const selected = params.get("vehicleId");
  const shownEvent = selected ? params.get("event") : null;
  const closeEvent = useCallback(() => {
    if (selected) navigate(`/map?vehicleId=${encodeURIComponent(selected)}`);
  }, [navigate, selected]);
  return (
    <MapHost token={token} visible={visible}>
      <PlacesLayer />
      <RouteLayer vehicleId={shownEvent ? null : selected} />
      {selected && shownEvent && <TripReplay vehicleId={selected} eventId={shownEvent} onClose={closeEvent} />}
      <BeaconsLayer />
      <FitBounds paused={Boolean(shownEvent)} />
    </MapHost>
  );
}
