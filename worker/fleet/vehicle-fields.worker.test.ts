import { env } from "cloudflare:workers";
import { eq, getTableColumns } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { FieldSpec } from "../../shared/fields/field-table";
import { decodeVehicle, VEHICLE_PREFIX, vehicleKey, type VehicleWire } from "../../shared/fleet/vehicle";
import { VEHICLE_FIELD_TABLE, vehicleTable } from "../../shared/fleet/vehicle-fields";
import { database } from "../../db/client";
import { vehicles } from "../../db/schema";
import { call, insertVehicle, userWithWorkspace } from "../test/factories";
import { pullPatch, pushMutations } from "../test/sync";

/**
 * Every field of the vehicle table (shared/fleet/vehicle-fields.ts, docs/decisions/0105) end to
 * end, as a client sees it: patched over REST, answered, read back, kept, cleared (a required one
 * changed, and refused as null), pulled by sync and pushed by the updateVehicle mutation. A vehicle
 * is not created over REST or sync (ordering a beacon makes it, named "Vehicle N"): the test starts
 * from such a row. A field added to the table is checked here with no new test
 * (docs/add-a-field.md); a column added without its table entry fails the last test.
 */
const table: Record<string, FieldSpec> = VEHICLE_FIELD_TABLE;
const keys = vehicleTable.keys;
const required = keys.filter((k) => table[k]!.required);
const other = (k: string) => {
  const example = table[k]!.example;
  return typeof example === "number" ? example + 1 : `${example} 2`;
};
/** What the Settings form's save gives: every table field (none but the required ones), and the tank. */
const everyField = Object.fromEntries(keys.map((k) => [k, table[k]!.required ? table[k]!.example : null]));
/** The answer's keys beside the table's, in its order. */
const ANSWER_AFTER_THE_TABLE = ["fuelTankLitres", "capacity", "shiftStart", "shiftEnd", "homePlaceId"];
/** The columns beside the table's: each written out with a rule of its own, and the row's bookkeeping. */
const COLUMNS_OUTSIDE_THE_TABLE = [
  "id",
  "workspaceId",
  "driver",
  "driverId",
  "classification",
  "status",
  "beaconStatus",
  "engineSeconds",
  "fuelTankLitres",
  "capacity",
  "shiftStart",
  "shiftEnd",
  "homePlaceId",
  "version",
  "deleted",
  "createdVersion",
  "createdAt",
];

const row = (id: string) => database(env.DB).select().from(vehicles).where(eq(vehicles.id, id)).get();

async function rest(token: string, path: string, json?: unknown): Promise<Record<string, unknown>> {
  const res = await call(path, json === undefined ? { token } : { method: "PATCH", token, json });
  expect(res.status, await res.clone().text()).toBe(200);
  return res.json();
}

async function pulled(token: string, id: string): Promise<Record<string, unknown>> {
  const { patch } = await pullPatch(token, null);
  const put = patch.find((p) => p.op === "put" && p.key === vehicleKey(id))!;
  return decodeVehicle(put.key.slice(VEHICLE_PREFIX.length), put.value as VehicleWire);
}

/** A workspace's vehicle as a beacon order makes it: a name, nothing else. */
async function orderedVehicle() {
  const { token, workspaceId } = await userWithWorkspace();
  const id = await insertVehicle(workspaceId, { name: "Vehicle 1" });
  return { token, id, at: `/api/vehicles/${id}` };
}

describe.each([...keys])("the vehicle field %s", (key) => {
  const example = table[key]!.example;
  const cleared = table[key]!.required ? other(key) : null;

  it("is kept as a REST patch gives it, answered, read back, kept, cleared and pulled by sync", async () => {
    const { token, id, at } = await orderedVehicle();
    expect((await rest(token, at, { [key]: example }))[key]).toEqual(example);
    expect((await row(id))![key]).toEqual(example);
    expect((await rest(token, at))[key]).toEqual(example);
    expect((await pulled(token, id))[key]).toEqual(example);
    // a patch that does not name it (the tank, or another table field) keeps it
    expect((await rest(token, at, { fuelTankLitres: 60 }))[key]).toEqual(example);
    const another = keys.find((k) => k !== key)!;
    expect((await rest(token, at, { [another]: table[another]!.example }))[key]).toEqual(example);
    // null clears it; a required field is changed instead (null is refused: the next test)
    expect((await rest(token, at, { [key]: cleared }))[key]).toEqual(cleared);
    expect((await row(id))![key]).toEqual(cleared);
    expect((await pulled(token, id))[key]).toEqual(cleared);
  });

  it("is kept as the updateVehicle mutation gives it; a value of the wrong kind is a 400", async () => {
    const { token, id, at } = await orderedVehicle();
    const saved = await pushMutations(token, [{ name: "updateVehicle", args: { id, ...everyField, [key]: example } }]);
    expect(saved.refused ?? []).toEqual([]);
    expect((await row(id))![key]).toEqual(example);
    expect((await pulled(token, id))[key]).toEqual(example);
    const changed = await pushMutations(token, [
      { name: "updateVehicle", args: { id, ...everyField, [key]: cleared } },
    ]);
    expect(changed.refused ?? []).toEqual([]);
    expect((await row(id))![key]).toEqual(cleared);
    expect((await call(at, { method: "PATCH", token, json: { [key]: {} } })).status).toBe(400);
    if (required.includes(key))
      expect((await call(at, { method: "PATCH", token, json: { [key]: null } })).status).toBe(400);
  });
});

describe("the vehicle table", () => {
  it("answers exactly the settings' keys in their order: the id, the table's, the tank and the planner's", async () => {
    const { token, at } = await orderedVehicle();
    expect(Object.keys(await rest(token, at))).toEqual(["id", ...keys, ...ANSWER_AFTER_THE_TABLE]);
    expect(Object.keys(await rest(token, at, { fuelTankLitres: 60 }))).toEqual([
      "id",
      ...keys,
      ...ANSWER_AFTER_THE_TABLE,
    ]);
  });

  it("has a column for each table field, and no column the table or the fixed fields do not account for", () => {
    expect(Object.keys(getTableColumns(vehicles)).sort()).toEqual([...COLUMNS_OUTSIDE_THE_TABLE, ...keys].sort());
  });
});
