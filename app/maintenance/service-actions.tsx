import { useState } from "react";
import { toast } from "sonner";
import type { ServiceSchedule } from "../../shared/maintenance/service";
import { ConfirmAction } from "../components/form";
import { useServiceMutations } from "../store/maintenance";
import { EditScheduleForm } from "./service-forms";

/**
 * What owners and admins do to a schedule or a service entry on the Service tab (issue 32,
 * docs/decisions/0040-managing-schedules.md): edit a schedule in place, delete it or an entry
 * after being asked. Synced mutations like the tab's forms: shown at once, offline too, undone
 * with a toast if the server refuses them.
 */

const done = (what: string) =>
  toast(navigator.onLine ? what : `${what} on this device; it syncs when you are back online`);

/** A schedule's row actions; while editing, the form in place of the buttons. */
export function ScheduleActions({ schedule }: { schedule: ServiceSchedule }) {
  const { deleteSchedule } = useServiceMutations();
  const [editing, setEditing] = useState(false);
  if (editing) return <EditScheduleForm schedule={schedule} close={() => setEditing(false)} />;
  return (
    <span className="row-actions maintenance-actions">
      <button type="button" className="button" aria-label={`Edit ${schedule.name}`} onClick={() => setEditing(true)}>
        Edit
      </button>
      <ConfirmAction
        label="Delete"
        ariaLabel={`Delete ${schedule.name}`}
        question={`Delete “${schedule.name}”? The service logged stays in the history.`}
        confirmLabel="Delete schedule"
        onConfirm={async () => {
          await deleteSchedule({ id: schedule.id });
          done("Schedule deleted");
        }}
      />
    </span>
  );
}

/** "Delete" on a service entry logged by mistake; what it restarted or resolved stays as it is. */
export function DeleteEntry({ id, date, deleted }: { id: string; date: string; deleted: () => void }) {
  const { deleteEntry } = useServiceMutations();
  return (
    <span className="row-actions maintenance-actions">
      <ConfirmAction
        label="Delete"
        ariaLabel={`Delete the service of ${date}`}
        question="Delete this entry? Schedules it restarted and issues it resolved stay as they are."
        confirmLabel="Delete entry"
        onConfirm={async () => {
          await deleteEntry({ id });
          done("Service entry deleted");
          deleted();
        }}
      />
    </span>
  );
}
