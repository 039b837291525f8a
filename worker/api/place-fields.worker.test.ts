import { env } from "cloudflare:workers";
import { eq, getTableColumns } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { FieldSpec } from "../../shared/fields/field-table";
import { decodePlace, PLACE_PREFIX, placeKey, placeSchema, type PlaceWire } from "../../shared/places/places";
import { PLACE_FIELD_TABLE, placeTable } from "../../shared/places/place-fields";
import { database } from "../../db/client";
import { places } from "../../db/schema";
import { call, userWithWorkspace } from "../test/factories";
import { pullPatch, pushMutations } from "../test/sync";

/**
 * Every field of the place table (shared/places/place-fields.ts, docs/decisions/0105) end to end,
 * as a client sees it: given over REST, answered, stored, listed, patched, kept, cleared (unless
 * required), pulled by sync and pushed by the mutators. A field added to the table is checked here
 * with no new test (docs/add-a-field.md); a column added without its table entry fails the last test.
 */
const table: Record<string, FieldSpec> = PLACE_FIELD_TABLE;
const circle = { type: "Circle", center: [-87.63, 41.88], radius: 150 };
const bigger = { ...circle, radius: 300 };
const required = placeTable.keys.filter((k) => table[k]!.required);
/** What a create must give: the required fields (their examples) and the geometry, written out. */
const base: Record<string, unknown> = {
  ...Object.fromEntries(required.map((k) => [k, table[k]!.example])),
  geometry: circle,
};
const other = (k: string) => {
  const example = table[k]!.example;
  return typeof example === "number" ? example + 1 : `${example} 2`;
};
/** The columns beside the table's: the geometry, and the row's bookkeeping. */
const COLUMNS_OUTSIDE_THE_TABLE = [
  "id",
  "workspaceId",
  "version",
  "deleted",
  "createdVersion",
  "geometry",
  "createdAt",
];

const row = (id: string) => database(env.DB).select().from(places).where(eq(places.id, id)).get();

async function rest(token: string, path: string, method: string, json: unknown): Promise<Record<string, unknown>> {
  const res = await call(path, { method, token, json });
  expect(res.status, await res.clone().text()).toBe(method === "POST" ? 201 : 200);
  return res.json();
}

async function pulled(token: string, id: string): Promise<Record<string, unknown>> {
  const { patch } = await pullPatch(token, null);
  const put = patch.find((p) => p.op === "put" && p.key === placeKey(id))!;
  return decodePlace(put.key.slice(PLACE_PREFIX.length), put.value as PlaceWire);
}

describe.each(placeTable.keys)("the place field %s", (key) => {
  const example = table[key]!.example;
  const cleared = table[key]!.required ? other(key) : null;

  it("is kept as given over REST, answered, listed, patched, kept, cleared and pulled by sync", async () => {
    const { token } = await userWithWorkspace();
    const created = await rest(token, "/api/places", "POST", { ...base, [key]: example });
    expect(created[key]).toEqual(example);
    expect((await row(created.id as string))![key]).toEqual(example);
    expect((await pulled(token, created.id as string))[key]).toEqual(example);
    const listed = (await (await call("/api/places", { token })).json()) as { places: Record<string, unknown>[] };
    expect(listed.places.find((p) => p.id === created.id)![key]).toEqual(example);

    // without it (a required field: another value)
    const plain = await rest(
      token,
      "/api/places",
      "POST",
      required.includes(key) ? { ...base, [key]: other(key) } : base,
    );
    const at = `/api/places/${plain.id as string}`;
    expect((await rest(token, at, "PATCH", { [key]: example }))[key]).toEqual(example);
    // a patch that does not name it (a reshape) keeps it
    const reshaped = await rest(token, at, "PATCH", { geometry: bigger });
    expect([reshaped[key], reshaped.geometry]).toEqual([example, bigger]);
    // null clears it; a required field is changed instead (null is refused: the next test)
    const changed = await rest(token, at, "PATCH", { [key]: cleared });
    expect([changed[key], changed.geometry]).toEqual([cleared, bigger]);
    expect((await pulled(token, plain.id as string))[key]).toEqual(cleared);
  });

  it("is kept as the sync mutators give it; a value of the wrong kind is a 400", async () => {
    const { token } = await userWithWorkspace();
    const id = crypto.randomUUID();
    const made = await pushMutations(token, [{ name: "createPlace", args: { id, ...base, [key]: example } }]);
    expect(made.refused ?? []).toEqual([]);
    expect((await row(id))![key]).toEqual(example);
    expect((await pulled(token, id))[key]).toEqual(example);
    const reshaped = await pushMutations(token, [{ name: "updatePlace", args: { id, geometry: bigger } }]);
    expect(reshaped.refused ?? []).toEqual([]);
    expect([(await row(id))![key], (await row(id))!.geometry]).toEqual([example, bigger]);
    const changed = await pushMutations(token, [{ name: "updatePlace", args: { id, [key]: cleared } }]);
    expect(changed.refused ?? []).toEqual([]);
    expect([(await row(id))![key], (await row(id))!.geometry]).toEqual([cleared, bigger]);
    const bad = await call("/api/places", { method: "POST", token, json: { ...base, [key]: {} } });
    expect(bad.status).toBe(400);
    if (required.includes(key)) {
      expect((await call(`/api/places/${id}`, { method: "PATCH", token, json: { [key]: null } })).status).toBe(400);
      const { [key]: _left, ...without } = base;
      expect((await call("/api/places", { method: "POST", token, json: without })).status).toBe(400);
    }
  });
});

describe("the place table", () => {
  it("answers exactly the keys its declaration documents, in its order: the id, the table's, the geometry", async () => {
    const { token } = await userWithWorkspace();
    const created = await rest(token, "/api/places", "POST", base);
    expect(Object.keys(created)).toEqual(Object.keys(placeSchema.shape));
    expect(Object.keys(placeSchema.shape)).toEqual(["id", ...placeTable.keys, "geometry"]);
  });

  it("has a column for each table field, and no column the table or the fixed fields do not account for", () => {
    expect(Object.keys(getTableColumns(places)).sort()).toEqual(
      [...COLUMNS_OUTSIDE_THE_TABLE, ...placeTable.keys].sort(),
    );
  });
});
