import { describe, expect, it } from "vitest";
import { configSchema } from "./env";

const production = {
  ENVIRONMENT: "production",
  APP_URL: "https://fleet.example.com",
  WEBHOOK_SECRET_KEY: "c2VhbGluZy1rZXktb2YtdGhpcy10ZXN0LTMyLWJ5dGU=",
  VAPID_PUBLIC_KEY: "BLxAkQbS-production-public-key",
  VAPID_PRIVATE_KEY: "production-private-key",
  VAPID_SUBJECT: "mailto:ops@fleet.example.com",
};

describe("Worker configuration", () => {
  it("refuses the development e-mail outbox in production", () => {
    const result = configSchema.safeParse({ ...production, EMAIL_PROVIDER: "outbox" });
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((i) => i.path.join("."))).toEqual(["EMAIL_PROVIDER"]);
  });

  it("refuses resend without its key in production, accepts it with one", () => {
    expect(
      configSchema.safeParse({ ...production, EMAIL_PROVIDER: "resend" }).error?.issues.map((i) => i.path.join(".")),
    ).toEqual(["EMAIL_API_KEY"]);
    expect(configSchema.safeParse({ ...production, EMAIL_PROVIDER: "resend", EMAIL_API_KEY: "re_key" }).success).toBe(
      true,
    );
  });

  it("keeps the outbox for development and tests", () => {
    for (const ENVIRONMENT of ["development", "test"]) {
      expect(configSchema.safeParse({ ENVIRONMENT, EMAIL_PROVIDER: "outbox" }).success).toBe(true);
    }
  });
  it("refuses to run in production without the app's public https address (issue 23)", () => {
    for (const APP_URL of [undefined, "http://fleet.example.com", "https://localhost:8787"]) {
      const result = configSchema.safeParse({ ...production, APP_URL, EMAIL_PROVIDER: "resend", EMAIL_API_KEY: "k" });
      expect(result.error?.issues.map((i) => i.path.join("."))).toEqual(["APP_URL"]);
    }
    expect(configSchema.safeParse({ ...production, EMAIL_PROVIDER: "resend", EMAIL_API_KEY: "k" }).success).toBe(true);
  });
});

describe("the webhook sealing key", () => {
  it("is required in production", () => {
    const { WEBHOOK_SECRET_KEY: _omitted, ...withoutKey } = production;
    const result = configSchema.safeParse({ ...withoutKey, EMAIL_PROVIDER: "resend", EMAIL_API_KEY: "k" });
    expect(result.error?.issues.map((i) => i.path.join("."))).toEqual(["WEBHOOK_SECRET_KEY"]);
  });
});

describe("the Web Push keys (issue 41)", () => {
  it("are required in production, with a mailto: contact", () => {
    const { VAPID_PRIVATE_KEY: _omitted, ...withoutKey } = production;
    const ready = { EMAIL_PROVIDER: "resend", EMAIL_API_KEY: "k" };
    expect(configSchema.safeParse({ ...withoutKey, ...ready }).error?.issues.map((i) => i.path.join("."))).toEqual([
      "VAPID_PUBLIC_KEY",
    ]);
    expect(configSchema.safeParse({ ...production, ...ready, VAPID_SUBJECT: "ops" }).success).toBe(false);
  });

  it("default to a fixed development pair in local runs and tests only", () => {
    const local = configSchema.parse({ ENVIRONMENT: "test" });
    expect(local.VAPID_PUBLIC_KEY).toMatch(/^B[\w-]{86}$/);
    expect(local.VAPID_PRIVATE_KEY).not.toBe("");
  });
});
