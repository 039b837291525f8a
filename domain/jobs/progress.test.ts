import { describe, expect, it } from "vitest";
import commute from "../../worker/fleet/fixtures/commute";
import longIdle from "../../worker/fleet/fixtures/long-idle";
import { parseOsmandParams } from "../devices/osmand";
import type { PolygonGeometry } from "../../shared/places/places";
import { placeCentre } from "../../shared/jobs/jobs";
import { jobArea } from "./area";
import { closingSpeed } from "./eta";
import { NO_PROGRESS, type JobProgress, type PlannedJob } from "./planned-job";
import {
  advanceJobs,
  ETA_STEP_MS,
  initialJobsState,
  type JobFix,
  type JobsState,
  type JobTransition,
} from "./progress";

/** A recorded CSV track through the real OsmAnd parser. */
function readFixes(csv: string): JobFix[] {
  const [header, ...lines] = csv.trim().split("\n");
  const columns = header!.split(",");
  return lines.map((line) => {
    const params = Object.fromEntries(line.split(",").map((v, i) => [columns[i]!, v]));
    const r = parseOsmandParams({ id: "recorded", timestamp: params.time ?? params.timestamp!, ...params });
    return { time: r.time, latitude: r.latitude, longitude: r.longitude, speed: r.speed, accuracy: r.accuracy };
  });
}

const job = (
  id: string,
  sequence: number,
  latitude: number,
  longitude: number,
  more: Partial<PlannedJob> = {},
): PlannedJob => ({
  ...NO_PROGRESS,
  id,
  number: sequence,
  title: id,
  area: null,
  sequence,
  latitude,
  longitude,
  radiusMeters: 100,
  durationMinutes: 5,
  windowStart: null,
  windowEnd: null,
  ...more,
});

/** Replays a track against a plan, the way the object does: each fix's written rows kept as the job rows hold them. */
function replay(fixes: JobFix[], plan: PlannedJob[]) {
  let state: JobsState = initialJobsState("2026-10-13");
  const rows = new Map<string, JobProgress>();
  const written: (JobProgress & { id: string; time: number })[] = [];
  const transitions: JobTransition[] = [];
  for (const fix of fixes) {
    const step = advanceJobs(state, fix, "2026-10-13", plan);
    state = JSON.parse(JSON.stringify(step.state)) as JobsState; // what the object persists
    for (const row of step.changed) {
      rows.set(row.id, row);
      written.push({ ...row, time: fix.time });
    }
    transitions.push(...step.transitions);
  }
  return { rows, written, transitions, state };
}

const at = (iso: string) => Date.parse(iso);
// The commute's coffee shop on Halsted (parked 13:04:20 to 13:11:50) and its end at Ashland & North (13:18:10 on).
const COFFEE = [41.88339, -87.64741] as const;
const ASHLAND_NORTH = [41.9104, -87.6676] as const;

