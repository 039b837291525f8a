import { useEffect, useSyncExternalStore } from "react";
import type { InspectionBody } from "../../shared/maintenance/inspections";
import { HTTPError, http } from "../lib/http";

/**
 * The outbox of builds before the submitInspection mutator (docs/decisions/0038): what such a build
 * left here is still sent and shown until it is; new submissions are synced mutations
 * (shared/maintenance/inspection-mutators.ts). Inspections submitted on this device and not yet accepted by the server (docs/decisions/0032):
 * a driver next to the vehicle may have no network. Each is kept in localStorage with the id the
 * device gave it and posted when the network returns; the server stores an id once, so a resend
 * after a lost answer is harmless. Its photos wait in app/photos' own queue and upload on their
 * own; the inspection names them by id meanwhile. A submission the server refuses (4xx: a viewer,
 * a vehicle since removed) is dropped with the reason, not retried forever.
 */
export type PendingInspection = InspectionBody & { id: string; submittedAt: string };

const KEY = "fleet-ops.pending-inspections";
const listeners = new Set<() => void>();
let cache: PendingInspection[] | null = null;

function read(): PendingInspection[] {
  if (cache) return cache;
  try {
    cache = JSON.parse(localStorage.getItem(KEY) ?? "[]") as PendingInspection[];
  } catch {
    cache = [];
  }
  return cache;
}

function write(list: PendingInspection[]) {
  cache = list;
  localStorage.setItem(KEY, JSON.stringify(list));
  for (const l of listeners) l();
}

let flushing: Promise<string[]> | null = null;

/** Posts every pending submission; answers the reasons of those the server refused. */
export function flushInspections(): Promise<string[]> {
  flushing ??= (async () => {
    const refused: string[] = [];
    for (const submission of read()) {
      try {
        await http.post("inspections", { json: submission, retry: 0 });
      } catch (error) {
        if (!(error instanceof HTTPError) || error.response.status >= 500) break; // offline or the server's fault: keep it
        refused.push(`Inspection not accepted (${error.response.status})`);
      }
      write(read().filter((p) => p.id !== submission.id));
    }
    return refused;
  })().finally(() => {
    flushing = null;
  });
  return flushing;
}

const subscribe = (l: () => void) => {
  listeners.add(l);
  return () => listeners.delete(l);
};

/** The pending submissions, kept current; flushes on mount and whenever the network returns. */
export function usePendingInspections(onSynced?: () => void): PendingInspection[] {
  const list = useSyncExternalStore(subscribe, read, () => [] as PendingInspection[]);
  useEffect(() => {
    const sync = () => void flushInspections().then(() => onSynced?.());
    sync();
    window.addEventListener("online", sync);
    return () => window.removeEventListener("online", sync);
  }, [onSynced]);
  return list;
}
