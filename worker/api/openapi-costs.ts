import { z } from "zod";
import {
  expenseBodySchema,
  expenseKinds,
  expensePatchSchema,
  expenseQuerySchema,
  type Expense,
} from "../../shared/expenses";
import type { Operation } from "./openapi-operations";

/** Expenses, renewals and the cost report in GET /api/openapi.json (issue 42, DESIGN.md "Fuel, costs and renewals"). */
const expense: z.ZodType<Expense> = z.object({
  id: z.string(),
  vehicleId: z.string(),
  date: z.string().describe("YYYY-MM-DD, the workspace's day"),
  kind: z.enum(expenseKinds),
  costCents: z.number().int(),
  note: z.string().nullable(),
  photoIds: z.array(z.string()),
  createdAt: z.string().describe("ISO 8601"),
});

export const costOperations: Record<string, Operation> = {
  "GET /expenses": {
    summary: "Expenses, newest first (at most 1,000; `from` and `to` are days, both included)",
    tag: "Fuel and costs",
    query: expenseQuerySchema,
    response: z.object({ expenses: z.array(expense) }),
  },
  "POST /expenses": {
    summary: "Add an expense (members and up)",
    tag: "Fuel and costs",
    body: expenseBodySchema,
    response: expense,
    status: 201,
  },
  "PATCH /expenses/:id": {
    summary: "Correct an expense (owners and admins); null clears the note",
    tag: "Fuel and costs",
    body: expensePatchSchema,
    response: expense,
  },
  "DELETE /expenses/:id": { summary: "Delete an expense (owners and admins)", tag: "Fuel and costs", status: 204 },
};
