import { Link, useNavigate, useParams } from "@remix-run/react";
import { useState, type FormEvent } from "react";
import { toast } from "sonner";
import {
  settableStatuses,
  syncedLineCents,
  workOrderStatusLabels,
  workOrderTotals,
  type SyncedWorkOrder,
  type SyncedWorkOrderLine,
} from "../../shared/maintenance/work-orders";
import { useCan } from "../session/session";
import { useStoreStatus, useVehicle } from "../store";
import { useIssues } from "../store/issues";
import { useVehicleSchedules } from "../store/maintenance";
import { statusLabel } from "../maintenance/format";
import { useParts, useVendors, useWorkOrder, useWorkOrderMutations } from "../store/work-orders";
import { useWorkspaceMembers } from "../issues/use-workspace-members";
import { WhoDoesItOptions, whoOf, whoValue } from "../work-orders/who-does-it";
import { money } from "../maintenance/format";
import { workOrderNumber } from "../work-orders/work-order-list";
import { Completed, Completion } from "../work-orders/completion";
import { ConfirmAction } from "../components/form";
import { workOrderTable } from "../../shared/maintenance/work-order-fields";
import { formReader, TableInputs, useTableDraft } from "../components/table-inputs";

export const meta = () => [{ title: "Work order" }];

/** A work order's page (issue 55): its lines added and removed, its status, completing and reopening it; offline too. */
export default function WorkOrderPage() {
  const { workOrderId = "" } = useParams();
  const { order, lines } = useWorkOrder(workOrderId);
  const { hydrated, pulled } = useStoreStatus();
  if (!order)
    return (
      <section className="page">
        <Crumb />
        <p className="muted">{hydrated && pulled ? "This work order is not in this workspace." : "Loading…"}</p>
      </section>
    );
  return <WorkOrderView order={order} lines={lines} />;
}

function Crumb() {
  return (
    <nav className="breadcrumb" aria-label="Breadcrumb">
      <Link to="/work-orders">Work orders</Link>
    </nav>
  );
}

const fail = (what: string) => () => toast.error(`Could not ${what}`);

function WorkOrderView({ order, lines }: { order: SyncedWorkOrder; lines: SyncedWorkOrderLine[] }) {
  const vehicle = useVehicle(order.vehicleId);
  const canEdit = useCan("fleet.edit");
  const open = order.status !== "completed";
  const totals = workOrderTotals(lines, order.taxCents);
  return (
    <section className="page work-order-page">
      <Crumb />
      <header className="issue-header">
        <h1>
          <span className="issue-number">{workOrderNumber(order)}</span> {order.description || "Work order"}
        </h1>
        <p className="muted">
          {vehicle ? <Link to={`/vehicles/${order.vehicleId}/work-orders`}>{vehicle.name}</Link> : "A removed vehicle"}
          {" · "}
          <span className={`chip status-${order.status}`}>{workOrderStatusLabels[order.status]}</span>
          {order.dueDate ? ` · due ${order.dueDate}` : null}
        </p>
      </header>
      {canEdit && open ? <Details order={order} /> : null}
      {canEdit && open ? <StatusAndWho order={order} /> : <Who order={order} />}
      <Gathered order={order} />
      <LineTable order={order} lines={lines} editable={canEdit && open} />
      {canEdit && open ? <AddLine workOrderId={order.id} /> : null}
      <dl className="work-order-totals" aria-label="Totals">
        <dt>Labour</dt>
        <dd>{money(totals.laborCents)}</dd>
        <dt>Parts</dt>
        <dd>{money(totals.partsCents)}</dd>
        <dt>Tax</dt>
        <dd>{money(totals.taxCents)}</dd>
        <dt>Total</dt>
        <dd>
          <strong>{money(totals.totalCents)}</strong>
        </dd>
      </dl>
      {canEdit ? (
        <Completion order={order} lines={lines} />
      ) : order.status === "completed" ? (
        <Completed order={order} canReopen={false} />
      ) : null}
      <DeleteOrder order={order} />
    </section>
  );
}

/**
 * The order's plain fields (what is to be done, the due date), edited after it was opened: the
 * same inputs as the New work order form, from the one table, saved through the sync mutator
 * (offline too). A field typed in keeps what was typed; the others show the kept values as another
 * device changes them (the form used to remount on every change, throwing the typing away).
 */
