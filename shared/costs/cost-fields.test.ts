import type { WriteTransaction } from "replicache";
import type { z } from "zod";
import { describe, expect, it } from "vitest";
import { memoryTransaction } from "../sync/memory-transaction";
import type { FieldSpec } from "../fields/field-table";
import { EXPENSE_FIELD_TABLE, expenseTable } from "./expense-fields";
import { expenseMutators } from "./expense-mutators";
import { RENEWAL_FIELD_TABLE, renewalTable } from "./renewal-fields";
import { renewalMutators } from "./renewal-mutators";
import { FUEL_FIELD_TABLE, fuelTable } from "./fuel-fields";
import { fuelMutators } from "./fuel-mutators";
import {
  decodeFuelEntry,
  encodeFuelEntry,
  fuelEntryBodySchema,
  fuelEntryKey,
  fuelEntryPatchSchema,
  logFuelEntryArgs,
  updateFuelEntryArgs,
  type FuelEntryWire,
} from "./fuel";
import { packId } from "../sync/wire";
import {
  addRenewalArgs,
  decodeRenewal,
  encodeRenewal,
  renewalBodySchema,
  renewalKey,
  type RenewalWire,
} from "./renewals";
import {
  addExpenseArgs,
  decodeExpense,
  encodeExpense,
  expenseBodySchema,
  expenseKey,
  expensePatchSchema,
  updateExpenseArgs,
  type ExpenseWire,
} from "./expenses";

/**
 * The cost tables (shared/costs/expense-fields.ts, docs/decisions/0103) reach every place their
 * fields are listed: the body, the patch and the mutators' arguments check each field; a new
 * entity keeps it, a patch changes, keeps or (unless it is required) clears it; the synced value
 * carries it under its own key (a choice as its index), left out when empty, and reads the values
 * a tab synced before the tables; the forms list it and read it back as the mutators take it.
 */
type Table = Record<string, FieldSpec>;
interface Entity {
  table: Table;
  keys: readonly string[];
  /** What the entity has beside the table (its vehicle, its photos): not plain fields. */
  outside: Record<string, unknown>;
  /** The same as the store reads it back (a fill-up's time in ms, its cost and odometer none). */
  outsideRead: Record<string, unknown>;
  /** The object of the synced value the table's keys go in (a fill-up's is its last place). */
  tableWire: (encoded: object) => object;
  /** That object's keys beside the table's, for an entity given only what it must have. */
  fixedWire: string[];
  /** A second value of each required field (a choice's other value, another day). */
  others: Record<string, unknown>;
  body: z.ZodTypeAny;
  patch: z.ZodTypeAny | null;
  createArgs: z.ZodTypeAny;
  updateArgs: z.ZodTypeAny | null;
  create: (tx: WriteTransaction, args: never) => Promise<void>;
  update: ((tx: WriteTransaction, args: never) => Promise<void>) | null;
  read: (map: Map<string, unknown>, id: string) => object;
  encode: (value: never) => object;
  key: (id: string) => string;
  /** The synced value as a tab from before the table wrote it, every field given, and its fields. */
  yesterdays: object;
  yesterdaysFields: object;
  /** The synced value's keys are written in the order they were (a renewal's name now comes before its due date). */
  sameKeyOrder: boolean;
  formFields: readonly { name: string; id: string; label: string; scale?: number }[];
  formChecks: Record<string, z.ZodTypeAny>;
  formValuesOf: ((values: never) => object) | null;
}

const PHOTO = "5f0c2b9e-8a41-4c3e-9d2a-1b7e6f3a9c10";
const vehicleAndPhotos = { vehicleId: "v1", photoIds: [PHOTO] };
const expense: Entity = {
  table: EXPENSE_FIELD_TABLE,
  keys: expenseTable.keys,
  outside: vehicleAndPhotos,
  outsideRead: vehicleAndPhotos,
  tableWire: (w) => w,
  fixedWire: ["v"],
  others: { date: "2026-11-21", kind: "insurance", costCents: 1251 },
  ...{ body: expenseBodySchema, patch: expensePatchSchema, createArgs: addExpenseArgs, updateArgs: updateExpenseArgs },
  create: expenseMutators.addExpense,
  update: expenseMutators.updateExpense,
  read: (map, id) => decodeExpense(id, map.get(expenseKey(id)) as ExpenseWire),
  encode: encodeExpense,
  key: expenseKey,
  yesterdays: { v: "v1", d: "2026-11-20", k: 2, c: 1250, n: "Bridge", ph: [PHOTO] } satisfies ExpenseWire,
  yesterdaysFields: { date: "2026-11-20", kind: "tolls", costCents: 1250, note: "Bridge", ...vehicleAndPhotos },
  sameKeyOrder: true,
  formFields: expenseTable.formFields,
  formChecks: expenseTable.formChecks,
  formValuesOf: expenseTable.formValuesOf,
};

