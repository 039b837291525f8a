import { useState, type FormEvent, type ReactNode } from "react";
import { toast } from "sonner";
import { useCan } from "../session/session";
import { useParts, useVendors, useWorkOrderMutations } from "../store/work-orders";
import { money } from "../maintenance/format";
import { formReader, TableInputs } from "../components/table-inputs";
import { ConfirmAction } from "../components/form";
import { type PartTableValues, partTable } from "../../shared/maintenance/part-fields";
import { type VendorTableValues, vendorTable } from "../../shared/maintenance/vendor-fields";

export const meta = () => [{ title: "Parts and vendors" }];

const fail = (what: string) => () => toast.error(`Could not ${what}`);

/** Parts and vendors (issue 55): the inventory with its reorder points, and who does work elsewhere; offline too. */
export default function PartsPage() {
  return (
    <section className="page">
      <header className="page-header">
        <h1>Parts and vendors</h1>
      </header>
      <Parts />
      <Vendors />
    </section>
  );
}

function Parts() {
  const parts = useParts();
  const canEdit = useCan("fleet.edit");
  const canDelete = useCan("maintenance.manage");
  // One part edited at a time, under the table: inside a row, the form would scroll sideways with it on a phone.
  const [editingId, setEditingId] = useState<string | null>(null);
  const editing = parts.find((p) => p.id === editingId);
  return (
    <section aria-label="Parts">
      <h2>Parts</h2>
      {parts.length === 0 ? <p className="muted">No parts in stock yet.</p> : null}
      <div className="table-scroll">
        <table className="simple-table" aria-label="Parts in stock">
          <thead>
            <tr>
              <th>Part</th>
              <th>On hand</th>
              <th>Reorder at</th>
              <th>Unit cost</th>
              <th>Where</th>
              {canDelete || canEdit ? <th aria-label="Actions" /> : null}
            </tr>
          </thead>
          <tbody>
            {parts.map((p) => (
              <PartRow
                key={p.id}
                part={p}
                canEdit={canEdit}
                canDelete={canDelete}
                onEdit={() => setEditingId(editingId === p.id ? null : p.id)}
              />
            ))}
          </tbody>
        </table>
      </div>
      {editing && canEdit ? <PartEditForm key={editing.id} part={editing} onDone={() => setEditingId(null)} /> : null}
      {canEdit ? <AddPart /> : null}
    </section>
  );
}

function PartRow({
  part: p,
  canEdit,
  canDelete,
  onEdit,
}: {
  part: ReturnType<typeof useParts>[number];
  canEdit: boolean;
  canDelete: boolean;
  onEdit: () => void;
}) {
  const { deletePart } = useWorkOrderMutations();
  return (
    <tr>
      <td>
        {p.name} {p.number ? <span className="muted">{p.number}</span> : null}{" "}
        {p.low ? <span className="chip priority-high">Reorder</span> : null}
      </td>
      <td>{canEdit ? <OnHand part={p} /> : p.quantityOnHand}</td>
      <td>{p.reorderPoint ?? "—"}</td>
      <td>{money(p.unitCostCents)}</td>
      <td>{p.location ?? ""}</td>
      {canDelete || canEdit ? (
        <td className="row-actions">
          <RowActions
            name={p.name}
            canEdit={canEdit}
            onEdit={onEdit}
            deletion={
              canDelete
                ? {
                    question: `Delete ${p.name} from the inventory?`,
                    confirmLabel: "Delete part",
                    run: () => deletePart(p.id).catch(fail("delete it")),
                  }
                : null
            }
          />
        </td>
      ) : null}
    </tr>
  );
}

/** A part's table fields edited under the table; the stock stays in its own input in the row. */
function PartEditForm({ part: p, onDone }: { part: ReturnType<typeof useParts>[number]; onDone: () => void }) {
  const { updatePart } = useWorkOrderMutations();
  return (
    <EditForm
      name={`Edit ${p.name}`}
      onCancel={onDone}
      onSave={(read) =>
        updatePart({ id: p.id, ...partTable.fromForm(read) })
          .then(onDone)
          .catch(fail("save the part"))
      }
    >
      <TableInputs fields={partTable.formFields} values={p} idPrefix={`edit-${p.id}`} />
    </EditForm>
  );
}

/** A row's Edit (opens its form) and Delete (asks first). */
function RowActions({
  name,
  canEdit,
  onEdit,
  deletion,
}: {
  name: string;
  canEdit: boolean;
  onEdit: () => void;
  deletion: { question: string; confirmLabel: string; run: () => Promise<unknown> } | null;
}) {
  return (
    <>
      {canEdit ? (
        <button type="button" className="button" aria-label={`Edit ${name}`} onClick={onEdit}>
          Edit
        </button>
      ) : null}{" "}
      {deletion ? (
        <ConfirmAction
          label="Delete"
          ariaLabel={`Delete ${name}`}
          question={deletion.question}
          confirmLabel={deletion.confirmLabel}
          onConfirm={deletion.run}
          className="button"
        />
      ) : null}
    </>
  );
}

