import { useMemo, useState } from "react";
import type { Driver } from "../../shared/fleet/driver";
import { PersonDialog } from "../people/person-dialog";
import { useCan } from "../session/session";
import { useDrivers, useVehicles } from "../store";
import { orDash } from "../vehicles/format";
import { TableHead } from "../components/table-head";

/**
 * People: the fleet's drivers (people, not accounts; docs/decisions/0018), with the vehicles each
 * drives. New Person and Edit for roles that may edit the fleet; a viewer only reads.
 */
export default function People() {
  const drivers = useDrivers();
  const vehicles = useVehicles();
  const editable = useCan("fleet.edit");
  const [editing, setEditing] = useState<Driver | "new" | null>(null);
  const driving = useMemo(() => {
    const byDriver = new Map<string, string[]>();
    for (const v of vehicles) if (v.driverId) byDriver.set(v.driverId, [...(byDriver.get(v.driverId) ?? []), v.name]);
    return byDriver;
  }, [vehicles]);
  return (
    <section className="page">
      <div className="page-header">
        <h1>People</h1>
        {editable ? (
          <button type="button" className="button primary" onClick={() => setEditing("new")}>
            New Person
          </button>
        ) : null}
      </div>
      <table className="simple people-table" aria-label="People">
        <TableHead columns={["Name", "Email", "Phone", "Vehicles"]} actions />
        <tbody>
          {drivers.map((d) => (
            <tr key={d.id}>
              <td>{d.name}</td>
              <td data-label="Email">{orDash(d.email)}</td>
              <td data-label="Phone">{orDash(d.phone)}</td>
              <td data-label="Vehicles">{orDash(driving.get(d.id)?.join(", "))}</td>
              <td className="row-actions">
                {editable ? (
                  <button type="button" className="button" aria-label={`Edit ${d.name}`} onClick={() => setEditing(d)}>
                    Edit
                  </button>
                ) : null}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {drivers.length === 0 ? (
        <p className="muted">No people yet: add the fleet&apos;s drivers with New Person.</p>
      ) : null}
      {editing ? (
        <PersonDialog key={editing === "new" ? "new" : editing.id} editing={editing} onClose={() => setEditing(null)} />
      ) : null}
    </section>
  );
}
