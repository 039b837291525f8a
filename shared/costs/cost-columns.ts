import { KM_PER_MILE, litresToGallons, mpgToLitresPer100Km, type WorkspaceUnits } from "../units/units";
import type { CostReportResponse, CostRow } from "./cost-report";

/**
 * The cost report's figure columns in the workspace's units (Preferences → Units), defined once for
 * the Costs tab's table and the CSV (docs/figures.md), so a download reads what the screen reads:
 * dollars (not cents), gallons or litres, miles or km, mpg or L/100 km, each column naming its unit.
 * The API's JSON keeps cents, litres and miles (DESIGN.md fields).
 *
 * `value` is the figure rounded as shown: the table prints it with thousands separators, the CSV
 * writes it as a plain number; null is "—" on screen and an empty cell in the CSV.
 */
export interface CostColumn {
  /** the table's header, e.g. "Fuel (gal)" */
  header: string;
  /** the CSV's header: the same figure, its unit in the name, e.g. "fuelGallons" */
  csv: string;
  /** decimals shown */
  digits: number;
  /** money is shown with "$" */
  money: boolean;
  value: (r: CostRow) => number | null;
}

const round = (n: number, digits: number) => Math.round(n * 10 ** digits) / 10 ** digits;
const dollars = (cents: number) => round(cents / 100, 2);

function money(header: string, csv: string, cents: (r: CostRow) => number | null): CostColumn {
  return { header, csv, digits: 2, money: true, value: (r) => (cents(r) === null ? null : dollars(cents(r)!)) };
}

function figure(header: string, csv: string, digits: number, of: (r: CostRow) => number | null): CostColumn {
  return { header, csv, digits, money: false, value: (r) => (of(r) === null ? null : round(of(r)!, digits)) };
}

export function costColumns(units: WorkspaceUnits): CostColumn[] {
  const metric = units === "metric";
  const perDistance = (r: CostRow) =>
    r.costPerMileCents === null ? null : Math.round(metric ? r.costPerMileCents / KM_PER_MILE : r.costPerMileCents);
  return [
    money("Fuel", "fuelCostDollars", (r) => r.fuelCostCents),
    metric
      ? figure("Fuel (L)", "fuelLitres", 1, (r) => r.fuelLitres)
      : figure("Fuel (gal)", "fuelGallons", 1, (r) => litresToGallons(r.fuelLitres)),
    metric
      ? figure("Distance (km)", "distanceKm", 1, (r) => r.distanceMiles * KM_PER_MILE)
      : figure("Distance (mi)", "distanceMiles", 1, (r) => r.distanceMiles),
    metric
      ? figure("Economy (L/100 km)", "litresPer100Km", 1, (r) => (r.mpg === null ? null : mpgToLitresPer100Km(r.mpg)))
      : figure("Economy (mpg)", "mpg", 1, (r) => r.mpg),
    money("Service", "serviceCostDollars", (r) => r.serviceCostCents),
    // Within Service: what work orders recorded as labour and as parts (issue 55).
    money("Labour", "laborCostDollars", (r) => r.laborCostCents),
    money("Parts", "partsCostDollars", (r) => r.partsCostCents),
    money("Expenses", "expenseCostDollars", (r) => r.expenseCostCents),
    money("Total", "totalCostDollars", (r) => r.totalCostCents),
    money(metric ? "Per km" : "Per mile", metric ? "costPerKmDollars" : "costPerMileDollars", perDistance),
  ];
}

/** A figure as the table shows it: "$1,234.50", "33,463.8", or "—" when there is none. */
export function costCellText(column: CostColumn, row: CostRow): string {
  const v = column.value(row);
  if (v === null) return "—";
  const text = v.toLocaleString("en-US", {
    minimumFractionDigits: column.digits,
    maximumFractionDigits: column.digits,
  });
  return column.money ? `$${text}` : text;
}

/**
 * The CSV's header and rows: what each row is (a vehicle, its id and name; or a month) and then the
 * figure columns, the fleet total last, named in the first column. Per vehicle has no month column
 * and per month no vehicle columns, so no column is empty on every line.
 */
export function costCsvTable(answer: CostReportResponse, units: WorkspaceUnits) {
  const figures = costColumns(units);
  const keys = answer.by === "month" ? ["month"] : ["vehicleId", "vehicleName"];
  const label: Record<string, string> =
    answer.by === "month" ? { month: "Fleet total" } : { vehicleId: "", vehicleName: "Fleet total" };
  const line = (r: CostRow, first: Record<string, string>) => ({
    ...first,
    ...Object.fromEntries(figures.map((c) => [c.csv, c.value(r)])),
  });
  const first = (r: CostRow): Record<string, string> =>
    answer.by === "month"
      ? { month: r.month ?? "" }
      : { vehicleId: r.vehicleId ?? "", vehicleName: r.vehicleName ?? "" };
  const rows = [...answer.rows.map((r) => line(r, first(r))), line(answer.total, label)];
  return { columns: [...keys, ...figures.map((c) => c.csv)], rows };
}
