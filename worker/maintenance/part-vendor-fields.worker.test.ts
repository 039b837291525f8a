import { getTableColumns } from "drizzle-orm";
import type { AnyZodObject } from "zod";
import { describe, expect, it } from "vitest";
import type { FieldSpec } from "../../shared/fields/field-table";
import {
  decodePart,
  decodeVendor,
  PART_PREFIX,
  partKey,
  VENDOR_PREFIX,
  vendorKey,
  type PartWire,
  type VendorWire,
} from "../../shared/maintenance/work-orders";
import { PART_FIELD_TABLE, partTable } from "../../shared/maintenance/part-fields";
import { VENDOR_FIELD_TABLE, vendorTable } from "../../shared/maintenance/vendor-fields";
import { parts, vendors } from "../../db/schema";
import { partJson, vendorJson } from "../api/work-order-answers";
import { call, userWithWorkspace } from "../test/factories";
import { pullPatch, pushMutations } from "../test/sync";
import { partRow, vendorRow } from "../test/work-orders";

/**
 * Every field of the part and vendor tables (shared/maintenance/part-fields.ts, vendor-fields.ts,
 * docs/decisions/0100) end to end, as a client sees it: given over REST, answered, stored, listed,
 * patched, kept, cleared (unless required), pulled by sync and pushed by the mutators. A field
 * added to a table is checked here with no new test (docs/add-a-field.md); a column added without
 * its table entry, or an entry without its column, fails the last tests.
 */
interface Entity {
  path: "/api/parts" | "/api/vendors";
  table: Record<string, FieldSpec>;
  keys: readonly string[];
  /** What a create must give beside the table's required fields: a part's stock. */
  outside: Record<string, unknown>;
  mutator: "Part" | "Vendor";
  row: (id: string) => Promise<Record<string, unknown> | undefined>;
  pulled: (put: { key: string; value: unknown }) => object;
  key: (id: string) => string;
  answer: AnyZodObject;
  /** The answer's keys beside the table's. */
  answerKeys: string[];
  /** The columns beside the table's: the stock, and the row's bookkeeping. */
  columns: string[];
  columnsOf: () => string[];
}
const bookkeeping = ["id", "workspaceId", "version", "deleted", "createdVersion", "createdAt"];
const entities: [string, Entity][] = [
  [
    "part",
    {
      path: "/api/parts",
      table: PART_FIELD_TABLE,
      keys: partTable.keys,
      outside: { quantityOnHand: 5 },
      mutator: "Part",
      row: partRow,
      pulled: (p) => decodePart(p.key.slice(PART_PREFIX.length), p.value as PartWire),
      key: partKey,
      answer: partJson as unknown as AnyZodObject,
      answerKeys: ["id", "quantityOnHand", "belowReorder", "createdAt"],
      columns: [...bookkeeping, "quantityOnHand"],
      columnsOf: () => Object.keys(getTableColumns(parts)),
    },
  ],
  [
    "vendor",
    {
      path: "/api/vendors",
      table: VENDOR_FIELD_TABLE,
      keys: vendorTable.keys,
      outside: {},
      mutator: "Vendor",
      row: vendorRow,
      pulled: (p) => decodeVendor(p.key.slice(VENDOR_PREFIX.length), p.value as VendorWire),
      key: vendorKey,
      answer: vendorJson as unknown as AnyZodObject,
      answerKeys: ["id", "createdAt"],
      columns: bookkeeping,
      columnsOf: () => Object.keys(getTableColumns(vendors)),
    },
  ],
];

async function rest(token: string, path: string, method: string, json: unknown): Promise<Record<string, unknown>> {
  const res = await call(path, { method, token, json });
  expect(res.status, await res.clone().text()).toBe(method === "POST" ? 201 : 200);
  return res.json();
}

