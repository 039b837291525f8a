import { env } from "cloudflare:workers";
import { LIMITS, reserveIn } from "../auth/rate-limit";
import type { Db } from "../../db/client";
import { config } from "../env";
import { audit } from "../lib/audit";
import { ApiError } from "../lib/errors";
import type { SyncCaller } from "./client-group";

/**
 * A full answer (a first pull, or a reset: a foreign, too-old or "restored" cookie) reads every row
 * of the workspace. A caller can ask for one with every message, so they are budgeted per user and
 * workspace per minute (LIMITS.fullReads), one guarded D1 statement each (full reads are rare, and
 * the budget must hold across the Worker's isolates and the room). Past it the pull answers 429
 * before anything is read or written; Replicache retries it with backoff, so a client whose
 * cookie keeps asking for a reset gets one full pull a few seconds later, not one per message.
 */
export async function requireFullRead(db: Db, caller: SyncCaller): Promise<void> {
  const scale = config(env).RATE_LIMIT_SCALE;
  if (await reserveIn(db, LIMITS.fullReads, `user:${caller.userId}|ws:${caller.workspaceId}`, scale)) return;
  audit("sync.bound_exceeded", {
    userId: caller.userId,
    workspaceId: caller.workspaceId,
    bound: "full_reads_per_minute",
  });
  throw new ApiError(429, "rate_limited", "Too many full reads of this workspace. Try again in a minute.");
}
