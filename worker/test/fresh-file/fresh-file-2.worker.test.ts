import { describe, it } from "vitest";
import { expectFreshStart, leaveTraces } from "./fresh-file";

// One of two identical files (see ./fresh-file.ts): run in either order, the second must start clean.
describe("a Worker test file's start", () => {
  it("has the real migrations on an empty D1, empty KV and modules no earlier file used", async () => {
    await expectFreshStart("fresh-file-2");
    await leaveTraces();
  });
});
