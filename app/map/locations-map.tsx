import type { PlaceGeometry } from "../../shared/places/places";
import { FitPlaces } from "./fit-places";
import { DrawLayer, type DrawMode } from "./draw-layer";
import { MapHost } from "./map-host";
import { PlacesLayer } from "./places-layer";

/** The /locations map: the places, and drawing when a draw mode is on (loaded with the page). */
export function LocationsMap({
  token,
  selectedId,
  drawing,
  attempt,
  onDrawn,
  onCancel,
}: {
  token: string;
  selectedId: string | null;
  drawing: DrawMode | null;
  /** Bumped when a drawn shape was refused: the drawing starts again. */
  attempt: number;
  onDrawn: (g: PlaceGeometry) => void;
  onCancel: () => void;
}) {
  return (
    <MapHost token={token} visible>
      <FitPlaces />
      <PlacesLayer selectedId={selectedId} />
      {drawing ? <DrawLayer key={`${drawing}-${attempt}`} mode={drawing} onDone={onDrawn} onCancel={onCancel} /> : null}
    </MapHost>
  );
}
