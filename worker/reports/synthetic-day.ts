import { rollupFixes, type DayRollup, type RollupFix } from "../../domain/reports/rollup";
import { startOfDay } from "../../shared/units/time-zone";
import { advance, initialState, type MotionState } from "../../domain/fold/motion";

/**
 * A working day of one vehicle for development and benchmarks: from 08:00 local, `hours` of
 * driving in legs of 50 minutes at 25-60 mph with a 10-minute stop after each, a fix every
 * `everySeconds`, folded through the real trip detector and the real rollup. The day's row is
 * what the rollup would store for such a day.
 */
export function syntheticDayRollup(
  day: string,
  timeZone: string,
  hours: number,
  everySeconds: number,
  seed: number,
): DayRollup {
  const start = startOfDay(day, timeZone) + 8 * 3_600_000;
  const end = start + hours * 3_600_000;
  const fixes: RollupFix[] = [];
  let motion: MotionState | null = null;
  let latitude = 30 + (seed % 1500) / 100;
  const longitude = -120 + (seed % 4000) / 100;
  for (let t = start; t < end; t += everySeconds * 1000) {
    const minute = ((t - start) / 60_000) % 60;
    const stopped = minute >= 50;
    const speed = stopped ? 0 : 11 + ((seed + Math.floor(t / 60_000)) % 16);
    latitude += (speed * everySeconds) / 111_320;
    const fix = {
      time: t,
      latitude,
      longitude,
      speed,
      ignition: !stopped || minute < 52,
      accuracy: 5,
      odometer: null,
      fuel: null,
    };
    motion = motion ? advance(motion, fix).state : initialState(fix).state;
    fixes.push({
      ...fix,
      event: { id: motion.current.id, type: motion.current.type, startTime: motion.current.startTime },
    });
  }
  return rollupFixes(null, fixes, timeZone).rows.find((r) => r.day === day)!;
}
