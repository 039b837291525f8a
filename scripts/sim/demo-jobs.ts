import type { JobBody } from "../../shared/jobs/jobs";
import type { Api } from "./api";
import { assignFleet, type SimBeacon } from "./fleet";
import { distanceMetres, type Polyline } from "./geo";

const MINUTE = 60_000;
/** Longer than the simulator parks at a route's end (scripts/sim/vehicle.ts: 1.5 to 5 minutes), not two stays. */
export const RETURN_VISIT_MINUTES = 6;

/** A 1×1 PNG: the demo's proof-of-delivery photo (the photo API checks the bytes are an image). */
const PROOF_PNG = Uint8Array.from(
  atob("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="),
  (c) => c.charCodeAt(0),
);

/** The demo's one customer with an address: told of their visits as the fleet drives. */
export const DEMO_CUSTOMER = {
  customerName: "Lakeview Dental",
  customerEmail: "frontdesk@lakeview-dental.example.com",
  customerPhone: "+13125550142",
};

/** What the demo workspace tells its customers: everything, the proof photo included. */
const DEMO_CUSTOMER_MESSAGES = {
  enRoute: true,
  arrivingMinutes: 10,
  completed: true,
  failed: true,
  showProofPhoto: true,
};

/** A Chicago vehicle of the simulator: the street route it drives out and back, and where it was last seen. */
export interface RouteVehicle {
  vehicleId: string;
  line: Polyline;
  lastSeen: { latitude: number; longitude: number } | null;
}

export interface DemoJob {
  body: JobBody;
  /** Completed at seeding, with a photo and the recipient's name. */
  completeWithProof?: boolean;
}

/** "HH:MM" in the workspace's zone, `offset` ms from now, clamped to the day (a window never crosses midnight). */
function clockAt(now: number, offset: number, timeZone: string) {
  const parts = new Intl.DateTimeFormat("en-GB", { timeZone, hour: "2-digit", minute: "2-digit", hourCycle: "h23" })
    .formatToParts(new Date(now + offset))
    .reduce<Record<string, string>>((acc, p) => ({ ...acc, [p.type]: p.value }), {});
  const day = (ms: number) => new Intl.DateTimeFormat("en-CA", { timeZone }).format(new Date(ms));
  if (day(now + offset) !== day(now)) return offset > 0 ? "23:59" : "00:00";
  return `${parts.hour}:${parts.minute}`;
}

const window = (now: number, timeZone: string, fromMin: number, toMin: number) => ({
  windowStart: clockAt(now, fromMin * MINUTE, timeZone),
  windowEnd: clockAt(now, toMin * MINUTE, timeZone),
});

/**
 * The day's jobs of the demo (issue 43), on the streets the simulator drives (scripts/sim/routes.ts)
 * so the workspace object sees arrivals within minutes of `npm start`: each Chicago vehicle gets a
 * stop at each end of its route (where it parks) and one half way, in the order it meets them; the
 * first one's far end has a window closing a minute from now (it will be late), and a stop earlier
 * in the day is done, with proof. The first one's delivery at its near end expects 6 minutes,
 * longer than the simulator parks (1.5 to 5): it leaves before it is done and comes back after the
 * far end, so the job shows two visits (issue 53). One job is left unassigned for the dispatch page.
 */
