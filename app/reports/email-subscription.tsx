import { useEffect, useState } from "react";
import type { ReportSubscription } from "../../shared/reports/reports";
import { http } from "../lib/http";
import { SelectField } from "../components/form";

const LABELS: Record<ReportSubscription["frequency"], string> = {
  none: "Off",
  daily: "Daily (yesterday's summary)",
  weekly: "Weekly (Mondays, last week's)",
};

/** The viewer's summary by e-mail in this workspace: off, daily or weekly, sent in the workspace's morning. */
export function EmailSubscription() {
  const [frequency, setFrequency] = useState<ReportSubscription["frequency"] | null>(null);
  const [saved, setSaved] = useState(false);
  useEffect(() => {
    http
      .get("reports/subscription")
      .json<ReportSubscription>()
      .then((s) => setFrequency(s.frequency))
      .catch(() => setFrequency("none"));
  }, []);
  const change = async (next: ReportSubscription["frequency"]) => {
    setFrequency(next);
    setSaved(false);
    await http.put("reports/subscription", { json: { frequency: next } });
    setSaved(true);
  };
  return (
    <div className="report-email">
      <SelectField
        id="report-email-frequency"
        label="E-mail me the summary"
        disabled={frequency === null}
        value={frequency ?? "none"}
        onChange={(e) => void change(e.currentTarget.value as ReportSubscription["frequency"])}
        options={Object.entries(LABELS).map(([value, label]) => ({ value, label }))}
        hint={saved ? "Saved" : undefined}
      />
    </div>
  );
}