describe("job status on a recorded commute", () => {
  const fixes = readFixes(commute);

  it("goes en route when the vehicle starts its day, arrives, completes after the dwell, and the next stop follows", () => {
    const { rows, transitions } = replay(fixes, [job("coffee", 1, ...COFFEE), job("home", 2, ...ASHLAND_NORTH)]);
    expect(transitions.map((t) => [t.jobId, t.kind, new Date(t.at).toISOString()])).toEqual([
      ["coffee", "en_route", "2026-10-13T13:01:00.000Z"],
      ["coffee", "arrived", "2026-10-13T13:04:20.000Z"],
      ["coffee", "completed", "2026-10-13T13:12:00.000Z"],
      ["home", "en_route", "2026-10-13T13:12:00.000Z"],
      ["home", "arrived", "2026-10-13T13:18:10.000Z"],
    ]);
    expect(rows.get("coffee")).toMatchObject({
      status: "completed",
      arrivedAt: at("2026-10-13T13:04:20Z"),
      departedAt: at("2026-10-13T13:12:00Z"),
      completedAt: at("2026-10-13T13:12:00Z"),
      eta: null,
    });
    expect(rows.get("home")).toMatchObject({ status: "arrived", arrivedAt: at("2026-10-13T13:18:10Z"), eta: null });
  });

  it("skips a stop the vehicle passed at speed outside its radius once it reaches a later one, and never arrives there", () => {
    // 210 m east of Halsted at Grand, passed at about 12 m/s; then the home stop is reached
    const passed = job("passed", 2, 41.8918, -87.645, { radiusMeters: 150 });
    const { rows, transitions } = replay(fixes, [
      job("coffee", 1, ...COFFEE),
      passed,
      job("home", 3, ...ASHLAND_NORTH),
    ]);
    expect(transitions.filter((t) => t.jobId === "passed").map((t) => t.kind)).toEqual(["en_route", "skipped"]);
    expect(rows.get("passed")).toMatchObject({ status: "skipped", arrivedAt: null, eta: null });
    // Home was not the stop it headed for: its arrival counts once it has stayed three minutes (longer
    // than a red light), stamped when it came; the stop passed is skipped then.
    expect(rows.get("home")).toMatchObject({ status: "arrived", arrivedAt: at("2026-10-13T13:18:10Z") });
    expect(transitions.find((t) => t.jobId === "passed" && t.kind === "skipped")!.at).toBe(at("2026-10-13T13:21:20Z"));
  });

  it("does not arrive at a later stop it drives through at speed, nor skip the one it is heading for", () => {
    // Halsted & Grand lies on the way home, passed at about 12 m/s
    const { rows, transitions } = replay(fixes, [job("home", 1, ...ASHLAND_NORTH), job("grand", 2, 41.8918, -87.6475)]);
    expect(transitions.filter((t) => t.jobId === "grand")).toEqual([]);
    expect(rows.get("home")).toMatchObject({ status: "arrived", arrivedAt: at("2026-10-13T13:18:10Z") });
  });

  it("keeps a stop left before its expected duration arrived (for the driver to mark done), not completed or skipped", () => {
    const { rows } = replay(fixes, [
      job("coffee", 1, ...COFFEE, { durationMinutes: 15 }),
      job("home", 2, ...ASHLAND_NORTH),
    ]);
    expect(rows.get("coffee")).toMatchObject({
      status: "arrived",
      arrivedAt: at("2026-10-13T13:04:20Z"),
      departedAt: at("2026-10-13T13:12:00Z"),
      completedAt: null,
    });
    expect(rows.get("home")).toMatchObject({ status: "arrived" });
  });

  it("leaves a job the driver already marked done alone", () => {
    const done = job("coffee", 1, ...COFFEE, { status: "completed", completedAt: at("2026-10-13T13:00:00Z") });
    const { rows, transitions } = replay(fixes, [done, job("home", 2, ...ASHLAND_NORTH)]);
    expect(rows.has("coffee")).toBe(false);
    expect(transitions.map((t) => `${t.jobId} ${t.kind}`)).toEqual(["home en_route", "home arrived"]);
  });
});

/** A job at a polygon place, heading for the place's centre (the mean vertex) as jobs at places do. */
function atPolygon(id: string, sequence: number, corners: [west: number, south: number, east: number, north: number]) {
  const [w, s, e, n] = corners;
  const geometry: PolygonGeometry = {
    type: "Polygon",
    coordinates: [
      [
        [w, s],
        [e, s],
        [e, n],
        [w, n],
        [w, s],
      ],
    ],
  };
  const centre = placeCentre(geometry);
  return job(id, sequence, centre.latitude, centre.longitude, { area: jobArea(`place-${id}`, geometry, centre) });
}

