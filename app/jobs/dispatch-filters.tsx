import { JOB_STATUSES } from "../../shared/jobs/jobs";
import type { Vehicle } from "../../shared/fleet/vehicle";
import { jobStatusWords } from "./status";

export interface DispatchFilter {
  date: string;
  vehicleId: string;
  status: string;
}

/** The dispatch page's filters: the day, one vehicle, one status (kept in the address, so a view can be shared). */
export function DispatchFilters({
  filter,
  vehicles,
  onChange,
}: {
  filter: DispatchFilter;
  vehicles: readonly Vehicle[];
  onChange: (next: Partial<DispatchFilter>) => void;
}) {
  return (
    <div className="dispatch-filters" role="search" aria-label="Filter jobs">
      <label className="field">
        <span>Date</span>
        <input
          className="input"
          type="date"
          value={filter.date}
          onChange={(e) => e.target.value && onChange({ date: e.target.value })}
        />
      </label>
      <label className="field">
        <span>Vehicle</span>
        <select className="input" value={filter.vehicleId} onChange={(e) => onChange({ vehicleId: e.target.value })}>
          <option value="">All vehicles</option>
          {vehicles.map((v) => (
            <option key={v.id} value={v.id}>
              {v.name}
            </option>
          ))}
        </select>
      </label>
      <label className="field">
        <span>Status</span>
        <select className="input" value={filter.status} onChange={(e) => onChange({ status: e.target.value })}>
          <option value="">Any status</option>
          {JOB_STATUSES.map((s) => (
            <option key={s} value={s}>
              {jobStatusWords(s)}
            </option>
          ))}
        </select>
      </label>
    </div>
  );
}
