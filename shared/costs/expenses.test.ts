import { describe, expect, it } from "vitest";
import { decodeExpense, encodeExpense, expenseAfterPatch, expenseBodySchema, type ExpenseFields } from "./expenses";
import { decodeSyncedValue } from "../sync/synced-value";

const toll: ExpenseFields = {
  vehicleId: "v1",
  date: "2026-11-20",
  kind: "tolls",
  costCents: 1250,
  note: "Bridge",
  photoIds: ["p1"],
};

describe("expense bodies", () => {
  it("accept the kinds of DESIGN.md and name each bad field", () => {
    expect(expenseBodySchema.parse({ vehicleId: "v1", date: "2026-11-20", kind: "lease", costCents: 0 })).toMatchObject(
      {
        photoIds: [],
      },
    );
    const bad = expenseBodySchema.safeParse({ vehicleId: "v1", date: "20-11-2026", kind: "fuel", costCents: 12.5 });
    expect(Object.keys(bad.error!.flatten().fieldErrors).sort()).toEqual(["costCents", "date", "kind"]);
  });
  it("a patch changes only what it names; null clears the note", () => {
    expect(expenseAfterPatch(toll, { costCents: 900 })).toEqual({ ...toll, costCents: 900 });
    expect(expenseAfterPatch(toll, { note: null }).note).toBeNull();
  });
});

describe("synced expenses", () => {
  it("round-trip through the compact form", () => {
    const wire = encodeExpense(toll);
    expect(wire).toEqual({ v: "v1", d: "2026-11-20", k: 2, c: 1250, n: "Bridge", ph: ["p1"] });
    expect(decodeExpense("e1", wire)).toEqual({ id: "e1", ...toll });
    expect(decodeSyncedValue("expense/e1", encodeExpense({ ...toll, note: null, photoIds: [] }))).toEqual({
      id: "e1",
      ...toll,
      note: null,
      photoIds: [],
    });
  });
});
