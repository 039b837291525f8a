// Refuel and fuel-drop detection on recorded tracks (issue 42, docs/decisions/0050), in Node: the
// recorded tracks of worker/fleet/fixtures with a simulated float sensor (noise, slosh, spikes,
// tilt; domain/fuel/fuel-tracks.ts) under 50 seeds, untouched and with a refuel or a drop injected
// into every stop of 6 minutes or more. Every injected event must be found, none on untouched tracks.
import commute from "../worker/fleet/fixtures/commute";
import dataGap from "../worker/fleet/fixtures/data-gap";
import longIdle from "../worker/fleet/fixtures/long-idle";
import phoneDrive from "../worker/fleet/fixtures/phone-drive";
import tow from "../worker/fleet/fixtures/tow";
import { readTrack } from "../worker/fleet/fixtures/csv-track";
import { detectFuel, parkedNight, withFuel, type Injection } from "../domain/fuel/fuel-tracks";
import type { FuelReading } from "../domain/fuel/level-watch";
import { report } from "./lib";

const SEEDS = 50;
type Points = Omit<FuelReading, "fuel">[];
const tracks: Points[] = [commute, dataGap, longIdle, phoneDrive, tow].map((csv) =>
  readTrack(csv).map(({ time, latitude, longitude, speed }) => ({ time, latitude, longitude, speed })),
);
const night = parkedNight(10, 5);

/** Into each stop of 6 minutes or more, once three readings of it are in: +40 or -20 points, in turn. */
function injections(track: Points): Injection[] {
  const stops: number[][] = [];
  let current: number[] = [];
  for (const p of [...track, null]) {
    if (p && (p.speed ?? 0) <= 1) current.push(p.time);
    else {
      if (current.length && current.at(-1)! - current[0]! >= 6 * 60_000) stops.push(current);
      current = [];
    }
  }
  return stops.map((times, i) => {
    const at = Math.max(times[0]! + 90_000, times[3]! + 1);
    return i % 2 === 0 ? { at, points: 40, minutes: 2 } : { at, points: -20, minutes: 3 };
  });
}

let injected = 0;
let found = 0;
let falseOnUntouched = 0;
let extraOnInjected = 0;
let readings = 0;
const started = performance.now();
for (let seed = 1; seed <= SEEDS; seed++) {
  for (const track of [...tracks, night]) {
    const untouched = withFuel(track, { seed });
    falseOnUntouched += detectFuel(untouched).length;
    const planned = track === night ? [{ at: night[60]!.time, points: -30, minutes: 20 }] : injections(track);
    const events = detectFuel(withFuel(track, { seed, start: 45, injections: planned }));
    injected += planned.length;
    // Dated to within the median's lag: a few readings, 5 minutes apart in the night.
    const within = track === night ? 25 * 60_000 : 15 * 60_000;
    const matched = planned.filter((j) =>
      events.some((e) => (e.type === "REFUEL") === j.points > 0 && Math.abs(e.start - j.at) <= within),
    ).length;
    found += matched;
    extraOnInjected += events.length - matched;
    readings += untouched.length * 2;
  }
}
const ms = performance.now() - started;

report(
  "Fuel-drop and refuel detection on recorded tracks",
  [
    { metric: "injected refuels and drops", value: injected, unit: "" },
    { metric: "found", value: found, unit: "", target: "all" },
    { metric: "events on the untouched tracks", value: falseOnUntouched, unit: "", target: "0" },
    { metric: "events beyond the injected ones", value: extraOnInjected, unit: "", target: "0" },
    { metric: "detection time per reading", value: (ms * 1000) / readings, unit: "µs" },
  ],
  `The five recorded tracks and a night parked (a reading every 5 min), ${SEEDS} seeds of sensor noise each (±1.5 points standing, ±7 driving, 2 % wild readings, a tilt of ±4 per stop), untouched and with +40 / -20 points injected into every stop of 6 minutes or more (-30 over 20 min in the night). Found: an event of the right kind starting within 15 minutes of the injection (25 in the night: five readings).`,
);