describe.each(entities)("the %s table", (name, e) => {
  const required = e.keys.filter((k) => e.table[k]!.required);
  /** What a create must give: the required fields (their examples) and what is written out. */
  const base = { ...Object.fromEntries(required.map((k) => [k, e.table[k]!.example])), ...e.outside };
  const other = (k: string) => {
    const example = e.table[k]!.example;
    return typeof example === "number" ? example + 1 : `${example} 2`;
  };
  async function pulled(token: string, id: string) {
    const { patch } = await pullPatch(token, null);
    const put = patch.find((p) => p.op === "put" && p.key === e.key(id));
    return e.pulled(put as { key: string; value: unknown }) as Record<string, unknown>;
  }

  describe.each(e.keys)(`the ${name} field %s`, (key) => {
    const example = e.table[key]!.example;
    const cleared = e.table[key]!.required ? other(key) : null;

    it("is kept as given over REST, answered, listed, patched, kept, cleared and pulled by sync", async () => {
      const { token } = await userWithWorkspace();
      const created = await rest(token, e.path, "POST", { ...base, [key]: example });
      expect(created[key]).toEqual(example);
      expect((await e.row(created.id as string))![key]).toEqual(example);
      expect((await pulled(token, created.id as string))[key]).toEqual(example);
      const listed = (await (await call(e.path, { token })).json()) as Record<string, Record<string, unknown>[]>;
      expect(Object.values(listed)[0]!.find((p) => p.id === created.id)![key]).toEqual(example);

      // without it (a required field: another value)
      const plain = await rest(token, e.path, "POST", required.includes(key) ? { ...base, [key]: other(key) } : base);
      const at = `${e.path}/${plain.id as string}`;
      expect((await rest(token, at, "PATCH", { [key]: example }))[key]).toEqual(example);
      // a patch that does not name it keeps it
      const another = e.keys.find((k) => k !== key)!;
      expect((await rest(token, at, "PATCH", { [another]: e.table[another]!.example }))[key]).toEqual(example);
      // null clears it; a required field is changed instead (null is refused: the last test)
      expect((await rest(token, at, "PATCH", { [key]: cleared }))[key]).toEqual(cleared);
      expect((await pulled(token, plain.id as string))[key]).toEqual(cleared);
    });

    it("is kept as the sync mutators give it; a value of the wrong kind is a 400", async () => {
      const { token } = await userWithWorkspace();
      const id = crypto.randomUUID();
      const create = `create${e.mutator}`;
      const made = await pushMutations(token, [{ name: create, args: { id, ...base, [key]: example } }]);
      expect(made.refused ?? []).toEqual([]);
      expect((await e.row(id))![key]).toEqual(example);
      expect((await pulled(token, id))[key]).toEqual(example);
      const changed = await pushMutations(token, [{ name: `update${e.mutator}`, args: { id, [key]: cleared } }]);
      expect(changed.refused ?? []).toEqual([]);
      expect((await e.row(id))![key]).toEqual(cleared);
      const bad = await call(e.path, { method: "POST", token, json: { ...base, [key]: {} } });
      expect(bad.status).toBe(400);
      if (required.includes(key)) {
        const at = `${e.path}/${id}`;
        expect((await call(at, { method: "PATCH", token, json: { [key]: null } })).status).toBe(400);
        const { [key]: _left, ...without } = base;
        expect((await call(e.path, { method: "POST", token, json: without })).status).toBe(400);
      }
    });
  });

  it("answers exactly the keys its declaration documents, the table's and the fixed ones", async () => {
    const { token } = await userWithWorkspace();
    const created = await rest(token, e.path, "POST", base);
    const documented = Object.keys(e.answer.shape);
    expect(Object.keys(created)).toEqual(documented);
    expect([...documented].sort()).toEqual([...e.answerKeys, ...e.keys].sort());
  });

  it("has a column for each table field, and no column the table or the fixed fields do not account for", () => {
    expect(e.columnsOf().sort()).toEqual([...e.columns, ...e.keys].sort());
  });
});
