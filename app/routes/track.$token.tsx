import type { HeadersFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData, useParams, useRouteLoaderData } from "@remix-run/react";
import { lazy, Suspense, useEffect, useRef, useState } from "react";
import { SHARE_POLL_MS } from "../../shared/fleet/shares";
import { defaultHourCycle, type WorkspaceClock } from "../../shared/units/clock";
import { deviceTimeZone } from "../reports/use-workspace-time-zone";
import { customerStory, customerWindow, zoneLabel, type CustomerStory } from "../jobs/track-words";
import { trackedJobSchema, type TrackedJob } from "../jobs/tracked-job";
import type { loader as rootLoader } from "../root";

/** Kept out of search engines, as the vehicle share page. */
export const meta: MetaFunction = () => [{ title: "Your delivery" }, { name: "robots", content: "noindex, nofollow" }];
/** The HTML carries this customer's live data: never kept by the edge or the browser. */
export const headers: HeadersFunction = () => ({
  "X-Robots-Tag": "noindex, nofollow",
  "Cache-Control": "private, no-store",
});
/** Rendered outside the app's session and store (app/root.tsx): a customer has no account. */
export const handle = { standalone: true };

type PublicApi = (path: `/${string}`) => Promise<Response>;

/**
 * The link's answer read inside the Worker (worker/index.ts `publicApi`) while the HTML is made,
 * so a phone reads the ETA before the app's code arrives (issue 53: < 2.5 s on a throttled phone).
 * `now` is the server's, so the first render in the browser says exactly what the HTML said.
 */
export async function loader({ params, context }: LoaderFunctionArgs) {
  const now = Date.now();
  const read = (context as { publicApi?: PublicApi }).publicApi;
  const token = params.token ?? "";
  if (!read || !token || token.length > 100) return { answer: null, ended: false, now };
  try {
    const res = await read(`/track/${encodeURIComponent(token)}`);
    if (res.ok) return { answer: (await res.json()) as unknown, ended: false, now };
    return { answer: null, ended: res.status === 404 || res.status === 410, now };
  } catch {
    // The page asks again from the browser.
    return { answer: null, ended: false, now };
  }
}

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
  const first = useLoaderData<typeof loader>();
  const state = useTrackedJob(token, first);
  const now = useClock(first.now);
  const hydrated = useHydrated();
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
        {tracked?.proofPhotoUrl ? (
          <figure className="track-proof" data-testid="track-proof-photo">
            <img src={tracked.proofPhotoUrl} alt="Taken at the delivery" loading="lazy" />
            <figcaption className="muted">Taken at the delivery</figcaption>
          </figure>
        ) : null}
      </header>
      {mapShown && hydrated ? (
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
  // The zone is named wherever a time is shown: not under "This visit was cancelled".
  const showsTime = !story.over || job.status === "completed";
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
      {showsTime ? (
        <p className="muted track-zone" data-testid="track-zone">
          Times in {zoneLabel(clock, job.date, now)}
        </p>
      ) : null}
    </>
  );
}

/** False on the server and in the first render in the browser: the map is the browser's alone. */
function useHydrated(): boolean {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return hydrated;
}

/** What the server rendered, as the page's first state. */
function firstState(first: { answer: unknown; ended: boolean }): State {
  if (first.ended) return { kind: "ended" };
  const parsed = trackedJobSchema.safeParse(first.answer);
  return parsed.success ? { kind: "live", tracked: parsed.data } : { kind: "loading" };
}

/** Now, ticking every second from the server's instant (so hydration renders what the HTML said). */
function useClock(serverNow: number): number {
  const [now, setNow] = useState(serverNow);
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  return now;
}

function useTrackedJob(token: string, first: { answer: unknown; ended: boolean }): State {
  const [state, setState] = useState<State>(() => firstState(first));
  // The first state only decides when the first poll goes; later states do not restart polling.
  const rendered = useRef(state.kind);
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
    // Rendered with the server's answer: the next one is due a poll later; else ask at once.
    if (rendered.current === "ended") return;
    if (rendered.current === "live") timer = setTimeout(() => void poll(), SHARE_POLL_MS);
    else void poll();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [token]);
  return state;
}
