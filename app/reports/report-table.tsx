import type { DailyRow, JobsReportRow, ReportName, StopRow, SummaryRow, TripRow } from "../../shared/reports/reports";
import { useMemo } from "react";
import type { WorkspaceClock } from "../../shared/units/clock";
import { useWorkspaceClock } from "./use-workspace-time-zone";
import { hoursAndMinutes, shortTime } from "./report-query";

type AnyRow = SummaryRow | DailyRow | TripRow | StopRow | JobsReportRow;
interface Column<Row> {
  header: string;
  /** `clock`: the workspace's, for the columns that show a time. */
  cell: (row: Row, clock: WorkspaceClock) => string | number;
  numeric?: boolean;
}

const dash = (v: string | number | null | undefined) => (v === null || v === undefined || v === "" ? "-" : v);
// Thousands separators, as every distance the reports and the overview show (docs/figures.md).
const miles = (n: number) => n.toLocaleString("en-US", { minimumFractionDigits: 1, maximumFractionDigits: 1 });

const summaryColumns: Column<SummaryRow>[] = [
  { header: "Vehicle", cell: (r) => r.vehicleName },
  { header: "Distance (mi)", cell: (r) => miles(r.distanceMiles), numeric: true },
  { header: "Driving", cell: (r) => hoursAndMinutes(r.drivingSeconds), numeric: true },
  { header: "Idling", cell: (r) => hoursAndMinutes(r.idlingSeconds), numeric: true },
  { header: "Trips", cell: (r) => r.trips, numeric: true },
  { header: "Stops", cell: (r) => r.stops, numeric: true },
  { header: "Max (mph)", cell: (r) => Math.round(r.maxSpeedMph), numeric: true },
  { header: "Avg moving (mph)", cell: (r) => Math.round(r.averageSpeedMph), numeric: true },
  { header: "Speeding", cell: (r) => r.speedingEpisodes, numeric: true },
  {
    header: "Fuel used (%)",
    cell: (r) => dash(r.fuelUsedPercent === null ? null : r.fuelUsedPercent.toFixed(1)),
    numeric: true,
  },
];

const columns: Record<ReportName, Column<never>[]> = {
  summary: summaryColumns as Column<never>[],
  daily: [{ header: "Day", cell: (r: DailyRow) => r.day }, ...summaryColumns] as Column<never>[],
  trips: [
    { header: "Vehicle", cell: (r: TripRow) => r.vehicleName },
    { header: "Driver", cell: (r: TripRow) => dash(r.driver) },
    { header: "Start", cell: (r: TripRow, clock: WorkspaceClock) => shortTime(r.start, clock) },
    { header: "From", cell: (r: TripRow) => dash(r.startAddress ?? coordinates(r.startLatitude, r.startLongitude)) },
    {
      header: "End",
      cell: (r: TripRow, clock: WorkspaceClock) => `${shortTime(r.end, clock)}${r.inProgress ? " (going on)" : ""}`,
    },
    { header: "To", cell: (r: TripRow) => dash(r.endAddress ?? coordinates(r.endLatitude, r.endLongitude)) },
    { header: "Distance (mi)", cell: (r: TripRow) => miles(r.distanceMiles), numeric: true },
    { header: "Duration", cell: (r: TripRow) => hoursAndMinutes(r.durationSeconds), numeric: true },
    {
      header: "Max (mph)",
      cell: (r: TripRow) => dash(r.maxSpeedMph === null ? null : Math.round(r.maxSpeedMph)),
      numeric: true,
    },
    { header: "Avg (mph)", cell: (r: TripRow) => Math.round(r.averageSpeedMph), numeric: true },
  ] as Column<never>[],
  stops: [
    { header: "Vehicle", cell: (r: StopRow) => r.vehicleName },
    { header: "Start", cell: (r: StopRow, clock: WorkspaceClock) => shortTime(r.start, clock) },
    {
      header: "End",
      cell: (r: StopRow, clock: WorkspaceClock) => `${shortTime(r.end, clock)}${r.inProgress ? " (going on)" : ""}`,
    },
    { header: "Duration", cell: (r: StopRow) => hoursAndMinutes(r.durationSeconds), numeric: true },
    { header: "Place", cell: (r: StopRow) => dash(r.address ?? coordinates(r.latitude, r.longitude)) },
    {
      header: "Engine",
      cell: (r: StopRow) => (r.ignition === "on" ? `Idling ${hoursAndMinutes(r.idlingSeconds)}` : "Off"),
    },
  ] as Column<never>[],
  jobs: [
    { header: "Vehicle", cell: (r: JobsReportRow) => r.vehicleName },
    { header: "Driver", cell: (r: JobsReportRow) => dash(r.driver) },
    { header: "Jobs", cell: (r: JobsReportRow) => r.jobs, numeric: true },
    { header: "Completed", cell: (r: JobsReportRow) => r.completed, numeric: true },
    { header: "On time", cell: (r: JobsReportRow) => r.onTime, numeric: true },
    { header: "Late", cell: (r: JobsReportRow) => r.late, numeric: true },
    { header: "Skipped", cell: (r: JobsReportRow) => r.skipped, numeric: true },
    {
      header: "Avg at stop (min)",
      cell: (r: JobsReportRow) => dash(r.averageDwellMinutes === null ? null : r.averageDwellMinutes.toFixed(1)),
      numeric: true,
    },
  ] as Column<never>[],
};

function coordinates(lat: number | null, lon: number | null): string | null {
  return lat === null || lon === null ? null : `${lat.toFixed(4)}, ${lon.toFixed(4)}`;
}

/** One report's rows as a table; the Summary's fleet total as its last row. */
export function ReportTable({ report, rows, total }: { report: ReportName; rows: AnyRow[]; total?: SummaryRow }) {
  const cols = columns[report] as Column<AnyRow>[];
  // The page heads the table "Times in <zone>": its cells need not name the zone again.
  const workspace = useWorkspaceClock();
  const clock = useMemo(() => ({ ...workspace, readerTimeZone: workspace.timeZone }), [workspace]);
  if (!rows.length) return <p className="muted">Nothing in this range.</p>;
  return (
    <div className="report-table-wrap">
      <table className="report-table" aria-label={`${report} report`}>
        <thead>
          <tr>
            {cols.map((c) => (
              <th key={c.header} className={c.numeric ? "numeric" : undefined}>
                {c.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row, i) => (
            <Cells key={i} cols={cols} row={row} clock={clock} />
          ))}
        </tbody>
        {total && (
          <tfoot>
            <Cells cols={cols} row={total} clock={clock} />
          </tfoot>
        )}
      </table>
    </div>
  );
}

/** One row of the table (a vehicle, a day, an event, or the fleet total), a cell per column. */
function Cells({ cols, row, clock }: { cols: Column<AnyRow>[]; row: AnyRow; clock: WorkspaceClock }) {
  return (
    <tr>
      {cols.map((c) => (
        <td key={c.header} className={c.numeric ? "numeric" : undefined} data-label={c.header}>
          {c.cell(row, clock)}
        </td>
      ))}
    </tr>
  );
}
