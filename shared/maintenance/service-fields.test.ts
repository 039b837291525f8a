import type { WriteTransaction } from "replicache";
import { describe, expect, it } from "vitest";
import { SERVICE_ENTRY_FIELD_TABLE, SERVICE_ENTRY_FORM_FIELDS, SERVICE_ENTRY_TABLE_KEYS } from "./service-entry-fields";
import { logServiceEntryArgs, serviceEntryBodySchema, serviceEntryFormSchema } from "./service";
import { serviceMutators } from "./service-mutators";
import {
  decodeServiceEntry,
  encodeServiceEntry,
  serviceEntryKey,
  type ServiceEntryWire,
} from "../sync/maintenance-sync";

/**
 * The service tables (docs/decisions/0104) reach every place their fields are listed: the body and
 * the mutators' arguments check each field, the mutator keeps it, the synced value carries it under
 * its own key (left out when none) and reads the values a tab synced before the tables, and the
 * form lists it where flagged.
 */
function store() {
  const map = new Map<string, unknown>();
  const tx = {
    get: async (key: string) => map.get(key),
    has: async (key: string) => map.has(key),
    set: async (key: string, value: unknown) => void map.set(key, value),
  } as unknown as WriteTransaction;
  return { tx, map };
}

describe("the service entry table", () => {
  const examples = Object.fromEntries(SERVICE_ENTRY_TABLE_KEYS.map((k) => [k, SERVICE_ENTRY_FIELD_TABLE[k].example]));
  const nulls = Object.fromEntries(SERVICE_ENTRY_TABLE_KEYS.map((k) => [k, null]));
  const base = { vehicleId: "v1", date: "2026-11-02" };
  const fixed = { photoIds: [], scheduleIds: [], resolvesIssueIds: [] };

  it("is checked by the body and the Log service mutator's arguments, each keeping its value", () => {
    expect(serviceEntryBodySchema.parse({ ...base, ...examples })).toEqual({ ...base, ...examples, ...fixed });
    expect(logServiceEntryArgs.parse({ id: "e", ...base, ...examples })).toMatchObject(examples);
    for (const k of SERVICE_ENTRY_TABLE_KEYS)
      expect(serviceEntryBodySchema.safeParse({ ...base, [k]: {} }).success, k).toBe(false);
    expect(serviceEntryBodySchema.parse({ ...base, ...nulls })).toEqual({ ...base, ...nulls, ...fixed });
  });

  it("keeps the body's key order: the schedules after the engine hours, as before the table", () => {
    expect(Object.keys(serviceEntryBodySchema.shape)).toEqual([
      ...["vehicleId", "date", "odometerMiles", "engineHours", "scheduleIds", "description"],
      ...["costCents", "vendor", "notes", "photoIds", "resolvesIssueIds"],
    ]);
  });

  it("is kept by the Log service mutator and travels under its own short key, left out when none", async () => {
    const { tx, map } = store();
    await serviceMutators.logServiceEntry(tx, { id: "e1", ...base, ...examples });
    const wire = map.get(serviceEntryKey("e1")) as ServiceEntryWire;
    expect(decodeServiceEntry("e1", wire)).toMatchObject(examples);
    for (const k of SERVICE_ENTRY_TABLE_KEYS) expect(wire).toHaveProperty(SERVICE_ENTRY_FIELD_TABLE[k].wire);
    await serviceMutators.logServiceEntry(tx, { id: "e2", ...base });
    expect(Object.keys(map.get(serviceEntryKey("e2")) as object).sort()).toEqual(["d", "t", "v"]);
    const wires = SERVICE_ENTRY_TABLE_KEYS.map((k) => SERVICE_ENTRY_FIELD_TABLE[k].wire);
    expect(new Set([...wires, "v", "d", "ph", "sc", "ri", "t"]).size).toBe(wires.length + 6);
  });

  it("reads and writes the synced value as a tab from before the table does (same keys, same order)", () => {
    const yesterdays = {
      ...{ v: "v1", d: "2026-11-02", t: 1_790_000_000, o: 45_210.5, h: 1_820.25, x: "Pads and rotors" },
      ...{ c: 24_990, vn: "Brake Shop", nt: "Rear pads", ph: ["p1"], sc: ["s1"], ri: ["i1"] },
    } satisfies ServiceEntryWire;
    const { id: _id, ...decoded } = decodeServiceEntry("e1", yesterdays);
    expect(decoded).toEqual({
      ...{ vehicleId: "v1", date: "2026-11-02", odometerMiles: 45_210.5, engineHours: 1_820.25 },
      ...{ description: "Pads and rotors", costCents: 24_990, vendor: "Brake Shop", notes: "Rear pads" },
      ...{ photoIds: ["p1"], scheduleIds: ["s1"], resolvesIssueIds: ["i1"], createdAt: 1_790_000_000_000 },
    });
    const again = encodeServiceEntry(decoded);
    expect(again).toEqual(yesterdays);
    expect(Object.keys(again)).toEqual(Object.keys(yesterdays));
  });

  it("lists the Log service form's inputs in its order, the cost typed in dollars", () => {
    expect(SERVICE_ENTRY_FORM_FIELDS.map((f) => f.name)).toEqual(
      SERVICE_ENTRY_TABLE_KEYS.filter((k) => SERVICE_ENTRY_FIELD_TABLE[k].form),
    );
    expect(SERVICE_ENTRY_FORM_FIELDS.find((f) => f.name === "costCents")).toMatchObject({
      label: "Cost ($)",
      scale: 100,
    });
    // the form's cost is dollars: 249.90 passes (the scale makes it cents), a dollar figure past the cap does not
    expect(serviceEntryFormSchema.safeParse({ date: "2026-11-02", costCents: 249.9 }).success).toBe(true);
    expect(serviceEntryFormSchema.safeParse({ date: "2026-11-02", costCents: 100_000_001 }).success).toBe(false);
  });
});