export function planDemoJobs(vehicles: RouteVehicle[], date: string, now: number, timeZone: string): DemoJob[] {
  const jobs: DemoJob[] = [];
  const at = (point: readonly [number, number], address: string) => ({
    latitude: point[0],
    longitude: point[1],
    address,
  });
  for (const [i, v] of vehicles.entries()) {
    const first = v.line[0]!;
    const last = v.line[v.line.length - 1]!;
    const middle = v.line[Math.floor(v.line.length / 2)]!;
    // The end it is farther from now is reached last: the late stop is there.
    const seen = v.lastSeen ?? { latitude: first[0], longitude: first[1] };
    const away = (p: readonly [number, number]) => distanceMetres(seen, { latitude: p[0], longitude: p[1] });
    const [near, far] = away(first) < away(last) ? [first, last] : [last, first];
    const base = { date, vehicleId: v.vehicleId, durationMinutes: 2, radiusMeters: 120 };
    jobs.push({
      body: {
        ...base,
        title: `Morning pickup #${4100 + i}`,
        location: at(near, "Depot dock"),
        ...window(now, timeZone, -180, -120),
        // The first one's customer is told it was done (the development outbox, docs/decisions/0085).
        ...(i === 0 && DEMO_CUSTOMER),
      },
      completeWithProof: true,
    });
    jobs.push({
      body: {
        ...base,
        title: i === 0 ? "Deliver parts #4200 (two trips)" : `Deliver parts #${4200 + i}`,
        location: at(near, "Customer A"),
        ...window(now, timeZone, -15, 60),
        ...(i === 0 && { durationMinutes: RETURN_VISIT_MINUTES }),
      },
    });
    jobs.push({
      body: {
        ...base,
        title: `Install #${4300 + i}`,
        location: at(middle, "Customer B"),
        ...window(now, timeZone, 0, 120),
      },
    });
    const closing = i === 0 ? window(now, timeZone, -30, 1) : window(now, timeZone, 10, 180);
    jobs.push({
      body: {
        ...base,
        title: i === 0 ? "Urgent delivery #4400 (window closing)" : `Service call #${4400 + i}`,
        location: at(far, "Customer C"),
        ...(i === 0 ? DEMO_CUSTOMER : { customerName: null }),
        ...closing,
      },
    });
  }
  const anywhere = vehicles[0]?.line[1];
  if (anywhere)
    jobs.push({
      body: {
        date,
        title: "Unplanned return #4500",
        location: at(anywhere, "Customer D"),
        ...window(now, timeZone, 60, 240),
      },
    });
  return jobs;
}

/** The demo's Chicago vehicles, as the simulator assigns them (the same function, so the same routes). */
export function chicagoVehicles(beacons: SimBeacon[], lastSeen: Map<string, { latitude: number; longitude: number }>) {
  return assignFleet(beacons, Date.now())
    .filter((a) => a.city.startsWith("Chicago"))
    .map((a) => ({
      vehicleId: a.beacon.vehicleId,
      line: a.vehicle.line,
      lastSeen: lastSeen.get(a.beacon.vehicleId) ?? null,
    }));
}

async function uploadProofPhoto(api: Api) {
  const res = await fetch(new URL("/api/photos", api.baseUrl), {
    method: "POST",
    headers: { Authorization: `Bearer ${api.token}`, "Content-Type": "image/png" },
    body: PROOF_PNG,
  });
  if (!res.ok) throw new Error(`proof photo: HTTP ${res.status}`);
  return ((await res.json()) as { id: string }).id;
}

/** Seeds today's jobs once a day (a workspace with any job today is left as it is), through the public API. */
export async function seedDemoJobs(api: Api, vehicles: RouteVehicle[], log: (line: string) => void, now = Date.now()) {
  const { timeZone } = await api.call<{ timeZone: string }>("GET", "workspace/preferences");
  const date = new Intl.DateTimeFormat("en-CA", { timeZone }).format(new Date(now));
  const existing = await api.call<{ jobs: unknown[] }>("GET", `jobs?date=${date}`);
  if (existing.jobs.length > 0 || vehicles.length === 0) return;
  const planned = planDemoJobs(vehicles, date, now, timeZone);
  // Before the jobs: the first one done below is a message to the development outbox.
  await api.call("PATCH", "workspace/preferences", { customerMessages: DEMO_CUSTOMER_MESSAGES });
  for (const job of planned) {
    const { id } = await api.call<{ id: string }>("POST", "jobs", job.body);
    if (!job.completeWithProof) continue;
    const photoId = await uploadProofPhoto(api);
    await api.call("POST", `jobs/${id}/complete`, {
      photoIds: [photoId],
      recipientName: "J. Rivera (front desk)",
      note: "Left at the loading dock",
    });
  }
  log(
    `Planned ${planned.length} jobs for ${date} along the Chicago routes (one closing its window, ${vehicles.length} done with proof; ${DEMO_CUSTOMER.customerName} told by e-mail, see /api/dev/outbox)`,
  );
}
