import { describe, expect, it } from "vitest";
import { JOB_FIELD_TABLE, JOB_TABLE_CSV_COLUMNS, type JobTableKey, jobTable } from "./job-fields";
import {
  JOB_CSV_HEADER,
  createJobArgs,
  decodeJob,
  encodeJob,
  jobAfterPatch,
  jobBodySchema,
  jobFieldsOf,
  jobPatchSchema,
  updateJobArgs,
  type JobFields,
} from "./jobs";

/**
 * The job table (docs/decisions/0082) reaches every place a job's fields are listed: the body,
 * the patch and the mutators' arguments check each field; a new job keeps it, a patch changes or
 * keeps it; the synced value carries it under its own key and leaves it out when empty; the CSV
 * header and the form list it where flagged. So a field added to the table alone is a whole field.
 */
const example = (k: JobTableKey) => JOB_FIELD_TABLE[k].example;
const examples = Object.fromEntries(jobTable.keys.map((k) => [k, example(k)]));
const emptyOf = (k: JobTableKey) => {
  const spec = JOB_FIELD_TABLE[k];
  return spec.kind === "number" ? spec.default : null;
};
const point = { latitude: 41.88, longitude: -87.63, address: null };
const base = { title: "Drop", date: "2026-11-30" };
const planned: JobFields = jobFieldsOf(base, point, { number: 3, sequence: 0 });

describe("the job table", () => {
  it("is checked by the body, the patch and the sync mutators' arguments, each keeping its value", () => {
    const location = { latitude: 41.88, longitude: -87.63 };
    expect(jobBodySchema.parse({ ...base, location, ...examples })).toMatchObject(examples);
    expect(jobPatchSchema.parse(examples)).toEqual(examples);
    expect(createJobArgs.parse({ ...base, id: "j", location, ...examples })).toMatchObject(examples);
    expect(updateJobArgs.parse({ id: "j", ...examples })).toMatchObject(examples);
    for (const k of jobTable.keys) expect(jobPatchSchema.safeParse({ [k]: {} }).success, k).toBe(false);
  });

  it("gives a new job each value or its default, and a patch changes only what it names", () => {
    expect(jobFieldsOf({ ...base, ...examples }, point, { number: 1, sequence: 0 })).toMatchObject(examples);
    for (const k of jobTable.keys) expect(planned[k], k).toEqual(emptyOf(k));
    const patched = jobAfterPatch(planned, examples);
    expect(patched).toMatchObject(examples);
    expect(jobAfterPatch(patched, { title: "Renamed" })).toMatchObject(examples);
    const texts = jobTable.keys.filter((k) => JOB_FIELD_TABLE[k].kind === "text");
    const cleared = jobAfterPatch(patched, Object.fromEntries(texts.map((k) => [k, null])));
    for (const k of texts) expect(cleared[k], k).toBeNull();
  });

  it("travels in the synced value under its own short key, left out when empty or default", () => {
    const wires = jobTable.keys.map((k) => JOB_FIELD_TABLE[k].wire);
    const fixed = ["pl", "s", "er", "ar", "de", "co", "e", "l", "ph", "sg", "rn", "pn", "cb"];
    expect(new Set([...wires, ...fixed]).size).toBe(wires.length + fixed.length);
    expect(encodeJob(planned)).toHaveLength(6);
    const full = { ...planned, ...examples };
    expect(encodeJob(full)[10]).toEqual(
      Object.fromEntries(jobTable.keys.map((k) => [JOB_FIELD_TABLE[k].wire, example(k)])),
    );
    expect(decodeJob("j", encodeJob(full))).toMatchObject(examples);
    expect(jobTable.given({})).toEqual(Object.fromEntries(jobTable.keys.map((k) => [k, emptyOf(k)])));
  });

  it("adds its CSV columns after the fixed header, and its form inputs in its order", () => {
    const fixed = "title,latitude,longitude,address,date,windowStart,windowEnd,vehicleName";
    expect(JOB_CSV_HEADER).toBe([fixed, ...JOB_TABLE_CSV_COLUMNS].join(","));
    expect(JOB_TABLE_CSV_COLUMNS).toEqual(jobTable.keys.filter((k) => JOB_FIELD_TABLE[k].csv));
    expect(jobTable.formFields.map((f) => f.name)).toEqual(jobTable.keys.filter((k) => JOB_FIELD_TABLE[k].form));
    expect(new Set(jobTable.formFields.map((f) => f.id)).size).toBe(jobTable.formFields.length);
  });

  it("holds today's fields (the REST answer's and the form's, unchanged by the move to the table)", () => {
    expect(jobTable.keys).toEqual(
      expect.arrayContaining(["radiusMeters", "durationMinutes", "customerName", "customerEmail", "notes"]),
    );
    expect(jobTable.formFields.map((f) => f.label)).toEqual(
      expect.arrayContaining(["Duration (min)", "Customer", "Customer e-mail", "Notes"]),
    );
  });
});
