import { PROTOCOL_VERSION, SCHEMA_VERSION } from "../../shared/sync/sync-protocol";

/**
 * Which clients the sync endpoints serve (docs/decisions/0003-sync.md, "Versions"):
 * - push and pull protocol: version 1 only; anything else (e.g. 0, from Replicache before 13) is
 *   told VersionNotSupported with its versionType, before the body is validated as version 1;
 * - pull: the current SCHEMA_VERSION only (values are sent in its shape); an older tab is told
 *   VersionNotSupported and reloads the deployed build;
 * - push: the current SCHEMA_VERSION and every earlier one down to OLDEST_PUSH_SCHEMA_VERSION. A
 *   mutation from an older build is applied when its arguments still parse with today's schemas
 *   and refused (recorded without effects) otherwise, so a store's unsent offline edits survive a
 *   deploy. Raise the oldest version only when a mutator's meaning changes; keep at least 90 days.
 */
export const OLDEST_PUSH_SCHEMA_VERSION = 0;

export type VersionType = "pull" | "push" | "schema";

export function unsupportedProtocol(body: unknown, field: "pullVersion" | "pushVersion"): boolean {
  if (typeof body !== "object" || body === null || Array.isArray(body)) return false;
  const version = (body as Record<string, unknown>)[field];
  return typeof version === "number" && version !== PROTOCOL_VERSION;
}

export const pullSchemaSupported = (schemaVersion: string) => schemaVersion === SCHEMA_VERSION;

export function pushSchemaSupported(schemaVersion: string): boolean {
  if (schemaVersion === SCHEMA_VERSION) return true;
  if (!/^\d{1,9}$/.test(schemaVersion) || !/^\d{1,9}$/.test(SCHEMA_VERSION)) return false;
  const version = Number(schemaVersion);
  return version >= OLDEST_PUSH_SCHEMA_VERSION && version < Number(SCHEMA_VERSION);
}

export const versionNotSupported = (versionType: VersionType) => ({
  error: "VersionNotSupported" as const,
  versionType,
});
