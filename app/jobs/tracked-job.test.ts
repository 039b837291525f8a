import { describe, expect, it } from "vitest";
import { trackedJobSchema } from "./tracked-job";

describe("the customer's page reads GET /api/track/{token}", () => {
  it("takes ISO instants, the window's two ends and the vehicle's position in full words", () => {
    const answer = trackedJobSchema.parse({
      job: {
        title: "Deliver 4 boxes",
        status: "en_route",
        eta: "2026-11-28T10:15:00.000Z",
        late: false,
        window: { start: "10:00", end: "11:00" },
      },
      vehicle: { name: "Van 3", position: { latitude: 41.88, longitude: -87.63, at: "2026-11-28T10:01:00.000Z" } },
    });
    expect(answer.job).toMatchObject({
      eta: Date.parse("2026-11-28T10:15:00.000Z"),
      window: { start: "10:00", end: "11:00" },
    });
    expect(answer.vehicle?.position).toEqual({ lat: 41.88, lng: -87.63, at: Date.parse("2026-11-28T10:01:00.000Z") });
  });

  it("takes a job with no ETA, no window and no vehicle", () => {
    const answer = trackedJobSchema.parse({ job: { title: "Pick-up", status: "completed", eta: null }, vehicle: null });
    expect(answer).toEqual({ job: { title: "Pick-up", status: "completed", eta: null }, vehicle: null });
  });

  it("takes the destination, the arrival and the completion (issue 53)", () => {
    const answer = trackedJobSchema.parse({
      job: { title: "Sofa", status: "completed", completedAt: "2026-11-28T20:32:00.000Z", arrivedAt: null },
      destination: { latitude: 41.9, longitude: -87.66, address: "200 W Madison St" },
      vehicle: null,
    });
    expect(answer.job).toMatchObject({ completedAt: Date.parse("2026-11-28T20:32:00.000Z"), arrivedAt: null });
    expect(answer.destination).toEqual({ lat: 41.9, lng: -87.66, address: "200 W Madison St" });
  });
});
