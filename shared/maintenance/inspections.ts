import { z } from "zod";

/**
 * Inspection forms and submissions (DESIGN.md "Maintenance"). Every workspace starts with the
 * default pre-trip form below (migrations/0017 for existing workspaces; created on first read for
 * new ones); owners and admins add forms. Each failed pass/fail item of a submission opens one issue.
 */
export const inspectionItemKinds = ["pass_fail", "number", "text"] as const;
export type InspectionItemKind = (typeof inspectionItemKinds)[number];

export interface InspectionItem {
  id: string;
  label: string;
  kind: InspectionItemKind;
}

export interface InspectionResult {
  itemId: string;
  pass?: boolean | null;
  value?: string | number | null;
  note?: string | null;
  photoIds?: string[];
}

export const DEFAULT_FORM_NAME = "Pre-trip inspection";
/** Must equal the items migrations/0017 gives existing workspaces. */
export const DEFAULT_PRE_TRIP_ITEMS: InspectionItem[] = [
  { id: "brakes", label: "Brakes", kind: "pass_fail" },
  { id: "tyres", label: "Tyres and wheels", kind: "pass_fail" },
  { id: "lights", label: "Lights and indicators", kind: "pass_fail" },
  { id: "mirrors", label: "Mirrors", kind: "pass_fail" },
  { id: "horn", label: "Horn", kind: "pass_fail" },
  { id: "wipers", label: "Wipers and washers", kind: "pass_fail" },
  { id: "fluid-leaks", label: "No fluid leaks", kind: "pass_fail" },
  { id: "seat-belts", label: "Seat belts", kind: "pass_fail" },
  { id: "steering", label: "Steering", kind: "pass_fail" },
  { id: "windshield", label: "Windshield", kind: "pass_fail" },
  { id: "emergency-kit", label: "Emergency kit and fire extinguisher", kind: "pass_fail" },
];
/** The default form's id derives from its workspace, so creating it twice creates it once. */
export const defaultFormId = (workspaceId: string) => `${workspaceId}:pre-trip`;

const id = z.string().min(1).max(100);
const label = z.string().trim().min(1, "Required").max(200, "At most 200 characters");

export const inspectionFormBodySchema = z.object({
  name: label,
  items: z
    .array(
      z.object({
        id: id.optional(),
        label,
        kind: z.enum(inspectionItemKinds, { errorMap: () => ({ message: "Choose pass_fail, number or text" }) }),
      }),
    )
    .min(1, "Add at least one item")
    .max(100, "At most 100 items"),
});
export type InspectionFormBody = z.input<typeof inspectionFormBodySchema>;

/**
 * An edit of a form: a kept item sends its id (past inspections name it, so it never changes); an
 * item without one is new and gets a fresh id; an item left out stops appearing on new submissions.
 */
export const inspectionFormPatchSchema = inspectionFormBodySchema.partial();
export type InspectionFormPatch = z.input<typeof inspectionFormPatchSchema>;

export const inspectionResultSchema = z.object({
  itemId: id,
  pass: z.boolean().nullish(),
  value: z.union([z.string().max(500), z.number()]).nullish(),
  note: z.string().trim().max(2000, "At most 2000 characters").nullish(),
  photoIds: z.array(id).max(10, "At most 10 photos").optional(),
});

export const inspectionBodySchema = z.object({
  /** The client's id (an offline submission keeps it when it syncs: sending it twice stores it once). */
  id: z.string().uuid().optional(),
  formId: id,
  vehicleId: id,
  odometerMiles: z.number({ invalid_type_error: "Enter miles" }).min(0, "0 or more").max(10_000_000).nullish(),
  results: z.array(inspectionResultSchema).min(1, "Answer the items").max(100),
  signedName: z.string().trim().min(1, "Type your name to sign").max(120, "At most 120 characters"),
});
export type InspectionBody = z.input<typeof inspectionBodySchema>;

/** The app's offline submission also says when the inspection was done (a late sync keeps its time). */
export const inspectionSubmissionSchema = inspectionBodySchema.extend({
  submittedAt: z.string().datetime({ offset: true, message: "Use an ISO 8601 time" }).optional(),
});
/** The sync mutation (shared/maintenance/inspection-mutators.ts): a submission with the id the device gave it. */
export const submitInspectionArgs = inspectionSubmissionSchema.extend({ id: z.string().uuid() });
export type SubmitInspectionArgs = z.input<typeof submitInspectionArgs>;

export interface InspectionForm {
  id: string;
  name: string;
  items: InspectionItem[];
  isDefault: boolean;
}

export interface Inspection {
  id: string;
  formId: string;
  vehicleId: string;
  odometerMiles: number | null;
  results: InspectionResult[];
  signedName: string;
  failedItems: number;
  issueIds: string[];
  submittedByUserId: string | null;
  submittedAt: string;
}
