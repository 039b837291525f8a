import { env } from "cloudflare:workers";
import { eq, getTableColumns } from "drizzle-orm";
import type { AnyZodObject } from "zod";
import { describe, expect, it } from "vitest";
import { SERVICE_ENTRY_FIELD_TABLE as TABLE, serviceEntryTable } from "../../shared/maintenance/service-entry-fields";
import {
  decodeServiceEntry,
  serviceEntryKey,
  SERVICE_ENTRY_PREFIX,
  type ServiceEntryWire,
} from "../../shared/sync/maintenance-sync";
import { database } from "../../db/client";
import { serviceEntries } from "../../db/schema";
import { serviceEntry } from "../api/maintenance-answers";
import { call, userWithWorkspace, vehicleWithOdometer } from "../test/factories";
import { pullPatch, pushMutations } from "../test/sync";

const KEYS = serviceEntryTable.keys;

/**
 * Every field of the service entry table (shared/maintenance/service-entry-fields.ts,
 * docs/decisions/0104) end to end, as a client sees it: given over REST, answered, stored, listed,
 * left out (none), pulled by sync and pushed by the Log service mutator. An entry is not edited
 * (it is deleted and logged again), so there is no patch to keep or clear. A field added to the
 * table is checked here with no new test (docs/add-a-field.md); a column added without its table
 * entry, or an entry without its column, fails the last test.
 */
const today = () => new Date().toISOString().slice(0, 10);
const row = async (id: string) =>
  (await database(env.DB).select().from(serviceEntries).where(eq(serviceEntries.id, id)).get()) as
    Record<string, unknown> | undefined;

async function created(token: string, json: object): Promise<Record<string, unknown>> {
  const res = await call("/api/service-entries", { method: "POST", token, json });
  expect(res.status, await res.clone().text()).toBe(201);
  return res.json();
}

async function pulled(token: string, id: string) {
  const { patch } = await pullPatch(token, null);
  const put = patch.find((p) => p.op === "put" && p.key === serviceEntryKey(id)) as { key: string; value: unknown };
  const entry = decodeServiceEntry(put.key.slice(SERVICE_ENTRY_PREFIX.length), put.value as ServiceEntryWire);
  return entry as unknown as Record<string, unknown>;
}

describe.each(KEYS)("the service entry field %s", (key) => {
  const example = TABLE[key].example;

  it("is kept as given over REST, answered, listed and pulled by sync; left out, it is none", async () => {
    const { token, workspaceId } = await userWithWorkspace();
    const vehicleId = await vehicleWithOdometer(workspaceId, 1_000);
    const base = { vehicleId, date: today() };
    const entry = await created(token, { ...base, [key]: example });
    expect(entry[key]).toEqual(example);
    expect((await row(entry.id as string))![key]).toEqual(example);
    expect((await pulled(token, entry.id as string))[key]).toEqual(example);
    const listed = (await (await call(`/api/service-entries?vehicleId=${vehicleId}`, { token })).json()) as {
      entries: Record<string, unknown>[];
    };
    expect(listed.entries.find((e) => e.id === entry.id)![key]).toEqual(example);

    const plain = await created(token, base);
    expect(plain[key]).toBeNull();
    expect((await row(plain.id as string))![key]).toBeNull();
    expect((await pulled(token, plain.id as string))[key]).toBeNull();
  });

  it("is kept as the Log service mutator gives it; a value of the wrong kind is a 400", async () => {
    const { token, workspaceId } = await userWithWorkspace();
    const vehicleId = await vehicleWithOdometer(workspaceId, 1_000);
    const id = crypto.randomUUID();
    const args = { id, vehicleId, date: today(), [key]: example };
    const pushed = await pushMutations(token, [{ name: "logServiceEntry", args }]);
    expect(pushed.refused ?? []).toEqual([]);
    expect((await row(id))![key]).toEqual(example);
    expect((await pulled(token, id))[key]).toEqual(example);
    const bad = await call("/api/service-entries", {
      method: "POST",
      token,
      json: { vehicleId, date: today(), [key]: {} },
    });
    expect(bad.status).toBe(400);
  });
});

describe("the service entry table", () => {
  it("answers exactly the keys its declaration documents, the table's and the fixed ones", async () => {
    const { token, workspaceId } = await userWithWorkspace();
    const vehicleId = await vehicleWithOdometer(workspaceId, 1_000);
    const entry = await created(token, { vehicleId, date: today() });
    const documented = Object.keys((serviceEntry as unknown as AnyZodObject).shape);
    expect(Object.keys(entry)).toEqual(documented);
    const fixed = ["id", "vehicleId", "date", "photoIds", "scheduleIds", "resolvesIssueIds", "createdAt"];
    expect([...documented].sort()).toEqual([...fixed, ...KEYS].sort());
  });

  it("has a column for each table field, and no column the table or the fixed fields do not account for", () => {
    const fixed = ["id", "workspaceId", "version", "deleted", "createdVersion", "createdAt", "vehicleId", "date"];
    // the ids it names, who logged it, and a work order's completion (migrations/0044)
    const beside = ["photoIds", "scheduleIds", "resolvesIssueIds", "createdByUserId"];
    const workOrder = ["laborCents", "partsCents", "workOrderId"];
    const columns = Object.keys(getTableColumns(serviceEntries));
    expect(columns.sort()).toEqual([...fixed, ...beside, ...workOrder, ...KEYS].sort());
  });
});
