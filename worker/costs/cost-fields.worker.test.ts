import { env } from "cloudflare:workers";
import { eq, getTableColumns } from "drizzle-orm";
import type { AnyZodObject } from "zod";
import { describe, expect, it } from "vitest";
import type { FieldSpec } from "../../shared/fields/field-table";
import { decodeExpense, EXPENSE_PREFIX, expenseKey, type ExpenseWire } from "../../shared/costs/expenses";
import { EXPENSE_FIELD_TABLE, expenseTable } from "../../shared/costs/expense-fields";
import { decodeRenewal, RENEWAL_PREFIX, renewalKey, type RenewalWire } from "../../shared/costs/renewals";
import { RENEWAL_FIELD_TABLE, renewalTable } from "../../shared/costs/renewal-fields";
import {
  decodeFuelEntry,
  FUEL_ENTRY_PREFIX,
  fuelEntryIdOfKeyPart,
  fuelEntryKey,
  type FuelEntryWire,
} from "../../shared/costs/fuel";
import { FUEL_FIELD_TABLE, fuelTable } from "../../shared/costs/fuel-fields";
import { expenses, fuelEntries, renewals } from "../../db/schema";
import { expense as expenseAnswer, renewal as renewalAnswer } from "../api/cost-answers";
import { fuelEntry as fuelEntryAnswer } from "../api/fuel-answers";
import { database } from "../test/db";
import { call, userWithWorkspace, vehicleWithOdometer } from "../test/factories";
import { pullPatch, pushMutations } from "../test/sync";

/**
 * Every field of the cost tables (shared/costs/expense-fields.ts, renewal-fields.ts, fuel-fields.ts,
 * docs/decisions/0103) end to end, as a client sees it: given over REST, answered, stored, listed,
 * patched, kept, cleared (unless required; a renewal has no patch), pulled by sync and pushed by
 * the mutators. A field added to a table is checked here
 * with no new test (docs/add-a-field.md); a column added without its table entry, or an entry
 * without its column, fails the last tests.
 */
interface Entity {
  path: string;
  table: Record<string, FieldSpec>;
  keys: readonly string[];
  /** A second value of each required field (a choice's other value, another day). */
  others: Record<string, unknown>;
  /** What a create must give beside its vehicle and the table's required fields (a fill-up's time, litres, fill). */
  extra: Record<string, unknown>;
  /** The sync mutators' names: the create, and the update where the entity has one. */
  create: string;
  update: string | null;
  row: (id: string) => Promise<Record<string, unknown> | undefined>;
  pulled: (put: { key: string; value: unknown }) => object;
  key: (id: string) => string;
  answer: AnyZodObject;
  /** The answer's keys beside the table's. */
  answerKeys: string[];
  /** The columns beside the table's: the vehicle, the photos, the row's bookkeeping. */
  columns: string[];
  columnsOf: () => string[];
}
const DAY = 86_400_000;
const dayAgo = (n: number) => new Date(Date.now() - n * DAY).toISOString().slice(0, 10);
const bookkeeping = ["id", "workspaceId", "version", "deleted", "createdVersion", "createdAt", "createdByUserId"];
const entities: [string, Entity][] = [
  [
    "expense",
    {
      path: "/api/expenses",
      table: EXPENSE_FIELD_TABLE,
      keys: expenseTable.keys,
      others: { date: dayAgo(3), kind: "insurance", costCents: 1251 },
      extra: {},
      create: "addExpense",
      update: "updateExpense",
      row: (id) => database(env.DB).select().from(expenses).where(eq(expenses.id, id)).get(),
      pulled: (p) => decodeExpense(p.key.slice(EXPENSE_PREFIX.length), p.value as ExpenseWire),
      key: expenseKey,
      answer: expenseAnswer as unknown as AnyZodObject,
      answerKeys: ["id", "vehicleId", "photoIds", "createdAt"],
      columns: [...bookkeeping, "vehicleId", "photoIds"],
      columnsOf: () => Object.keys(getTableColumns(expenses)),
    },
  ],
  [
    "renewal",
    {
      path: "/api/renewals",
      table: RENEWAL_FIELD_TABLE,
      keys: renewalTable.keys,
      others: {},
      extra: {},
      create: "addRenewal",
      update: null,
      row: (id) => database(env.DB).select().from(renewals).where(eq(renewals.id, id)).get(),
      pulled: (p) => decodeRenewal(p.key.slice(RENEWAL_PREFIX.length), p.value as RenewalWire),
      key: renewalKey,
      answer: renewalAnswer as unknown as AnyZodObject,
      answerKeys: ["id", "vehicleId", "photoIds", "status", "renewedAt", "createdAt"],
      // when its reminder went out and when it was last renewed: the notices' and renewing's, not given
      columns: [...bookkeeping, "vehicleId", "photoIds", "announced", "renewedAt"],
      columnsOf: () => Object.keys(getTableColumns(renewals)),
    },
  ],
  [
    "fuel entry",
    {
      path: "/api/fuel-entries",
      table: FUEL_FIELD_TABLE,
      keys: fuelTable.keys,
      others: {},
      extra: { at: new Date(Date.now() - 2 * DAY).toISOString(), volumeLitres: 40, fullTank: true },
      create: "logFuelEntry",
      update: "updateFuelEntry",
      row: (id) => database(env.DB).select().from(fuelEntries).where(eq(fuelEntries.id, id)).get(),
      pulled: (p) =>
        decodeFuelEntry(fuelEntryIdOfKeyPart(p.key.slice(FUEL_ENTRY_PREFIX.length)), p.value as FuelEntryWire),
      key: fuelEntryKey,
      answer: fuelEntryAnswer as unknown as AnyZodObject,
      answerKeys: [
        ...["id", "vehicleId", "at", "volumeLitres", "costCents", "fullTank", "odometerMiles"],
        ...["photoIds", "createdAt", "flags"],
      ],
      // each with a rule of its own (shared/costs/fuel-fields.ts says which)
      columns: [
        ...bookkeeping,
        ...["vehicleId", "at", "volumeLitres", "costCents", "fullTank", "odometerMiles", "photoIds"],
      ],
      columnsOf: () => Object.keys(getTableColumns(fuelEntries)),
    },
  ],
];

