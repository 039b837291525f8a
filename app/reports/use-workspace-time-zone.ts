import { useEffect, useMemo, useState } from "react";
import type { WorkspacePreferences } from "../../shared/reports/reports";
import { defaultHourCycle, hourCycleValues, type HourCycle, type WorkspaceClock } from "../../shared/units/clock";
import { isTimeZone } from "../../shared/units/time-zone";
import { workspaceUnitsValues, type WorkspaceUnits } from "../../shared/units/units";
import { http } from "../lib/http";
import { useSession } from "../session/session";

/**
 * The workspace's time zone (Preferences), in which reports and the timeline show days and
 * times. Read once per workspace per page load and shared by every component; Preferences
 * updates it in place. Undefined until known (callers then show the browser's own zone).
 *
 * The last zone read is kept in localStorage (as the members list is), so a page opened offline
 * cuts today and this month where the workspace does: the overview's month and My actions' "today"
 * would otherwise move to the browser's zone with no network (docs/decisions/0051).
 */
const requests = new Map<string, Promise<void>>();
const listeners = new Set<() => void>();

/** One preference as this device knows it: in memory, and in localStorage for a page opened offline. */
function rememberedPreference<T extends string>(prefix: string, valid: (value: string) => boolean) {
  const values = new Map<string, T>();
  const key = (workspaceId: string) => `${prefix}:${workspaceId}`;
  return {
    set(workspaceId: string, value: T) {
      values.set(workspaceId, value);
      if (typeof localStorage !== "undefined") localStorage.setItem(key(workspaceId), value);
      for (const listener of listeners) listener();
    },
    /** What the server last said, or else what this device last read, until the server answers again. */
    get(workspaceId: string): T | undefined {
      const known = values.get(workspaceId);
      if (known !== undefined || typeof localStorage === "undefined") return known;
      const stored = localStorage.getItem(key(workspaceId));
      return stored !== null && valid(stored) ? (stored as T) : undefined;
    },
  };
}

const timeZones = rememberedPreference<string>("fleet-time-zone", isTimeZone);
/**
 * The workspace's units (Preferences, docs/decisions/0060), read with its time zone and kept the
 * same way, so a page opened offline shows litres where the workspace counts in litres. US until known.
 */
const unitsOf = rememberedPreference<WorkspaceUnits>("fleet-units", (value) =>
  (workspaceUnitsValues as readonly string[]).includes(value),
);

/** The workspace's hour cycle (docs/decisions/0079), read and kept with its zone. */
const hourCycles = rememberedPreference<HourCycle>("fleet-hour-cycle", (value) =>
  (hourCycleValues as readonly string[]).includes(value),
);

/**
 * Whether the workspace requires a line before a work order is completed (docs/decisions/0092), read
 * and kept with its zone, so the completion card says why it cannot complete even offline.
 */
const linesRequired = rememberedPreference<"on" | "off">("fleet-work-order-lines", (v) => v === "on" || v === "off");

export const setWorkOrderLinesRequired = (workspaceId: string, required: boolean) =>
  linesRequired.set(workspaceId, required ? "on" : "off");
export const setWorkspaceHourCycle = (workspaceId: string, value: HourCycle) => hourCycles.set(workspaceId, value);
export const setWorkspaceTimeZone = (workspaceId: string, timeZone: string) => timeZones.set(workspaceId, timeZone);
export const setWorkspaceUnits = (workspaceId: string, value: WorkspaceUnits) => unitsOf.set(workspaceId, value);

function load(workspaceId: string) {
  if (!requests.has(workspaceId)) {
    const request = http
      .get("workspace/preferences")
      .json<WorkspacePreferences>()
      .then((p) => {
        setWorkspaceUnits(workspaceId, p.units);
        setWorkspaceHourCycle(workspaceId, p.hourCycle);
        setWorkOrderLinesRequired(workspaceId, p.workOrderLinesRequired);
        setWorkspaceTimeZone(workspaceId, p.timeZone);
      })
      // Next time, ask again; meanwhile the browser's zone is shown.
      .catch(() => void requests.delete(workspaceId));
    requests.set(workspaceId, request);
  }
}

/** The session's workspace, its preferences asked for once, and a rerender whenever one changes. */
function useWorkspacePreferences(): string | undefined {
  const workspaceId = useSession().workspace?.id;
  const [, rerender] = useState(0);
  useEffect(() => {
    const listener = () => rerender((n) => n + 1);
    listeners.add(listener);
    if (workspaceId) load(workspaceId);
    return () => void listeners.delete(listener);
  }, [workspaceId]);
  return workspaceId;
}

export function useWorkspaceTimeZone(): string | undefined {
  const workspaceId = useWorkspacePreferences();
  return workspaceId ? timeZones.get(workspaceId) : undefined;
}

export function useWorkspaceUnits(): WorkspaceUnits {
  const workspaceId = useWorkspacePreferences();
  return (workspaceId ? unitsOf.get(workspaceId) : undefined) ?? "us";
}

/** Whether a work order needs a line to be completed here; off until known (the server refuses it anyway). */
export function useWorkOrderLinesRequired(): boolean {
  const workspaceId = useWorkspacePreferences();
  return (workspaceId ? linesRequired.get(workspaceId) : undefined) === "on";
}

/** This device's own zone: where its reader's clock is. */
export const deviceTimeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone;

/**
 * The clock every time on a page is written with (shared/units/clock.ts): the workspace's zone and
 * hour cycle, and this device's zone, so a reader elsewhere sees the zone named. Until the workspace's
 * zone is known, the device's (as the pages showed before), in its country's hour cycle.
 */
export function useWorkspaceClock(): WorkspaceClock {
  const workspaceId = useWorkspacePreferences();
  const readerTimeZone = deviceTimeZone();
  const timeZone = (workspaceId ? timeZones.get(workspaceId) : undefined) ?? readerTimeZone;
  const hourCycle = (workspaceId ? hourCycles.get(workspaceId) : undefined) ?? defaultHourCycle(timeZone);
  // One object while nothing changes, so it can sit in a memo's or an effect's dependencies.
  return useMemo(() => ({ timeZone, hourCycle, readerTimeZone }), [timeZone, hourCycle, readerTimeZone]);
}
