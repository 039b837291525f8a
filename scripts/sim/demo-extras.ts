import { Api, ApiError } from "./api";
import { cities } from "./routes";

/**
 * What makes the demo show the product alive (issue 33): places around the depots, alert rules
 * the simulator's driving sets off, and a second member so /team shows roles. Seeded through the
 * public API like the rest of the demo; each part is skipped when the workspace already has it.
 */

/** The second demo member: signs in with the same password as the demo account. */
export const DEMO_MEMBER = { email: "dispatcher@fleet.example", role: "member" as const };

/** Every vehicle starts its route at a depot and comes back to it: a circle there sees it leave and return. */
const DEPOT_RADIUS_M = 300;
/** Half the side of the square yard at the far end of Chicago's first route, in degrees. */
const YARD_HALF_SIDE = 0.0025;

export function demoPlaces() {
  const depots = cities.map((city) => {
    const [lat, lng] = city.routes[0]!.line[0]!;
    return {
      name: `${city.name.split(",")[0]} depot`,
      geometry: { type: "Circle" as const, center: [lng, lat] as [number, number], radius: DEPOT_RADIUS_M },
    };
  });
  const chicago = cities[0]!.routes[0]!.line;
  const [lat, lng] = chicago[chicago.length - 1]!;
  const d = YARD_HALF_SIDE;
  const yard = {
    name: "Wicker Park yard",
    geometry: {
      type: "Polygon" as const,
      coordinates: [
        [
          [lng - d, lat - d],
          [lng + d, lat - d],
          [lng + d, lat + d],
          [lng - d, lat + d],
        ] as [number, number][],
      ],
    },
  };
  return [...depots, yard];
}

/**
 * Rules the simulator sets off within minutes (scripts/sim/vehicle.ts: cruising at 9 to 15 m/s,
 * idling 200 to 360 s at some stops, every vehicle back at its depot after its trip).
 */
export const DEMO_RULES = [
  { type: "place_enter", placeId: null, vehicleIds: null },
  { type: "place_exit", placeId: null, vehicleIds: null },
  { type: "speeding", speedMph: 30, minSeconds: 10, vehicleIds: null },
  { type: "idling", minutes: 3, vehicleIds: null },
  // The demo's jobs (scripts/sim/demo-jobs.ts) have a window closing a minute after seeding.
  { type: "job_late", vehicleIds: null },
];

export async function seedPlacesAndRules(api: Api, log: (line: string) => void) {
  const { places } = await api.call<{ places: unknown[] }>("GET", "places");
  if (places.length === 0) {
    for (const place of demoPlaces()) await api.call("POST", "places", place);
    log(`Added ${demoPlaces().length} places around the depots`);
  }
  const { rules } = await api.call<{ rules: unknown[] }>("GET", "alert-rules");
  if (rules.length === 0) {
    for (const rule of DEMO_RULES) await api.call("POST", "alert-rules", rule);
    log(`Added ${DEMO_RULES.length} alert rules: enter and leave a place, speeding, idling, a job running late`);
  }
}

/**
 * The second member: signed up, invited by the demo account, and joined through the invite link
 * the (development) outbox holds, as a person would from the e-mail.
 */
export async function seedSecondMember(owner: Api, workspaceId: string, password: string, log: (line: string) => void) {
  const { members } = await owner.call<{ members: { email: string }[] }>("GET", `workspaces/${workspaceId}/members`);
  if (members.some((m) => m.email === DEMO_MEMBER.email)) return;
  const member = new Api(owner.baseUrl);
  try {
    await member.signIn(DEMO_MEMBER.email, password);
  } catch (e) {
    if (!(e instanceof ApiError && e.status === 401)) throw e;
    await member.signUp(DEMO_MEMBER.email, password);
  }
  await owner.call("POST", `workspaces/${workspaceId}/invites`, { email: DEMO_MEMBER.email, role: DEMO_MEMBER.role });
  let mail: { text: string };
  try {
    mail = await owner.call<{ text: string }>("GET", `dev/outbox?to=${encodeURIComponent(DEMO_MEMBER.email)}`);
  } catch (e) {
    if (!(e instanceof ApiError && e.status === 404)) throw e;
    log(`Invited ${DEMO_MEMBER.email}; this Worker keeps no outbox, so the invite waits to be accepted`);
    return;
  }
  const token = /\/invite\/([\w-]+)/.exec(mail.text)?.[1];
  if (!token) throw new Error("The invite e-mail has no link");
  await member.call("POST", "invites/accept", { token });
  log(`Added the member ${DEMO_MEMBER.email} (role: ${DEMO_MEMBER.role})`);
}