async function rest(token: string, path: string, method: string, json: unknown): Promise<Record<string, unknown>> {
  const res = await call(path, { method, token, json });
  expect(res.status, await res.clone().text()).toBe(method === "POST" ? 201 : 200);
  return res.json();
}

/** A workspace with a vehicle: what every cost entity belongs to. */
async function fleet() {
  const { token, workspaceId } = await userWithWorkspace();
  return { token, vehicleId: await vehicleWithOdometer(workspaceId, 100) };
}

describe.each(entities)("the %s table", (name, e) => {
  // a day within the bodies' range of today (and the synced window), not the table's fixed example
  const exampleOf = (k: string) => (e.table[k]!.form?.type === "date" ? dayAgo(2) : e.table[k]!.example);
  const required = e.keys.filter((k) => e.table[k]!.required);
  const base = (vehicleId: string): Record<string, unknown> => ({
    vehicleId,
    ...e.extra,
    ...Object.fromEntries(required.map((k) => [k, exampleOf(k)])),
  });
  async function pulled(token: string, id: string) {
    const { patch } = await pullPatch(token, null);
    const put = patch.find((p) => p.op === "put" && p.key === e.key(id));
    return e.pulled(put as { key: string; value: unknown }) as Record<string, unknown>;
  }

  describe.each(e.keys)(`the ${name} field %s`, (key) => {
    const example = exampleOf(key);
    const spec = e.table[key]!;
    const cleared = spec.required ? e.others[key] : spec.kind === "number" ? spec.default : null;

    it("is kept as given over REST, answered, listed, patched, kept, cleared and pulled by sync", async () => {
      const { token, vehicleId } = await fleet();
      const created = await rest(token, e.path, "POST", { ...base(vehicleId), [key]: example });
      expect(created[key]).toEqual(example);
      expect((await e.row(created.id as string))![key]).toEqual(example);
      expect((await pulled(token, created.id as string))[key]).toEqual(example);
      const listed = (await (await call(e.path, { token })).json()) as Record<string, Record<string, unknown>[]>;
      expect(Object.values(listed)[0]!.find((p) => p.id === created.id)![key]).toEqual(example);
      if (!e.update) return;

      // without it (a required field: another value)
      const plain = await rest(token, e.path, "POST", {
        ...base(vehicleId),
        ...(spec.required ? { [key]: cleared } : {}),
      });
      const at = `${e.path}/${plain.id as string}`;
      expect((await rest(token, at, "PATCH", { [key]: example }))[key]).toEqual(example);
      // a patch that does not name it keeps it
      // (another table field, or for a table of one, none: an empty patch)
      const another = e.keys.find((k) => k !== key);
      const other = another === undefined ? {} : { [another]: exampleOf(another) };
      expect((await rest(token, at, "PATCH", other))[key]).toEqual(example);
      // null clears it; a required field is changed instead (null is refused: the next test)
      expect((await rest(token, at, "PATCH", { [key]: spec.required ? cleared : null }))[key]).toEqual(cleared);
      expect((await pulled(token, plain.id as string))[key]).toEqual(cleared);
    });

    it("is kept as the sync mutators give it; a value of the wrong kind is a 400", async () => {
      const { token, vehicleId } = await fleet();
      const id = crypto.randomUUID();
      const made = await pushMutations(token, [{ name: e.create, args: { id, ...base(vehicleId), [key]: example } }]);
      expect(made.refused ?? []).toEqual([]);
      expect((await e.row(id))![key]).toEqual(example);
      expect((await pulled(token, id))[key]).toEqual(example);
      if (e.update) {
        const change = spec.required ? cleared : null;
        const changed = await pushMutations(token, [{ name: e.update, args: { id, [key]: change } }]);
        expect(changed.refused ?? []).toEqual([]);
        expect((await e.row(id))![key]).toEqual(cleared);
        expect((await pulled(token, id))[key]).toEqual(cleared);
      }
      const bad = await call(e.path, { method: "POST", token, json: { ...base(vehicleId), [key]: {} } });
      expect(bad.status).toBe(400);
      if (spec.required) {
        const { [key]: _left, ...without } = base(vehicleId);
        expect((await call(e.path, { method: "POST", token, json: without })).status).toBe(400);
        if (e.update) {
          const at = `${e.path}/${id}`;
          expect((await call(at, { method: "PATCH", token, json: { [key]: null } })).status).toBe(400);
        }
      }
    });
  });

  it("answers exactly the keys its declaration documents, the table's and the fixed ones", async () => {
    const { token, vehicleId } = await fleet();
    const created = await rest(token, e.path, "POST", base(vehicleId));
    const documented = Object.keys(e.answer.shape);
    expect(Object.keys(created)).toEqual(documented);
    expect([...documented].sort()).toEqual([...e.answerKeys, ...e.keys].sort());
  });

  it("has a column for each table field, and no column the table or the fixed fields do not account for", () => {
    expect(e.columnsOf().sort()).toEqual([...e.columns, ...e.keys].sort());
  });
});
