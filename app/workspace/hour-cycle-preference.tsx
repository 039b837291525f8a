import { timeText, type HourCycle } from "../../shared/units/clock";
import { setWorkspaceHourCycle, useWorkspaceClock } from "../reports/use-workspace-time-zone";
import { PreferenceCard } from "./preference-card";

/** A quarter past three in the afternoon, shown as each choice would write it. */
const SAMPLE = Date.UTC(2026, 0, 1, 15, 19);
const sample = (hourCycle: HourCycle) => timeText(SAMPLE, { timeZone: "UTC", hourCycle, readerTimeZone: "UTC" });
const labels: Record<HourCycle, string> = {
  h12: `12-hour (${sample("h12")})`,
  h23: `24-hour (${sample("h23")})`,
};

/** Preferences → Clock (docs/decisions/0079): every time the workspace's people read is written so; owners and admins set it. */
export function HourCyclePreference() {
  return (
    <PreferenceCard
      id="workspace-hour-cycle"
      label="Clock"
      field="hourCycle"
      current={useWorkspaceClock().hourCycle}
      labels={labels}
      onSaved={(workspaceId, saved) => setWorkspaceHourCycle(workspaceId, saved.hourCycle)}
    >
      Every time on every page, e-mail and notification, and the customer&apos;s tracking page, is written so, on the
      workspace&apos;s time zone&apos;s clock.
    </PreferenceCard>
  );
}
