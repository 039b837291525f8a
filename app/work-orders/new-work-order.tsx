import { useNavigate } from "@remix-run/react";
import { useState, type FormEvent } from "react";
import { toast } from "sonner";
import type { CreateWorkOrderArgs } from "../../shared/maintenance/work-orders";
import { useCan } from "../session/session";
import { useWorkOrderMutations } from "../store/work-orders";
import { WhoDoesItOptions, whoOf } from "./who-does-it";

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

/** "Create work order" on an issue's page: the order gathers that issue, on its vehicle. */
export function CreateFromIssueButton({ issue }: { issue: { id: string; vehicleId: string; title: string } }) {
  const create = useCreateWorkOrder();
  if (!useCan("fleet.edit")) return null;
  return (
    <button
      type="button"
      className="button"
      onClick={() => void create({ vehicleId: issue.vehicleId, issueIds: [issue.id], description: issue.title })}
    >
      Create work order
    </button>
  );
}

/** "New work order" on a vehicle's tab: a description, and a mechanic or a vendor. */
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
      description: String(data.get("description") ?? "") || null,
      ...whoOf(who),
    });
  };
  return (
    <form className="work-order-form" onSubmit={submit} aria-label="New work order">
      <label>
        <span>What is to be done</span>
        <input className="input" name="description" maxLength={2000} />
      </label>
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
