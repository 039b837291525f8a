import type { SimVehicle } from "./vehicle";

/**
 * A simulated vehicle's stops at the pump, followed from one step to the next (issue 42, ADR 0060),
 * so the demo logs each fill-up as a driver would once back in the cab: when the pump started,
 * and how many points of the tank it added.
 */
export interface PumpStop {
  pumpAt: number;
  fuelBefore: number;
}
export interface FillUpMade {
  at: number;
  percentAdded: number;
  /** the dashboard's odometer as the driver leaves the pump, metres */
  odometer: number;
}

const atPump = (v: SimVehicle) => v.phase.kind === "parked" && v.phase.refuel;

export function followPump(
  open: PumpStop | null,
  next: SimVehicle,
): { open: PumpStop | null; made: FillUpMade | null } {
  if (!open && atPump(next)) {
    const pumpAt = next.phase.kind === "parked" ? (next.phase.pumpAt ?? next.time) : next.time;
    return { open: { pumpAt, fuelBefore: next.fuel }, made: null };
  }
  if (open && !atPump(next))
    return {
      open: null,
      made: { at: open.pumpAt, percentAdded: next.fuel - open.fuelBefore, odometer: next.odometer },
    };
  return { open, made: null };
}