describe("a job at a polygon place", () => {
  const fixes = readFixes(commute);

  it("arrives when the vehicle enters the outline and completes when it leaves, however far its centre", () => {
    // A customer's yard 480 m deep west of Halsted whose east end is the lot the van parks in: its
    // centre is 240 m from the van, beyond any 100 m circle, yet the van is inside it.
    const yard = atPolygon("yard", 1, [-87.653, 41.883, -87.6472, 41.8837]);
    const { rows, transitions } = replay(fixes, [yard]);
    expect(transitions.map((t) => [t.kind, new Date(t.at).toISOString()])).toEqual([
      ["en_route", "2026-10-13T13:01:00.000Z"],
      ["arrived", "2026-10-13T13:04:20.000Z"],
      ["completed", "2026-10-13T13:12:00.000Z"],
    ]);
    expect(rows.get("yard")).toMatchObject({ status: "completed", departedAt: at("2026-10-13T13:12:00Z") });
    // the same stop as a circle around that centre is never reached
    const circle = job("yard", 1, yard.latitude, yard.longitude);
    expect(replay(fixes, [circle]).transitions.map((t) => t.kind)).toEqual(["en_route"]);
  });

  it("does not arrive at a place across the street, though its centre is within a radius of the van", () => {
    // 34 m west of Halsted: the parked van is 82 m from the centre and outside the outline
    const across = atPolygon("across", 1, [-87.649, 41.883, -87.6478, 41.8838]);
    const { rows, transitions } = replay(fixes, [across]);
    expect(transitions.map((t) => t.kind)).toEqual(["en_route"]);
    expect(rows.get("across")).toMatchObject({ status: "en_route", arrivedAt: null });
  });

  it("keeps a place left before its expected duration arrived, with the time it left the outline", () => {
    const yard = atPolygon("yard", 1, [-87.653, 41.883, -87.6472, 41.8837]);
    const { rows } = replay(fixes, [{ ...yard, durationMinutes: 15 }]);
    expect(rows.get("yard")).toMatchObject({
      status: "arrived",
      arrivedAt: at("2026-10-13T13:04:20Z"),
      departedAt: at("2026-10-13T13:12:00Z"),
    });
  });
});

describe("ETA and late", () => {
  const fixes = readFixes(commute);

  it("estimates the next stop from the vehicle's speed and the remaining distance", () => {
    const { written } = replay(fixes, [job("coffee", 1, ...COFFEE), job("home", 2, ...ASHLAND_NORTH)]);
    // leaving the coffee shop, 6 min 10 s from home along the roads
    const leaving = written.find((w) => w.id === "home" && w.time === at("2026-10-13T13:12:00Z"))!;
    const truth = at("2026-10-13T13:18:10Z");
    expect(Math.abs(leaving.eta! - truth)).toBeLessThan(0.3 * (truth - leaving.time));
  });

  it("counts the stops on the way: a later stop's ETA holds the earlier one's duration", () => {
    const { written } = replay(fixes, [
      job("coffee", 1, ...COFFEE, { durationMinutes: 30 }),
      job("home", 2, ...ASHLAND_NORTH),
    ]);
    const first = written.find((w) => w.id === "home" && w.eta !== null)!;
    const coffee = written.find((w) => w.id === "coffee" && w.time === first.time)!;
    expect(first.eta! - coffee.eta!).toBeGreaterThan(30 * 60_000);
  });

  it("flags late as soon as the ETA passes the window's end, and keeps an arrival after it late", () => {
    const plan = [job("home", 1, ...ASHLAND_NORTH, { windowEnd: at("2026-10-13T13:10:00Z") })];
    const { written, transitions, rows } = replay(fixes, plan);
    const late = transitions.find((t) => t.kind === "late")!;
    // The vehicle sets off at 13:01 some 4.5 km away: late long before 13:10
    expect(late.at).toBeLessThan(at("2026-10-13T13:05:00Z"));
    expect(written.find((w) => w.time === late.at)).toMatchObject({ late: true });
    expect(rows.get("home")).toMatchObject({ status: "arrived", late: true });
  });

  it("writes an ETA only when it moves by a minute or more (a sixth of the time left when closer), or something else changes", () => {
    const { written } = replay(fixes, [job("home", 1, ...ASHLAND_NORTH)]);
    const etas = written.filter((w) => w.status === "en_route" && w.eta !== null);
    const moves = etas.slice(1).map((w, i) => ({ by: Math.abs(w.eta! - etas[i]!.eta!), left: w.eta! - w.time }));
    expect(moves.every((m) => m.by >= Math.min(ETA_STEP_MS, Math.max(10_000, 0.15 * m.left)))).toBe(true);
    expect(moves.filter((m) => m.left > 400_000).every((m) => m.by >= ETA_STEP_MS)).toBe(true);
    // far fewer rows than fixes driving toward it
    const driving = fixes.filter((f) => f.time >= at("2026-10-13T13:01:00Z") && f.time < at("2026-10-13T13:18:10Z"));
    expect(etas.length).toBeLessThan(driving.length / 3);
  });
});

