import { dateTimeText } from "../../shared/units/clock";
import { useWorkspaceClock } from "../reports/use-workspace-time-zone";
import { useCallback, useEffect, useState } from "react";
import { useSearchParams } from "@remix-run/react";
import {
  DEFAULT_FORM_NAME,
  DEFAULT_PRE_TRIP_ITEMS,
  defaultFormId,
  type Inspection,
  type InspectionForm,
} from "../../shared/maintenance/inspections";
import { useCan, useSession } from "../session/session";
import { useStoreStatus, useVehicles } from "../store";
import { useInspectionForms, useInspections } from "../store/maintenance";
import { useIssues } from "../store/issues";
import { CreateWorkOrderButton } from "../work-orders/new-work-order";
import { InspectionSubmit } from "./inspection-submit";
import { usePendingInspections } from "./pending-inspections";
import { useOlder, withOlder } from "./use-older";
import { ShowOlder } from "./show-older";

/** What a row of the history shows, whether synced, answered by the server, or still on this device. */
interface Row {
  id: string;
  vehicleId: string;
  submittedAt: number;
  signedName: string;
  failedItems: number;
  issueIds: string[];
  waiting?: boolean;
}
const inspectionsOf = (body: unknown): Row[] =>
  (body as { inspections: Inspection[] }).inspections.map((i) => ({
    id: i.id,
    vehicleId: i.vehicleId,
    submittedAt: Date.parse(i.submittedAt),
    signedName: i.signedName,
    failedItems: i.failedItems,
    issueIds: i.issueIds,
  }));

/** The form "Start inspection" opens: the workspace's default one, as synced (or as every workspace starts with it). */
function useStartForm(): InspectionForm | undefined {
  const forms = useInspectionForms();
  const workspaceId = useSession().workspace?.id;
  if (forms[0]) return forms[0];
  return workspaceId
    ? { id: defaultFormId(workspaceId), name: DEFAULT_FORM_NAME, items: DEFAULT_PRE_TRIP_ITEMS, isDefault: true }
    : undefined;
}

/**
 * Inspections, newest first: those still on this device (waiting for the network), the synced
 * ones (the last 7 days, offline too; docs/decisions/0033) and, after "Show older", the rest from
 * the server; "Start inspection" opens the phone form for a vehicle.
 */
export function InspectionHistory({ vehicleId }: { vehicleId?: string }) {
  const older = useOlder<Row>(
    vehicleId ? `inspections?vehicleId=${encodeURIComponent(vehicleId)}` : "inspections",
    useCallback(inspectionsOf, []),
  );
  const rows = useHistoryRows(vehicleId, older.rows);
  const linked = useLinkedInspection(rows);
  const { pulled } = useStoreStatus();
  const vehicles = useVehicles();
  const names = new Map(vehicles.map((v) => [v.id, v.name]));
  const [chosen, setChosen] = useState<string>(vehicleId ?? "");
  const [open, setOpen] = useState(false);
  const form = useStartForm();
  if (open && form && chosen) return <InspectionSubmit form={form} vehicleId={chosen} done={() => setOpen(false)} />;
  return (
    <div className="inspection-history">
      <StartInspection
        vehicleId={vehicleId}
        chosen={chosen}
        choose={setChosen}
        ready={Boolean(form)}
        start={() => setOpen(true)}
      />
      <ul className="inspection-table" aria-label="Inspections">
        {rows.map((r) => (
          <InspectionRow
            key={r.id}
            row={r}
            vehicleName={names.get(r.vehicleId) ?? "Vehicle"}
            linked={r.id === linked}
          />
        ))}
      </ul>
      {pulled && !rows.length ? <p className="muted">No inspections in the last 7 days.</p> : null}
      <ShowOlder older={older} />
    </div>
  );
}

/**
 * The rows, newest first: those an older build left in this device's outbox (pending-inspections.ts
 * still sends them), the synced ones (this device's own marked waiting until the server has them),
 * then any older ones read from the server.
 */
