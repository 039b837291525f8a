import type { HeadersFunction, MetaFunction } from "@remix-run/cloudflare";
import { useParams, useRouteLoaderData } from "@remix-run/react";
import { useEffect, useState } from "react";
import type { ApiErrorBody } from "../../shared/http/api";
import {
  SHARE_ENDED,
  SHARE_EXPIRED,
  SHARE_POLL_MS,
  sharedVehicleSchema,
  type SharedVehicle,
} from "../../shared/fleet/shares";
import { MapHost } from "../map/map-host";
import { SharedVehicleLayer } from "../map/shared-vehicle-layer";
import { dateTimeText, defaultHourCycle, timeText, type WorkspaceClock } from "../../shared/units/clock";
import { deviceTimeZone } from "../reports/use-workspace-time-zone";
import { duration } from "../vehicles/format";
import { useNow } from "../vehicles/use-now";
import type { loader as rootLoader } from "../root";

/** Kept out of search engines: the page itself and every answer it reads say so. */
export const meta: MetaFunction = () => [{ title: "Live location" }, { name: "robots", content: "noindex, nofollow" }];
export const headers: HeadersFunction = () => ({ "X-Robots-Tag": "noindex, nofollow" });

type State =
  { kind: "loading" } | { kind: "live"; share: SharedVehicle } | { kind: "gone"; message: string; code: string };

/**
 * The public live-share page (DESIGN.md "Sharing and integrations"): no sign-in; the vehicle's
 * name, position on the map and when it was last seen, read from GET /api/share/{token} every
 * SHARE_POLL_MS (so at most that much behind the server). Nothing else of the workspace reaches
 * it. A link that expires or is ended says so at the next poll, and polling stops.
 */
export default function SharePage() {
  const token = useParams().token ?? "";
  const mapToken = useRouteLoaderData<typeof rootLoader>("root")?.mapboxToken ?? "";
  const state = useSharedVehicle(token);
  const now = useNow(1000);
  if (state.kind === "gone") {
    return (
      <main className="share-ended" data-testid="share-gone" data-code={state.code}>
        <h1>{state.message}</h1>
        <p className="muted">Ask whoever sent it for a new link.</p>
      </main>
    );
  }
  const share = state.kind === "live" ? state.share : null;
  const position = share?.position ?? null;
  return (
    <main
      className="share-page"
      data-testid="share-page"
      data-position={position ? `${position.lat},${position.lng}` : ""}
    >
      <header>
        <h1 data-testid="share-vehicle">{share?.vehicle.name ?? "Loading…"}</h1>
        <p className="muted" data-testid="share-last-seen">
          {share ? lastSeen(position, now) : ""}
          {share ? ` · link ends ${dateTimeText(share.expiresAt, viewerClock())}` : ""}
        </p>
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
 * The vehicle share link's answer names no workspace, not even its zone (it is served by the
 * workspace's object without a D1 read): this page writes times on the viewer's own clock, in the
 * one date format and their zone's country's hour cycle (docs/decisions/0079).
 */
function viewerClock(): WorkspaceClock {
  const timeZone = deviceTimeZone();
  return { timeZone, hourCycle: defaultHourCycle(timeZone), readerTimeZone: timeZone };
}

function lastSeen(position: SharedVehicle["position"], now: number) {
  if (!position) return "No position reported yet";
  const ago = now - position.at < 60_000 ? "just now" : `${duration(now - position.at)} ago`;
  return `Last seen ${ago} (${timeText(position.at, viewerClock())}) · ${Math.round(position.speedMph)} mph`;
}

const GONE: Record<string, string> = { [SHARE_EXPIRED]: "This link has expired", [SHARE_ENDED]: "This link was ended" };

function useSharedVehicle(token: string): State {
  const [state, setState] = useState<State>({ kind: "loading" });
  useEffect(() => {
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const poll = async () => {
      try {
        const res = await fetch(`/api/share/${encodeURIComponent(token)}`, { cache: "no-store" });
        if (stopped) return;
        if (res.ok) setState({ kind: "live", share: sharedVehicleSchema.parse(await res.json()) });
        else if (res.status === 404 || res.status === 410) {
          const code = ((await res.json().catch(() => null)) as ApiErrorBody | null)?.error.code ?? "not_found";
          setState({ kind: "gone", code, message: GONE[code] ?? "This link does not exist" });
          return;
        }
      } catch {
        // Offline for a moment: keep what is shown and ask again.
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
