import { describe, expect, it } from "vitest";
import type { Job } from "../../shared/jobs/jobs";
import { call, insertVehicle, memberWithRole, userWithWorkspace } from "../test/factories";

/** GET /api/jobs/{id}: the one job the dispatch page's story reads (issue 53, DESIGN.md "A job's story"). */
const DAY = "2026-11-30";
const stop = (title: string, more: Record<string, unknown> = {}) => ({
  title,
  date: DAY,
  location: { latitude: 41.88, longitude: -87.63 },
  ...more,
});

async function created(token: string, json: unknown) {
  const res = await call("/api/jobs", { method: "POST", token, json });
  expect(res.status).toBe(201);
  return (await res.json()) as Job;
}

describe("one job over REST", () => {
  it("answers the job with its proof to anyone of the workspace, a viewer included", async () => {
    const a = await userWithWorkspace();
    const van = await insertVehicle(a.workspaceId, { name: "Van 1" });
    const job = await created(a.token, stop("Deliver boxes", { vehicleId: van, windowEnd: "10:30" }));
    const done = await call(`/api/jobs/${job.id}/complete`, {
      method: "POST",
      token: a.token,
      json: { recipientName: "Jo Baker", note: "Back door" },
    });
    expect(done.status).toBe(200);
    const viewer = await memberWithRole(a.workspaceId, "viewer");
    const res = await call(`/api/jobs/${job.id}`, { token: viewer.token });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      id: job.id,
      title: "Deliver boxes",
      vehicleId: van,
      status: "completed",
      proof: { recipientName: "Jo Baker", note: "Back door", photoIds: [] },
    });
  });

  it("is a 404 for another workspace's job, a deleted one and one that never was", async () => {
    const a = await userWithWorkspace();
    const b = await userWithWorkspace();
    const theirs = await created(b.token, stop("Theirs"));
    const gone = await created(a.token, stop("Gone"));
    expect((await call(`/api/jobs/${gone.id}`, { method: "DELETE", token: a.token })).status).toBe(204);
    for (const id of [theirs.id, gone.id, crypto.randomUUID()]) {
      const res = await call(`/api/jobs/${id}`, { token: a.token });
      expect(res.status).toBe(404);
      expect(await res.json()).toMatchObject({ error: { code: "not_found" } });
    }
  });
});