function useHistoryRows(vehicleId: string | undefined, olderRows: Row[] | null): Row[] {
  const synced = useInspections(vehicleId);
  const pending = usePendingInspections().filter((p) => !vehicleId || p.vehicleId === vehicleId);
  const held = new Set(synced.map((i) => i.id));
  return [
    ...pending
      .filter((p) => !held.has(p.id))
      .map((p) => ({
        id: p.id,
        vehicleId: p.vehicleId,
        submittedAt: Date.parse(p.submittedAt),
        signedName: p.signedName,
        failedItems: p.results.filter((r) => r.pass === false).length,
        issueIds: [],
        waiting: true,
      })),
    ...withOlder<Row>(
      synced.map((i) => ({
        id: i.id,
        vehicleId: i.vehicleId,
        submittedAt: i.submittedAt,
        signedName: i.signedName,
        failedItems: i.failedItems,
        issueIds: i.issueIds,
        waiting: i.waiting,
      })),
      olderRows,
    ),
  ];
}

/** "Start inspection" for those who may submit; on the Inspections page it first asks which vehicle. */
function StartInspection({
  vehicleId,
  chosen,
  choose,
  ready,
  start,
}: {
  vehicleId?: string;
  chosen: string;
  choose: (id: string) => void;
  ready: boolean;
  start: () => void;
}) {
  const vehicles = useVehicles();
  if (!useCan("fleet.edit")) return null;
  return (
    <div className="tab-actions">
      {vehicleId ? null : (
        <select
          className="input"
          aria-label="Vehicle to inspect"
          value={chosen}
          onChange={(e) => choose(e.target.value)}
        >
          <option value="">Choose a vehicle</option>
          {vehicles.map((v) => (
            <option key={v.id} value={v.id}>
              {v.name}
            </option>
          ))}
        </select>
      )}
      <button type="button" className="button primary" disabled={!ready || !chosen} onClick={start}>
        Start inspection
      </button>
    </div>
  );
}

/**
 * The inspection a link names (`?inspection=<id>`, an issue's "from an inspection"), scrolled to
 * once its row is listed; null when none is named or it is not among the rows yet.
 */
function useLinkedInspection(rows: Row[]): string | null {
  const [params] = useSearchParams();
  const id = params.get("inspection");
  const listed = id !== null && rows.some((r) => r.id === id);
  useEffect(() => {
    if (listed) document.getElementById(`inspection-${id}`)?.scrollIntoView({ block: "center" });
  }, [id, listed]);
  return listed ? id : null;
}

/** One inspection: columns on a wide screen (result, vehicle, when, signed by, issues, work order), a card on a phone. */
function InspectionRow({ row, vehicleName, linked }: { row: Row; vehicleName: string; linked: boolean }) {
  const result = row.waiting ? "Waiting to sync" : row.failedItems ? `${row.failedItems} failed` : "Passed";
  const issues = row.issueIds.length;
  return (
    <li
      id={`inspection-${row.id}`}
      className={`inspection-row${linked ? " linked" : ""}`}
      aria-current={linked ? "true" : undefined}
    >
      <span className="inspection-cell result">
        <span className={`status-pill ${row.waiting ? "due_soon" : row.failedItems ? "overdue" : "ok"}`}>{result}</span>
      </span>
      <strong className="inspection-cell vehicle">{vehicleName}</strong>
      <span className="inspection-cell when muted">{dateTimeText(row.submittedAt, useWorkspaceClock())}</span>
      <span className="inspection-cell signed">Signed by {row.signedName}</span>
      <span className="inspection-cell issues muted">
        {issues
          ? `${issues} issue${issues > 1 ? "s" : ""} opened`
          : row.waiting && row.failedItems
            ? `${row.failedItems} failed`
            : ""}
      </span>
      <span className="inspection-cell work-order">
        <FailedItemsWorkOrder row={row} vehicleName={vehicleName} />
      </span>
    </li>
  );
}

const DESCRIPTION_MAX = 2000;

/**
 * "Create work order" on an inspection whose failed items opened issues: the order gathers those
 * still open, on the inspected vehicle (or a link to the order already gathering them).
 */
function FailedItemsWorkOrder({ row, vehicleName }: { row: Row; vehicleName: string }) {
  const open = useIssues().filter(
    (i) => row.issueIds.includes(i.id) && (i.status === "open" || i.status === "in_progress"),
  );
  if (!open.length) return null;
  const description = `Failed inspection: ${open.map((i) => i.title).join(", ")}`.slice(0, DESCRIPTION_MAX);
  return (
    <CreateWorkOrderButton
      seed={{ vehicleId: row.vehicleId, issueIds: open.map((i) => i.id), description }}
      label={`Create work order: ${vehicleName}'s failed inspection`}
    />
  );
}
