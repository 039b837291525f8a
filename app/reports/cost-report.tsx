import { useEffect, useState } from "react";
import type { CostReportResponse, CostRow } from "../../shared/costs/cost-report";
import { dayOf } from "../../shared/units/time-zone";
import { costCellText, costColumns } from "../../shared/costs/cost-columns";
import type { WorkspaceUnits } from "../../shared/units/units";
import { useWorkspaceUnits } from "./use-workspace-time-zone";
import { apiErrorOf, http } from "../lib/http";
import { Alert } from "../components/alert";
import { SelectField } from "../components/form";
import { RangeFields } from "./range-fields";
import { COST_PRESET_LABELS, costDays, costDaysProblem, type CostPreset } from "./cost-range";
import { CostCharts } from "./cost-charts";

interface CostChoice {
  preset: CostPreset;
  from: string;
  to: string;
  by: "vehicle" | "month";
}

type Column = { header: string; cell: (r: CostRow) => string; numeric?: boolean };

/**
 * The report's columns in the workspace's units (Preferences → Units), as its CSV has them
 * (shared/costs/cost-columns.ts): the API answers litres, miles and mpg whatever they are; the table
 * shows gallons, miles and mpg, or litres, km and L/100 km, with thousands separators.
 */
const columnsIn = (units: WorkspaceUnits): Column[] =>
  costColumns(units).map((c) => ({ header: c.header, cell: (r) => costCellText(c, r), numeric: true }));

function searchParams(choice: CostChoice, zone: string, format: "json" | "csv" = "json") {
  const { from, to } = costDays(choice.preset, dayOf(Date.now(), zone), choice);
  const params = new URLSearchParams({ from, to, by: choice.by });
  if (format === "csv") params.set("format", "csv");
  return params;
}

/** The Reports page's Costs tab: what the fleet cost per vehicle or per month (GET /api/reports/costs). */
export function CostReport({ zone }: { zone: string | undefined }) {
  const [choice, setChoice] = useState<CostChoice>({ preset: "thisMonth", from: "", to: "", by: "vehicle" });
  const update = (change: Partial<CostChoice>) => setChoice((c) => ({ ...c, ...change }));
  const { answer, error } = useCostReport(choice, zone);
  return (
    <>
      <div className="report-controls">
        <RangeFields idPrefix="cost" labels={COST_PRESET_LABELS} choice={choice} update={update} />
        <SelectField
          id="cost-by"
          label="Rows"
          value={choice.by}
          onChange={(e) => update({ by: e.currentTarget.value as CostChoice["by"] })}
          options={[
            { value: "vehicle", label: "Per vehicle" },
            { value: "month", label: "Per month" },
          ]}
        />
        <DownloadCostCsv choice={choice} zone={zone} />
      </div>
      {error && <Alert>{error}</Alert>}
      {!answer && !error && <p className="muted">Loading…</p>}
      {answer && (
        <>
          <CostCharts answer={answer} />
          <CostTable answer={answer} />
        </>
      )}
    </>
  );
}

function CostTable({ answer }: { answer: CostReportResponse }) {
  const columns = columnsIn(useWorkspaceUnits());
  if (!answer.rows.length) return <p className="muted">No vehicles yet.</p>;
  const label = (r: CostRow) => r.vehicleName ?? r.month ?? "";
  const line = (r: CostRow, first: string) => (
    <>
      <td data-label={answer.by === "month" ? "Month" : "Vehicle"}>{first}</td>
      {columns.map((c) => (
        <td key={c.header} className={c.numeric ? "numeric" : undefined} data-label={c.header}>
          {c.cell(r)}
        </td>
      ))}
    </>
  );
  return (
    <div className="report-table-wrap">
      <table className="report-table" aria-label="costs report">
        <thead>
          <tr>
            <th>{answer.by === "month" ? "Month" : "Vehicle"}</th>
            {columns.map((c) => (
              <th key={c.header} className={c.numeric ? "numeric" : undefined}>
                {c.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {answer.rows.map((r) => (
            <tr key={r.vehicleId ?? r.month}>{line(r, label(r))}</tr>
          ))}
        </tbody>
        <tfoot>
          <tr>{line(answer.total, "Fleet total")}</tr>
        </tfoot>
      </table>
    </div>
  );
}

/** Asks for the cost report whenever the choice (or the workspace's zone) changes; the answer is kept with its choice. */
function useCostReport(choice: CostChoice, zone: string | undefined) {
  const key = JSON.stringify(choice);
  const [state, setState] = useState<{ key: string; answer: CostReportResponse | null; error: string | null }>({
    key: "",
    answer: null,
    error: null,
  });
  useEffect(() => {
    if (!zone) return;
    const problem = costDaysProblem(costDays(choice.preset, dayOf(Date.now(), zone), choice));
    if (problem) return setState({ key, answer: null, error: problem });
    const controller = new AbortController();
    http
      .get("reports/costs", { searchParams: searchParams(choice, zone), signal: controller.signal })
      .json<CostReportResponse>()
      .then((answer) => setState({ key, answer, error: null }))
      .catch(async (error: unknown) => {
        if (controller.signal.aborted) return;
        setState({ key, answer: null, error: (await apiErrorOf(error))?.message ?? "The report could not be loaded" });
      });
    return () => controller.abort();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- `key` is the choice's content
  }, [key, zone]);
  return state.key === key ? state : { answer: null, error: null };
}

/** The same rows as CSV, fetched with the session's token and handed to the browser as a file. */
function DownloadCostCsv({ choice, zone }: { choice: CostChoice; zone: string | undefined }) {
  const [busy, setBusy] = useState(false);
  const download = async () => {
    if (!zone) return;
    setBusy(true);
    try {
      const params = searchParams(choice, zone, "csv");
      const blob = await http.get("reports/costs", { searchParams: params }).blob();
      const link = document.createElement("a");
      link.href = URL.createObjectURL(blob);
      link.download = `costs-by-${choice.by}-${params.get("from")}-to-${params.get("to")}.csv`;
      link.click();
      setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
    } finally {
      setBusy(false);
    }
  };
  return (
    <button type="button" className="button primary" disabled={busy || !zone} onClick={() => void download()}>
      Download CSV
    </button>
  );
}
