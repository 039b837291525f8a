import { z } from "zod";
import {
  choiceField,
  fieldTableKit,
  requiredTextField,
  textField,
  type TableInput,
  type TableKey,
  type TableValues,
  type TableWire,
} from "../fields/field-table";

/**
 * An issue's plain fields, one entry each (issue 52 "A field is one edit", docs/decisions/0106):
 * what a person gives and the issue keeps as given. From this table (through
 * shared/fields/field-table.ts) come the REST body, patch and answer
 * (shared/maintenance/issues.ts, worker/api/maintenance-answers.ts, worker/maintenance/issues.ts),
 * the synced value (each under its short key), the mutators' and the Worker's writes, and the
 * Report an issue form (app/issues/report-issue-dialog.tsx). A new field is an entry here, its
 * column in db/schema.ts `issues` (same name) and a migration: docs/add-a-field.md.
 *
 * Written out beside the table (shared/maintenance/issues.ts): the vehicle; the description (a
 * long one is left out of the server's synced copy, `dl`); the assignee (a packed id, a member
 * checked, e-mailed); the status (the workflow's, not given at creation); photos and sources.
 */

export const ISSUE_PRIORITIES = ["low", "medium", "high", "critical"] as const;
export type IssuePriority = (typeof ISSUE_PRIORITIES)[number];
export const priorityLabels: Record<IssuePriority, string> = {
  low: "Low",
  medium: "Medium",
  high: "High",
  critical: "Critical",
};

/** YYYY-MM-DD, a real day. */
export const dueDateSchema = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, "Use a date like 2026-12-31")
  .refine(
    (d) => !Number.isNaN(Date.parse(`${d}T00:00:00Z`)) && new Date(`${d}T00:00:00Z`).toISOString().startsWith(d),
    "Use a real date",
  );
const optionalDate = dueDateSchema
  .nullable()
  .optional()
  .or(z.literal("").transform(() => null));

/**
 * The table. Order: the body's, the answer's and the form's (the description is placed after the
 * title, the assignee after the priority). The priority is synced as its index, `medium` left out
 * (an absent or unknown index reads as medium), as it always was.
 */
export const ISSUE_FIELD_TABLE = {
  title: requiredTextField(
    z.string({ required_error: "Required" }).trim().min(1, "Required").max(120, "Use at most 120 characters"),
    {
      wire: "t",
      form: { id: "issue-title", label: "Title", placeholder: "e.g. Brake light out", autoFocus: true },
      example: "Brake light out",
    },
  ),
  priority: choiceField(
    z.enum(ISSUE_PRIORITIES, { errorMap: () => ({ message: "Choose low, medium, high or critical" }) }),
    {
      wire: "p",
      labels: priorityLabels,
      fallback: "medium",
      usual: "medium",
      form: { id: "issue-priority", label: "Priority", type: "select" },
      example: "high",
    },
  ),
  dueDate: textField(optionalDate, {
    wire: "due",
    form: { id: "issue-due-date", label: "Due date", type: "date" },
    example: "2026-12-31",
    describe: "YYYY-MM-DD",
  }),
};

/** Everything derived from the table (shared/fields/field-table.ts `fieldTableKit`): checks, answers, codecs, form. */
export const issueTable = fieldTableKit(ISSUE_FIELD_TABLE);
type Table = typeof ISSUE_FIELD_TABLE;
export type IssueTableKey = TableKey<Table>;

/** The table's fields as an issue keeps, answers and syncs them. */
export type IssueTableValues = TableValues<Table>;
/** As the synced value carries them (the title always; a medium priority and no due date absent). */
export type IssueTableWire = TableWire<Table>;
export type IssueTableInput = TableInput<Table>;
