import type { WriteTransaction } from "replicache";
import type { z } from "zod";
import { describe, expect, it } from "vitest";
import { memoryTransaction } from "../sync/memory-transaction";
import type { FieldSpec } from "../fields/field-table";
import { packId } from "../sync/wire";
import { PART_FIELD_TABLE, partTable } from "./part-fields";
import { VENDOR_FIELD_TABLE, vendorTable } from "./vendor-fields";
import { workOrderMutators as m } from "./work-order-mutators";
import {
  createPartArgs,
  createVendorArgs,
  decodePart,
  decodeVendor,
  encodePart,
  encodeVendor,
  partBody,
  partKey,
  partPatchBody,
  updatePartArgs,
  updateVendorArgs,
  vendorBody,
  vendorKey,
  vendorPatchBody,
  type PartWire,
  type VendorWire,
} from "./work-orders";

/**
 * The part and vendor tables (docs/decisions/0100) reach every place their fields are listed: the
 * body, the patch and the mutators' arguments check each field; a new part or vendor keeps it, a
 * patch changes, keeps or (unless it is required) clears it; the synced value carries it under its
 * own key, left out when empty, and reads the values a tab synced before the tables; the forms
 * list it where flagged and read it back as the mutators take it.
 */
type Table = Record<string, FieldSpec>;
interface Entity {
  table: Table;
  keys: readonly string[];
  /** What a part has beside the table: its stock (not a plain field). */
  outside: Record<string, unknown>;
  body: z.ZodTypeAny;
  patch: z.ZodTypeAny;
  createArgs: z.ZodTypeAny;
  updateArgs: z.ZodTypeAny;
  create: (tx: WriteTransaction, args: never) => Promise<void>;
  update: (tx: WriteTransaction, args: never) => Promise<void>;
  read: (map: Map<string, unknown>, id: string) => object;
  encode: (value: never) => object;
  /** The synced value as a tab from before the table wrote it, every field given. */
  yesterdays: object;
  /** The wire keys written out beside the table's. */
  fixedWire: string[];
  formFields: readonly { name: string; id: string; label: string; scale?: number }[];
  fromForm: (read: (name: string) => string) => object;
}

const part: Entity = {
  table: PART_FIELD_TABLE,
  keys: partTable.keys,
  outside: { quantityOnHand: 5 },
  ...{ body: partBody, patch: partPatchBody, createArgs: createPartArgs, updateArgs: updatePartArgs },
  create: m.createPart,
  update: m.updatePart,
  read: (map, id) => decodePart(packId(id), map.get(partKey(id)) as PartWire),
  encode: encodePart,
  yesterdays: { n: "Brake pads", u: 4_500, q: 5, no: "BP-4471", r: 2, l: "Shelf B3" } satisfies PartWire,
  fixedWire: ["q"],
  formFields: partTable.formFields,
  fromForm: partTable.fromForm as Entity["fromForm"],
};
const vendor: Entity = {
  table: VENDOR_FIELD_TABLE,
  keys: vendorTable.keys,
  outside: {},
  ...{ body: vendorBody, patch: vendorPatchBody, createArgs: createVendorArgs, updateArgs: updateVendorArgs },
  create: m.createVendor,
  update: m.updateVendor,
  read: (map, id) => decodeVendor(packId(id), map.get(vendorKey(id)) as VendorWire),
  encode: encodeVendor,
  yesterdays: { n: "Northside", e: "a@b.example", p: "+13125550142", a: "12 Mill Rd", x: "Tyres" } satisfies VendorWire,
  fixedWire: [],
  formFields: vendorTable.formFields,
  fromForm: vendorTable.fromForm as Entity["fromForm"],
};

