import type { FormEvent } from "react";
import { toast } from "sonner";
import { useCan } from "../session/session";
import { useParts, useVendors, useWorkOrderMutations } from "../store/work-orders";
import { money } from "../maintenance/format";
import { TableInputs } from "../work-orders/table-inputs";
import { PART_FORM_FIELDS, partTableFromForm, type PartTableValues } from "../../shared/maintenance/part-fields";
import {
  VENDOR_FORM_FIELDS,
  vendorTableFromForm,
  type VendorTableValues,
} from "../../shared/maintenance/vendor-fields";

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
              {canDelete ? <th aria-label="Delete" /> : null}
            </tr>
          </thead>
          <tbody>
            {parts.map((p) => (
              <PartRow key={p.id} part={p} canEdit={canEdit} canDelete={canDelete} />
            ))}
          </tbody>
        </table>
      </div>
      {canEdit ? <AddPart /> : null}
    </section>
  );
}

function PartRow({
  part: p,
  canEdit,
  canDelete,
}: {
  part: ReturnType<typeof useParts>[number];
  canEdit: boolean;
  canDelete: boolean;
}) {
  const { updatePart, deletePart } = useWorkOrderMutations();
  return (
    <tr>
      <td>
        {p.name} {p.number ? <span className="muted">{p.number}</span> : null}{" "}
        {p.low ? <span className="chip priority-high">Reorder</span> : null}
      </td>
      <td>
        {canEdit ? (
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
        ) : (
          p.quantityOnHand
        )}
      </td>
      <td>{p.reorderPoint ?? "—"}</td>
      <td>{money(p.unitCostCents)}</td>
      <td>{p.location ?? ""}</td>
      {canDelete ? (
        <td>
          <button type="button" className="button" onClick={() => void deletePart(p.id).catch(fail("delete it"))}>
            Delete
          </button>
        </td>
      ) : null}
    </tr>
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
const PART_FORM_INPUTS = PART_FORM_FIELDS.flatMap((f) => (f.name === "unitCostCents" ? [f, ON_HAND_INPUT] : [f]));

/** A form's text for an input (the table's kit reads each back as a body gives it). */
const textIn = (data: FormData) => (name: string) => String(data.get(name) ?? "");

function AddPart() {
  const { createPart } = useWorkOrderMutations();
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = e.currentTarget;
    const read = textIn(new FormData(form));
    // The name and unit cost inputs are `required`, so given; the mutator's schema checks them all.
    const fields = partTableFromForm(read) as PartTableValues;
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
  const { deleteVendor } = useWorkOrderMutations();
  const canEdit = useCan("fleet.edit");
  const canDelete = useCan("maintenance.manage");
  return (
    <section aria-label="Vendors">
      <h2>Vendors</h2>
      <ul className="issue-list" aria-label="Vendor list">
        {vendors.map((v) => (
          <li key={v.id} className="issue-row">
            <span className="issue-title">{v.name}</span>
            <span className="issue-meta muted">{[v.email, v.phone, v.note].filter(Boolean).join(" · ")}</span>
            {canDelete ? (
              <button type="button" className="button" onClick={() => void deleteVendor(v.id).catch(fail("delete it"))}>
                Delete
              </button>
            ) : null}
          </li>
        ))}
      </ul>
      {canEdit ? <AddVendor /> : null}
    </section>
  );
}

function AddVendor() {
  const { createVendor } = useWorkOrderMutations();
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = e.currentTarget;
    // The name input is `required`, so given; the mutator's schema checks every field.
    const fields = vendorTableFromForm(textIn(new FormData(form))) as VendorTableValues;
    void createVendor({ id: crypto.randomUUID(), ...fields })
      .then(() => form.reset())
      .catch(fail("add the vendor"));
  };
  return (
    <form className="work-order-form" onSubmit={submit} aria-label="Add a vendor">
      <TableInputs fields={VENDOR_FORM_FIELDS} />
      <div className="form-actions">
        <button type="submit" className="button primary">
          Add vendor
        </button>
      </div>
    </form>
  );
}
