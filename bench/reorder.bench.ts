// The cost of folding late reports in order (issue 35, docs/decisions/0037), on the fold alone in
// this process (`npm run bench -- reorder`, which runs it with --expose-gc for the memory part).
// - in-order fixes: foldReport as before vs foldInOrder (the same fold plus the vehicle's window);
// - a late fix: the re-fold of what came after it, at one fix every 5 s;
// - memory: what the windows of many vehicles keep alive, at one fix every 5 s and every 1 s.
// Each fix goes through the fleet's modules and places-and-alerts with five rules and 50 places.
import { placesAlertsModule } from "../domain/alerts/module";
import { FLEET_MODULES } from "../domain/fleet-modules";
import { DEFAULT_CLOCK_BOUNDS } from "../domain/fold/device-clock";
import { foldReport, newVehicleFold, type Fix, type FleetModule, type VehicleFold } from "../domain/fold/fold";
import { EMPTY_WINDOW, foldInOrder, type ReorderWindow } from "../domain/fold/late-reports";
import { PlaceIndex } from "../domain/places/place-index";
import { alertRuleBodySchema, type AlertRuleBody } from "../shared/alerts/alert-rules";
import { report, type BenchResult } from "./lib";

const T0 = Date.parse("2026-11-25T10:00:00Z");
const rule = (id: string, body: AlertRuleBody) => ({ id, ...alertRuleBodySchema.parse(body) });
const index = new PlaceIndex(
  Array.from({ length: 50 }, (_, i) => ({
    id: `p${i}`,
    geometry: { type: "Circle" as const, center: [-79.4 + i * 0.01, 43.6] as [number, number], radius: 150 },
  })),
);
const rules = [
  rule("enter", { type: "place_enter" }),
  rule("exit", { type: "place_exit" }),
  rule("speeding", { type: "speeding", speedMph: 40, minSeconds: 15 }),
  rule("idling", { type: "idling", minutes: 5 }),
  rule("tow", { type: "tow" }),
];
const modules: readonly FleetModule[] = [...FLEET_MODULES, placesAlertsModule(() => ({ index, rules })) as FleetModule];
const ctx = { now: T0 + 86_400_000, clock: DEFAULT_CLOCK_BOUNDS, modules };

/** A vehicle driving a loop with stops: 5 minutes of driving, 1 of standing, fixes every `everyMs`. */
function fix(n: number, everyMs: number, v = 0): Fix {
  const t = T0 + n * everyMs;
  const moving = (t / 1000) % 360 < 300;
  return {
    time: t,
    latitude: 43.6 + v * 0.001 + Math.sin(n / 200) * 0.01,
    longitude: -79.4 + (moving ? n * 0.00002 * (everyMs / 1000) : 0),
    speed: moving ? 14 : 0,
    heading: 90,
    accuracy: 5,
    ignition: true,
    fuel: null,
    odometer: null,
  };
}

/** µs per fix of `run` (best of 5 rounds: the machine is shared, the minimum is the code's own cost). */
function timeIt(fixes: number, run: () => void) {
  run(); // warm-up
  let best = Infinity;
  for (let i = 0; i < 5; i++) {
    const start = performance.now();
    run();
    best = Math.min(best, ((performance.now() - start) * 1000) / fixes);
  }
  return best;
}

const N = 20_000;
const track = Array.from({ length: N }, (_, n) => fix(n, 5_000));
const runBefore = () => {
  let v: VehicleFold = newVehicleFold("v1", "w1");
  for (const f of track) v = foldReport(v, f, ctx).vehicle;
};
const runAfter = () => {
  let v: VehicleFold = newVehicleFold("v1", "w1");
  let w: ReorderWindow = EMPTY_WINDOW;
  for (const f of track) ({ vehicle: v, window: w } = foldInOrder(v, w, f, ctx));
};
// Interleaved, so a busy moment of the machine weighs on both alike.
let before = Infinity;
let after = Infinity;
for (let i = 0; i < 3; i++) {
  before = Math.min(before, timeIt(N, runBefore));
  after = Math.min(after, timeIt(N, runAfter));
}
const results: BenchResult[] = [
  { metric: "in order, foldReport (before)", value: before, unit: "µs per fix" },
  { metric: "in order, foldInOrder (window kept)", value: after, unit: "µs per fix" },
  { metric: "in-order overhead", value: after - before, unit: "µs per fix" },
];

// Every 10th fix arrives after the next five (25 s late at 5 s): a re-fold from the last snapshot before it.
const shuffled = track.map((f, n) => ({ f, at: n % 10 === 0 ? n + 5.5 : n })).sort((a, b) => a.at - b.at);
const late = timeIt(N, () => {
  let v: VehicleFold = newVehicleFold("v1", "w1");
  let w: ReorderWindow = EMPTY_WINDOW;
  for (const { f } of shuffled) ({ vehicle: v, window: w } = foldInOrder(v, w, f, ctx));
});
results.push({ metric: "every 10th fix 25 s late, foldInOrder (re-folds included)", value: late, unit: "µs per fix" });

const gc = (globalThis as { gc?: () => void }).gc;
/** KB of heap per vehicle for its fold state, and more for its window, after 2 minutes of fixes. */
function heapOfWindows(vehicles: number, everyMs: number) {
  if (!gc) throw new Error("memory: run with --expose-gc");
  const fixes = Math.ceil(120_000 / everyMs);
  const keep = (withWindow: boolean) => {
    const held: unknown[] = [];
    for (let v = 0; v < vehicles; v++) {
      let vehicle: VehicleFold = newVehicleFold(`v${v}`, "w1");
      let window: ReorderWindow = EMPTY_WINDOW;
      for (let n = 0; n < fixes; n++) ({ vehicle, window } = foldInOrder(vehicle, window, fix(n, everyMs, v), ctx));
      held.push(withWindow ? [vehicle, window] : vehicle);
    }
    return held;
  };
  const measure = (withWindow: boolean) => {
    gc();
    const base = process.memoryUsage().heapUsed;
    const held = keep(withWindow);
    gc();
    const bytes = process.memoryUsage().heapUsed - base;
    return { bytes, held };
  };
  const states = measure(false);
  const windows = measure(true);
  const every = `a fix every ${everyMs / 1000} s`;
  results.push(
    { metric: `memory, ${every}: a vehicle's fold state`, value: states.bytes / vehicles / 1024, unit: "KB" },
    {
      metric: `memory, ${every}: its window on top`,
      value: (windows.bytes - states.bytes) / vehicles / 1024,
      unit: "KB",
    },
  );
}
heapOfWindows(2_000, 5_000);
heapOfWindows(500, 1_000);

report(
  "Late reports folded in order: the fold's cost and memory",
  results,
  `The fold alone, in the bench's own process: ${N.toLocaleString("en")} fixes of one vehicle 5 s apart through the fleet's modules and places-and-alerts (five rules, 50 places); best of 5 rounds, interleaved 3 times. Memory: heap kept alive by 2,000 vehicles after 2 minutes of fixes every 5 s, and 500 every 1 s, with and without their reorder windows (docs/decisions/0037; the windows are capped at 5,000 per object).`,
);
