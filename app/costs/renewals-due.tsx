import { Link } from "@remix-run/react";
import { renewalStatusLabels, renewalTitle } from "../../shared/costs/renewals";
import { useShownFirst } from "../components/use-shown-first";
import type { RenewalRow } from "../store/costs";

/** My actions' "Renewals due" (issue 42): due soon or overdue, overdue first, each linking to its vehicle's Costs tab. */
export function RenewalsDue({ renewals, names }: { renewals: RenewalRow[]; names: Map<string, string> }) {
  const { shown, more } = useShownFirst(renewals);
  return (
    <section aria-label="Renewals due">
      <h2>Renewals due</h2>
      <ul className="maintenance-list">
        {shown.map((r) => (
          <li key={r.id} className="maintenance-row">
            <span className={`status-pill ${r.status}`}>{renewalStatusLabels[r.status]}</span>
            <Link to={`/vehicles/${r.vehicleId}/costs`}>
              {names.get(r.vehicleId) ?? "Vehicle"}: {renewalTitle(r)}
            </Link>
            <span className="muted">Due {r.dueDate}</span>
          </li>
        ))}
      </ul>
      {more}
    </section>
  );
}
