import type { HeadersFunction, MetaFunction } from "@remix-run/cloudflare";
import { useParams, useRouteLoaderData } from "@remix-run/react";
import { lazy, Suspense, useEffect, useState } from "react";
import { SHARE_POLL_MS } from "../../shared/fleet/shares";
import { defaultHourCycle, type WorkspaceClock } from "../../shared/units/clock";
import { deviceTimeZone } from "../reports/use-workspace-time-zone";
import { customerStory, customerWindow, zoneLabel, type CustomerStory } from "../jobs/track-words";
import { trackedJobSchema, type TrackedJob } from "../jobs/tracked-job";
import { useNow } from "../vehicles/use-now";
import type { loader as rootLoader } from "../root";

/** Kept out of search engines, as the vehicle share page. */
export const meta: MetaFunction = () => [{ title: "Your delivery" }, { name: "robots", content: "noindex, nofollow" }];
export const headers: HeadersFunction = () => ({ "X-Robots-Tag": "noindex, nofollow" });

const TrackMap = lazy(() => import("../jobs/track-map"));

type State = { kind: "loading" } | { kind: "live"; tracked: TrackedJob } | { kind: "ended" };

/**
 * The customer's page for one job (issues 43, 53): no sign-in; what is happening in their words
 * ("On the way", "Arriving in about 8 minutes", "Delivered at 14:32"), the window, every time on
 * the sender's clock with its zone named once, the sending workspace named; and, while the visit
 * is still to come, a map centred on their address with the vehicle once it is on its way. Read
 * from GET /api/track/{token} as often as the vehicle share page reads its own. The words come
 * first: the map's code loads only once there is a map to show. When the link has ended (30
 * minutes after the job is completed, or ended by the workspace) the server answers 404 or 410 and
 * the page says so plainly, and stops asking.
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
  const clock = tracked ? senderClock(tracked) : null;
  const story = tracked && clock ? customerStory(tracked.job, now, clock, tracked.sender ?? "") : null;
  const mapShown = Boolean(tracked?.destination && story && !story.over);
  return (
    <main
      className={`track-page${mapShown ? " with-map" : ""}`}
      data-testid="track-page"
      data-status={tracked?.job.status}
      data-destination={tracked?.destination ? `${tracked.destination.lat},${tracked.destination.lng}` : undefined}
      data-vehicle={
        tracked?.vehicle?.position ? `${tracked.vehicle.position.lat},${tracked.vehicle.position.lng}` : undefined
      }
    >
      <header className="track-head">
        {tracked?.sender ? (
          <p className="track-sender" data-testid="track-sender">
            From <strong>{tracked.sender}</strong>
          </p>
        ) : null}
        <h1 data-testid="track-headline">{story?.headline ?? "Loading…"}</h1>
        {tracked && clock && story ? <TrackStory tracked={tracked} clock={clock} story={story} now={now} /> : null}
      </header>
      {mapShown ? (
        <div className="track-map" data-testid="track-map">
          <Suspense fallback={null}>
            <TrackMap
              token={mapToken}
              destination={tracked!.destination!}
              vehicle={tracked!.vehicle?.position ?? null}
            />
          </Suspense>
        </div>
      ) : null}
    </main>
  );
}

/**
 * The sender's clock, with the reader taken to be on it: each time is written bare and the zone
 * named once under them (ADR 0086), so the ETA and the window read in one zone whatever the phone's.
 */
function senderClock(tracked: TrackedJob): WorkspaceClock {
  const timeZone = tracked.clock?.timeZone ?? deviceTimeZone();
  return { timeZone, hourCycle: tracked.clock?.hourCycle ?? defaultHourCycle(timeZone), readerTimeZone: timeZone };
}

function TrackStory({
  tracked,
  clock,
  story,
  now,
}: {
  tracked: TrackedJob;
  clock: WorkspaceClock;
  story: CustomerStory;
  now: number;
}) {
  const { job, vehicle, destination } = tracked;
  const window = customerWindow(job, clock);
  return (
    <>
      {story.lead ? (
        <p className="track-lead" data-testid="track-eta">
          {story.lead}
        </p>
      ) : null}
      {story.detail ? (
        <p className="track-detail" data-testid="track-detail">
          {story.detail}
        </p>
      ) : null}
      <dl className="track-facts">
        <div>
          <dt>Your visit</dt>
          <dd data-testid="track-title">{job.title}</dd>
        </div>
        {window && !story.over ? (
          <div>
            <dt>Your window</dt>
            <dd data-testid="track-window">{window}</dd>
          </div>
        ) : null}
        {destination?.address ? (
          <div>
            <dt>Where</dt>
            <dd>{destination.address}</dd>
          </div>
        ) : null}
        {vehicle && !story.over ? (
          <div>
            <dt>Vehicle</dt>
            <dd data-testid="track-vehicle">{vehicle.name}</dd>
          </div>
        ) : null}
      </dl>
      <p className="muted track-zone" data-testid="track-zone">
        Times in {zoneLabel(clock, job.date, now)}
      </p>
    </>
  );
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