/** A renewal has no patch: renewing (its own route and mutator) moves only its due date. */
const renewal: Entity = {
  table: RENEWAL_FIELD_TABLE,
  keys: renewalTable.keys,
  outside: vehicleAndPhotos,
  outsideRead: vehicleAndPhotos,
  tableWire: (w) => w,
  fixedWire: ["v"],
  others: {},
  ...{ body: renewalBodySchema, patch: null, createArgs: addRenewalArgs, updateArgs: null },
  create: renewalMutators.addRenewal,
  update: null,
  read: (map, id) => decodeRenewal(id, map.get(renewalKey(id)) as RenewalWire),
  encode: encodeRenewal,
  key: renewalKey,
  yesterdays: { v: "v1", k: 2, d: "2027-03-31", n: "Harbour", r: 14, ph: [PHOTO] } satisfies RenewalWire,
  yesterdaysFields: {
    kind: "permit",
    name: "Harbour",
    dueDate: "2027-03-31",
    remindDaysBefore: 14,
    ...vehicleAndPhotos,
  },
  sameKeyOrder: false,
  formFields: renewalTable.formFields,
  formChecks: renewalTable.formChecks,
  formValuesOf: null,
};

/** A fill-up: the table's fields travel in the last place of its positional synced value (ADR 0061). */
const FILLED = "2026-11-20T08:30:00.000Z";
const fillUp = { vehicleId: "v1", at: FILLED, volumeLitres: 40.5, fullTank: false, photoIds: [PHOTO] };
const fuel: Entity = {
  table: FUEL_FIELD_TABLE,
  keys: fuelTable.keys,
  outside: fillUp,
  outsideRead: { ...fillUp, at: Date.parse(FILLED), costCents: null, odometerMiles: null },
  tableWire: (w) => (w as FuelEntryWire)[5] ?? {},
  fixedWire: ["p", "ph"],
  others: {},
  ...{ body: fuelEntryBodySchema, patch: fuelEntryPatchSchema, createArgs: logFuelEntryArgs },
  updateArgs: updateFuelEntryArgs,
  create: fuelMutators.logFuelEntry,
  update: fuelMutators.updateFuelEntry,
  read: (map, id) => decodeFuelEntry(id, map.get(fuelEntryKey(id)) as FuelEntryWire),
  encode: encodeFuelEntry,
  key: fuelEntryKey,
  yesterdays: [packId("v1"), Date.parse(FILLED) / 1000, 40.5, 6000, 12345.6, { p: 1, vn: "Shell", ph: [PHOTO] }],
  yesterdaysFields: {
    ...fillUp,
    at: Date.parse(FILLED),
    costCents: 6000,
    odometerMiles: 12345.6,
    vendor: "Shell",
  },
  sameKeyOrder: true,
  formFields: fuelTable.formFields,
  formChecks: fuelTable.formChecks,
  formValuesOf: fuelTable.formValuesOf,
};

