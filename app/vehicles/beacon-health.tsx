import { useEffect, useState } from "react";
import { toast } from "sonner";
import {
  beaconHealthSchema,
  deviceAppLabels,
  deviceIdRotationSchema,
  REJECT_REASONS,
  rejectReasonLabels,
  type BeaconHealth as Health,
} from "../../shared/fleet/beacon-health";
import { apiErrorOf, http, HTTPError } from "../lib/http";
import { useTelemetry } from "../store";
import { ConfirmAction } from "../components/form";
import { ConnectApps } from "./connect-apps";
import { PhoneSetup } from "./phone-setup";
import { timeText, type WorkspaceClock } from "../../shared/units/clock";
import { useWorkspaceClock } from "../reports/use-workspace-time-zone";
import { dayHeading, duration } from "./format";
import { useNow } from "./use-now";

/**
 * The vehicle's beacon for operators: is the tracker reporting (last report, reports today), is
 * its clock right (skew when it was seen ahead), what it sent that was not used and why, and the
 * device id and server URL to put in the tracker's settings, with a way to regenerate a leaked id.
 * Read from GET /api/beacons/:vehicleId/health (not synced: it is the server's own bookkeeping),
 * again after each new report the synced telemetry shows, and every minute.
 */
export function BeaconHealth({ vehicleId }: { vehicleId: string }) {
  const [health, setHealth] = useBeaconHealth(vehicleId);
  const [fresh, setFresh] = useState<string | null>(null);
  const now = useNow(1000);
  if (health === "none") return null;
  return (
    <section className="card section beacon-health" aria-labelledby="beacon-heading">
      <h2 id="beacon-heading">Beacon</h2>
      {health === null ? (
        <p className="muted">Loading beacon health…</p>
      ) : health === "unavailable" ? (
        <p className="muted">Beacon health is unavailable right now.</p>
      ) : (
        <>
          <HealthFacts health={health} now={now} />
          <DeviceId
            health={health}
            fresh={fresh}
            onRotated={(deviceId) => {
              setFresh(deviceId);
              setHealth({ ...health, deviceId, rotatedAt: Date.now() });
            }}
          />
        </>
      )}
    </section>
  );
}

/** The beacon's health, read again after each new report the synced telemetry shows and every minute. */
function useBeaconHealth(vehicleId: string) {
  const state = useState<Health | null | "none" | "unavailable">(null);
  const setHealth = state[1];
  const latestReport = useTelemetry(vehicleId)?.recordedAt;
  const minute = useNow(60_000);
  useEffect(() => {
    const controller = new AbortController();
    const midnight = new Date();
    midnight.setHours(0, 0, 0, 0);
    http
      .get(`beacons/${encodeURIComponent(vehicleId)}/health`, {
        searchParams: { since: midnight.getTime() },
        signal: controller.signal,
      })
      .json()
      .then((body) => setHealth(beaconHealthSchema.parse(body)))
      .catch((error: unknown) => {
        if (controller.signal.aborted) return;
        // No beacon for this vehicle: nothing to show. Offline or failing: say so, keep the page.
        setHealth(
          error instanceof HTTPError && error.response.status === 404
            ? "none"
            : (old) => (old && typeof old === "object" ? old : "unavailable"),
        );
      });
    return () => controller.abort();
  }, [vehicleId, latestReport, minute, setHealth]);
  return state;
}

function HealthFacts({ health, now }: { health: Health; now: number }) {
  const clock = useWorkspaceClock();
  return (
    <dl className="facts grid">
      <div>
        <dt>Last report</dt>
        <dd data-testid="beacon-last-report">
          {health.lastReportAt === null ? "Never" : ago(health.lastReportAt, now, clock)}
        </dd>
      </div>
      <div>
        <dt>Reporting app</dt>
        <dd data-testid="beacon-last-app">{health.lastApp === null ? "None yet" : deviceAppLabels[health.lastApp]}</dd>
      </div>
      <div>
        <dt>Reports today</dt>
        <dd data-testid="beacon-reports-today">{health.reportsToday.toLocaleString("en-US")}</dd>
      </div>
      <div>
        <dt>Device clock</dt>
        <dd data-testid="beacon-clock">{clockSkew(health, now, clock)}</dd>
      </div>
      <div>
        <dt>Rejected reports</dt>
        <dd data-testid="beacon-rejected">{rejected(health, now, clock)}</dd>
      </div>
      <div>
        <dt>Reports without a position</dt>
        <dd data-testid="beacon-no-position">{withoutPosition(health, now, clock)}</dd>
      </div>
    </dl>
  );
}

