import { createJobArgs, type CreateJobArgs } from "../../shared/jobs/jobs";
import { jobTable } from "../../shared/jobs/job-fields";

/**
 * The "New job" form's FormData as the createJob mutator's arguments, checked with the mutator's
 * own schema (shared/jobs/jobs.ts), so the form refuses exactly what the server would: the first
 * message per field, keyed by the field's name in the form. The table's fields (duration, customer,
 * notes, ...: shared/jobs/job-fields.ts) are read by their names as the table says.
 */
export type JobFormResult = { ok: true; args: CreateJobArgs } | { ok: false; errors: Record<string, string> };

const text = (data: FormData, name: string) => String(data.get(name) ?? "").trim();
const optionalText = (data: FormData, name: string) => text(data, name) || undefined;
const optionalNumber = (data: FormData, name: string) => {
  const value = text(data, name);
  return value === "" ? undefined : Number(value);
};

const FORM_NAMES = jobTable.formFields.map((f) => f.name);

export function jobFormArgs(data: FormData, id: string, date: string): JobFormResult {
  const placeId = optionalText(data, "placeId");
  const latitude = optionalNumber(data, "latitude");
  const longitude = optionalNumber(data, "longitude");
  const point = latitude === undefined && longitude === undefined;
  const input = {
    id,
    date,
    title: text(data, "title"),
    vehicleId: optionalText(data, "vehicleId") ?? null,
    placeId: placeId ?? null,
    location: placeId ? undefined : { latitude, longitude, address: optionalText(data, "address") ?? null },
    windowStart: optionalText(data, "windowStart") ?? null,
    windowEnd: optionalText(data, "windowEnd") ?? null,
    ...jobTable.fromText(Object.fromEntries(FORM_NAMES.map((name) => [name, text(data, name)])), FORM_NAMES),
  };
  if (!placeId && point)
    return { ok: false, errors: { latitude: "Choose a place, pick a point on the map or type it" } };
  const parsed = createJobArgs.safeParse(input);
  if (parsed.success) return { ok: true, args: input as CreateJobArgs };
  const errors: Record<string, string> = {};
  for (const issue of parsed.error.issues) {
    // location.latitude → latitude: the form's inputs are flat.
    const name = String(issue.path[issue.path.length - 1] ?? "title");
    errors[name === "location" ? "latitude" : name] ??= issue.message;
  }
  return { ok: false, errors };
}
