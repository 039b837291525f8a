import { parseWithZod } from "@conform-to/zod";
import { describe, expect, it } from "vitest";
import { expenseFormSchema } from "../../shared/costs/expenses";

/**
 * The expense forms' checks as conform runs them (app/components/use-zod-form.ts): the table's
 * `formChecks` (shared/costs/expense-fields.ts, docs/decisions/0103) read each input's text, so
 * the value is the body's and each message lands on its input.
 */
const form = (cells: Record<string, string>) => {
  const data = new FormData();
  for (const [name, value] of Object.entries(cells)) data.set(name, value);
  return parseWithZod(data, { schema: expenseFormSchema });
};
const today = new Date().toISOString().slice(0, 10);

describe("the expense form's checks", () => {
  it("give the mutator the body's values: the amount typed in dollars as cents, an empty note as null", () => {
    const result = form({ date: today, kind: "parking", costCents: "12.34", note: "" });
    expect(result.status).toBe("success");
    expect(result.status === "success" && result.value).toEqual({
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
