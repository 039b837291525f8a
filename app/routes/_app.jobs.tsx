import { useRouteLoaderData, useSearchParams } from "@remix-run/react";
import { lazy, Suspense, useEffect, useMemo, useRef, useState } from "react";
import type { SyncedJob } from "../../shared/jobs/jobs";
import type { Vehicle } from "../../shared/fleet/vehicle";
import { CsvImportForm } from "../jobs/csv-import";
import { DayTimeline } from "../jobs/day-timeline";
import { DispatchFilters, type DispatchFilter } from "../jobs/dispatch-filters";
import { JobDetail } from "../jobs/job-detail";
import { mapStopsOf, routeColour } from "../jobs/map-stops";
import { NewJobForm } from "../jobs/new-job-form";
import { usePlanTheDay } from "../jobs/plan-the-day";
import { RouteCard } from "../jobs/route-card";
import { OPEN_JOB_PARAM, useOpenJob } from "../jobs/use-open-job";
import { useTodayDate } from "../jobs/use-today";
import type { loader as rootLoader } from "../root";
import { useCan } from "../session/session";
import { useVehicles } from "../store";
import { useDayRoutes, useJobMutations } from "../store/jobs";

const DispatchMap = lazy(() => import("../jobs/dispatch-map").then((m) => ({ default: m.DispatchMap })));

/**
 * Dispatch (issue 43): a day's routes per vehicle, on a timeline and on the map (stops numbered,
 * each route drawn, done and late stops apart), the unassigned jobs beside them, filtered by date,
 * vehicle and status. Planners (members and up) add jobs, assign and reorder them, and import a
 * CSV. From the synced store: another browser's edit shows without a reload, and it opens offline.
 * Each stop opens its story (issue 53) from its row, its marker and its timeline block; the
 * vehicles' live positions are on the map. "Plan the day" (issue 54) proposes the day's routes
 * beside today's plan, drawn on the map, and applies them on the dispatcher's word.
 */
export default function JobsPage() {
  const token = useRouteLoaderData<typeof rootLoader>("root")?.mapboxToken ?? "";
  const [filter, setFilter] = useDispatchFilter();
  const vehicles = useVehicles();
  const canPlan = useCan("fleet.edit");
  const reorderDay = useReorderDay(filter.date);
  const day = useDayRoutes(filter.date);
  const shown = useShownRoutes(day, vehicles, filter);
  const { picking, setPicking, picked, onPicked, mapArea } = usePickPoint();
  const { openJobId, openJob, closeJob, openHref } = useOpenJob();
  const allOfDay = useAllOfDay(day);
  const cardProps = { date: filter.date, allOfDay, vehicles, canPlan, reorderable: !filter.status, openHref };
  const planning = usePlanTheDay({ date: filter.date, vehicleId: filter.vehicleId, allOfDay, vehicles, canPlan });
  return (
    <section className="page jobs-page">
      <header className="page-header">
        <h1>Jobs</h1>
        {planning.action}
      </header>
      <DispatchFilters filter={filter} vehicles={vehicles} onChange={setFilter} />
      <DayTimeline
        routes={shown.routes.map((r) => ({ id: r.vehicle.id, name: r.vehicle.name, stops: r.jobs }))}
        date={filter.date}
        onReorder={canPlan && cardProps.reorderable ? reorderDay : undefined}
        onOpen={openJob}
      />
      <div className={planning.panel ? "dispatch-body proposing" : "dispatch-body"}>
        {planning.panel}
        <div className="dispatch-routes">
          {shown.routes.map((r, i) => (
            <RouteCard key={r.vehicle.id} vehicle={r.vehicle} jobs={r.jobs} colour={routeColour(i)} {...cardProps} />
          ))}
          {shown.routes.length === 0 ? <p className="muted">No vehicle has stops on {filter.date}.</p> : null}
          {filter.vehicleId ? null : <RouteCard vehicle={null} jobs={shown.unassigned} {...cardProps} />}
        </div>
        <div className="dispatch-map" ref={mapArea}>
          <Suspense fallback={null}>
            <DispatchMap
              token={token}
              stops={shown.stops}
              openId={openJobId}
              onOpen={openJob}
              picking={picking}
              picked={picked}
              onPicked={onPicked}
              proposed={planning.proposed}
            />
          </Suspense>
        </div>
      </div>
      {canPlan ? (
        <div className="dispatch-forms">
          <NewJobForm date={filter.date} picked={picked} picking={picking} onPick={setPicking} />
          <CsvImportForm />
        </div>
      ) : null}
      {openJobId ? <JobDetail jobId={openJobId} vehicles={vehicles} onClose={closeJob} /> : null}
    </section>
  );
}