function Details({ order }: { order: SyncedWorkOrder }) {
  const { updateWorkOrder } = useWorkOrderMutations();
  const values = workOrderTable.valuesOf(order);
  const draft = useTableDraft();
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    void updateWorkOrder({ id: order.id, ...workOrderTable.fromForm(formReader(new FormData(e.currentTarget))) })
      .then(() => {
        draft.clear();
        toast("Saved the work order's details");
      })
      .catch(fail("save the details"));
  };
  return (
    <form className="work-order-form" onSubmit={submit} aria-label="Work order details">
      <TableInputs fields={workOrderTable.formFields} values={values} draft={draft} />
      <div className="form-actions">
        <button type="submit" className="button">
          Save details
        </button>
      </div>
    </form>
  );
}

function Who({ order }: { order: SyncedWorkOrder }) {
  const vendors = useVendors();
  const { nameOf } = useWorkspaceMembers();
  const vendor = vendors.find((v) => v.id === order.vendorId);
  const who = order.vendorId
    ? (vendor?.name ?? "A removed vendor")
    : order.assigneeUserId
      ? nameOf(order.assigneeUserId)
      : "Unassigned";
  return <p>Done by: {who}</p>;
}

function StatusAndWho({ order }: { order: SyncedWorkOrder }) {
  const { updateWorkOrder } = useWorkOrderMutations();
  const who = whoValue(order);
  const setWho = (value: string) =>
    void updateWorkOrder({ id: order.id, ...whoOf(value) }).catch(fail("change who does it"));
  return (
    <div className="issue-filters" role="group" aria-label="Status and assignee">
      <label>
        <span>Status</span>
        <select
          className="input"
          value={order.status}
          onChange={(e) =>
            void updateWorkOrder({ id: order.id, status: e.target.value as (typeof settableStatuses)[number] }).catch(
              fail("change the status"),
            )
          }
        >
          {settableStatuses.map((s) => (
            <option key={s} value={s}>
              {workOrderStatusLabels[s]}
            </option>
          ))}
        </select>
      </label>
      <label>
        <span>Who does it</span>
        <select className="input" value={who} onChange={(e) => setWho(e.target.value)}>
          <WhoDoesItOptions />
        </select>
      </label>
      <TaxField order={order} />
    </div>
  );
}

function TaxField({ order }: { order: SyncedWorkOrder }) {
  const { updateWorkOrder } = useWorkOrderMutations();
  return (
    <label>
      <span>Tax ($)</span>
      <input
        className="input"
        type="number"
        min={0}
        step="0.01"
        defaultValue={order.taxCents / 100}
        aria-label="Tax"
        onBlur={(e) => {
          const cents = Math.round(Number(e.target.value) * 100);
          if (Number.isFinite(cents) && cents >= 0 && cents !== order.taxCents)
            void updateWorkOrder({ id: order.id, taxCents: cents }).catch(fail("change the tax"));
        }}
      />
    </label>
  );
}

/** The issues and service schedules the order gathers, and its free-text tasks. */
function Gathered({ order }: { order: SyncedWorkOrder }) {
  const issues = useIssues();
  const mine = issues.filter((i) => order.issueIds.includes(i.id));
  const schedules = useVehicleSchedules(order.vehicleId).filter((s) => order.scheduleIds.includes(s.id));
  if (!mine.length && !order.tasks.length && !order.scheduleIds.length) return null;
  return (
    <section aria-label="What it gathers">
      <h2>Gathers</h2>
      <ul>
        {mine.map((i) => (
          <li key={i.id}>
            <Link to={`/issues/${i.id}`}>
              Issue {i.number ? `#${i.number}` : ""} {i.title}
            </Link>{" "}
            <span className="chip">{i.status === "resolved" ? "Resolved" : i.status.replace("_", " ")}</span>
          </li>
        ))}
        {schedules.map((s) => (
          <li key={s.id}>
            <Link to={`/vehicles/${order.vehicleId}/service`}>Service: {s.name}</Link>{" "}
            <span className="chip">{statusLabel(s)}</span> <span className="muted">restarted on completion</span>
          </li>
        ))}
        {order.tasks.map((t, n) => (
          <li key={n}>{t}</li>
        ))}
      </ul>
    </section>
  );
}