/** The stock typed in place (a count corrects it): not a field of the table, as completing takes from it. */
function OnHand({ part: p }: { part: ReturnType<typeof useParts>[number] }) {
  const { updatePart } = useWorkOrderMutations();
  return (
    <input
      className="input"
      type="number"
      min={0}
      step="any"
      aria-label={`${p.name} on hand`}
      defaultValue={p.quantityOnHand}
      key={p.quantityOnHand}
      onBlur={(e) => {
        const q = Number(e.target.value);
        if (Number.isFinite(q) && q >= 0 && q !== p.quantityOnHand)
          void updatePart({ id: p.id, quantityOnHand: q }).catch(fail("change the stock"));
      }}
    />
  );
}

/** An entity's fields edited in place: its table's inputs, Save and Cancel; saved through its sync mutator (offline too). */
function EditForm({
  name,
  onSave,
  onCancel,
  children,
}: {
  name: string;
  onSave: (read: (field: string) => string) => unknown;
  onCancel: () => void;
  children: ReactNode;
}) {
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    void onSave(formReader(new FormData(e.currentTarget)));
  };
  return (
    <form className="work-order-form" onSubmit={submit} aria-label={name}>
      {children}
      <div className="form-actions">
        <button type="submit" className="button primary">
          Save
        </button>
        <button type="button" className="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}

/** The stock, asked for after the unit cost (where it always stood): not a field of the table. */
const ON_HAND_INPUT = {
  name: "quantityOnHand",
  id: "part-on-hand",
  label: "On hand",
  type: "number",
  min: 0,
  step: "any",
  required: true,
} as const;
const PART_FORM_INPUTS = partTable.formFields.flatMap((f) => (f.name === "unitCostCents" ? [f, ON_HAND_INPUT] : [f]));

function AddPart() {
  const { createPart } = useWorkOrderMutations();
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = e.currentTarget;
    const read = formReader(new FormData(form));
    // The name and unit cost inputs are `required`, so given; the mutator's schema checks them all.
    const fields = partTable.fromForm(read) as PartTableValues;
    void createPart({ id: crypto.randomUUID(), ...fields, quantityOnHand: Number(read("quantityOnHand")) })
      .then(() => form.reset())
      .catch(fail("add the part"));
  };
  return (
    <form className="work-order-form" onSubmit={submit} aria-label="Add a part">
      <TableInputs fields={PART_FORM_INPUTS} />
      <div className="form-actions">
        <button type="submit" className="button primary">
          Add part
        </button>
      </div>
    </form>
  );
}

function Vendors() {
  const vendors = useVendors();
  const canEdit = useCan("fleet.edit");
  const canDelete = useCan("maintenance.manage");
  return (
    <section aria-label="Vendors">
      <h2>Vendors</h2>
      <ul className="issue-list" aria-label="Vendor list">
        {vendors.map((v) => (
          <VendorRow key={v.id} vendor={v} canEdit={canEdit} canDelete={canDelete} />
        ))}
      </ul>
      {canEdit ? <AddVendor /> : null}
    </section>
  );
}

function VendorRow({
  vendor: v,
  canEdit,
  canDelete,
}: {
  vendor: ReturnType<typeof useVendors>[number];
  canEdit: boolean;
  canDelete: boolean;
}) {
  const { updateVendor, deleteVendor } = useWorkOrderMutations();
  const [editing, setEditing] = useState(false);
  return (
    <li className="issue-row">
      <span className="issue-title">{v.name}</span>
      <span className="issue-meta muted">{[v.email, v.phone, v.note].filter(Boolean).join(" · ")}</span>
      <RowActions
        name={v.name}
        canEdit={canEdit}
        onEdit={() => setEditing(!editing)}
        deletion={
          canDelete
            ? {
                question: `Delete ${v.name}? Work orders sent to them keep their name.`,
                confirmLabel: "Delete vendor",
                run: () => deleteVendor(v.id).catch(fail("delete it")),
              }
            : null
        }
      />
      {editing ? (
        <EditForm
          name={`Edit ${v.name}`}
          onCancel={() => setEditing(false)}
          onSave={(read) =>
            updateVendor({ id: v.id, ...vendorTable.fromForm(read) })
              .then(() => setEditing(false))
              .catch(fail("save the vendor"))
          }
        >
          <TableInputs fields={vendorTable.formFields} values={v} idPrefix={`edit-${v.id}`} />
        </EditForm>
      ) : null}
    </li>
  );
}

function AddVendor() {
  const { createVendor } = useWorkOrderMutations();
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = e.currentTarget;
    // The name input is `required`, so given; the mutator's schema checks every field.
    const fields = vendorTable.fromForm(formReader(new FormData(form))) as VendorTableValues;
    void createVendor({ id: crypto.randomUUID(), ...fields })
      .then(() => form.reset())
      .catch(fail("add the vendor"));
  };
  return (
    <form className="work-order-form" onSubmit={submit} aria-label="Add a vendor">
      <TableInputs fields={vendorTable.formFields} />
      <div className="form-actions">
        <button type="submit" className="button primary">
          Add vendor
        </button>
      </div>
    </form>
  );
}
