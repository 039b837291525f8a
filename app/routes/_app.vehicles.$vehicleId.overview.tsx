import { Link, useParams } from "@remix-run/react";
import { useState, type ComponentProps } from "react";
import type { Telemetry } from "../../shared/fleet/telemetry";
import { metresPerSecondToMph } from "../../shared/units/units";
import { useCan, useSession } from "../session/session";
import { useTelemetry } from "../store";
import { hoursMinutes, miles, mph, percent, statusLabel } from "../vehicles/format";
import { Sparkline } from "../vehicles/sparkline";
import { useHistory } from "../vehicles/use-history";
import { useNow } from "../vehicles/use-now";

/** Overview: the collapsible Telemetry section (time in status ticks every second) and its recent history. */
export default function VehicleOverview() {
  const { vehicleId } = useParams();
  const telemetry = useTelemetry(vehicleId);
  const now = useNow(1000);
  const [open, setOpen] = useState(true);
  // Feature flag (docs/flags.md): on unless switched off globally or for this workspace.
  const charts = useSession().flags.telemetryCharts !== false;
  return (
    <section className="card section" aria-labelledby="telemetry-heading">
      <h2 id="telemetry-heading">
        <button
          type="button"
          className="section-toggle"
          aria-expanded={open}
          aria-controls="telemetry-body"
          onClick={() => setOpen((o) => !o)}
        >
          <span aria-hidden>{open ? "▾" : "▸"}</span> Telemetry
        </button>
      </h2>
      {open ? (
        <div id="telemetry-body">
          {telemetry ? (
            <>
              <dl className="facts grid">
                <div>
                  <dt>Time in {statusLabel(telemetry.status).toLowerCase()}</dt>
                  <dd data-testid="time-in-status">{hoursMinutes(now - telemetry.statusTimestamp)}</dd>
                </div>
                <div>
                  <dt>Speed</dt>
                  <dd data-testid="speed">{mph(telemetry.speed)}</dd>
                </div>
                <div>
                  <dt>Odometer</dt>
                  <dd data-testid="odometer">{miles(telemetry.odometer)}</dd>
                </div>
                <div>
                  <dt>Fuel level</dt>
                  <dd data-testid="fuel">{percent(telemetry.fuel)}</dd>
                </div>
              </dl>
              {charts ? <History vehicleId={telemetry.vehicleId} telemetry={telemetry} /> : null}
            </>
          ) : (
            <NoTelemetryYet />
          )}
        </div>
      ) : null}
    </section>
  );
}

/** Speed and fuel over the last 24 hours, where the beacon reported them. */
function History({ vehicleId, telemetry }: { vehicleId: string; telemetry: Telemetry }) {
  const points = useHistory(vehicleId, telemetry.recordedAt);
  if (points === null) return <p className="muted charts-note">Loading history…</p>;
  const speeds = points.flatMap((p) => (p.speed === null ? [] : [p.speed]));
  const fuels = points.flatMap((p) => (p.fuel === null ? [] : [p.fuel]));
  if (!speeds.length && !fuels.length) return <p className="muted charts-note">No history in the last 24 hours.</p>;
  return (
    <div className="charts">
      {speeds.length ? (
        <Chart
          caption="Speed, last 24 hours"
          points={points}
          value={(p) => p.speed}
          max={0}
          colour="#16a34a"
          label={`Speed over the last 24 hours: ${speeds.length} reports, top ${mph(Math.max(...speeds))}, now ${mph(speeds.at(-1))}`}
          scale={`max ${Math.round(metresPerSecondToMph(Math.max(...speeds)))} mph`}
        />
      ) : null}
      {fuels.length ? (
        <Chart
          caption="Fuel, last 24 hours"
          points={points}
          value={(p) => p.fuel}
          max={100}
          colour="#2563eb"
          label={`Fuel over the last 24 hours: ${fuels.length} reports, ${percent(fuels[0])} to ${percent(fuels.at(-1))}`}
          scale="0–100%"
        />
      ) : null}
    </div>
  );
}

/** One chart of the history: its caption, the sparkline and the scale beneath. */
function Chart({
  caption,
  scale,
  ...sparkline
}: { caption: string; scale: string } & ComponentProps<typeof Sparkline>) {
  return (
    <figure>
      <figcaption>{caption}</figcaption>
      <Sparkline {...sparkline} />
      <span className="muted">{scale}</span>
    </figure>
  );
}

/** Before the first report, those who may set a tracker up are shown where: the phone setup of the beacon. */
function NoTelemetryYet() {
  const canConnect = useCan("fleet.edit");
  return (
    <p className="muted">
      No telemetry yet: the beacon has not reported.{" "}
      {canConnect ? (
        <Link to="../settings#connect-phone" relative="path" data-testid="connect-phone-link">
          Connect a phone as its tracker
        </Link>
      ) : null}
    </p>
  );
}