/** A vehicle's whole new order of the day, as the timeline hands it over. */
function useReorderDay(date: string) {
  const { reorderJobs } = useJobMutations();
  return (vehicleId: string, jobIds: string[]) => void reorderJobs({ vehicleId, date, jobIds });
}

/** "Pick on map": whether a click on the map picks the New job form's point, and the point picked. */
function usePickPoint() {
  const [picking, setPicking] = useState(false);
  const [picked, setPicked] = useState<{ latitude: number; longitude: number } | null>(null);
  const mapArea = useMapInViewWhilePicking(picking);
  const onPicked = (point: { latitude: number; longitude: number }) => (setPicked(point), setPicking(false));
  return { picking, setPicking, picked, onPicked, mapArea };
}

/**
 * "Pick on map" brings the map into view (the New job form is below it, and on a phone a screen
 * away): the point is picked where the dispatcher can see it.
 */
function useMapInViewWhilePicking(picking: boolean) {
  const mapArea = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (picking) mapArea.current?.scrollIntoView({ block: "nearest" });
  }, [picking]);
  return mapArea;
}

function useDispatchFilter(): [DispatchFilter, (next: Partial<DispatchFilter>) => void] {
  const [params, setParams] = useSearchParams();
  const today = useTodayDate();
  const filter = {
    date: params.get("date") || today,
    vehicleId: params.get("vehicle") ?? "",
    status: params.get("status") ?? "",
  };
  const set = (next: Partial<DispatchFilter>) => {
    const merged = { ...filter, ...next };
    const search = new URLSearchParams();
    if (merged.date !== today) search.set("date", merged.date);
    if (merged.vehicleId) search.set("vehicle", merged.vehicleId);
    if (merged.status) search.set("status", merged.status);
    const open = params.get(OPEN_JOB_PARAM);
    if (open) search.set(OPEN_JOB_PARAM, open);
    setParams(search, { replace: true, preventScrollReset: true });
  };
  return [filter, set];
}

/** Every route's jobs of the day by vehicle id ("" for the unassigned), filters aside: where a moved job is appended. */
function useAllOfDay(day: { routes: { vehicleId: string | null; jobs: SyncedJob[] }[]; unassigned: SyncedJob[] }) {
  return useMemo(
    () =>
      new Map<string, SyncedJob[]>([
        ...day.routes.map((r) => [r.vehicleId ?? "", r.jobs] as const),
        ["", day.unassigned],
      ]),
    [day],
  );
}

/** The routes and stops the filters leave: vehicles by name, each with its stops of that status. */
function useShownRoutes(
  day: { routes: { vehicleId: string | null; jobs: SyncedJob[] }[]; unassigned: SyncedJob[] },
  vehicles: readonly Vehicle[],
  filter: DispatchFilter,
) {
  return useMemo(() => {
    const byId = new Map(day.routes.map((r) => [r.vehicleId, r.jobs]));
    const keep = (jobs: readonly SyncedJob[]) =>
      filter.status ? jobs.filter((j) => j.status === filter.status) : [...jobs];
    const routes = vehicles
      .filter((v) => byId.has(v.id) && (!filter.vehicleId || v.id === filter.vehicleId))
      .map((vehicle) => ({ vehicle, jobs: keep(byId.get(vehicle.id)!) }));
    const unassigned = filter.vehicleId ? [] : keep(day.unassigned);
    return {
      routes,
      unassigned,
      stops: mapStopsOf(
        routes.map((r) => ({ vehicleId: r.vehicle.id, jobs: r.jobs })),
        unassigned,
      ),
    };
  }, [day, vehicles, filter.status, filter.vehicleId]);
}
