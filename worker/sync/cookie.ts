import type { Cookie } from "../../shared/sync-protocol";

/**
 * The pull cookie (docs/decisions/0003-sync.md), an object per docs/product.md section 5:
 * - `version`: the workspace version the client's view reflects (what an incremental pull diffs from);
 * - `epoch`: the workspace's sync epoch when it was issued (rotated after a restore from backup);
 * - `order`: what Replicache compares. It must never go down for a client, even when the server's
 *   version does (a restore), so it is `version` plus an offset that a reset raises and every later
 *   cookie carries on.
 */
export type SyncCookie = {
  order: number;
  version: number;
  epoch: string;
};

/** What the server can tell from a client's cookie. */
export type ClientCookie =
  | { kind: "none" }
  /** One of ours (or a bare number from before cookies were objects: version = order, first epoch). */
  | { kind: "ours"; cookie: SyncCookie }
  /** Not ours to diff from (a string, another shape): reset, ordered above `order` where it is a number. */
  | { kind: "foreign"; order: number };

export function readCookie(cookie: Cookie): ClientCookie {
  if (cookie === null) return { kind: "none" };
  if (typeof cookie === "number") {
    return Number.isSafeInteger(cookie) && cookie >= 0
      ? { kind: "ours", cookie: { order: cookie, version: cookie, epoch: "" } }
      : { kind: "foreign", order: Number.isFinite(cookie) ? cookie : 0 };
  }
  if (typeof cookie === "string") return { kind: "foreign", order: 0 };
  const { order, version, epoch } = cookie as { order: unknown; version?: unknown; epoch?: unknown };
  const isCount = (n: unknown): n is number => typeof n === "number" && Number.isSafeInteger(n) && n >= 0;
  if (isCount(order) && isCount(version) && typeof epoch === "string" && order >= version) {
    return { kind: "ours", cookie: { order, version, epoch } };
  }
  return { kind: "foreign", order: typeof order === "number" && Number.isFinite(order) ? order : 0 };
}

/** The cookie of an incremental answer: the client's offset carried on, so `order` only grows. */
export function nextCookie(from: SyncCookie, version: number, epoch: string): SyncCookie {
  return { order: from.order + (version - from.version), version, epoch };
}

/** The cookie of a full answer: the current version, ordered above anything the client had. */
export function resetCookie(client: ClientCookie, version: number, epoch: string): SyncCookie {
  const clientOrder = client.kind === "ours" ? client.cookie.order : client.kind === "foreign" ? client.order : -1;
  return { order: Math.max(version, Math.floor(clientOrder) + 1), version, epoch };
}
