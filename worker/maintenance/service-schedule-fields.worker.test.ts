import { env } from "cloudflare:workers";
import { eq, getTableColumns } from "drizzle-orm";
import type { AnyZodObject } from "zod";
import { describe, expect, it } from "vitest";
import {
  SERVICE_SCHEDULE_FIELD_TABLE as TABLE,
  serviceScheduleTable,
} from "../../shared/maintenance/service-schedule-fields";
import {
  decodeSchedule,
  serviceScheduleKey,
  SERVICE_SCHEDULE_PREFIX,
  type ScheduleWire,
} from "../../shared/sync/maintenance-sync";
import { database } from "../../db/client";
import { serviceSchedules } from "../../db/schema";
import { serviceSchedule } from "../api/maintenance-answers";
import { call, userWithWorkspace, vehicleWithOdometer } from "../test/factories";
import { pullPatch, pushMutations } from "../test/sync";

const KEYS = serviceScheduleTable.keys;

/**
 * Every field of the service schedule table (shared/maintenance/service-schedule-fields.ts,
 * docs/decisions/0104) end to end, as a client sees it: given over REST, answered, stored, listed,
 * patched, kept, cleared (the name, required, is changed instead), pulled by sync and pushed by the
 * mutators. A schedule keeps one interval beside the one tested, as it must have one. A field added
 * to the table is checked here with no new test (docs/add-a-field.md); a column added without its
 * table entry, or an entry without its column, fails the last test.
 */
type Key = (typeof KEYS)[number];
const row = async (id: string) =>
  (await database(env.DB).select().from(serviceSchedules).where(eq(serviceSchedules.id, id)).get()) as
    Record<string, unknown> | undefined;
const other = (key: Key) => {
  const example = TABLE[key].example;
  return typeof example === "number" ? example + 1 : `${example} 2`;
};
/** What a create must give: the name, and an interval other than `key` (it must have one). */
const base = (vehicleId: string, key: Key): Record<string, unknown> => ({
  vehicleId,
  name: "Base",
  ...(key === "everyDays" ? { everyMiles: 1_000 } : { everyDays: 30 }),
});

async function rest(token: string, path: string, method: string, json: unknown): Promise<Record<string, unknown>> {
  const res = await call(path, { method, token, json });
  expect(res.status, await res.clone().text()).toBe(method === "POST" ? 201 : 200);
  return res.json();
}

async function pulled(token: string, id: string) {
  const { patch } = await pullPatch(token, null);
  const put = patch.find((p) => p.op === "put" && p.key === serviceScheduleKey(id)) as { key: string; value: unknown };
  const schedule = decodeSchedule(put.key.slice(SERVICE_SCHEDULE_PREFIX.length), put.value as ScheduleWire);
  return schedule as unknown as Record<string, unknown>;
}

describe.each(KEYS)("the service schedule field %s", (key) => {
  const example = TABLE[key].example;
  const required = "required" in TABLE[key];
  const cleared = required ? other(key) : null;

  it("is kept as given over REST, answered, listed, patched, kept, cleared and pulled by sync", async () => {
    const { token, workspaceId } = await userWithWorkspace();
    const vehicleId = await vehicleWithOdometer(workspaceId, 1_000);
    const made = await rest(token, "/api/service-schedules", "POST", { ...base(vehicleId, key), [key]: example });
    expect(made[key]).toEqual(example);
    expect((await row(made.id as string))![key]).toEqual(example);
    expect((await pulled(token, made.id as string))[key]).toEqual(example);
    const listed = (await (await call(`/api/service-schedules?vehicleId=${vehicleId}`, { token })).json()) as {
      schedules: Record<string, unknown>[];
    };
    expect(listed.schedules.find((s) => s.id === made.id)![key]).toEqual(example);

    const plain = await rest(token, "/api/service-schedules", "POST", base(vehicleId, key));
    const at = `/api/service-schedules/${plain.id as string}`;
    expect((await rest(token, at, "PATCH", { [key]: example }))[key]).toEqual(example);
    // a patch that does not name it keeps it
    const another = KEYS.find((k) => k !== key)!;
    expect((await rest(token, at, "PATCH", { [another]: TABLE[another].example }))[key]).toEqual(example);
    // null clears it; the name is changed instead (null is refused: the next test)
    expect((await rest(token, at, "PATCH", { [key]: cleared }))[key]).toEqual(cleared);
    expect((await row(plain.id as string))![key]).toEqual(cleared);
    expect((await pulled(token, plain.id as string))[key]).toEqual(cleared);
  });

  it("is kept as the sync mutators give it; a value of the wrong kind is a 400", async () => {
    const { token, workspaceId } = await userWithWorkspace();
    const vehicleId = await vehicleWithOdometer(workspaceId, 1_000);
    const id = crypto.randomUUID();
    const create = { id, ...base(vehicleId, key), [key]: example };
    expect((await pushMutations(token, [{ name: "createServiceSchedule", args: create }])).refused ?? []).toEqual([]);
    expect((await row(id))![key]).toEqual(example);
    expect((await pulled(token, id))[key]).toEqual(example);
    const update = { id, [key]: cleared };
    expect((await pushMutations(token, [{ name: "updateServiceSchedule", args: update }])).refused ?? []).toEqual([]);
    expect((await row(id))![key]).toEqual(cleared);
    const bad = await call("/api/service-schedules", { method: "POST", token, json: { ...create, [key]: {} } });
    expect(bad.status).toBe(400);
    if (required) {
      const at = `/api/service-schedules/${id}`;
      expect((await call(at, { method: "PATCH", token, json: { [key]: null } })).status).toBe(400);
      const { [key]: _left, ...without } = base(vehicleId, key);
      expect((await call("/api/service-schedules", { method: "POST", token, json: without })).status).toBe(400);
    }
  });
});

describe("the service schedule table", () => {
  it("answers exactly the keys its declaration documents, the table's and the fixed ones", async () => {
    const { token, workspaceId } = await userWithWorkspace();
    const vehicleId = await vehicleWithOdometer(workspaceId, 1_000);
    const made = await rest(token, "/api/service-schedules", "POST", base(vehicleId, "name"));
    const documented = Object.keys((serviceSchedule as unknown as AnyZodObject).shape);
    expect(Object.keys(made)).toEqual(documented);
    const basis = ["lastDoneAt", "lastDoneOdometerMiles", "lastDoneEngineHours"];
    const due = ["status", "nextDueMiles", "nextDueAt", "nextDueEngineHours"];
    expect([...documented].sort()).toEqual(["id", "vehicleId", ...basis, ...due, ...KEYS].sort());
  });

  it("has a column for each table field, and no column the table or the fixed fields do not account for", () => {
    const fixed = ["id", "workspaceId", "version", "deleted", "createdVersion", "createdAt", "vehicleId"];
    // the last-done basis, and the due check's notification cycle
    const beside = ["lastDoneAt", "lastDoneOdometerMiles", "lastDoneEngineHours", "cycle", "announced"];
    const columns = Object.keys(getTableColumns(serviceSchedules));
    expect(columns.sort()).toEqual([...fixed, ...beside, ...KEYS].sort());
  });
});
