import { describe, expect, it } from "vitest";
import {
  decodeRenewal,
  encodeRenewal,
  RENEWAL_DAYS_AHEAD,
  RENEWAL_DAYS_BACK,
  RENEWED_DAYS_BACK,
  renewalAfterRenew,
  renewalBodySchema,
  renewalStatus,
  renewBodySchema,
  type RenewalFields,
} from "./renewals";
import { addDays } from "../units/time-zone";
import { decodeSyncedValue } from "../sync/synced-value";

const registration: RenewalFields = {
  vehicleId: "v1",
  kind: "registration",
  name: null,
  dueDate: "2026-12-31",
  remindDaysBefore: 30,
  photoIds: [],
};

describe("renewalStatus", () => {
  it("is ok until the reminder period starts", () => {
    expect(renewalStatus(registration, "2026-11-30")).toBe("ok");
  });
  it("is due soon from remindDaysBefore days ahead up to the due day itself", () => {
    expect(renewalStatus(registration, "2026-12-01")).toBe("due_soon");
    expect(renewalStatus(registration, "2026-12-31")).toBe("due_soon");
  });
  it("is overdue the day after the due date", () => {
    expect(renewalStatus(registration, "2027-01-01")).toBe("overdue");
  });
  it("with no reminder period is due soon on the day only", () => {
    const noNotice = { ...registration, remindDaysBefore: 0 };
    expect(renewalStatus(noNotice, "2026-12-30")).toBe("ok");
    expect(renewalStatus(noNotice, "2026-12-31")).toBe("due_soon");
  });
  it("counts calendar days across a month and a leap day", () => {
    const march = { ...registration, dueDate: "2028-03-01", remindDaysBefore: 1 };
    expect(renewalStatus(march, "2028-02-28")).toBe("ok");
    expect(renewalStatus(march, "2028-02-29")).toBe("due_soon");
  });
});

describe("renewal bodies", () => {
  it("default the reminder to 30 days and name a bad field", () => {
    expect(renewalBodySchema.parse({ vehicleId: "v1", kind: "permit", dueDate: "2027-02-01" }).remindDaysBefore).toBe(
      30,
    );
    const bad = renewalBodySchema.safeParse({ vehicleId: "v1", kind: "licence", dueDate: "2027-02-30" });
    expect(bad.success).toBe(false);
    expect(Object.keys(bad.error!.flatten().fieldErrors).sort()).toEqual(["dueDate", "kind"]);
  });
  it("refuse a due date years away, and a renewal back in the past, naming the range (issue 51)", () => {
    const today = new Date().toISOString().slice(0, 10);
    const body = (dueDate: string) => ({ vehicleId: "v1", kind: "permit", dueDate });
    const range = /^Use a date from \d{4}-\d{2}-\d{2} to \d{4}-\d{2}-\d{2}$/;
    for (const dueDate of ["9999-12-31", "1999-01-01", addDays(today, -RENEWAL_DAYS_BACK - 2)])
      expect(renewalBodySchema.safeParse(body(dueDate)).error?.flatten().fieldErrors.dueDate?.[0]).toMatch(range);
    expect(renewalBodySchema.safeParse(body(addDays(today, RENEWAL_DAYS_AHEAD))).success).toBe(true);
    for (const dueDate of ["1999-06-30", addDays(today, -RENEWED_DAYS_BACK - 2), "9999-12-31"])
      expect(renewBodySchema.safeParse({ dueDate }).error?.flatten().fieldErrors.dueDate?.[0]).toMatch(range);
    for (const dueDate of [addDays(today, -RENEWED_DAYS_BACK), addDays(today, 365)])
      expect(renewBodySchema.safeParse({ dueDate }).success).toBe(true);
  });
  it("renewing moves the due date and keeps the document unless a new one comes", () => {
    const withPhoto = { ...registration, photoIds: ["p1"] };
    expect(renewalAfterRenew(withPhoto, { dueDate: "2027-12-31" })).toMatchObject({
      dueDate: "2027-12-31",
      photoIds: ["p1"],
    });
    expect(renewalAfterRenew(withPhoto, { dueDate: "2027-12-31", photoIds: ["p2"] }).photoIds).toEqual(["p2"]);
  });
});

describe("synced renewals", () => {
  it("round-trip through the compact form, the default reminder left out", () => {
    const wire = encodeRenewal(registration);
    expect(wire).toEqual({ v: "v1", k: 0, d: "2026-12-31" });
    const custom = { ...registration, kind: "other" as const, name: "Harbour pass", remindDaysBefore: 10 };
    expect(decodeRenewal("r1", encodeRenewal(custom))).toEqual({ id: "r1", ...custom });
    expect(decodeSyncedValue("renewal/r1", wire)).toEqual({ id: "r1", ...registration });
  });
});
