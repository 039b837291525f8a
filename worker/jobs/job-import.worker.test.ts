import { afterEach, describe, expect, it, vi } from "vitest";
import { JOB_CSV_HEADER, type Job, type JobImportResult } from "../../shared/jobs/jobs";
import { call, insertVehicle, userWithWorkspace } from "../test/factories";
import { MAPBOX_FORWARD_URL } from "./geocode-address";
import { fetchWithEnv } from "../test/with-env";

/** `POST /api/jobs/import` (DESIGN.md "Jobs and routes"): a day from CSV, all or nothing, errors by line. */
const csv = (...lines: string[]) => [JOB_CSV_HEADER, ...lines].join("\n");

function importCsv(token: string, text: string, contentType = "text/csv") {
  return call("/api/jobs/import", {
    method: "POST",
    token,
    headers: { "Content-Type": contentType },
    body: text,
  });
}

/** The same request through the real Worker with MAPBOX_TOKEN set (the geocoder configured). */
async function importWithGeocoder(token: string, text: string) {
  return fetchWithEnv(
    new Request("http://localhost/api/jobs/import", {
      method: "POST",
      headers: { Authorization: `Bearer ${token}`, "Content-Type": "text/csv" },
      body: text,
    }),
    { MAPBOX_TOKEN: "pk.test" },
  );
}

/** Fakes Mapbox's forward geocoding at the fetch boundary: "nowhere" finds nothing. */
function fakeGeocoder() {
  const asked: string[] = [];
  const real = globalThis.fetch;
  vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    if (!url.href.startsWith(MAPBOX_FORWARD_URL)) return real(input, init);
    const q = url.searchParams.get("q")!;
    asked.push(q);
    const features = q.includes("nowhere") ? [] : [{ geometry: { type: "Point", coordinates: [-87.65, 41.85] } }];
    return Response.json({ type: "FeatureCollection", features });
  });
  return asked;
}
afterEach(() => vi.restoreAllMocks());

const jobsOf = async (token: string) => ((await (await call("/api/jobs", { token })).json()) as { jobs: Job[] }).jobs;

describe("jobs CSV import", () => {
  it("creates every line, resolving vehicle names in the workspace and keeping each vehicle's lines in order", async () => {
    const a = await userWithWorkspace();
    const van = await insertVehicle(a.workspaceId, { name: "Van 2" });
    const location = { latitude: 41.8, longitude: -87.6 };
    const earlier = { title: "Earlier", date: "2026-11-30", vehicleId: van, location };
    expect((await call("/api/jobs", { method: "POST", token: a.token, json: earlier })).status).toBe(201);
    const res = await importCsv(
      a.token,
      csv(
        "Drop A,41.88,-87.63,1 Main St,2026-11-30,09:00,10:00,van 2",
        '"Pick up, back door",41.89,-87.62,,2026-11-30,,,Van 2',
        "Loose,41.9,-87.6,,2026-11-30,,,",
      ) + "\n",
    );
    expect(res.status).toBe(201);
    expect(await res.json()).toEqual({ created: 3, errors: [] });
    const jobs = await jobsOf(a.token);
    // Numbered after the workspace's jobs, each vehicle's lines after what its day already held.
    expect(jobs.map((j) => [j.title, j.vehicleId, j.sequence, j.number])).toEqual([
      ["Earlier", van, 0, 1],
      ["Loose", null, 0, 4],
      ["Drop A", van, 1, 2],
      ["Pick up, back door", van, 2, 3],
    ]);
    expect(jobs[2]).toMatchObject({ windowStart: "09:00", windowEnd: "10:00", location: { address: "1 Main St" } });
  });

  it("reports every bad line by its number (the header is line 1) and imports nothing", async () => {
    const a = await userWithWorkspace();
    const b = await userWithWorkspace();
    await insertVehicle(a.workspaceId, { name: "Twin" });
    await insertVehicle(a.workspaceId, { name: "twin" });
    await insertVehicle(b.workspaceId, { name: "Their van" });
    const res = await importCsv(
      a.token,
      csv(
        "Fine,41.88,-87.63,,2026-11-30,,,",
        "No date,41.88,-87.63,,,,,",
        "",
        "Far north,95,-87.63,,2026-11-30,,,",
        "Theirs,41.88,-87.63,,2026-11-30,,,Their van",
        "Which twin,41.88,-87.63,,2026-11-30,,,Twin",
        "Late window,41.88,-87.63,,2026-11-30,11:00,10:00,",
      ),
    );
    expect(res.status).toBe(400);
    const body = (await res.json()) as JobImportResult & { error: { message: string } };
    expect(body.created).toBe(0);
    expect(body.error.message).toMatch(/nothing was imported/);
    expect(body.errors).toEqual([
      { line: 3, error: expect.stringMatching(/^date: /) },
      { line: 5, error: "latitude: Between -90 and 90" },
      { line: 6, error: 'vehicleName: no vehicle named "Their van"' },
      { line: 7, error: 'vehicleName: more than one vehicle is named "Twin"' },
      { line: 8, error: "windowEnd: Ends after it starts" },
    ]);
    expect(await jobsOf(a.token)).toEqual([]);
  });

  it("refuses a wrong header on line 1, a body that is not CSV, and an address alone with no geocoder", async () => {
    const a = await userWithWorkspace();
    const wrong = await importCsv(a.token, "title,lat,lon\nA,1,2");
    expect(wrong.status).toBe(400);
    expect(((await wrong.json()) as JobImportResult).errors).toEqual([{ line: 1, error: expect.any(String) }]);
    expect((await importCsv(a.token, '{"title":"x"}', "application/json")).status).toBe(415);
    const noGeocoder = await importCsv(a.token, csv("By address,,,1 Main St Chicago,2026-11-30,,,"));
    expect(((await noGeocoder.json()) as JobImportResult).errors).toEqual([
      { line: 2, error: "address: No geocoder is configured: give latitude and longitude" },
    ]);
  });

  it("geocodes an address alone where a geocoder is configured, and names the line whose address it cannot find", async () => {
    const a = await userWithWorkspace();
    const asked = fakeGeocoder();
    const missing = await importWithGeocoder(
      a.token,
      csv("Found,,,1 Main St Chicago,2026-11-30,,,", "Lost,,,nowhere at all,2026-11-30,,,"),
    );
    expect(((await missing.json()) as JobImportResult).errors).toEqual([
      { line: 3, error: "address: Address not found: give latitude and longitude" },
    ]);
    const res = await importWithGeocoder(a.token, csv("Found,,,1 Main St Chicago,2026-11-30,,,"));
    expect(res.status).toBe(201);
    expect((await jobsOf(a.token))[0]).toMatchObject({
      location: { latitude: 41.85, longitude: -87.65, address: "1 Main St Chicago" },
    });
    expect(asked).toContain("1 Main St Chicago");
  });
});
