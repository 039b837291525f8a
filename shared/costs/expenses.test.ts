import { describe, expect, it } from "vitest";
import {
  EXPENSE_DAYS_AHEAD,
  EXPENSE_DAYS_BACK,
  decodeExpense,
  encodeExpense,
  expenseAfterPatch,
  expenseBodySchema,
  expenseFormSchema,
  expensePatchSchema,
  type ExpenseFields,
} from "./expenses";
import { addDays } from "../units/time-zone";
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
  it("refuse a day years away from today, with the range in the message, in the body, the patch and the form (issue 51)", () => {
    const body = (date: string) => ({ vehicleId: "v1", date, kind: "repair", costCents: 100 });
    const today = new Date().toISOString().slice(0, 10);
    for (const date of ["9999-12-31", "1999-01-01", addDays(today, EXPENSE_DAYS_AHEAD + 2)]) {
      const bad = expenseBodySchema.safeParse(body(date));
      expect(bad.error?.flatten().fieldErrors.date?.[0]).toMatch(
        /^Use a date from \d{4}-\d{2}-\d{2} to \d{4}-\d{2}-\d{2}$/,
      );
      expect(expensePatchSchema.safeParse({ date }).success).toBe(false);
      expect(expenseFormSchema.safeParse({ date, kind: "repair", costCents: "1" }).success).toBe(false);
    }
    for (const date of [today, addDays(today, -EXPENSE_DAYS_BACK), addDays(today, EXPENSE_DAYS_AHEAD)])
      expect(expenseBodySchema.safeParse(body(date)).success).toBe(true);
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
    // toMatchObject: a field added to the table (shared/costs/cost-fields.test.ts checks each) needs no edit here
    expect(decodeExpense("e1", wire)).toMatchObject({ id: "e1", ...toll });
    expect(decodeSyncedValue("expense/e1", encodeExpense({ ...toll, note: null, photoIds: [] }))).toMatchObject({
      id: "e1",
      ...toll,
      note: null,
      photoIds: [],
    });
  });
});