describe.each([
  ["expense", expense],
  ["renewal", renewal],
  ["fuel entry", fuel],
])("the %s table", (_name, e) => {
  // the examples' days are kept within the bodies' range of today
  const today = new Date().toISOString().slice(0, 10);
  const examples: Record<string, unknown> = Object.fromEntries(
    e.keys.map((k) => [k, e.table[k]!.form?.type === "date" ? today : e.table[k]!.example]),
  );
  const required = e.keys.filter((k) => e.table[k]!.required);
  const optional = e.keys.filter((k) => !e.table[k]!.required);
  const nulls = Object.fromEntries(optional.map((k) => [k, null]));
  const empties = Object.fromEntries(
    optional.map((k) => [k, e.table[k]!.kind === "number" ? e.table[k]!.default : null]),
  );
  const baseRequired = Object.fromEntries(required.map((k) => [k, examples[k]]));
  const base = { ...baseRequired, ...e.outside };

  it("is checked by the body, the patch and the sync mutators' arguments, each keeping its value", () => {
    expect(e.body.parse({ ...e.outside, ...examples })).toMatchObject(examples);
    expect(e.createArgs.parse({ id: "x", ...e.outside, ...examples })).toMatchObject(examples);
    for (const k of e.keys) expect(e.body.safeParse({ ...base, [k]: {} }).success, k).toBe(false);
    for (const k of required) expect(e.body.safeParse({ ...base, [k]: undefined }).success, k).toBe(false);
    if (!e.patch || !e.updateArgs) return;
    expect(e.patch.parse(examples)).toEqual(examples);
    expect(e.updateArgs.parse({ id: "x", ...examples })).toMatchObject(examples);
    for (const k of e.keys) expect(e.patch.safeParse({ [k]: {} }).success, k).toBe(false);
    for (const k of required) expect(e.patch.safeParse({ [k]: null }).success, k).toBe(false);
    expect(e.patch.parse({})).toEqual({});
    expect(e.patch.parse(nulls)).toEqual(nulls);
  });

  it("keeps what the mutators give, changes only what a patch names, and clears with null", async () => {
    const { tx, map } = memoryTransaction();
    await e.create(tx, { id: "x", ...e.outside, ...examples } as never);
    expect(e.read(map, "x")).toEqual({ id: "x", ...e.outsideRead, ...examples });
    await e.create(tx, { id: "plain", ...base } as never);
    expect(e.read(map, "plain")).toEqual({ id: "plain", ...e.outsideRead, ...baseRequired, ...empties });
    if (!e.update) return;
    for (const k of required) {
      await e.update(tx, { id: "x", [k]: e.others[k] } as never);
      expect(e.read(map, "x")).toMatchObject({ [k]: e.others[k] });
    }
    await e.update(tx, { id: "x", ...nulls } as never);
    expect(e.read(map, "x")).toEqual({ id: "x", ...e.outsideRead, ...e.others, ...empties });
  });

  it("travels in the synced value under its own short key, left out when empty", () => {
    const wires = e.keys.map((k) => e.table[k]!.wire);
    expect(new Set([...wires, ...e.fixedWire]).size).toBe(wires.length + e.fixedWire.length);
    const plain = e.tableWire(e.encode({ ...e.outsideRead, ...baseRequired, ...empties, photoIds: [] } as never));
    const fixedWhenPlain = Object.keys(plain).filter((w) => e.fixedWire.includes(w));
    expect(Object.keys(plain).sort()).toEqual([...required.map((k) => e.table[k]!.wire), ...fixedWhenPlain].sort());
    const full = e.tableWire(e.encode({ ...e.outsideRead, ...examples } as never)) as Record<string, unknown>;
    for (const k of e.keys) expect(full[e.table[k]!.wire], k).toBeDefined();
  });

  it("reads and writes the synced value as a tab from before the table does (same keys, same order)", () => {
    const { map } = memoryTransaction();
    map.set(e.key("x"), e.yesterdays);
    // a field the table gained since reads as empty
    expect(e.read(map, "x")).toEqual({ id: "x", ...empties, ...e.yesterdaysFields });
    const { id: _id, ...decoded } = e.read(map, "x") as { id: string };
    expect(e.encode(decoded as never)).toEqual(e.yesterdays);
    if (e.sameKeyOrder) expect(JSON.stringify(e.encode(decoded as never))).toBe(JSON.stringify(e.yesterdays));
  });

  it("lists its form inputs in its order, read back from the form's text as the mutator takes them", () => {
    expect(e.formFields.map((f) => f.name)).toEqual(e.keys.filter((k) => e.table[k]!.form));
    expect(new Set(e.formFields.map((f) => f.id)).size).toBe(e.formFields.length);
    // typed as a person would: a scaled input in its own unit (dollars for cents), as the Edit form shows it
    const shown = (e.formValuesOf?.(examples as never) ?? examples) as Record<string, string | number>;
    const typed = Object.fromEntries(e.formFields.map((f) => [f.name, ` ${shown[f.name]} `]));
    const read = Object.fromEntries(e.formFields.map((f) => [f.name, e.formChecks[f.name]!.parse(typed[f.name])]));
    expect(read).toEqual(Object.fromEntries(e.formFields.map((f) => [f.name, examples[f.name]])));
    // a blank input: none, or the field's default
    for (const f of e.formFields.filter((f) => !required.includes(f.name)))
      expect(e.formChecks[f.name]!.parse(" ") ?? null, f.name).toEqual(empties[f.name]);
    for (const f of e.formFields.filter((f) => required.includes(f.name)))
      expect(e.formChecks[f.name]!.safeParse("").error?.issues[0]?.message, f.name).toMatch(/Required|One of/);
  });
});
