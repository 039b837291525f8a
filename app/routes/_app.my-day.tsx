import { DriverStop } from "../jobs/driver-stop";
import { useMyVehicle } from "../jobs/use-my-vehicle";
import { useTodayDate } from "../jobs/use-today";
import { useStoreStatus, useVehicles } from "../store";
import { useDayRoutes } from "../store/jobs";

/**
 * The driver's day (issue 43), made for a phone: today's stops of the driver's vehicle in order,
 * directions handed to the phone's maps app, "Arrived" and "Done" with proof. From the synced
 * store and saved through mutators, so it opens and works with no network (ADR 0044's offline list).
 */
export default function MyDayPage() {
  const date = useTodayDate();
  const { vehicle, choose } = useMyVehicle();
  const vehicles = useVehicles();
  const { pulled } = useStoreStatus();
  const { routes } = useDayRoutes(date);
  const jobs = routes.find((r) => r.vehicleId === vehicle?.id)?.jobs ?? [];
  const left = jobs.filter(
    (j) => j.status !== "completed" && j.status !== "cancelled" && j.status !== "skipped",
  ).length;
  return (
    <section className="page my-day">
      <header className="page-header">
        <h1>My day</h1>
      </header>
      <label className="field my-vehicle">
        <span>Vehicle</span>
        <select className="input" value={vehicle?.id ?? ""} onChange={(e) => choose(e.target.value)}>
          {vehicle ? null : <option value="">Choose your vehicle</option>}
          {vehicles.map((v) => (
            <option key={v.id} value={v.id}>
              {v.name}
            </option>
          ))}
        </select>
      </label>
      {vehicle ? (
        <p className="muted" role="status">
          {jobs.length ? `${jobs.length} stops today, ${left} to go` : pulled ? "No stops today." : ""}
        </p>
      ) : (
        <p className="muted">Choose the vehicle you drive today to see its stops.</p>
      )}
      <ol className="driver-stops" aria-label="Today's stops">
        {jobs.map((job, i) => (
          <DriverStop key={job.id} job={job} number={i + 1} />
        ))}
      </ol>
    </section>
  );
}
