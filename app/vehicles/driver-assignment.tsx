import { toast } from "sonner";
import type { AssignDriverArgs } from "../../shared/fleet/driver";
import type { Vehicle } from "../../shared/fleet/vehicle";
import { useCan } from "../session/session";
import { useDrivers, useMutation } from "../store";
import { SelectField } from "../components/form";

/** A vehicle's driver (one or none), chosen among the fleet's people; saved at once as a synced mutation. */
export function DriverAssignment({ vehicle }: { vehicle: Vehicle }) {
  const drivers = useDrivers();
  const assign = useMutation<AssignDriverArgs>("assignDriver");
  const editable = useCan("fleet.edit");
  const onChange = (driverId: string) => {
    void assign({ vehicleId: vehicle.id, driverId: driverId || null }).then(
      () => toast(driverId ? "Driver assigned" : "Driver unassigned"),
      () => toast.error("The driver could not be assigned"),
    );
  };
  return (
    <section className="card section driver-assignment">
      <h2>Driver</h2>
      <SelectField
        id="vehicle-driver"
        label="Assigned driver"
        value={vehicle.driverId ?? ""}
        disabled={!editable}
        onChange={(e) => onChange(e.currentTarget.value)}
        options={[{ value: "", label: "No driver" }, ...drivers.map((d) => ({ value: d.id, label: d.name }))]}
      />
      {drivers.length === 0 ? <p className="muted">Add the fleet&apos;s drivers on the People page.</p> : null}
    </section>
  );
}
