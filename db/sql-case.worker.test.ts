import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { FINAL_STATUSES, STATUS_RANK } from "../domain/jobs/planned-job";
import { statusRank } from "../party/live-fleet/flush-tables";
import { sqlList } from "./sql-case";

/** The job status rank the flush's guard runs in D1 is the TypeScript table itself, status by status. */
describe("rules written out as SQL from their TypeScript table", () => {
  it("ranks every job status in D1 as STATUS_RANK does, and lists the final ones", async () => {
    for (const [status, rank] of Object.entries(STATUS_RANK)) {
      const row = await env.DB.prepare(`SELECT ${statusRank("?1")} AS rank, ?1 IN ${sqlList(FINAL_STATUSES)} AS final`)
        .bind(status)
        .first<{ rank: number; final: number }>();
      expect([status, row?.rank, Boolean(row?.final)]).toEqual([status, rank, FINAL_STATUSES.has(status as never)]);
    }
  });
});
