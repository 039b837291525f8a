import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { database } from "../../db/client";
import { users } from "../../db/schema";
import { safeError } from "./safe-error";

describe("safeError", () => {
  it("keeps what failed and drops the bound parameters of a real D1 error", async () => {
    const db = database(env.DB);
    const email = `dup-${crypto.randomUUID().slice(0, 6)}@example.com`;
    await db.insert(users).values({ id: crypto.randomUUID(), email });
    const secretId = `secret-${crypto.randomUUID()}`;
    const error = await db
      .insert(users)
      .values({ id: secretId, email })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    const line = safeError(error);
    expect(line).toContain("users");
    expect(line).not.toContain(secretId);
    expect(line).not.toContain(email);
  });

  it("hides e-mails and quoted values in any message", () => {
    const line = safeError(new Error("no user 'abc' for someone@example.com", { cause: new Error("params: x,y") }));
    expect(line).not.toMatch(/abc|someone@example\.com|x,y/);
  });
});
