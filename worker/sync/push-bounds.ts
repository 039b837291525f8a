import { audit } from "../lib/audit";
import { ApiError } from "../lib/errors";

/**
 * Bounds on one push (issue 23), checked before the server reads anything. Replicache sends every
 * pending mutation in one request (a week offline is thousands, megabytes: the body limit stays
 * 16 MB), and the server applies at most MAX_MUTATIONS_PER_PUSH of them per request; the client
 * resends the rest. So:
 *  - more than MAX_PUSH_MUTATIONS is not a browser: 413, logged;
 *  - only the first MUTATIONS_READ_PER_PUSH are looked at (their clients read in at most three
 *    D1 statements), which holds every mutation the request can apply.
 */
export const MAX_PUSH_MUTATIONS = 10_000;
export const MUTATIONS_READ_PER_PUSH = 200;

export function boundPush<T extends { mutations: readonly unknown[] }>(req: T, userId: string): T {
  if (req.mutations.length > MAX_PUSH_MUTATIONS) {
    audit("sync.bound_exceeded", { userId, bound: "mutations_per_push", mutations: req.mutations.length });
    throw new ApiError(413, "payload_too_large", `A push carries at most ${MAX_PUSH_MUTATIONS} mutations`);
  }
  return req.mutations.length <= MUTATIONS_READ_PER_PUSH
    ? req
    : { ...req, mutations: req.mutations.slice(0, MUTATIONS_READ_PER_PUSH) };
}
