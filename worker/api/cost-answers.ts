import { z } from "zod";
import type { Expense } from "../../shared/costs/expenses";
import { expenseTable } from "../../shared/costs/expense-fields";
import { renewalStatuses, type Renewal } from "../../shared/costs/renewals";
import { renewalTable } from "../../shared/costs/renewal-fields";

/** What the expense and renewal routes answer, for their declarations (issue 42, DESIGN.md "Fuel, costs and renewals"). */
/** An expense: its vehicle, the table's fields (shared/costs/expense-fields.ts), its receipts. */
export const expense: z.ZodType<Expense> = z.object({
  id: z.string(),
  vehicleId: z.string(),
  ...expenseTable.answers,
  photoIds: z.array(z.string()),
  createdAt: z.string().describe("ISO 8601"),
});

/** A renewal: its vehicle, the table's fields (shared/costs/renewal-fields.ts), its photos, its status today. */
export const renewal: z.ZodType<Renewal> = z.object({
  id: z.string(),
  vehicleId: z.string(),
  ...renewalTable.answers,
  photoIds: z.array(z.string()),
  status: z
    .enum(renewalStatuses)
    .describe("As of today in the workspace's time zone: due_soon from remindDaysBefore days ahead, overdue after"),
  renewedAt: z.string().nullable().describe("ISO 8601"),
  createdAt: z.string().describe("ISO 8601"),
});