describe("a long stop with the engine running", () => {
  it("arrives and completes a delivery on Market Street by position, not by ignition", () => {
    const fixes = readFixes(longIdle);
    const standing = fixes.find((f, i) => i > 0 && f.speed === 0 && fixes[i + 10]?.speed === 0)!;
    const plan = [job("delivery", 1, standing.latitude, standing.longitude, { durationMinutes: 15 })];
    const { rows } = replay(fixes, plan);
    expect(rows.get("delivery")).toMatchObject({ status: "completed" });
    expect(Math.abs(rows.get("delivery")!.arrivedAt! - standing.time)).toBeLessThanOrEqual(15_000);
  });
});

/** A plan as the object reads it again after a planner's change: each job with its row's progress as last written. */
const reloaded = (plan: PlannedJob[], rows: Map<string, JobProgress>) => plan.map((j) => ({ ...j, ...rows.get(j.id) }));

/**
 * Replays a track while the plan changes under it, the way the object does: from each change's
 * time on, the plan it builds from the rows written so far (a reload after the Worker's write).
 * `enRoute` holds the stops en route after each fix (the rows' view).
 */
function replayChanging(
  fixes: JobFix[],
  plan: PlannedJob[],
  changes: { at: number; plan: (rows: Map<string, JobProgress>) => PlannedJob[] }[],
) {
  let state: JobsState = initialJobsState("2026-10-13");
  const rows = new Map<string, JobProgress>();
  const enRoute: { time: number; ids: string[] }[] = [];
  const transitions: JobTransition[] = [];
  let current = plan;
  let next = 0;
  for (const fix of fixes) {
    while (next < changes.length && changes[next]!.at <= fix.time) current = changes[next++]!.plan(rows);
    const step = advanceJobs(state, fix, "2026-10-13", current);
    state = JSON.parse(JSON.stringify(step.state)) as JobsState;
    for (const row of step.changed) rows.set(row.id, row);
    transitions.push(...step.transitions);
    const ids = current.filter((j) => (rows.get(j.id) ?? j).status === "en_route").map((j) => j.id);
    enRoute.push({ time: fix.time, ids });
  }
  return { rows, enRoute, transitions };
}

/** Fixes re-timed to follow on from `after`, `every` ms apart, in the order given. */
const retimed = (fixes: JobFix[], after: number, every: number) =>
  fixes.map((f, i) => ({ ...f, time: after + (i + 1) * every }));

