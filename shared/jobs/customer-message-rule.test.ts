import { describe, expect, it } from "vitest";
import { JOB_STATUSES } from "./jobs";
import { customerMessageSettingsOf } from "./customer-messages";
import { messagesForJobChange, TELLING_STATUSES, type JobChangeContext } from "./customer-message-rule";

const all = customerMessageSettingsOf({ enRoute: true, completed: true, failed: true });
const both: JobChangeContext = { settings: all, told: true, email: "c@example.com", phone: "+13125550100" };
const kinds = (change: Parameters<typeof messagesForJobChange>[0], context: JobChangeContext) =>
  messagesForJobChange(change, context).map((m) => `${m.kind}/${m.channel}`);

describe("which messages a job's change queues (the one rule)", () => {
  it("tells on the way and done, by each channel the job has an address for, only where chosen", () => {
    expect(kinds({ change: "status", status: "en_route" }, both)).toEqual(["en_route/email", "en_route/sms"]);
    expect(kinds({ change: "status", status: "completed" }, { ...both, phone: null })).toEqual(["completed/email"]);
    expect(kinds({ change: "status", status: "completed" }, { ...both, email: null })).toEqual(["completed/sms"]);
    const none = { ...both, settings: customerMessageSettingsOf({}) };
    for (const status of JOB_STATUSES) expect(kinds({ change: "status", status }, none)).toEqual([]);
  });

  it("says a visit failed (cancelled, or moved to another day before it was done) only to a customer already told", () => {
    expect(kinds({ change: "status", status: "cancelled" }, both)).toEqual(["failed/email", "failed/sms"]);
    expect(kinds({ change: "status", status: "cancelled" }, { ...both, told: false })).toEqual([]);
    expect(kinds({ change: "date", status: "scheduled" }, both)).toEqual(["failed/email", "failed/sms"]);
    expect(kinds({ change: "date", status: "en_route" }, { ...both, told: false })).toEqual([]);
    expect(kinds({ change: "date", status: "completed" }, both)).toEqual([]);
    expect(kinds({ change: "date", status: "cancelled" }, both)).toEqual([]);
  });

  it("never tells of a skipped stop (it may still be reached), an arrival or a return to scheduled", () => {
    for (const status of ["skipped", "arrived", "scheduled"] as const)
      expect(kinds({ change: "status", status }, both)).toEqual([]);
  });

  it("queues for a status change only in the statuses the trigger records (TELLING_STATUSES)", () => {
    const telling = JOB_STATUSES.filter((status) => kinds({ change: "status", status }, both).length > 0);
    expect(telling).toEqual([...TELLING_STATUSES]);
  });
});
