// The positions' packing cost through an hour (issue 35), measured on the codec alone in this
// process (no server, no machine-wide noise): one vehicle reporting 5 fixes a second for an hour,
// packed on the schedule before issue 35 (every second, the hour's block decoded, merged and
// re-encoded whole) and after it (once a minute, only the minute's fixes encoded as a new chunk,
// the hour's chunks sealed into its block once at the end: party/positions/store.ts).
import { decodeFixes, encodeFixes, mergeFixes, type StoredFix } from "../party/positions/codec";
import { report as write } from "./lib";

const PER_SECOND = 5;
const SECONDS = 3_600;
const T0 = Date.parse("2026-11-25T10:00:00Z");
/** The old schedule's cost grows with the square of the hour: its first 8 minutes show the trend. */
const BEFORE_SECONDS = 8 * 60;

function fix(n: number): StoredFix {
  const t = T0 + n * (1000 / PER_SECOND);
  return {
    beaconId: "beacon-1",
    recordedAt: t,
    latitude: Number((43.6 + (n % 900) * 0.00002).toFixed(6)),
    longitude: Number((-79.4 + n * 0.000005).toFixed(6)),
    speed: n % 300 < 30 ? 0 : 12.5,
    heading: (n * 3) % 360,
    altitude: null,
    accuracy: 5,
    battery: 0.8,
    ignition: n % 300 >= 30,
    fuel: null,
    odometer: null,
    receivedAt: t + 700,
  };
}

const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

/** CPU ms a schedule spends in each minute of the hour; `second` gets each second's new fixes. */
function perMinute(
  schedule: { second: (s: number, fixes: StoredFix[]) => void; block: () => Uint8Array | null },
  seconds = SECONDS,
) {
  const minutes: number[] = [];
  for (let s = 0; s < seconds; s++) {
    const fixes = Array.from({ length: PER_SECOND }, (_, k) => fix(s * PER_SECOND + k));
    const started = cpuMs();
    schedule.second(s, fixes);
    minutes[Math.floor(s / 60)] = (minutes[Math.floor(s / 60)] ?? 0) + cpuMs() - started;
  }
  return { minutes, bytes: schedule.block()?.byteLength ?? 0 };
}

// Before: every second, the block decoded, merged with the new fixes and encoded again.
let block: Uint8Array | null = null;
const before = perMinute(
  {
    second: (_s, fixes) => {
      block = encodeFixes(mergeFixes(block ? decodeFixes(block) : [], fixes));
    },
    block: () => block,
  },
  BEFORE_SECONDS,
);
// After: once a minute, the minute's fixes as a new chunk; at the hour's end, the chunks sealed once.
const chunks: Uint8Array[] = [];
let minute: StoredFix[] = [];
let sealed: Uint8Array | null = null;
const after = perMinute({
  second: (s, fixes) => {
    minute.push(...fixes);
    if (s % 60 === 59) {
      chunks.push(encodeFixes(minute));
      minute = [];
    }
    if (s === SECONDS - 1) sealed = encodeFixes(mergeFixes(...chunks.map(decodeFixes)));
  },
  block: () => sealed,
});

const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
const positionsPerMinute = 60 * PER_SECOND;
const us = (ms: number) => (ms * 1000) / positionsPerMinute;
write(
  "Positions' packing CPU through an hour (codec only, one vehicle at 5 fixes/s)",
  [
    { metric: "before: CPU in the hour's first 8 minutes", value: sum(before.minutes), unit: "ms" },
    {
      metric: "before: CPU per vehicle-hour (the first 8 minutes' trend, quadratic)",
      value: sum(before.minutes) * (SECONDS / BEFORE_SECONDS) ** 2,
      unit: "ms",
    },
    { metric: "before: per position, minute 2", value: us(before.minutes[1]!), unit: "µs" },
    { metric: "before: per position, minute 7", value: us(before.minutes[6]!), unit: "µs" },
    { metric: "after: CPU per vehicle-hour (chunks + the seal)", value: sum(after.minutes), unit: "ms" },
    { metric: "after: per position, minute 2", value: us(after.minutes[1]!), unit: "µs" },
    { metric: "after: per position, minute 7", value: us(after.minutes[6]!), unit: "µs" },
    { metric: "after: per position, minute 59", value: us(after.minutes[58]!), unit: "µs" },
    {
      metric: "after: the seal at the hour's end, per position of the hour",
      value: us(after.minutes[59]! - after.minutes[58]!) / 60,
      unit: "µs",
    },
    {
      metric: "sealed block, bytes per position",
      value: after.bytes / (SECONDS * PER_SECOND),
      unit: "B",
      target: "≤ 48 with the row",
    },
  ],
  "Measured with process.cpuUsage around each packing call; minute 60 holds the seal (one decode and encode of the hour).",
);
