import { useEffect, useState } from "react";
import { reportNames, type ReportName, type ReportResponse, type SummaryRow } from "../../shared/reports/reports";
import { apiErrorOf, http } from "../lib/http";
import { CostReport } from "../reports/cost-report";
import { DailyChart } from "../reports/daily-chart";
import { EmailSubscription } from "../reports/email-subscription";
import { OnTimeChart } from "../reports/on-time-chart";
import {
  choiceDays,
  choiceProblem,
  PRESET_LABELS,
  reportSearchParams,
  type ReportChoice,
} from "../reports/report-query";
import { ReportTable } from "../reports/report-table";
import { useWorkspaceTimeZone } from "../reports/use-workspace-time-zone";
import { useVehicles } from "../store";
import { Alert } from "../components/alert";
import { RangeFields } from "../reports/range-fields";
import { OnlineOnly } from "../components/online-only";

const REPORT_LABELS: Record<ReportName, string> = {
  summary: "Summary",
  trips: "Trips",
  stops: "Stops",
  daily: "Daily",
  jobs: "Jobs on time",
};
type Answer = ReportResponse<never> & { rows: never[] };

/** Reports: a range, vehicles and a report; a table (and the Daily chart); CSV of the same rows. */
function ReportsPage() {
  const zone = useWorkspaceTimeZone();
  const [choice, setChoice] = useState<ReportChoice>({
    report: "summary",
    preset: "last7",
    from: "",
    to: "",
    vehicleIds: [],
  });
  // The Costs tab has its own ranges (months) and rows (vehicles or months): its own component.
  const [costs, setCosts] = useState(false);
  const { answer, error, loading } = useReport(choice, zone);
  const update = (change: Partial<ReportChoice>) => {
    setCosts(false);
    setChoice((c) => ({ ...c, ...change }));
  };
  return (
    <section className="page reports">
      <div className="page-header">
        <h1>Reports</h1>
        {zone && <span className="muted">Times in {zone}</span>}
      </div>
      <div className="report-tabs" role="tablist" aria-label="Report">
        {reportNames.map((name) => (
          <button
            key={name}
            role="tab"
            type="button"
            aria-selected={!costs && choice.report === name}
            className="button"
            onClick={() => update({ report: name })}
          >
            {REPORT_LABELS[name]}
          </button>
        ))}
        <button role="tab" type="button" aria-selected={costs} className="button" onClick={() => setCosts(true)}>
          Costs
        </button>
      </div>
      {costs ? <CostReport zone={zone} /> : <ReportControls choice={choice} update={update} zone={zone} />}
      {!costs && error && <Alert>{error}</Alert>}
      {!costs && loading && <p className="muted">Loading…</p>}
      {!costs && answer && !loading && (
        <>
          {answer.truncated && (
            <p className="muted">Only the first rows are shown: narrow the range or the vehicles.</p>
          )}
          {choice.report === "daily" && <DailyChart rows={answer.rows} />}
          {choice.report === "jobs" && answer.days && <OnTimeChart days={answer.days} />}
          <ReportTable report={choice.report} rows={answer.rows} total={answer.total as SummaryRow | undefined} />
        </>
      )}
      <EmailSubscription />
    </section>
  );
}

function ReportControls({
  choice,
  update,
  zone,
}: {
  choice: ReportChoice;
  update: (c: Partial<ReportChoice>) => void;
  zone: string | undefined;
}) {
  return (
    <div className="report-controls">
      <RangeFields idPrefix="report" labels={PRESET_LABELS} choice={choice} update={update} />
      <VehicleChoice chosen={choice.vehicleIds} choose={(vehicleIds) => update({ vehicleIds })} />
      <DownloadCsv choice={choice} zone={zone} />
    </div>
  );
}

/** Which vehicles the report covers: none ticked means all of them. */
function VehicleChoice({ chosen, choose }: { chosen: string[]; choose: (vehicleIds: string[]) => void }) {
  const vehicles = useVehicles();
  const toggle = (id: string, on: boolean) => choose(on ? [...chosen, id] : chosen.filter((v) => v !== id));
  return (
    <fieldset className="field report-vehicles">
      <legend>Vehicles {chosen.length > 0 ? `(${chosen.length} chosen)` : "(all)"}</legend>
      <div className="report-vehicle-list">
        {vehicles.map((v) => (
          <label key={v.id}>
            <input
              type="checkbox"
              checked={chosen.includes(v.id)}
              onChange={(e) => toggle(v.id, e.currentTarget.checked)}
            />{" "}
            {v.name}
          </label>
        ))}
      </div>
      {chosen.length > 0 && (
        <button type="button" className="button" onClick={() => choose([])}>
          All vehicles
        </button>
      )}
    </fieldset>
  );
}

/** Asks the API for the chosen report whenever the choice (or the workspace's zone) changes. */
function useReport(choice: ReportChoice, zone: string | undefined) {
  // The answer is kept with the choice it answers: a table never renders one report's rows with another's columns.
  const [state, setState] = useState<{ key: string; answer: Answer | null; error: string | null; loading: boolean }>({
    key: "",
    answer: null,
    error: null,
    loading: false,
  });
  const key = JSON.stringify(choice);
  useEffect(() => {
    if (!zone) return;
    const now = Date.now();
    const problem = choiceProblem(choice, now, zone);
    if (problem) return setState({ key, answer: null, error: problem, loading: false });
    const controller = new AbortController();
    setState({ key, answer: null, error: null, loading: true });
    http
      .get(`reports/${choice.report}`, {
        searchParams: reportSearchParams(choice, now, zone),
        signal: controller.signal,
      })
      .json<Answer>()
      .then((answer) => setState({ key, answer, error: null, loading: false }))
      .catch(async (error: unknown) => {
        if (controller.signal.aborted) return;
        setState({
          key,
          answer: null,
          error: (await apiErrorOf(error))?.message ?? "The report could not be loaded",
          loading: false,
        });
      });
    return () => controller.abort();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- `key` is the choice's content
  }, [key, zone]);
  return state.key === key ? state : { answer: null, error: null, loading: true };
}

/** The same report as CSV, saved as a file (fetched with the session's token, then handed to the browser). */
function DownloadCsv({ choice, zone }: { choice: ReportChoice; zone: string | undefined }) {
  const [busy, setBusy] = useState(false);
  const download = async () => {
    if (!zone) return;
    setBusy(true);
    try {
      const now = Date.now();
      const blob = await http
        .get(`reports/${choice.report}`, { searchParams: reportSearchParams(choice, now, zone, "csv") })
        .blob();
      const { from, to } = choiceDays(choice, now, zone);
      const link = document.createElement("a");
      link.href = URL.createObjectURL(blob);
      link.download = `${choice.report}-${from}-to-${to}.csv`;
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

/** Only the server has this page's data: offline it says it needs a connection (docs/decisions/0044). */
export default function ReportsPageRoute() {
  return (
    <OnlineOnly heading="Reports">
      <ReportsPage />
    </OnlineOnly>
  );
}
