import { useSearchParams } from "@remix-run/react";
import { useRef, type MutableRefObject } from "react";

/**
 * The vehicle selected on the map (`?vehicleId=`), and a ref that always holds it, for map event
 * handlers and store subscriptions set up once that must read the current selection.
 */
export function useSelectedVehicle(): [string | null, MutableRefObject<string | null>] {
  const [params] = useSearchParams();
  const selected = params.get("vehicleId");
  const selectedRef = useRef(selected);
  selectedRef.current = selected;
  return [selected, selectedRef];
}
