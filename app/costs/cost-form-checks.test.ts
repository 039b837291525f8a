import { parseWithZod } from "@conform-to/zod";
import { describe, expect, it } from "vitest";
import { expenseFormSchema } from "../../shared/costs/expenses";
import { renewalFormSchema } from "../../shared/costs/renewals";

/**
 * The expense and renewal forms' checks as conform runs them (app/components/use-zod-form.ts): the
 * tables' `formChecks` (shared/costs/expense-fields.ts, renewal-fields.ts, docs/decisions/0103)
 * read each input's text, so the value is the body's and each message lands on its input.
 */
const formData = (cells: Record<string, string>) => {
  const data = new FormData();
  for (const [name, value] of Object.entries(cells)) data.set(name, value);
  return data;
};
const form = (cells: Record<string, string>) => parseWithZod(formData(cells), { schema: expenseFormSchema });
const today = new Date().toISOString().slice(0, 10);

describe("the expense form's checks", () => {
  it("give the mutator the body's values: the amount typed in dollars as cents, an empty note as null", () => {
    const result = form({ date: today, kind: "parking", costCents: "12.34", note: "" });
    expect(result.status).toBe("success");
    expect(result.status === "success" && result.value).toMatchObject({
      date: today,
      kind: "parking",
      costCents: 1234,
      note: null,
    });
  });

  it("say Required on an empty amount or day, and name a bad kind, each on its own input", () => {
    const result = form({ date: "", kind: "fuel", costCents: "", note: "x".repeat(501) });
    expect(result.status).toBe("error");
    expect(result.reply().error).toEqual({
      date: ["Required"],
      kind: ["One of insurance, registration, tolls, parking, lease, repair, other"],
      costCents: ["Required"],
      note: ["At most 500 characters"],
    });
  });
});

describe("the Add renewal form's checks", () => {
  it("give the mutator the body's values: an empty name as null, an empty reminder as its 30 days", () => {
    const result = parseWithZod(formData({ kind: "permit", name: "", dueDate: today, remindDaysBefore: "" }), {
      schema: renewalFormSchema,
    });
    expect(result.status === "success" && result.value).toMatchObject({
      kind: "permit",
      name: null,
      dueDate: today,
      remindDaysBefore: 30,
    });
  });

  it("say Required on an empty due date and refuse a part of a day, on their inputs", () => {
    const result = parseWithZod(formData({ kind: "permit", dueDate: "", remindDaysBefore: "1.5" }), {
      schema: renewalFormSchema,
    });
    expect(result.status === "error" && result.reply().error).toEqual({
      dueDate: ["Required"],
      remindDaysBefore: ["Whole days"],
    });
  });
});
