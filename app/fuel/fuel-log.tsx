import { dateTimeText, type WorkspaceClock } from "../../shared/units/clock";
import { useState } from "react";
import { toast } from "sonner";
import type { FuelFlag } from "../../shared/costs/fuel";
import { ConfirmAction } from "../components/form";
import { money } from "../maintenance/format";
import { PhotoStrip } from "../photos/photo-picker";
import { useFuelMutations, type FuelRow } from "../store/fuel";
import { EditFuelForm } from "./fuel-forms";
import { distanceText, volumeText } from "../units/units-text";
import { useWorkspaceClock, useWorkspaceUnits } from "../reports/use-workspace-time-zone";

/**
 * A list of fill-ups (a vehicle's Fuel tab, the fleet Fuel page): when, how much, for how much, at
 * which odometer, the receipt, and "Check" with the reason on readings that cannot be right
 * (shared/costs/fuel-flags.ts). Owners and admins edit or delete an entry in place.
 */
const flagText: Record<FuelFlag, string> = {
  over_tank: "more than the tank holds",
  odometer_backwards: "odometer below an earlier fill-up",
  economy_outlier: "economy far from this vehicle's usual",
  no_rise_seen: "no rise seen in the tank",
};

/** When a fill-up was: on the workspace's clock, in the one date format (docs/decisions/0079). */
export const whenText = (ms: number, clock: WorkspaceClock) => dateTimeText(ms, clock);

export function FuelLog({
  rows,
  canManage,
  vehicleName,
}: {
  rows: FuelRow[];
  canManage: boolean;
  /** The fleet page names each entry's vehicle. */
  vehicleName?: (vehicleId: string) => string;
}) {
  return (
    <ul className="maintenance-list" aria-label="Fill-ups">
      {rows.map((e) => (
        <FuelLine key={e.id} entry={e} canManage={canManage} vehicle={vehicleName?.(e.vehicleId)} />
      ))}
    </ul>
  );
}

function FuelLine({ entry: e, canManage, vehicle }: { entry: FuelRow; canManage: boolean; vehicle?: string }) {
  const [editing, setEditing] = useState(false);
  const units = useWorkspaceUnits();
  const clock = useWorkspaceClock();
  return (
    <li className="maintenance-row fuel-row">
      <strong>{whenText(e.at, clock)}</strong>
      {vehicle ? <span>{vehicle}</span> : null}
      <span>
        {volumeText(e.volumeLitres, units)}
        {e.fullTank ? "" : " (partial)"}
      </span>
      <span className="muted">
        {[
          e.costCents !== null ? money(e.costCents) : null,
          e.odometerMiles === null
            ? null
            : units === "metric"
              ? distanceText(e.odometerMiles, units)
              : `${e.odometerMiles.toLocaleString("en-US")} mi`,
          e.vendor,
        ]
          .filter(Boolean)
          .join(" · ")}
      </span>
      {e.flags.length ? (
        <span className="status-pill overdue" title={e.flags.map((f) => flagText[f]).join("; ")}>
          Check: {e.flags.map((f) => flagText[f]).join("; ")}
        </span>
      ) : null}
      <PhotoStrip ids={e.photoIds} />
      {canManage && editing ? <EditFuelForm entry={e} close={() => setEditing(false)} /> : null}
      {canManage && !editing ? <FuelActions entry={e} edit={() => setEditing(true)} /> : null}
    </li>
  );
}

function FuelActions({ entry, edit }: { entry: FuelRow; edit: () => void }) {
  const { deleteFuel } = useFuelMutations();
  const when = whenText(entry.at, useWorkspaceClock());
  return (
    <span className="row-actions maintenance-actions">
      <button type="button" className="button" aria-label={`Edit the fill-up of ${when}`} onClick={edit}>
        Edit
      </button>
      <ConfirmAction
        label="Delete"
        ariaLabel={`Delete the fill-up of ${when}`}
        question="Delete this fill-up?"
        confirmLabel="Delete fill-up"
        onConfirm={async () => {
          await deleteFuel({ id: entry.id });
          toast(
            navigator.onLine ? "Fill-up deleted" : "Fill-up deleted on this device; it syncs when you are back online",
          );
        }}
      />
    </span>
  );
}
