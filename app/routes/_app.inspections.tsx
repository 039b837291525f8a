import { InspectionFormsSection } from "../maintenance/inspection-forms-editor";
import { InspectionHistory } from "../maintenance/inspection-history";
import { useToday } from "../maintenance/use-my-actions";
import { useUninspectedToday } from "../store/maintenance";

/**
 * Inspections (issue 32): which vehicles drove today without today's inspection, then every
 * inspection. From the synced store, so it renders offline (docs/decisions/0033); the list is the
 * one My actions and `GET /api/my-actions` give (shared/maintenance/drove-without-inspection.ts).
 */
export default function InspectionsPage() {
  const missing = useUninspectedToday(useToday());
  return (
    <section className="page inspections">
      <header className="page-header">
        <h1>Inspections</h1>
      </header>
      {missing.length ? (
        <div className="card" aria-label="Drove today without an inspection">
          <h2>Drove today without today's inspection</h2>
          <ul>
            {missing.map((v) => (
              <li key={v.id}>{v.name}</li>
            ))}
          </ul>
        </div>
      ) : null}
      <InspectionHistory />
      <InspectionFormsSection />
    </section>
  );
}
