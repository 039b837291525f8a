import { Outlet } from "@remix-run/react";
import { useEffect, useMemo, useState } from "react";
import type { WorkspacePreferences } from "../../shared/reports/reports";
import { apiErrorOf, http } from "../lib/http";
import { setWorkspaceHourCycle, setWorkspaceTimeZone, useWorkspaceTimeZone } from "../reports/use-workspace-time-zone";
import { UnitsPreference } from "../workspace/units-preference";
import { HourCyclePreference } from "../workspace/hour-cycle-preference";
import { CustomerMessagesPreference } from "../workspace/customer-messages-preference";
import { WorkOrderLinesPreference } from "../workspace/work-order-lines-preference";
import { SmsAccountSettings } from "../workspace/sms-account";
import { useCan, useSession } from "../session/session";
import { ReplaceDeviceIds } from "../vehicles/replace-device-ids";
import { ApiTokens } from "../workspace/api-tokens";
import { ShareLinks } from "../workspace/share-links";
import { PhotoStorage } from "../workspace/photo-storage";
import { SelectField, StatusLine, Submit } from "../components/form";

/** Preferences: the workspace's time zone, in which reports, "today" and the timeline count days; what its customers are told and its own Twilio account for texts; its photo storage; its API tokens and live share links with who made each; owners replace every device id here. */
export default function WorkspacePreferences() {
  return (
    <section className="page narrow">
      <h1>Preferences</h1>
      <TimeZonePreference />
      <HourCyclePreference />
      <UnitsPreference />
      <WorkOrderLinesPreference />
      <CustomerMessagesPreference />
      <SmsAccountSettings />
      <PhotoStorage />
      <ApiTokens />
      <ShareLinks />
      <ReplaceDeviceIds />
      <Outlet />
    </section>
  );
}

function TimeZonePreference() {
  const workspaceId = useSession().workspace?.id;
  const current = useWorkspaceTimeZone();
  // Owners and admins set the workspace's zone; everyone else sees it (shared/account/roles.ts).
  const mayChange = useCan("workspace.configure");
  const [value, setValue] = useState<string>("");
  const [message, setMessage] = useState<string | null>(null);
  useEffect(() => {
    if (current) setValue(current);
  }, [current]);
  // Every zone this browser knows, the current one first among them if it is unusual.
  const zones = useMemo(() => {
    const known = typeof Intl.supportedValuesOf === "function" ? Intl.supportedValuesOf("timeZone") : [];
    return [...new Set(["UTC", ...(current ? [current] : []), ...known])];
  }, [current]);
  const save = async (event: React.FormEvent) => {
    event.preventDefault();
    if (!workspaceId) return;
    try {
      const saved = await http
        .patch("workspace/preferences", { json: { timeZone: value } })
        .json<WorkspacePreferences>();
      setWorkspaceTimeZone(workspaceId, saved.timeZone);
      // A zone brings its country's clock unless the workspace chose one.
      setWorkspaceHourCycle(workspaceId, saved.hourCycle);
      setMessage("Saved");
    } catch (error) {
      setMessage((await apiErrorOf(error))?.message ?? "Could not save");
    }
  };
  return (
    <form className="card" onSubmit={(e) => void save(e)}>
      <SelectField
        id="workspace-time-zone"
        label="Time zone"
        value={value}
        disabled={!current || !mayChange}
        onChange={(e) => setValue(e.currentTarget.value)}
        options={zones.map((z) => ({ value: z, label: z.replace(/_/g, " ") }))}
      />
      <p className="muted">Every day and time the workspace&apos;s people and customers read is this zone&apos;s.</p>
      {!mayChange && (
        <p className="muted role-note">Only the workspace&apos;s owners and admins can change its time zone.</p>
      )}
      <Submit disabled={!current || !mayChange || value === current}>Save</Submit>
      <StatusLine message={message} />
    </form>
  );
}
