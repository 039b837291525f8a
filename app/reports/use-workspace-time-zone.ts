import { useEffect, useState } from "react";
import type { WorkspacePreferences } from "../../shared/reports/reports";
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
const zones = new Map<string, string>();
const requests = new Map<string, Promise<void>>();
const listeners = new Set<() => void>();
const storageKey = (workspaceId: string) => `fleet-time-zone:${workspaceId}`;

export function setWorkspaceTimeZone(workspaceId: string, timeZone: string) {
  zones.set(workspaceId, timeZone);
  if (typeof localStorage !== "undefined") localStorage.setItem(storageKey(workspaceId), timeZone);
  for (const listener of listeners) listener();
}

/** The zone this device last read for the workspace, until the server answers again. */
function remembered(workspaceId: string): string | undefined {
  if (typeof localStorage === "undefined") return undefined;
  const zone = localStorage.getItem(storageKey(workspaceId));
  return zone && isTimeZone(zone) ? zone : undefined;
}

function load(workspaceId: string) {
  if (!requests.has(workspaceId)) {
    const request = http
      .get("workspace/preferences")
      .json<WorkspacePreferences>()
      .then((p) => {
        setWorkspaceUnits(workspaceId, p.units);
        setWorkspaceTimeZone(workspaceId, p.timeZone);
      })
      // Next time, ask again; meanwhile the browser's zone is shown.
      .catch(() => void requests.delete(workspaceId));
    requests.set(workspaceId, request);
  }
}

export function useWorkspaceTimeZone(): string | undefined {
  const workspaceId = useSession().workspace?.id;
  const [, rerender] = useState(0);
  useEffect(() => {
    const listener = () => rerender((n) => n + 1);
    listeners.add(listener);
    if (workspaceId) load(workspaceId);
    return () => void listeners.delete(listener);
  }, [workspaceId]);
  return workspaceId ? (zones.get(workspaceId) ?? remembered(workspaceId)) : undefined;
}

/**
 * The workspace's units (Preferences, docs/decisions/0060), read with its time zone and kept the
 * same way, so a page opened offline shows litres where the workspace counts in litres. US until known.
 */
const units = new Map<string, WorkspaceUnits>();
const unitsKey = (workspaceId: string) => `fleet-units:${workspaceId}`;

export function setWorkspaceUnits(workspaceId: string, value: WorkspaceUnits) {
  units.set(workspaceId, value);
  if (typeof localStorage !== "undefined") localStorage.setItem(unitsKey(workspaceId), value);
  for (const listener of listeners) listener();
}

function rememberedUnits(workspaceId: string): WorkspaceUnits | undefined {
  if (typeof localStorage === "undefined") return undefined;
  const value = localStorage.getItem(unitsKey(workspaceId));
  return workspaceUnitsValues.find((u) => u === value);
}

export function useWorkspaceUnits(): WorkspaceUnits {
  const workspaceId = useSession().workspace?.id;
  const [, rerender] = useState(0);
  useEffect(() => {
    const listener = () => rerender((n) => n + 1);
    listeners.add(listener);
    if (workspaceId) load(workspaceId);
    return () => void listeners.delete(listener);
  }, [workspaceId]);
  return (workspaceId ? (units.get(workspaceId) ?? rememberedUnits(workspaceId)) : undefined) ?? "us";
}
