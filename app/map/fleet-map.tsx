import { BeaconsLayer } from "./beacons-layer";
import { FitBounds } from "./fit-bounds";
import { MapHost } from "./map-host";

/**
 * The fleet map: the map host and its layers, one component each. Layers of other features
 * (base geography, a route line, trip replay) are added here as more children; they insert
 * their mapbox layers with addLayerBelowBeacons so the vehicles stay on top.
 */
export function FleetMap({ token, visible }: { token: string; visible: boolean }) {
  return (
    <MapHost token={token} visible={visible}>
      <BeaconsLayer />
      <FitBounds />
    </MapHost>
  );
}
