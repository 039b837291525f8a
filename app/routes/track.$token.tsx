import type { HeadersFunction, MetaFunction } from "@remix-run/cloudflare";
import { useParams, useRouteLoaderData } from "@remix-run/react";
import { useEffect, useState } from "react";
import { SHARE_POLL_MS } from "../../shared/fleet/shares";
import { MapHost } from "../map/map-host";
import { SharedVehicleLayer } from "../map/shared-vehicle-layer";
import { defaultHourCycle, timeText, windowText, type WorkspaceClock } from "../../shared/units/clock";
import { deviceTimeZone } from "../reports/use-workspace-time-zone";
import { isFinished, jobStatusWords } from "../jobs/status";
import { trackedJobSchema, type TrackedJob } from "../jobs/tracked-job";
import { duration } from "../vehicles/format";
import { useNow } from "../vehicles/use-now";
import type { loader as rootLoader } from "../root";

/** Kept out of search engines, as the vehicle share page. */
export const meta: MetaFunction = () => [{ title: "Your delivery" }, { name: "robots", content: "noindex, nofollow" }];
export const headers: HeadersFunction = () => ({ "X-Robots-Tag": "noindex, nofollow" });

type State = { kind: "loading" } | { kind: "live"; tracked: TrackedJob } | { kind: "ended" };

/**
 * The customer's page for one job (issue 43): no sign-in; the vehicle coming to them on the map,
 * the ETA, the status and the window, read from GET /api/track/{token} as often as the vehicle
 * share page reads its own (app/routes/share.$token.tsx). When the link has ended (30 minutes
 * after the job is completed, or ended by the workspace) the server answers 404 or 410 and the
 * page says so plainly, and stops asking.
 */
export default function TrackPage() {
  const token = useParams().token ?? "";
  const mapToken = useRouteLoaderData<typeof rootLoader>("root")?.mapboxToken ?? "";
  const state = useTrackedJob(token);
  const now = useNow(1000);
  if (state.kind === "ended") {
    return (
      <main className="share-ended" data-testid="track-ended">
        <h1>This tracking link has ended</h1>
        <p className="muted">
          The visit it followed is over, or the link was withdrawn. Ask the sender if you need a new one.
        </p>
      </main>
    );
  }
  const tracked = state.kind === "live" ? state.tracked : null;
  const position = tracked?.vehicle?.position ?? null;
  return (
    <main className="share-page track-page" data-testid="track-page">
      <header>
        {tracked?.sender ? (
          // The title is what the workspace wrote, not the product's words (issue 51).
          <p className="muted" data-testid="track-sender">
            Sent by {tracked.sender}, in their words:
          </p>
        ) : null}
        <h1>{tracked?.job.title ?? "Loading…"}</h1>
        {tracked ? <TrackFacts tracked={tracked} now={now} /> : null}
        {tracked?.proofPhotoUrl ? (
          <figure className="track-proof" data-testid="track-proof-photo">
            <img src={tracked.proofPhotoUrl} alt="Taken at the delivery" loading="lazy" />
            <figcaption className="muted">Taken at the delivery</figcaption>
          </figure>
        ) : null}
      </header>
      <div className="share-map">
        <MapHost token={mapToken} visible>
          <SharedVehicleLayer position={position} />
        </MapHost>
      </div>
    </main>
  );
}

/**
 * The sender's clock: the ETA and the window are written on it, so they read alike ("3:19 PM" beside
 * "2:00 PM–4:00 PM"), with the zone named when the customer's device is in another.
 */
function senderClock(tracked: TrackedJob): WorkspaceClock {
  const readerTimeZone = deviceTimeZone();
  const timeZone = tracked.clock?.timeZone ?? readerTimeZone;
  return { timeZone, hourCycle: tracked.clock?.hourCycle ?? defaultHourCycle(timeZone), readerTimeZone };
}

function TrackFacts({ tracked, now }: { tracked: TrackedJob; now: number }) {
  const { job, vehicle } = tracked;
  const clock = senderClock(tracked);
  const window = job.window ? windowText(job.window.start, job.window.end, clock, job.date ?? undefined) : "";
  return (
    <dl className="track-facts">
      <div>
        <dt>Status</dt>
        <dd data-testid="track-status">{jobStatusWords(job.status)}</dd>
      </div>
      {!isFinished(job.status) && job.status !== "arrived" ? (
        <div>
          <dt>Expected</dt>
          <dd data-testid="track-eta">{etaText(job.eta ?? null, now, clock)}</dd>
        </div>
      ) : null}
      {window ? (
        <div>
          <dt>Your window</dt>
          <dd data-testid="track-window">{window}</dd>
        </div>
      ) : null}
      <div>
        <dt>Vehicle</dt>
        <dd>
          {vehicle ? `${vehicle.name}${vehicle.position ? "" : " (position not known yet)"}` : "Not assigned yet"}
        </dd>
      </div>
    </dl>
  );
}

function etaText(eta: number | null, now: number, clock: WorkspaceClock): string {
  if (!eta) return "Not known yet";
  const left = eta - now;
  const at = timeText(eta, clock);
  return left < 60_000 ? `${at} (any minute now)` : `${at} (in about ${duration(left)})`;
}

function useTrackedJob(token: string): State {
  const [state, setState] = useState<State>({ kind: "loading" });
  useEffect(() => {
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const poll = async () => {
      try {
        const res = await fetch(`/api/track/${encodeURIComponent(token)}`, { cache: "no-store" });
        if (stopped) return;
        if (res.ok) setState({ kind: "live", tracked: trackedJobSchema.parse(await res.json()) });
        else if (res.status === 404 || res.status === 410) {
          setState({ kind: "ended" });
          return;
        }
      } catch {
        // Offline for a moment, or an answer this page cannot read: keep what is shown and ask again.
      }
      if (!stopped) timer = setTimeout(() => void poll(), SHARE_POLL_MS);
    };
    void poll();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [token]);
  return state;
}