describe("statuses through a change of plan, on the recorded commute", () => {
  const fixes = readFixes(commute);
  const coffee = () => job("coffee", 1, ...COFFEE);
  const home = () => job("home", 2, ...ASHLAND_NORTH);

  it("has one stop en route after the planner moves another stop first, and the moved one back to scheduled", () => {
    // 13:02, driving west on Madison toward the coffee shop: the planner puts home first
    const { rows, enRoute, transitions } = replayChanging(
      fixes,
      [coffee(), home()],
      [
        {
          at: at("2026-10-13T13:02:00Z"),
          plan: (r) =>
            reloaded(
              [
                { ...home(), sequence: 0 },
                { ...coffee(), sequence: 1 },
              ],
              r,
            ),
        },
      ],
    );
    expect(enRoute.every((e) => e.ids.length <= 1)).toBe(true);
    const after = enRoute.find((e) => e.time >= at("2026-10-13T13:02:00Z"))!;
    expect(after.ids).toEqual(["home"]);
    expect(transitions.filter((t) => t.jobId === "home" && t.kind === "en_route")[0]!.at).toBe(after.time);
    // the coffee stop, reached out of order (7 minutes there), is arrived at, and home skipped until reached
    expect(rows.get("coffee")).toMatchObject({ status: "completed", arrivedAt: at("2026-10-13T13:04:20Z") });
    expect(rows.get("home")).toMatchObject({ status: "arrived", arrivedAt: at("2026-10-13T13:18:10Z") });
  });

  it("has no stop en route while the vehicle is at a skipped stop it came to after all", () => {
    // home first, then the coffee shop, then a stop up north: the coffee shop is reached first
    // (home skipped), then home after all, while the stop up north is the next one not reached
    const north = job("north", 3, 41.95, -87.66);
    const plan = [{ ...home(), sequence: 1 }, { ...coffee(), sequence: 2 }, north];
    const { rows, enRoute } = replayChanging(fixes, plan, []);
    expect(rows.get("home")).toMatchObject({ status: "arrived", arrivedAt: at("2026-10-13T13:18:10Z") });
    // home's arrival counts after three minutes there: from then on, north is not en route
    const atHome = enRoute.filter((e) => e.time >= at("2026-10-13T13:21:20Z"));
    expect(atHome.length).toBeGreaterThan(0);
    expect(atHome.every((e) => e.ids.length === 0)).toBe(true);
    expect(rows.get("north")).toMatchObject({ status: "scheduled", enRouteAt: null });
    expect(enRoute.every((e) => e.ids.length <= 1)).toBe(true);
  });

  it("gives up a stop reassigned to a vehicle that is not driving to it, and the first vehicle heads for its next", () => {
    const change = at("2026-10-13T13:02:00Z");
    const first = replayChanging(fixes, [coffee(), home()], [{ at: change, plan: (r) => reloaded([home()], r) }]);
    expect(first.enRoute.find((e) => e.time >= change)!.ids).toEqual(["home"]);
    // the other vehicle, parked all along (the commute's first ten minutes, re-timed), gets the coffee
    // stop as the rows hold it: en route, from the first vehicle
    const asWritten = replay(
      fixes.filter((f) => f.time < change),
      [coffee(), home()],
    ).rows;
    expect(asWritten.get("coffee")).toMatchObject({ status: "en_route" });
    const parked = retimed(
      fixes.filter((f) => f.time < at("2026-10-13T13:00:00Z")),
      change,
      30_000,
    );
    const other = replayChanging(parked, reloaded([coffee()], asWritten), []);
    expect(other.rows.get("coffee")).toMatchObject({ status: "scheduled", enRouteAt: null });
    expect(other.enRoute.every((e) => e.ids.length === 0)).toBe(true);
  });

  it("heads for the next stop once the one en route is cancelled, and writes nothing more to the cancelled one", () => {
    const change = at("2026-10-13T13:02:00Z");
    const { rows, enRoute } = replayChanging(
      fixes,
      [coffee(), home()],
      [
        { at: change, plan: (r) => reloaded([home()], r) }, // a cancelled job is not followed
      ],
    );
    expect(enRoute.find((e) => e.time >= change)!.ids).toEqual(["home"]);
    expect(rows.get("coffee")).toMatchObject({ status: "en_route" }); // as written before; the row says cancelled
    expect(rows.get("home")).toMatchObject({ status: "arrived", arrivedAt: at("2026-10-13T13:18:10Z") });
  });
});

