import { useState } from "react";
import type { WorkspacePreferences } from "../../shared/reports/reports";
import { timeText, type HourCycle } from "../../shared/units/clock";
import { SelectField, Submit } from "../components/form";
import { apiErrorOf, http } from "../lib/http";
import { setWorkspaceHourCycle, useWorkspaceClock } from "../reports/use-workspace-time-zone";
import { useCan, useSession } from "../session/session";

/** A quarter past three in the afternoon, shown as each choice would write it. */
const SAMPLE = Date.UTC(2026, 0, 1, 15, 19);
const sample = (hourCycle: HourCycle) => timeText(SAMPLE, { timeZone: "UTC", hourCycle, readerTimeZone: "UTC" });
const labels: Record<HourCycle, string> = {
  h12: `12-hour (${sample("h12")})`,
  h23: `24-hour (${sample("h23")})`,
};

/** Preferences → Clock (docs/decisions/0079): every time the workspace's people read is written so; owners and admins set it. */
export function HourCyclePreference() {
  const workspaceId = useSession().workspace?.id;
  const current = useWorkspaceClock().hourCycle;
  const mayChange = useCan("workspace.configure");
  const [value, setValue] = useState<HourCycle>();
  const [message, setMessage] = useState<string | null>(null);
  const chosen = value ?? current;
  const save = async (event: React.FormEvent) => {
    event.preventDefault();
    if (!workspaceId) return;
    try {
      const saved = await http
        .patch("workspace/preferences", { json: { hourCycle: chosen } })
        .json<WorkspacePreferences>();
      setWorkspaceHourCycle(workspaceId, saved.hourCycle);
      setMessage("Saved");
    } catch (error) {
      setMessage((await apiErrorOf(error))?.message ?? "Could not save");
    }
  };
  return (
    <form className="card" onSubmit={(e) => void save(e)} aria-label="Clock">
      <SelectField
        id="workspace-hour-cycle"
        label="Clock"
        value={chosen}
        disabled={!mayChange}
        onChange={(e) => setValue(e.currentTarget.value as HourCycle)}
        options={(Object.keys(labels) as HourCycle[]).map((h) => ({ value: h, label: labels[h] }))}
      />
      <p className="muted">
        Every time on every page, e-mail and notification, and the customer&apos;s tracking page, is written so, on the
        workspace&apos;s time zone&apos;s clock.
      </p>
      <Submit disabled={!mayChange || chosen === current}>Save</Submit>
      {message && (
        <span className="muted" role="status">
          {" "}
          {message}
        </span>
      )}
    </form>
  );
}
