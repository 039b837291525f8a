import { Link, useNavigate } from "@remix-run/react";
import { useState, type FormEvent } from "react";
import { toast } from "sonner";
import type { ServiceSchedule } from "../../shared/maintenance/service";
import type { CreateWorkOrderArgs } from "../../shared/maintenance/work-orders";
import { useCan } from "../session/session";
import { useActiveOrderFor, useWorkOrderMutations } from "../store/work-orders";
import { WhoDoesItOptions, whoOf } from "./who-does-it";
import { formReader, TableInputs } from "../components/table-inputs";
import { workOrderTable } from "../../shared/maintenance/work-order-fields";

/** Opens a work order through the sync mutator (offline too) and goes to its page. */
export function useCreateWorkOrder() {
  const { createWorkOrder } = useWorkOrderMutations();
  const navigate = useNavigate();
  return async (args: Omit<CreateWorkOrderArgs, "id">) => {
    const id = crypto.randomUUID();
    try {
      await createWorkOrder({ ...args, id, createdAt: Date.now() });
      navigate(`/work-orders/${id}`);
    } catch {
      toast.error("Could not create the work order");
    }
  };
}

/** What a "Create work order" gathers: a vehicle, and the issues and schedules that send it to the shop. */
export interface WorkOrderSeed {
  vehicleId: string;
  issueIds?: string[];
  scheduleIds?: string[];
  description: string;
}

/**
 * "Create work order" wherever work is found (an issue, a failed inspection, a due schedule): it
 * opens a new order on the vehicle with what was found attached, and goes to its page, where the
 * lines and who does it are set; offline too. When an order not yet done already gathers one of
 * them, a link to that order instead, so the same defect is not sent to the shop twice.
 */
export function CreateWorkOrderButton({ seed, label }: { seed: WorkOrderSeed; label?: string }) {
  const create = useCreateWorkOrder();
  const existing = useActiveOrderFor(seed);
  const canEdit = useCan("fleet.edit");
  if (existing)
    return (
      <Link className="work-order-link" to={`/work-orders/${existing.id}`}>
        {existing.number ? `Work order #${existing.number}` : "Work order (not yet synced)"}
      </Link>
    );
  if (!canEdit) return null;
  return (
    <button type="button" className="button" aria-label={label} onClick={() => void create(seed)}>
      Create work order
    </button>
  );
}

/** "Create work order" on an issue's page: the order gathers that issue, on its vehicle. */
export function CreateFromIssueButton({ issue }: { issue: { id: string; vehicleId: string; title: string } }) {
  return (
    <CreateWorkOrderButton seed={{ vehicleId: issue.vehicleId, issueIds: [issue.id], description: issue.title }} />
  );
}

/** "Create work order" on a schedule due soon or overdue: the order gathers it, on its vehicle; nothing while it is not due. */
export function DueScheduleWorkOrder({
  schedule,
  vehicleName,
}: {
  schedule: Pick<ServiceSchedule, "id" | "vehicleId" | "name" | "status">;
  vehicleName?: string;
}) {
  if (schedule.status === "ok") return null;
  const seed = { vehicleId: schedule.vehicleId, scheduleIds: [schedule.id], description: schedule.name };
  const what = vehicleName ? `${vehicleName}: ${schedule.name}` : schedule.name;
  return <CreateWorkOrderButton seed={seed} label={`Create work order: ${what}`} />;
}

/** "New work order" on a vehicle's tab: the table's fields (what is to be done), and a mechanic or a vendor. */
export function NewWorkOrderButton({ vehicleId }: { vehicleId: string }) {
  const create = useCreateWorkOrder();
  const [open, setOpen] = useState(false);
  if (!useCan("fleet.edit")) return null;
  if (!open)
    return (
      <button type="button" className="button primary" onClick={() => setOpen(true)}>
        New work order
      </button>
    );
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const data = new FormData(e.currentTarget);
    const who = String(data.get("who") ?? "");
    void create({
      vehicleId,
      ...workOrderTable.fromForm(formReader(data)),
      ...whoOf(who),
    });
  };
  return (
    <form className="work-order-form" onSubmit={submit} aria-label="New work order">
      <TableInputs fields={workOrderTable.formFields} />
      <label>
        <span>Who does it</span>
        <select className="input" name="who" defaultValue="">
          <WhoDoesItOptions />
        </select>
      </label>
      <div className="form-actions">
        <button type="submit" className="button primary">
          Create
        </button>
        <button type="button" className="button" onClick={() => setOpen(false)}>
          Cancel
        </button>
      </div>
    </form>
  );
}