describe("a vehicle back at a stop it had left", () => {
  const fixes = readFixes(commute);
  const DAY_END = at("2026-10-13T13:31:50Z");
  // Back from Ashland & North to the coffee shop the way it came, parked there again, then off north.
  const driveBack = retimed(
    fixes.filter((f) => f.time >= at("2026-10-13T13:11:50Z") && f.time <= at("2026-10-13T13:17:50Z")).reverse(),
    DAY_END,
    30_000,
  );
  const backAt = driveBack.at(-1)!.time;
  const parkedAgain = retimed(
    fixes.filter((f) => f.time >= at("2026-10-13T13:05:20Z") && f.time <= at("2026-10-13T13:11:20Z")),
    backAt,
    30_000,
  );
  const leaveAgain = retimed(
    fixes.filter((f) => f.time >= at("2026-10-13T13:11:50Z") && f.time <= at("2026-10-13T13:13:50Z")),
    parkedAgain.at(-1)!.time,
    30_000,
  );
  const track = [...fixes, ...driveBack, ...parkedAgain, ...leaveAgain];

  it("keeps both visits: the first one's departure, then the return and its own", () => {
    // 15 minutes expected: the first 7.6 minutes there are not enough, so it is left arrived
    const { rows, transitions } = replay(track, [job("coffee", 1, ...COFFEE, { durationMinutes: 15 })]);
    const row = rows.get("coffee")!;
    expect(row.visits).toHaveLength(2);
    expect(row.visits[0]).toEqual({ arrivedAt: at("2026-10-13T13:04:20Z"), departedAt: at("2026-10-13T13:12:00Z") });
    // back when it came into the radius, gone when it left it again
    expect(row.visits[1]!.arrivedAt).toBeGreaterThan(DAY_END);
    expect(row.visits[1]!.arrivedAt).toBeLessThanOrEqual(backAt);
    expect(row.visits[1]!.departedAt).toBeGreaterThan(parkedAgain.at(-1)!.time);
    // first arrival and last departure on the job; the two visits together pass 15 minutes: completed
    expect(row).toMatchObject({
      status: "completed",
      arrivedAt: at("2026-10-13T13:04:20Z"),
      departedAt: row.visits[1]!.departedAt,
      completedAt: row.visits[1]!.departedAt,
    });
    expect(transitions.filter((t) => t.kind === "completed")).toHaveLength(1);
  });

  it("counts only the time there: not the half hour away between the visits", () => {
    const { rows } = replay(track, [job("coffee", 1, ...COFFEE, { durationMinutes: 30 })]);
    const row = rows.get("coffee")!;
    // 37 minutes from first arrival to last departure, 14 of them at the stop: not yet its 30
    expect(row.departedAt! - row.arrivedAt!).toBeGreaterThan(30 * 60_000);
    expect(row).toMatchObject({ status: "arrived", completedAt: null });
    expect(row.visits).toHaveLength(2);
  });

  it("does not open a visit when it drives back past the stop without stopping", () => {
    const pastAndOn = [
      ...fixes,
      ...driveBack,
      ...retimed(
        fixes.filter((f) => f.time >= at("2026-10-13T13:03:40Z") && f.time <= at("2026-10-13T13:04:10Z")).reverse(),
        backAt,
        30_000,
      ),
    ];
    // the way back ends inside the radius at speed, then carries on south-east
    const { rows } = replay(pastAndOn, [job("coffee", 1, ...COFFEE, { durationMinutes: 15 })]);
    expect(rows.get("coffee")!.visits).toHaveLength(1);
    expect(rows.get("coffee")).toMatchObject({ status: "arrived", departedAt: at("2026-10-13T13:12:00Z") });
  });
});