/** The id and URL for the tracker's settings, and regenerating the id behind a confirmation. */
function DeviceId({
  health,
  fresh,
  onRotated,
}: {
  health: Health;
  fresh: string | null;
  onRotated: (deviceId: string) => void;
}) {
  // the device id is ingestion's credential: roles that cannot edit the fleet are not given it
  if (health.deviceId === null)
    return <p className="muted role-note">Only members who edit the fleet see the device id.</p>;
  return <DeviceIdFacts health={health} fresh={fresh} onRotated={onRotated} />;
}

function DeviceIdFacts({
  health,
  fresh,
  onRotated,
}: {
  health: Health;
  fresh: string | null;
  onRotated: (deviceId: string) => void;
}) {
  async function regenerate() {
    try {
      const body = await http.post(`beacons/${encodeURIComponent(health.vehicleId)}/device-id`).json();
      onRotated(deviceIdRotationSchema.parse(body).deviceId);
      toast.success("New device id generated: enter it in the tracker's settings");
    } catch (error) {
      toast.error((await apiErrorOf(error))?.message ?? "Could not regenerate the device id");
    }
  }

  return (
    <div className="beacon-device">
      <dl className="facts">
        <div>
          <dt>Device identifier</dt>
          <dd className="mono" data-testid="beacon-device-id">
            {health.deviceId}
          </dd>
        </div>
        <div>
          <dt>Server URL</dt>
          <dd className="mono">{health.ingestUrl}</dd>
        </div>
      </dl>
      <PhoneSetup vehicleId={health.vehicleId} key={health.deviceId} />
      {health.deviceId ? <ConnectApps osmandUrl={health.ingestUrl} deviceId={health.deviceId} /> : null}
      {fresh ? (
        <p role="status" className="beacon-fresh">
          New device id generated. Enter it in the tracker&apos;s settings: reports with the old id are refused from now
          on.
        </p>
      ) : null}
      <ConfirmAction
        label="Regenerate device id"
        question="Regenerate the device id? The tracker's reports are refused until its settings carry the new id."
        confirmLabel="Regenerate"
        className="button"
        onConfirm={regenerate}
      />
    </div>
  );
}

function ago(time: number, now: number, clock: WorkspaceClock) {
  const day = dayHeading(time, now, clock);
  const when = `${day === "Today" ? "" : `${day}, `}${timeText(time, clock)}`;
  return now - time < 60_000 ? `Just now (${when})` : `${duration(now - time)} ago (${when})`;
}

function clockSkew(health: Health, now: number, clock: WorkspaceClock) {
  if (health.clockSkewMs === null || health.clockSkewAt === null) return "In step";
  const skew =
    health.clockSkewMs < 60_000 ? `${Math.round(health.clockSkewMs / 1000)} s` : duration(health.clockSkewMs);
  return `${skew} ahead, seen ${ago(health.clockSkewAt, now, clock)}`;
}

/** A tracker that reports with no GPS fix (cells or Wi-Fi only) is alive: said so, not left to look silent. */
function withoutPosition(health: Health, now: number, clock: WorkspaceClock) {
  const count = health.rejected.no_position;
  if (!count) return "None";
  const last = health.lastNoPositionAt !== null ? `; last ${ago(health.lastNoPositionAt, now, clock)}` : "";
  return `${count.toLocaleString("en-US")} (no GPS fix: cells or Wi-Fi only)${last}`;
}

function rejected(health: Health, now: number, clock: WorkspaceClock) {
  const parts = REJECT_REASONS.filter((r) => health.rejected[r] > 0).map(
    (r) => `${health.rejected[r].toLocaleString("en-US")} ${rejectReasonLabels[r]}`,
  );
  if (!parts.length) return "None";
  const last = health.lastRejectedAt !== null ? `; last ${ago(health.lastRejectedAt, now, clock)}` : "";
  return `${parts.join(", ")}${last}`;
}
