import { describe, expect, it } from "vitest";
import { decodeDriver, driverFormSchema, encodeDriver } from "./driver";

describe("drivers", () => {
  it("round-trips through the compact form, leaving nulls out", () => {
    const wire = encodeDriver({ name: "Ana Ruiz", email: null, phone: "+1 555 0100" });
    expect(wire).toEqual({ n: "Ana Ruiz", p: "+1 555 0100" });
    expect(decodeDriver("d1", wire)).toEqual({ id: "d1", name: "Ana Ruiz", email: null, phone: "+1 555 0100" });
  });

  it("requires a name, and checks e-mail and phone only when given, with clear messages", () => {
    expect(driverFormSchema.parse({ name: " Bo ", email: "", phone: "" })).toEqual({
      name: "Bo",
      email: null,
      phone: null,
    });
    const bad = driverFormSchema.safeParse({ name: "", email: "nope", phone: "call me" });
    expect(bad.success).toBe(false);
    const messages = bad.error!.flatten().fieldErrors;
    expect(messages).toEqual({
      name: ["Required"],
      email: ["Invalid email address"],
      phone: ["Enter a phone number, digits with an optional leading +"],
    });
    expect(driverFormSchema.parse({ name: "C", email: "C@Fleet.Test", phone: "(555) 010-0199" })).toMatchObject({
      email: "c@fleet.test",
    });
  });
});
