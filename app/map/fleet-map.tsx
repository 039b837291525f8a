import { useNavigate, useSearchParams } from "@remix-run/react";
import { useCallback, useRef } from "react";
import { useClientStore } from "../store";
import { BeaconsLayer } from "./beacons-layer";
import { FitBounds } from "./fit-bounds";
import { countedPositions, openingCamera } from "./camera";
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
export function FleetMap({ token, visible, onReady }: { token: string; visible: boolean; onReady?: () => void }) {
  const store = useClientStore();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const selected = params.get("vehicleId");
  const shownEvent = selected ? params.get("event") : null;
  const selectedRef = useRef(selected);
  selectedRef.current = selected;
  // Where the map settles (the initial view, or FitBounds's fit at once), as the sketch before it drew (camera.ts).
  const initialView = useCallback(
    (width: number, height: number) => openingCamera(countedPositions(store, selectedRef.current), width, height),
    [store],
  );
  const closeEvent = useCallback(() => {
    if (selected) navigate(`/map?vehicleId=${encodeURIComponent(selected)}`);
  }, [navigate, selected]);
  return (
    <MapHost token={token} visible={visible} initialView={initialView} onReady={onReady}>
      <PlacesLayer />
      <RouteLayer vehicleId={shownEvent ? null : selected} />
      {selected && shownEvent && <TripReplay vehicleId={selected} eventId={shownEvent} onClose={closeEvent} />}
      <BeaconsLayer />
      <FitBounds paused={Boolean(shownEvent)} />
    </MapHost>
  );
}
