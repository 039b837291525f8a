import { useParams } from "@remix-run/react";
import { WorkOrderList } from "../work-orders/work-order-list";
import { NewWorkOrderButton } from "../work-orders/new-work-order";

/** A vehicle's Work orders tab: its orders with the list's filters, and a new one for it. */
export default function VehicleWorkOrders() {
  const { vehicleId } = useParams();
  if (!vehicleId) return null;
  return (
    <>
      <NewWorkOrderButton vehicleId={vehicleId} />
      <WorkOrderList vehicleId={vehicleId} />
    </>
  );
}
