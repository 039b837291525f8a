import { describe, expect, it } from "vitest";
import { mutators, updateVehicleArgs } from "./mutators";
import { cookieSchema, pullResponseSchema } from "./sync-protocol";

/** docs/product.md section 5: what a pull response may hold, and the messages for what it may not. */
const firstMessage = (result: { success: boolean; error?: { issues: { message: string }[] } }) =>
  result.success ? null : result.error!.issues[0]!.message;

describe("sync protocol", () => {
  it("accepts the four cookie forms and calls anything else an Invalid cookie", () => {
    for (const cookie of [null, "abc", 42, { order: 7 }, { order: "b" }, { order: 1, extra: true }]) {
      expect(cookieSchema.safeParse(cookie).success, JSON.stringify(cookie)).toBe(true);
    }
    for (const cookie of [undefined, true, [], {}, { order: null }, { order: {} }]) {
      expect(firstMessage(cookieSchema.safeParse(cookie)), JSON.stringify(cookie)).toBe("Invalid cookie");
    }
  });

  it("accepts put, update, del and clear, and names any other op an unknown patch op", () => {
    const ok = pullResponseSchema.safeParse({
      cookie: 3,
      lastMutationIDChanges: { c1: 2 },
      patch: [
        { op: "clear" },
        { op: "put", key: "vehicle/1", value: { name: "A" } },
        { op: "update", key: "vehicle/1", merge: { name: "B" }, constrain: ["name"] },
        { op: "update", key: "vehicle/2" },
        { op: "del", key: "vehicle/1" },
      ],
    });
    expect(ok.success).toBe(true);
    const unknown = pullResponseSchema.safeParse({ lastMutationIDChanges: {}, patch: [{ op: "move", key: "x" }] });
    expect(unknown.success).toBe(false);
    expect(JSON.stringify(unknown.error?.issues)).toContain("unknown patch op");
  });

  it("reads the error answers and refuses malformed success answers", () => {
    expect(pullResponseSchema.safeParse({ error: "ClientStateNotFound" }).success).toBe(true);
    expect(pullResponseSchema.safeParse({ error: "VersionNotSupported", versionType: "schema" }).success).toBe(true);
    expect(pullResponseSchema.safeParse({ error: "VersionNotSupported", versionType: "other" }).success).toBe(false);
    expect(pullResponseSchema.safeParse({ lastMutationIDChanges: { c1: "2" }, patch: [] }).success).toBe(false);
    expect(pullResponseSchema.safeParse({ lastMutationIDChanges: {}, patch: [{ op: "put", value: 1 }] }).success).toBe(
      false,
    );
    expect(pullResponseSchema.safeParse({ patch: [] }).success).toBe(false);
  });
});

describe("the vehicle update mutation", () => {
  it("validates and normalises its arguments the same way on both sides", () => {
    expect(
      updateVehicleArgs.parse({ id: "v", name: " Van ", vin: "1hgcm82633a004352", year: 2003, make: "", model: null }),
    ).toEqual({
      id: "v",
      name: "Van",
      vin: "1HGCM82633A004352",
      year: 2003,
      make: null,
      model: null,
    });
    expect(
      updateVehicleArgs.safeParse({ id: "v", name: "", vin: null, year: null, make: null, model: null }).success,
    ).toBe(false);
    expect(
      updateVehicleArgs.safeParse({ id: "v", name: "A", vin: "IOQ", year: null, make: null, model: null }).success,
    ).toBe(false);
    expect(
      updateVehicleArgs.safeParse({ id: "v", name: "A", vin: null, year: 1800, make: null, model: null }).success,
    ).toBe(false);
  });

  it("merges the five fields over the stored vehicle and leaves the rest, and skips an unknown vehicle", async () => {
    // The stored (compact) form: shared/fleet/vehicle.ts, docs/decisions/0013.
    const store = new Map<string, unknown>([["vehicle/v", { n: "Old", d: "Ann", s: "ACTIVE", b: "ACTIVE" }]]);
    const tx = {
      get: async (key: string) => store.get(key),
      set: async (key: string, value: unknown) => void store.set(key, value),
    };
    type Tx = Parameters<typeof mutators.updateVehicle>[0];
    await mutators.updateVehicle(tx as unknown as Tx, {
      id: "v",
      name: "New",
      vin: null,
      year: 2020,
      make: "Ford",
      model: "Transit",
    });
    expect(store.get("vehicle/v")).toEqual({
      n: "New",
      d: "Ann",
      s: "ACTIVE",
      b: "ACTIVE",
      y: 2020,
      mk: "Ford",
      md: "Transit",
    });
    await mutators.updateVehicle(tx as unknown as Tx, {
      id: "missing",
      name: "X",
      vin: null,
      year: null,
      make: null,
      model: null,
    });
    expect(store.has("vehicle/missing")).toBe(false);
  });
});
