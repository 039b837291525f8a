import { Link, useSearchParams } from "@remix-run/react";
import { ReportIssueButton } from "../issues/report-issue-dialog";
import { useOpenIssueCounts } from "../store/issues";
import type { Vehicle } from "../../shared/fleet/vehicle";
import { fuelChangeLitres, isFuelEvent, type VehicleEvent } from "../../shared/fleet/vehicle-event";
import { litresToGallons } from "../../shared/units/units";
import { useTelemetry, useVehicleEvents } from "../store";
import {
  dayHeading,
  duration,
  EVENT_LABELS,
  miles,
  milesFromMetres,
  mph,
  orDash,
  percent,
  statusLabel,
} from "./format";
import { useWorkspaceClock } from "../reports/use-workspace-time-zone";
import { timeText, type WorkspaceClock } from "../../shared/units/clock";
import { ShareLocation } from "./share-location";
import { useNow } from "./use-now";

/** The map's vehicle side panel (docs/product.md section 2). */
export function VehiclePanel({ vehicle }: { vehicle: Vehicle }) {
  const telemetry = useTelemetry(vehicle.id);
  const events = useVehicleEvents(vehicle.id);
  const now = useNow(1000);
  // A clicked timeline event is shown on the map (app/map/trip-replay.tsx) through the URL.
  const [params, setParams] = useSearchParams();
  const showEvent = (id: string) =>
    setParams((p) => {
      p.set("event", id);
      return p;
    });
  return (
    <div className="vehicle-panel">
      <h2>{vehicle.name}</h2>
      <p className="muted">{[vehicle.year, vehicle.make, vehicle.model].filter(Boolean).join(" ") || "-"}</p>
      <p className="mono">VIN {orDash(vehicle.vin)}</p>
      <dl className="facts">
        <div>
          <dt>Status</dt>
          <dd data-testid="panel-status">
            {statusLabel(telemetry?.status)}
            {telemetry ? ` · ${duration(now - telemetry.statusTimestamp)}` : ""}
          </dd>
        </div>
        <div>
          <dt>Odometer</dt>
          <dd>{miles(telemetry?.odometer)}</dd>
        </div>
        <div>
          <dt>Speed</dt>
          <dd>{mph(telemetry?.speed)}</dd>
        </div>
        <div>
          <dt>Fuel</dt>
          <dd>{percent(telemetry?.fuel)}</dd>
        </div>
      </dl>
      <PanelIssues vehicleId={vehicle.id} />
      <section className="driver" aria-label="Driver">
        <span className="avatar" aria-hidden>
          {(vehicle.driver ?? "?").charAt(0)}
        </span>
        <div>
          <div>{vehicle.driver ?? "—"}</div>
          <div className="muted">Driver</div>
        </div>
      </section>
      <ShareLocation vehicleId={vehicle.id} />
      <Timeline
        events={events.slice(0, 3)}
        now={now}
        shown={params.get("event")}
        onShow={showEvent}
        tankLitres={vehicle.fuelTankLitres}
      />
    </div>
  );
}

/** The vehicle's open issues (a link to them) and "Report an issue" (issue 32). */
function PanelIssues({ vehicleId }: { vehicleId: string }) {
  const open = useOpenIssueCounts().get(vehicleId) ?? 0;
  return (
    <div className="panel-issues">
      <Link to={`/vehicles/${vehicleId}/issues`}>
        {open ? `${open} open ${open === 1 ? "issue" : "issues"}` : "No open issues"}
      </Link>
      <ReportIssueButton vehicleId={vehicleId} />
    </div>
  );
}

/** Up to the 3 latest events, grouped by day; with `onShow`, each one can be shown on the map. */
export function Timeline({
  events,
  now,
  shown = null,
  onShow,
  tankLitres = null,
}: {
  events: VehicleEvent[];
  now: number;
  shown?: string | null;
  onShow?: (eventId: string) => void;
  /** The vehicle's tank: a refuel's or a drop's levels in gallons (docs/decisions/0050). */
  tankLitres?: number | null;
}) {
  const clock = useWorkspaceClock();
  if (!events.length) return <p className="muted">No trips or stops yet.</p>;
  const days = new Map<string, VehicleEvent[]>();
  for (const e of events) {
    const day = dayHeading(e.startTime, now, clock);
    days.set(day, [...(days.get(day) ?? []), e]);
  }
  return (
    <section className="timeline" aria-label="Timeline">
      {[...days].map(([day, list]) => (
        <div key={day}>
          <h3>{day}</h3>
          <ol>
            {list.map((e) => (
              <li key={e.id} className={`event ${e.type.toLowerCase()}`} data-event-type={e.type}>
                {onShow && !isFuelEvent(e.type) ? (
                  <button
                    type="button"
                    className="event-select"
                    aria-pressed={shown === e.id}
                    onClick={() => onShow(e.id)}
                  >
                    <EventSummary event={e} now={now} clock={clock} tankLitres={tankLitres} />
                  </button>
                ) : (
                  <EventSummary event={e} now={now} clock={clock} tankLitres={tankLitres} />
                )}
              </li>
            ))}
          </ol>
        </div>
      ))}
    </section>
  );
}

function EventSummary({
  event: e,
  now,
  clock,
  tankLitres,
}: {
  event: VehicleEvent;
  now: number;
  clock: WorkspaceClock;
  tankLitres: number | null;
}) {
  return (
    <>
      <span className="time">{timeText(e.startTime, clock)}</span>
      <span className="label">{EVENT_LABELS[e.type]}</span>
      <span className="muted duration">{duration((e.endTime ?? now) - e.startTime)}</span>
      {isFuelEvent(e.type) ? (
        <span className="muted event-detail" data-testid="fuel-change">
          {fuelChange(e, tankLitres)}
        </span>
      ) : e.type === "STOP" ? (
        <span className="muted address event-detail">{address(e)}</span>
      ) : (
        <span className="muted event-detail">
          {mph(e.averageSpeed)} avg · {milesFromMetres(e.distance)}
        </span>
      )}
    </>
  );
}

/** "+10.6 gal · 45% → 85%": the gallons only once the vehicle's tank is set. */
function fuelChange(e: VehicleEvent, tankLitres: number | null): string {
  const litres = fuelChangeLitres(e, tankLitres);
  const levels = `${percent(e.fuelFrom)} → ${percent(e.fuelTo)}`;
  if (litres === null) return levels;
  const sign = e.type === "REFUEL" ? "+" : "−";
  return `${sign}${litresToGallons(litres).toFixed(1)} gal · ${levels}`;
}

function address(e: VehicleEvent): string {
  const l = e.location;
  if (!l) return "-";
  const street = [l.streetNumber, l.street].filter(Boolean).join(" ");
  const parts = [street, l.city, [l.state, l.postalCode].filter(Boolean).join(" ")].filter(Boolean);
  return parts.length ? parts.join(", ") : `${l.latitude.toFixed(5)}, ${l.longitude.toFixed(5)}`;
}
