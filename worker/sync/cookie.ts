import type { Cookie } from "../../shared/sync/sync-protocol";

/**
 * The pull cookie (docs/decisions/0003-sync.md), an object per docs/product.md section 5:
 * - `version`: the workspace version the client's view reflects (what an incremental pull diffs from);
 * - `epoch`: the workspace's sync epoch when it was issued (rotated after a restore from backup);
 * - `order`: what Replicache compares. It must never go down for a client, even when the server's
 *   version does (a restore), so it is `version` plus an offset that a reset raises and every later
 *   cookie carries on;
 * - `acks`: the workspace's `sync_acks` the client's view reflects (absent = 0, so older cookies
 *   stay valid). A push recorded without a write raises it instead of the version
 *   (docs/decisions/0035): a pull that sees it moved answers the group's changed mutation ids and
 *   raises `order` by one (Replicache keeps only a cookie ordered above the last).
 */
export type SyncCookie = {
  order: number;
  version: number;
  epoch: string;
  acks?: number;
  /** The client group it was issued to: a pull naming that group when the server has none was deleted as idle (ADR 0035). */
  group?: string;
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
  const { order, version, epoch, acks, group } = cookie as {
    order: unknown;
    version?: unknown;
    epoch?: unknown;
    acks?: unknown;
    group?: unknown;
  };
  const isCount = (n: unknown): n is number => typeof n === "number" && Number.isSafeInteger(n) && n >= 0;
  const extrasValid = (acks === undefined || isCount(acks)) && (group === undefined || typeof group === "string");
  if (isCount(order) && isCount(version) && typeof epoch === "string" && order >= version && extrasValid) {
    return {
      kind: "ours",
      cookie: { order, version, epoch, ...(acks ? { acks } : {}), ...(typeof group === "string" ? { group } : {}) },
    };
  }
  return { kind: "foreign", order: typeof order === "number" && Number.isFinite(order) ? order : 0 };
}

/** Whether the workspace's acks moved since this cookie: the pull then reads the group's mutation ids itself. */
export function acksMoved(from: SyncCookie, acks: number): boolean {
  return acks > (from.acks ?? 0);
}

/**
 * The cookie of an incremental answer: the client's offset carried on, so `order` only grows; one
 * more when the workspace's acks moved (the answer may carry mutation ids at an unchanged version).
 */
export function nextCookie(from: SyncCookie, version: number, epoch: string, acks = 0): SyncCookie {
  const raise = acksMoved(from, acks) ? 1 : 0;
  return {
    order: from.order + (version - from.version) + raise,
    version,
    epoch,
    ...withAcks(Math.max(acks, from.acks ?? 0)),
  };
}

/** The cookie of a full answer: the current version, ordered above anything the client had. */
export function resetCookie(client: ClientCookie, version: number, epoch: string, acks = 0): SyncCookie {
  const clientOrder = client.kind === "ours" ? client.cookie.order : client.kind === "foreign" ? client.order : -1;
  return { order: Math.max(version, Math.floor(clientOrder) + 1), version, epoch, ...withAcks(acks) };
}

/** `acks` only once it is not 0: cookies of workspaces that never saw a refused push keep their shape. */
function withAcks(acks: number) {
  return acks > 0 ? { acks } : {};
}
