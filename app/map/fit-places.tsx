import { useEffect, useRef } from "react";
import type { Telemetry } from "../../shared/fleet/telemetry";
import { useClientStore, useStoreStatus } from "../store";
import { usePlaces } from "../store/places-alerts";
import { boundsOf, placeExtent, type LngLat } from "./geometry";
import { useMapContext } from "./map-context";

/**
 * /locations opens on the workspace's places, or on its fleet when it has none (not on the middle
 * of the country).
 */
export function FitPlaces() {
  const { map } = useMapContext();
  const store = useClientStore();
  const places = usePlaces();
  const { hydrated, pulled } = useStoreStatus();
  const done = useRef(false);

  useEffect(() => {
    // Decided once, on what the store holds when it is first loaded: a place drawn later (or a
    // vehicle that reports later) does not move the map under the user's hands.
    if (done.current || !(hydrated || pulled)) return;
    const points: LngLat[] = places.length
      ? places.flatMap((p) => placeExtent(p.geometry as Parameters<typeof placeExtent>[0]))
      : store.ids("telemetry").flatMap((id) => {
          const t = store.get<Telemetry>("telemetry", id);
          return t ? [{ lng: t.longitude, lat: t.latitude }] : [];
        });
    const bounds = boundsOf(points);
    // The browser's own copy may be empty on a first visit: then wait for the server's answer.
    if (!bounds && !pulled) return;
    done.current = true;
    if (bounds) map.fitBounds(bounds, { padding: 40, maxZoom: 15, duration: 0 });
  }, [map, store, places, hydrated, pulled]);

  return null;
}
