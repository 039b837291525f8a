import { useMemo } from "react";
import { compareJobOrder, type SyncedJob } from "../../shared/jobs/jobs";
import type { jobMutators } from "../../shared/jobs/jobs-mutators";
import { useSync } from "../sync/sync-provider";
import { useTypesValue } from "./maintenance";

/**
 * Jobs from the synced store (issue 43, docs/decisions/0052): the synced window holds yesterday to
 * a week ahead, so the dispatch page and the driver's day render offline and change the moment a
 * pull brings another browser's edit (the room pokes, no reload).
 */

/** One vehicle's day (or, with vehicleId null, the unassigned jobs of the day), in its order. */
export interface DayRoute {
  vehicleId: string | null;
  jobs: SyncedJob[];
}

/** The day's jobs grouped by vehicle, each route in order; the unassigned jobs apart. */
export function useDayRoutes(date: string): { routes: DayRoute[]; unassigned: SyncedJob[] } {
  return useTypesValue(["job"], `routes|${date}`, (s) => {
    const byVehicle = new Map<string, SyncedJob[]>();
    const unassigned: SyncedJob[] = [];
    for (const job of s.list<SyncedJob>("job")) {
      if (job.date !== date) continue;
      if (!job.vehicleId) unassigned.push(job);
      else byVehicle.set(job.vehicleId, [...(byVehicle.get(job.vehicleId) ?? []), job]);
    }
    const routes = [...byVehicle].map(([vehicleId, jobs]) => ({ vehicleId, jobs: jobs.sort(compareJobOrder) }));
    return { routes, unassigned: unassigned.sort(compareJobOrder) };
  });
}

/** One job, or undefined while it is not in the store. */
export function useJob(id: string | undefined): SyncedJob | undefined {
  return useTypesValue(["job"], `job|${id ?? ""}`, (s) => (id ? s.get<SyncedJob>("job", id) : undefined));
}

type JobMutation = keyof typeof jobMutators;
type ArgsOf<M extends JobMutation> = Parameters<(typeof jobMutators)[M]>[1];

/** Planning and the driver's taps, through sync mutators: optimistic, offline too, applied by the server with the REST rules. */
export function useJobMutations() {
  const sync = useSync();
  return useMemo(() => {
    const run =
      <M extends JobMutation>(name: M) =>
      async (args: ArgsOf<M>) => {
        if (!sync) throw new Error("The local store is not ready");
        await sync.client.mutate(name, args);
      };
    return {
      createJob: run("createJob"),
      updateJob: run("updateJob"),
      deleteJob: run("deleteJob"),
      reorderJobs: run("reorderJobs"),
      cancelJob: run("cancelJob"),
      markJobArrived: run("markJobArrived"),
      completeJob: run("completeJob"),
    };
  }, [sync]);
}
