import { useParams } from "@remix-run/react";
import { useState } from "react";
import { useTelemetry } from "../store";
import { hoursMinutes, miles, mph, percent, statusLabel } from "../vehicles/format";
import { useNow } from "../vehicles/use-now";

/** Overview: the collapsible Telemetry section (time in status ticks every second). */
export default function VehicleOverview() {
  const { vehicleId } = useParams();
  const telemetry = useTelemetry(vehicleId);
  const now = useNow(1000);
  const [open, setOpen] = useState(true);
  return (
    <section className="card section">
      <h2>
        <button type="button" className="section-toggle" aria-expanded={open} onClick={() => setOpen((o) => !o)}>
          <span aria-hidden>{open ? "▾" : "▸"}</span> Telemetry
        </button>
      </h2>
      {open ? (
        telemetry ? (
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
        ) : (
          <p className="muted">No telemetry yet: the beacon has not reported.</p>
        )
      ) : null}
    </section>
  );
}
