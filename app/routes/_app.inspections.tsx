import { InspectionFormsSection } from "../maintenance/inspection-forms-editor";
import { InspectionHistory } from "../maintenance/inspection-history";
import { useApi } from "../maintenance/use-api";
import type { MyActionsBody } from "../maintenance/my-actions-body";

/** Inspections (issue 32): which vehicles drove today without today's inspection, then every inspection. */
export default function InspectionsPage() {
  const actions = useApi<MyActionsBody>("my-actions");
  const missing = actions.data?.inspections ?? [];
  return (
    <section className="page inspections">
      <header className="page-header">
        <h1>Inspections</h1>
      </header>
      {missing.length ? (
        <div className="card" aria-label="Drove today without an inspection">
          <h2>Drove today without today's inspection</h2>
          <ul>
            {missing.map((m) => (
              <li key={m.vehicleId}>{m.vehicleName}</li>
            ))}
          </ul>
        </div>
      ) : null}
      <InspectionHistory />
      <InspectionFormsSection />
    </section>
  );
}
