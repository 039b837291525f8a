import { z } from "zod";
import {
  expenseBodySchema,
  expenseKinds,
  expensePatchSchema,
  expenseQuerySchema,
  type Expense,
} from "../../shared/expenses";
import {
  renewalBodySchema,
  renewalKinds,
  renewalQuerySchema,
  renewalStatuses,
  renewBodySchema,
  type Renewal,
} from "../../shared/renewals";
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

export const renewal: z.ZodType<Renewal> = z.object({
  id: z.string(),
  vehicleId: z.string(),
  kind: z.enum(renewalKinds),
  name: z.string().nullable(),
  dueDate: z.string().describe("YYYY-MM-DD, the workspace's day"),
  remindDaysBefore: z.number().int(),
  photoIds: z.array(z.string()),
  status: z
    .enum(renewalStatuses)
    .describe("As of today in the workspace's time zone: due_soon from remindDaysBefore days ahead, overdue after"),
  renewedAt: z.string().nullable().describe("ISO 8601"),
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
  "GET /renewals": {
    summary: "Renewals, soonest due first, each with its status today",
    tag: "Fuel and costs",
    query: renewalQuerySchema,
    response: z.object({ renewals: z.array(renewal) }),
  },
  "POST /renewals": {
    summary: "Set up a renewal (owners and admins); remindDaysBefore defaults to 30",
    tag: "Fuel and costs",
    body: renewalBodySchema,
    response: renewal,
    status: 201,
  },
  "POST /renewals/:id/renew": {
    summary: "Renew (members and up): the new due date, and a new document photo if given",
    tag: "Fuel and costs",
    body: renewBodySchema,
    response: renewal,
  },
  "DELETE /renewals/:id": { summary: "Delete a renewal (owners and admins)", tag: "Fuel and costs", status: 204 },
};
