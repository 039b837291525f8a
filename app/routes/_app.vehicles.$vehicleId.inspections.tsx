import { useParams } from "@remix-run/react";
import { InspectionHistory } from "../maintenance/inspection-history";

/** A vehicle's Inspections tab: its history, and "Start inspection" on a phone. */
export default function VehicleInspections() {
  const { vehicleId } = useParams();
  if (!vehicleId) return null;
  return <InspectionHistory vehicleId={vehicleId} />;
}
