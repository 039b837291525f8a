import { pushRequest } from "../../shared/sync/sync-requests";
import { VEHICLE_PREFIX, type Vehicle } from "../../shared/fleet/vehicle";
import { Api, ApiError, type ServerBeacon } from "./api";
import { DEMO_ACCOUNT, DEMO_FLEET, planProfiles } from "./demo-fleet";
import { seedDemoIssues } from "./demo-issues";
import { seedPlacesAndRules, seedSecondMember } from "./demo-extras";
import { seedDemoMaintenance } from "./demo-maintenance";
import { seedDemoShop } from "./demo-shop";
import { seedDemoFuel } from "./demo-fuel";
import { seedOvernightFuelDrop } from "./demo-fuel-drop";
import { seedDemoCosts } from "./demo-costs";
import { seedDemoHistory } from "./demo-history";
import { chicagoVehicles, seedDemoJobs } from "./demo-jobs";
import { resumeFrom } from "./resume";
import { assignFleet } from "./fleet";

/**
 * Seeds the demo through the public API, once: signs in to the demo account (signing up the first
 * time), finds or creates its "Demo Fleet" workspace, orders the missing beacons, and gives each
 * vehicle its profile (details by a sync push of `updateVehicle`, driver and type through the
 * development-only /api/dev/vehicles/profile). Every step checks first, so running it again on a
 * seeded database changes nothing.
 */
export async function seedDemo(
  baseUrl: string,
  log: (line: string) => void = () => {},
  savedToken: string | null = null,
) {
  const { email, password, workspace: name } = DEMO_ACCOUNT;
  // A session kept from the last run: restarting `npm start` often must not trip the sign-in limit.
  const api = new Api(baseUrl, savedToken);
  if (
    savedToken &&
    (await api.me().then(
      () => true,
      () => false,
    ))
  )
    return seedWorkspace(api, name, log);
  api.token = null;
  try {
    await api.signIn(email, password);
  } catch (e) {
    if (!(e instanceof ApiError) || e.status !== 401) throw e;
    try {
      await api.signUp(email, password);
      log(`Created the demo account ${email}`);
    } catch (signUpError) {
      if (signUpError instanceof ApiError && signUpError.status === 409) {
        throw new Error(`${email} exists with another password: reset it, or start with a fresh .wrangler/state`);
      }
      throw signUpError;
    }
  }

  return seedWorkspace(api, name, log);
}

/**
 * The demo fleet's zone (issue 52): its twelve vehicles drive in Chicago and Austin (six, Central
 * time), New York (three) and San Francisco (three), so the workspace keeps Central time, the
 * majority's, and reads a 12-hour clock as its US drivers do.
 */
export const DEMO_TIME_ZONE = "America/Chicago";

/** A demo workspace seeded before it had a zone (UTC, the default) moves to the fleet's; one set since is left. */
async function moveOutOfUtc(api: Api, log: (line: string) => void) {
  const { timeZone } = await api.call<{ timeZone: string }>("GET", "workspace/preferences");
  if (timeZone !== "UTC") return;
  await api.call("PATCH", "workspace/preferences", { timeZone: DEMO_TIME_ZONE });
  log(`Set the workspace's time zone to ${DEMO_TIME_ZONE}, its fleet's`);
}

async function seedWorkspace(api: Api, name: string, log: (line: string) => void) {
  const me = await api.me();
  let workspaceId = me.workspaces.find((w) => w.name === name)?.id;
  if (!workspaceId) {
    workspaceId = (await api.call<{ id: string }>("POST", "workspaces", { name, timeZone: DEMO_TIME_ZONE })).id;
    log(`Created the workspace "${name}"`);
  }
  await api.useWorkspace(workspaceId);
  await moveOutOfUtc(api, log);

  let beacons = await api.beacons();
  if (beacons.length < DEMO_FLEET.length) {
    await api.call("POST", "beacons/order", { workspaceId, count: DEMO_FLEET.length - beacons.length });
    beacons = await api.beacons();
    log(`Ordered ${DEMO_FLEET.length} beacons`);
  }

  const snapshot = await api.snapshot();
  const tracked = new Set(beacons.map((b) => b.vehicleId));
  const vehicles = [...snapshot.entries()]
    .filter(([key]) => key.startsWith(VEHICLE_PREFIX))
    .map(([, value]) => value as Vehicle)
    .filter((v) => tracked.has(v.id))
    .sort((a, b) => a.name.localeCompare(b.name, "en", { numeric: true }));
  const plan = planProfiles(vehicles);
  if (plan.details.length) {
    await api.call(
      "POST",
      "sync/push",
      pushRequest(
        plan.details.map((args) => ({ name: "updateVehicle", args })),
        { profileID: "demo" },
      ),
    );
  }
  if (plan.extras.length) {
    try {
      await api.call("POST", "dev/vehicles/profile", { vehicles: plan.extras });
    } catch (e) {
      // Only development Workers have this route; the fleet still drives without drivers and types.
      if (!(e instanceof ApiError && e.status === 404)) throw e;
      log("This Worker is not in development mode: drivers and vehicle types left empty");
    }
  }
  if (plan.details.length || plan.extras.length)
    log(`Gave ${Math.max(plan.details.length, plan.extras.length)} vehicles their details`);
  await seedDemoIssues(api, vehicles, log);
  await seedPlacesAndRules(api, log);
  await seedSecondMember(api, workspaceId, DEMO_ACCOUNT.password, log);
  await seedDemoMaintenance(api, vehicles, log);
  await seedDemoShop(api, workspaceId, vehicles, log);
  const starts = new Map(
    assignFleet(beacons as ServerBeacon[], Date.now(), { resume: resumeFrom(snapshot) }).map((a) => [
      a.beacon.vehicleId,
      a.vehicle.odometer,
    ]),
  );
  await seedDemoFuel(api, vehicles, log, (vehicleId) => starts.get(vehicleId));
  // Where the simulator picks up the vehicle whose night it sent.
  const overnight = await seedOvernightFuelDrop(api, beacons as ServerBeacon[], vehicles, log);
  await seedDemoCosts(api, vehicles, log);
  await seedDemoHistory(api, vehicles, log);
  await seedDemoJobs(api, chicagoVehicles(beacons as ServerBeacon[], resumeFrom(snapshot)), log);

  return { api, workspaceId, beacons: beacons as ServerBeacon[], snapshot, overnight, vehicles };
}
