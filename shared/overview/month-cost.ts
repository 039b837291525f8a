import { inMonth, type MonthSpan } from "./months";
import { milesBetween, type OdometerReading } from "./odometer";

/**
 * What a month cost, from the rows a device holds (the synced fill-ups, service entries and
 * expenses, 90 days of each, so this month and the last one are whole): fuel + service +
 * expenses, the miles driven, and the cost per mile. A figure a device cannot know (no
 * odometer reading in reach) is null, never a guess; the Reports page's cost report is the
 * server's exact account (GPS odometer rollups).
 */
export interface CostFillUp {
  vehicleId: string;
  /** ms since epoch */
  at: number;
  costCents: number | null;
  odometerMiles: number | null;
}

/** A cost dated by a local day (a service entry, an expense). */
export interface DatedCost {
  vehicleId: string;
  /** `YYYY-MM-DD` in the workspace's time zone */
  date: string;
  costCents: number | null;
}

export interface CostInputs {
  fuel: readonly CostFillUp[];
  service: readonly DatedCost[];
  expenses: readonly DatedCost[];
  /** Each vehicle's GPS odometer as its latest telemetry says, with the report's time. */
  odometersNow: readonly (OdometerReading & { vehicleId: string })[];
}

export interface MonthCost {
  month: string;
  fuelCents: number;
  serviceCents: number;
  expenseCents: number;
  totalCents: number;
  distanceMiles: number;
  /** null when no mile was driven that the device can tell */
  costPerMileCents: number | null;
}

const sumCents = (rows: readonly { costCents: number | null }[]) => rows.reduce((s, r) => s + (r.costCents ?? 0), 0);

/** Every vehicle's odometer readings: its fill-ups' and its telemetry's. */
function readingsByVehicle(inputs: CostInputs): Map<string, OdometerReading[]> {
  const byVehicle = new Map<string, OdometerReading[]>();
  const add = (vehicleId: string, reading: OdometerReading) => {
    const list = byVehicle.get(vehicleId);
    if (list) list.push(reading);
    else byVehicle.set(vehicleId, [reading]);
  };
  for (const f of inputs.fuel) if (f.odometerMiles !== null) add(f.vehicleId, { at: f.at, miles: f.odometerMiles });
  for (const o of inputs.odometersNow) add(o.vehicleId, { at: o.at, miles: o.miles });
  return byVehicle;
}

/** The month's cost and miles; `until` ends a month still under way (now). */
export function monthCost(inputs: CostInputs, span: MonthSpan, until = span.end): MonthCost {
  const end = Math.min(span.end, until);
  const fuelCents = sumCents(inputs.fuel.filter((f) => f.at >= span.start && f.at < end));
  const serviceCents = sumCents(inputs.service.filter((s) => inMonth(s.date, span.month)));
  const expenseCents = sumCents(inputs.expenses.filter((e) => inMonth(e.date, span.month)));
  let distanceMiles = 0;
  for (const readings of readingsByVehicle(inputs).values()) distanceMiles += milesBetween(readings, span.start, end);
  const totalCents = fuelCents + serviceCents + expenseCents;
  return {
    month: span.month,
    fuelCents,
    serviceCents,
    expenseCents,
    totalCents,
    distanceMiles,
    costPerMileCents: distanceMiles >= 1 ? totalCents / distanceMiles : null,
  };
}

/** How much `now` differs from `before`, as a fraction of `before` (0.1 = 10 % more); null without both. */
export function relativeChange(now: number | null, before: number | null): number | null {
  if (now === null || before === null || before === 0) return null;
  return (now - before) / before;
}
