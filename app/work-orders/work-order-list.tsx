import { Link, useSearchParams } from "@remix-run/react";
import { useMemo } from "react";
import { workOrderStatusLabels, workOrderStatuses, type WorkOrderStatus } from "../../shared/maintenance/work-orders";
import { useVehicles } from "../store";
import { useVendors, useWorkOrders, type WorkOrderRow } from "../store/work-orders";
import { useWorkspaceMembers } from "../issues/use-workspace-members";
import { money } from "../maintenance/format";

/** "#12", or "New" before the server has numbered it. */
export const workOrderNumber = (o: { number: number }) => (o.number ? `#${o.number}` : "New");

function Filter({
  label,
  value,
  onChange,
  options,
}: {
  label: string;
  value: string;
  onChange: (v: string) => void;
  options: { value: string; label: string }[];
}) {
  return (
    <label>
      <span>{label}</span>
      <select className="input" value={value} onChange={(e) => onChange(e.target.value)}>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </label>
  );
}

/** The work orders with their filters (status, vehicle, assignee, vendor), kept in the address; `vehicleId` fixes the vehicle. */
export function WorkOrderList({ vehicleId }: { vehicleId?: string }) {
  const [params, setParams] = useSearchParams();
  const filter = {
    status: params.get("status") ?? "active",
    vehicleId: vehicleId ?? params.get("vehicle") ?? "",
    assigneeUserId: params.get("assignee") ?? "",
    vendorId: params.get("vendor") ?? "",
  };
  const orders = useWorkOrders(filter);
  const vehicles = useVehicles();
  const vendors = useVendors();
  const { nameOf } = useWorkspaceMembers();
  const vehicleNames = useMemo(() => new Map(vehicles.map((v) => [v.id, v.name])), [vehicles]);
  const vendorNames = useMemo(() => new Map(vendors.map((v) => [v.id, v.name])), [vendors]);
  const set = (key: string, value: string) =>
    setParams(
      (p) => {
        if (value) p.set(key, value);
        else p.delete(key);
        return p;
      },
      { replace: true },
    );
  const who = (o: WorkOrderRow) =>
    o.vendorId
      ? (vendorNames.get(o.vendorId) ?? "A removed vendor")
      : o.assigneeUserId
        ? nameOf(o.assigneeUserId)
        : "Unassigned";
  return (
    <div className="issues">
      <WorkOrderFilters filter={filter} set={set} fixedVehicle={Boolean(vehicleId)} />
      {orders.length === 0 ? <p className="muted">No work orders match these filters.</p> : null}
      <ul className="issue-list" aria-label="Work orders">
        {orders.map((o) => (
          <li key={o.id}>
            <Link to={`/work-orders/${o.id}`} className="issue-row">
              <span className="issue-number">{workOrderNumber(o)}</span>
              <span className="issue-title">
                {o.description || o.tasks[0] || `${o.lineCount} ${o.lineCount === 1 ? "line" : "lines"}`}
              </span>
              <span className={`chip status-${o.status}`}>{workOrderStatusLabels[o.status as WorkOrderStatus]}</span>
              <span className="chip">{money(o.totalCents)}</span>
              <span className="issue-meta muted">
                {[
                  vehicleId ? null : (vehicleNames.get(o.vehicleId) ?? "A removed vehicle"),
                  who(o),
                  o.dueDate ? `due ${o.dueDate}` : null,
                ]
                  .filter(Boolean)
                  .join(" · ")}
              </span>
            </Link>
          </li>
        ))}
      </ul>
    </div>
  );
}

function WorkOrderFilters({
  filter,
  set,
  fixedVehicle,
}: {
  filter: { status: string; vehicleId: string; assigneeUserId: string; vendorId: string };
  set: (key: string, value: string) => void;
  fixedVehicle: boolean;
}) {
  const vehicles = useVehicles();
  const vendors = useVendors();
  const { members } = useWorkspaceMembers();
  return (
    <div className="issue-filters" role="group" aria-label="Filters">
      <Filter
        label="Status"
        value={filter.status}
        onChange={(v) => set("status", v)}
        options={[
          { value: "active", label: "To do" },
          ...workOrderStatuses.map((s) => ({ value: s, label: workOrderStatusLabels[s] })),
          { value: "all", label: "All" },
        ]}
      />
      {fixedVehicle ? null : (
        <Filter
          label="Vehicle"
          value={filter.vehicleId}
          onChange={(v) => set("vehicle", v)}
          options={[{ value: "", label: "Any" }, ...vehicles.map((v) => ({ value: v.id, label: v.name }))]}
        />
      )}
      <Filter
        label="Assignee"
        value={filter.assigneeUserId}
        onChange={(v) => set("assignee", v)}
        options={[{ value: "", label: "Anyone" }, ...members.map((m) => ({ value: m.userId, label: m.email }))]}
      />
      <Filter
        label="Vendor"
        value={filter.vendorId}
        onChange={(v) => set("vendor", v)}
        options={[{ value: "", label: "Any" }, ...vendors.map((v) => ({ value: v.id, label: v.name }))]}
      />
    </div>
  );
}