function LineTable({
  order,
  lines,
  editable,
}: {
  order: SyncedWorkOrder;
  lines: SyncedWorkOrderLine[];
  editable: boolean;
}) {
  const { deleteLine } = useWorkOrderMutations();
  const parts = useParts();
  const { nameOf } = useWorkspaceMembers();
  if (!lines.length) return <p className="muted">No lines yet: add the labour and the parts that go into it.</p>;
  const what = (l: SyncedWorkOrderLine) =>
    l.description ||
    (l.partId
      ? (parts.find((p) => p.id === l.partId)?.name ?? "A removed part")
      : l.userId
        ? `Labour by ${nameOf(l.userId)}`
        : "Labour");
  return (
    <div className="table-scroll">
      <table className="simple-table" aria-label="Lines">
        <thead>
          <tr>
            <th>Kind</th>
            <th>What</th>
            <th>Qty</th>
            <th>Unit</th>
            <th>Cost</th>
            {editable ? <th aria-label="Remove" /> : null}
          </tr>
        </thead>
        <tbody>
          {lines.map((l) => (
            <tr key={l.id}>
              <td>{l.kind === "labor" ? "Labour" : "Part"}</td>
              <td>{what(l)}</td>
              <td>{l.quantity}</td>
              <td>{money(l.unitCostCents)}</td>
              <td>{money(syncedLineCents(l))}</td>
              {editable ? (
                <td>
                  <button
                    type="button"
                    className="button"
                    aria-label={`Remove ${what(l)}`}
                    onClick={() => void deleteLine(order.id, l.id).catch(fail("remove the line"))}
                  >
                    Remove
                  </button>
                </td>
              ) : null}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** A part of the inventory (its unit cost filled in), or one bought for the job. */
function PartSelect({ onUnitCost }: { onUnitCost: (dollars: string) => void }) {
  const parts = useParts();
  return (
    <label>
      <span>Part</span>
      <select
        className="input"
        name="partId"
        defaultValue=""
        onChange={(e) => {
          const part = parts.find((p) => p.id === e.target.value);
          if (part) onUnitCost(String(part.unitCostCents / 100));
        }}
      >
        <option value="">Bought for the job</option>
        {parts.map((p) => (
          <option key={p.id} value={p.id}>
            {p.name} ({p.quantityOnHand} on hand)
          </option>
        ))}
      </select>
    </label>
  );
}

/** The line a filled "Add a line" form describes, or null when its figures are not a quantity above 0 and a cost. */
function lineOf(data: FormData, kind: "labor" | "part", workOrderId: string) {
  const quantity = Number(data.get("quantity"));
  const unitCostCents = Math.round(Number(data.get("unit")) * 100);
  if (!(quantity > 0) || !(unitCostCents >= 0)) return null;
  return {
    id: crypto.randomUUID(),
    workOrderId,
    kind,
    quantity,
    unitCostCents,
    partId: kind === "part" ? String(data.get("partId") ?? "") || null : null,
    description: String(data.get("description") ?? "") || null,
    // when it was added: it orders the lines, here, on other pages and in the REST answer
    createdAt: Date.now(),
  };
}

function AddLine({ workOrderId }: { workOrderId: string }) {
  const { addLine } = useWorkOrderMutations();
  const [kind, setKind] = useState<"labor" | "part">("labor");
  const [unit, setUnit] = useState("");
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = e.currentTarget;
    const line = lineOf(new FormData(form), kind, workOrderId);
    if (!line) return void toast.error("Enter a quantity above 0 and a cost");
    void addLine(line)
      .then(() => {
        form.reset();
        setUnit("");
      })
      .catch(fail("add the line"));
  };
  return (
    <form className="work-order-form" onSubmit={submit} aria-label="Add a line">
      <label>
        <span>Kind</span>
        <select
          className="input"
          name="kind"
          value={kind}
          onChange={(e) => setKind(e.target.value as "labor" | "part")}
        >
          <option value="labor">Labour (hours × rate)</option>
          <option value="part">Part (quantity × unit cost)</option>
        </select>
      </label>
      {kind === "part" ? <PartSelect onUnitCost={setUnit} /> : null}
      <label>
        <span>Description</span>
        <input className="input" name="description" maxLength={500} />
      </label>
      <label>
        <span>{kind === "labor" ? "Hours" : "Quantity"}</span>
        <input className="input" name="quantity" type="number" min="0.01" step="0.01" required />
      </label>
      <label>
        <span>{kind === "labor" ? "Rate ($/h)" : "Unit cost ($)"}</span>
        <input
          className="input"
          name="unit"
          type="number"
          min="0"
          step="0.01"
          required
          value={unit}
          onChange={(e) => setUnit(e.target.value)}
        />
      </label>
      <div className="form-actions">
        <button type="submit" className="button primary">
          Add line
        </button>
      </div>
    </form>
  );
}

function DeleteOrder({ order }: { order: SyncedWorkOrder }) {
  const { deleteWorkOrder } = useWorkOrderMutations();
  const navigate = useNavigate();
  if (!useCan("maintenance.manage") || order.status === "completed") return null;
  return (
    <ConfirmAction
      label="Delete work order"
      question="Delete this work order and its lines?"
      confirmLabel="Delete"
      onConfirm={() =>
        deleteWorkOrder(order.id)
          .then(() => navigate("/work-orders"))
          .catch(fail("delete it"))
      }
    />
  );
}
