import { describe, expect, it } from "vitest";
import { JOB_FIELD_TABLE, jobTable } from "../../shared/jobs/job-fields";
import { jobFormArgs } from "./job-form-values";

const form = (fields: Record<string, string>) => {
  const data = new FormData();
  for (const [k, v] of Object.entries(fields)) data.set(k, v);
  return data;
};

describe("the New job form", () => {
  it("turns a point job into the createJob mutator's arguments", () => {
    const result = jobFormArgs(
      form({
        title: " Deliver boxes ",
        latitude: "41.88",
        longitude: "-87.63",
        windowStart: "09:00",
        windowEnd: "11:00",
        durationMinutes: "15",
        customerEmail: "ann@example.com",
        vehicleId: "",
      }),
      "job-1",
      "2026-11-28",
    );
    expect(result).toEqual({
      ok: true,
      args: expect.objectContaining({
        id: "job-1",
        date: "2026-11-28",
        title: "Deliver boxes",
        vehicleId: null,
        location: { latitude: 41.88, longitude: -87.63, address: null },
        durationMinutes: 15,
        customerEmail: "ann@example.com",
      }),
    });
  });

  it("takes a place instead of a point", () => {
    const result = jobFormArgs(form({ title: "Yard", placeId: "place-1" }), "job-2", "2026-11-28");
    expect(result).toMatchObject({ ok: true, args: { placeId: "place-1", location: undefined } });
  });

  it("names each field it refuses, as the server's schema would", () => {
    expect(jobFormArgs(form({ title: "" }), "j", "2026-11-28")).toEqual({
      ok: false,
      errors: { latitude: "Choose a place, pick a point on the map or type it" },
    });
    const result = jobFormArgs(
      form({ title: "", latitude: "91", longitude: "0", windowStart: "10:00", windowEnd: "09:00" }),
      "j",
      "2026-11-28",
    );
    expect(result).toEqual({
      ok: false,
      errors: { title: "Required", latitude: "Between -90 and 90", windowEnd: "Ends after it starts" },
    });
  });

  it("reads every field the job table puts in the form, by its name (docs/decisions/0082)", () => {
    const given = Object.fromEntries(jobTable.formFields.map((f) => [f.name, JOB_FIELD_TABLE[f.name].example]));
    const values = Object.fromEntries(Object.entries(given).map(([k, v]) => [k, String(v)]));
    const result = jobFormArgs(
      form({ title: "Drop", latitude: "41.88", longitude: "-87.63", ...values }),
      "j",
      "2026-11-28",
    );
    expect(result).toMatchObject({ ok: true, args: given });
  });
});