describe("a close ETA from how the vehicle is moving", () => {
  /** The ETA a page shows after each fix (the row as last written), against the truth. */
  function shownEtas(fixes: JobFix[], plan: PlannedJob[], id: string) {
    const { written } = replay(fixes, plan);
    return fixes.map((f) => ({
      time: f.time,
      eta: written.findLast((w) => w.id === id && w.time <= f.time)?.eta ?? null,
    }));
  }

  it("is within a quarter of the time left on a steady straight run after city traffic (1,100 m at 15 m/s: 73 s)", () => {
    // Ten minutes of stop-and-go north (40 s at 12 m/s, 20 s at a light), then 3 km straight at 15 m/s
    const start = at("2026-10-13T13:00:00Z");
    const metresNorth = (m: number) => 41.8 + m / 111_195;
    const fixes: JobFix[] = [];
    let metres = 0;
    for (let s = 0; s < 600; s += 5) {
      const moving = s % 60 < 40;
      fixes.push({
        time: start + s * 1000,
        latitude: metresNorth(metres),
        longitude: -87.7,
        speed: moving ? 12 : 0,
        accuracy: 5,
      });
      if (moving) metres += 60;
    }
    const straightFrom = { time: start + 600_000, metres };
    for (let s = 0; s <= 200; s += 5)
      fixes.push({
        time: straightFrom.time + s * 1000,
        latitude: metresNorth(metres + 15 * s),
        longitude: -87.7,
        speed: 15,
        accuracy: 5,
      });
    const stopAt = metres + 3_000;
    const truth = straightFrom.time + (3_000 / 15) * 1000;
    const plan = [job("stop", 1, metresNorth(stopAt), -87.7, { radiusMeters: 50 })];
    const shown = shownEtas(fixes, plan, "stop");
    const onTheRun = shown.filter((s) => s.time > straightFrom.time);
    // 1,100 m out: 73 s to go
    const at1100 = onTheRun.find((s) => truth - s.time <= (1_100 / 15) * 1000)!;
    expect(Math.abs(at1100.eta! - truth)).toBeLessThanOrEqual(0.25 * (truth - at1100.time));
    // every ETA shown in the last two minutes (but the last 45 s, within the written step of 10 s)
    const lastTwo = onTheRun.filter((s) => truth - s.time <= 120_000 && truth - s.time >= 45_000);
    expect(lastTwo.length).toBeGreaterThan(10);
    for (const s of lastTwo) expect(Math.abs(s.eta! - truth)).toBeLessThanOrEqual(0.25 * (truth - s.time));
  });

  it("follows the recorded commute's straight run north on Halsted to a stop at Chicago Avenue", () => {
    // leaving the coffee shop at 13:12 at about 11 m/s, at Halsted & Chicago (1.4 km north) at 13:13:50
    const fixes = readFixes(commute);
    const corner = job("corner", 2, 41.896197, -87.647571, { radiusMeters: 30 });
    const shown = shownEtas(fixes, [job("coffee", 1, ...COFFEE), corner], "corner");
    const truth = at("2026-10-13T13:13:50Z");
    const close = shown.filter((s) => s.time >= at("2026-10-13T13:12:40Z") && s.time <= at("2026-10-13T13:13:10Z"));
    expect(close.length).toBeGreaterThanOrEqual(3);
    for (const s of close) expect(Math.abs(s.eta! - truth)).toBeLessThanOrEqual(0.25 * (truth - s.time));
  });

  it("keeps the typical-speed model for a vehicle that is not closing steadily (stopped at a light on the way)", () => {
    // 13:02:40 on Madison: stopped at a red light, the coffee shop 750 m ahead
    const fixes = readFixes(commute).filter((f) => f.time <= at("2026-10-13T13:02:50Z"));
    const { state } = replay(fixes, [job("coffee", 1, ...COFFEE)]);
    expect(state.approach?.jobId).toBe("coffee");
    expect(closingSpeed(state.approach!.samples, 0)).toBeNull();
  });
});
