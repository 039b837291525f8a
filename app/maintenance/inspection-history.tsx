import { useCallback, useState } from "react";
import type { Inspection, InspectionForm } from "../../shared/inspections";
import { useCan } from "../session/session";
import { useVehicles } from "../store";
import { InspectionSubmit } from "./inspection-submit";
import { usePendingInspections } from "./pending-inspections";
import { useApi } from "./use-api";

/**
 * Inspections, newest first: those still on this device (waiting for the network) and those the
 * server has, with their failed items; "Start inspection" opens the phone form for a vehicle.
 */
export function InspectionHistory({ vehicleId }: { vehicleId?: string }) {
  const query = vehicleId ? `inspections?vehicleId=${encodeURIComponent(vehicleId)}` : "inspections";
  const stored = useApi<{ inspections: Inspection[] }>(query);
  const forms = useApi<{ forms: InspectionForm[] }>("inspection-forms");
  const reload = stored.reload;
  const pending = usePendingInspections(useCallback(() => reload(), [reload])).filter((p) => !vehicleId || p.vehicleId === vehicleId);
  const vehicles = useVehicles();
  const names = new Map(vehicles.map((v) => [v.id, v.name]));
  const canSubmit = useCan("fleet.edit");
  const [chosen, setChosen] = useState<string>(vehicleId ?? "");
  const [open, setOpen] = useState(false);
  const form = forms.data?.forms[0];
  if (open && form && chosen) return <InspectionSubmit form={form} vehicleId={chosen} done={() => setOpen(false)} />;
  return (
    <div className="inspection-history">
      {canSubmit ? (
        <div className="tab-actions">
          {vehicleId ? null : (
            <select className="input" aria-label="Vehicle to inspect" value={chosen} onChange={(e) => setChosen(e.target.value)}>
              <option value="">Choose a vehicle</option>
              {vehicles.map((v) => (
                <option key={v.id} value={v.id}>
                  {v.name}
                </option>
              ))}
            </select>
          )}
          <button type="button" className="button primary" disabled={!form || !chosen} onClick={() => setOpen(true)}>
            Start inspection
          </button>
        </div>
      ) : null}
      {stored.failed && !stored.data ? <p className="muted">Past inspections are shown when you are online.</p> : null}
      <ul className="maintenance-list" aria-label="Inspections">
        {pending.map((p) => (
          <li key={p.id} className="maintenance-row">
            <span className="status-pill due_soon">Waiting to sync</span>
            <strong>{names.get(p.vehicleId) ?? "Vehicle"}</strong>
            <span className="muted">
              {p.submittedAt.slice(0, 16).replace("T", " ")} · {p.signedName} · {p.results.filter((r) => r.pass === false).length} failed
            </span>
          </li>
        ))}
        {(stored.data?.inspections ?? []).map((i) => (
          <li key={i.id} className="maintenance-row">
            <span className={`status-pill ${i.failedItems ? "overdue" : "ok"}`}>{i.failedItems ? `${i.failedItems} failed` : "Passed"}</span>
            <strong>{names.get(i.vehicleId) ?? "Vehicle"}</strong>
            <span className="muted">
              {i.submittedAt.slice(0, 16).replace("T", " ")} · {i.signedName}
              {i.issueIds.length ? ` · ${i.issueIds.length} issue${i.issueIds.length > 1 ? "s" : ""} opened` : ""}
            </span>
          </li>
        ))}
      </ul>
      {stored.data && !stored.data.inspections.length && !pending.length ? <p className="muted">No inspections yet.</p> : null}
    </div>
  );
}