describe.each([
  ["part", part],
  ["vendor", vendor],
])("the %s table", (_name, e) => {
  const examples = Object.fromEntries(e.keys.map((k) => [k, e.table[k]!.example]));
  const required = e.keys.filter((k) => e.table[k]!.required);
  const optional = e.keys.filter((k) => !e.table[k]!.required);
  const nulls = Object.fromEntries(optional.map((k) => [k, null]));
  /** What a create must give: the required fields and what is written out. */
  const base = { ...Object.fromEntries(required.map((k) => [k, examples[k]])), ...e.outside };
  const other = (k: string) => (typeof examples[k] === "number" ? Number(examples[k]) + 1 : `${examples[k]} 2`);

  it("is checked by the body, the patch and the sync mutators' arguments, each keeping its value", () => {
    expect(e.body.parse({ ...e.outside, ...examples })).toEqual({ ...e.outside, ...examples });
    expect(e.patch.parse(examples)).toEqual(examples);
    expect(e.createArgs.parse({ id: "p", ...e.outside, ...examples })).toMatchObject(examples);
    expect(e.updateArgs.parse({ id: "p", ...examples })).toMatchObject(examples);
    for (const k of e.keys) expect(e.patch.safeParse({ [k]: {} }).success, k).toBe(false);
    for (const k of required) expect(e.body.safeParse({ ...base, [k]: undefined }).success, k).toBe(false);
    for (const k of required) expect(e.patch.safeParse({ [k]: null }).success, k).toBe(false);
    // left out: kept by a patch; null or (for a text) empty: cleared
    expect(e.patch.parse({})).toEqual({});
    expect(e.patch.parse(nulls)).toEqual(nulls);
  });

  it("keeps what the mutators give, changes only what a patch names, and clears with null", async () => {
    const { tx, map } = memoryTransaction();
    await e.create(tx, { id: "p", ...e.outside, ...examples } as never);
    expect(e.read(map, "p")).toMatchObject(examples);
    await e.update(tx, { id: "p", [required[0]!]: other(required[0]!) } as never);
    expect(e.read(map, "p")).toMatchObject({ ...examples, [required[0]!]: other(required[0]!) });
    await e.update(tx, { id: "p", ...nulls } as never);
    expect(e.read(map, "p")).toMatchObject({ ...nulls, ...e.outside });
    await e.create(tx, { id: "plain", ...base } as never);
    expect(e.read(map, "plain")).toEqual({ id: "plain", ...base, ...nulls });
  });

  it("travels in the synced value under its own short key, left out when empty", () => {
    const wires = e.keys.map((k) => e.table[k]!.wire);
    expect(new Set([...wires, ...e.fixedWire]).size).toBe(wires.length + e.fixedWire.length);
    const plain = e.encode({ ...base, ...nulls } as never);
    expect(Object.keys(plain).sort()).toEqual([...required.map((k) => e.table[k]!.wire), ...e.fixedWire].sort());
    const full = e.encode({ ...e.outside, ...examples } as never);
    expect(full).toEqual({
      ...Object.fromEntries(e.keys.map((k) => [e.table[k]!.wire, examples[k]])),
      ...Object.fromEntries(e.fixedWire.map((w, i) => [w, Object.values(e.outside)[i]])),
    });
  });

  it("reads and writes the synced value as a tab from before the table does (same keys)", () => {
    const { tx: _tx, map } = memoryTransaction();
    map.set(e === part ? partKey("p") : vendorKey("p"), e.yesterdays);
    const { id: _id, ...decoded } = e.read(map, "p") as { id: string };
    expect(Object.keys(decoded).sort()).toEqual([...e.keys, ...Object.keys(e.outside)].sort());
    expect(e.encode(decoded as never)).toEqual(e.yesterdays);
  });

  it("lists its form inputs in its order, read back from the form's text as the mutator takes them", () => {
    expect(e.formFields.map((f) => f.name)).toEqual(e.keys.filter((k) => e.table[k]!.form));
    expect(new Set(e.formFields.map((f) => f.id)).size).toBe(e.formFields.length);
    // typed as a person would: a scaled input in its own unit (dollars for cents)
    const typed = Object.fromEntries(
      e.formFields.map((f) => [f.name, ` ${f.scale ? Number(examples[f.name]) / f.scale : examples[f.name]} `]),
    );
    const read = e.fromForm((name) => typed[name] ?? "");
    expect(read).toEqual(Object.fromEntries(e.formFields.map((f) => [f.name, examples[f.name]])));
    const blank = e.fromForm(() => " ");
    const args = e.createArgs.parse({ id: "p", ...e.outside, ...blank, ...base });
    for (const f of e.formFields.filter((f) => !required.includes(f.name))) expect(args[f.name] ?? null).toBeNull();
  });
});

describe("the part form", () => {
  it("asks for the unit cost in dollars and gives the mutator cents", () => {
    const cost = partTable.formFields.find((f) => f.name === "unitCostCents")!;
    expect(cost.label).toBe("Unit cost ($)");
    expect(partTable.fromForm((name) => (name === "unitCostCents" ? "12.34" : "")).unitCostCents).toBe(1234);
    expect(partTable.fromForm(() => "").reorderPoint).toBeUndefined();
  });
});
