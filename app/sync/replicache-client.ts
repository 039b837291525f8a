import { Replicache } from "replicache";
import { mutators, type Mutators } from "../../shared/mutators";
import { SCHEMA_VERSION } from "../../shared/sync-protocol";

export type Rep = Replicache<Mutators>;

/**
 * One local store per viewer and workspace (docs/decisions/0003-sync.md): its name is the viewer
 * id with the workspace id, so switching workspaces never mixes two workspaces' data in one
 * IndexedDB. Settings from SPEC.md section 9 where Replicache exposes them.
 */
export function createReplicache(
  viewerId: string,
  workspaceId: string,
  token: string,
  reauthenticate: () => Promise<string | null>,
): Rep {
  const rep = new Replicache<Mutators>({
    name: `${viewerId}/${workspaceId}`,
    schemaVersion: SCHEMA_VERSION,
    mutators,
    pushURL: "/api/sync/push",
    pullURL: "/api/sync/pull",
    auth: `Bearer ${token}`,
    pullInterval: 60_000,
    pushDelay: 10,
    requestOptions: { minDelayMs: 30, maxDelayMs: 60_000 },
    // SPEC.md: clients idle for 7 days are collected. The 60 s heartbeat and the 5-minute client,
    // group and mutation-recovery checks are Replicache 15's own fixed defaults.
    clientMaxAgeMs: 7 * 24 * 60 * 60 * 1000,
    // No secondary index: telemetry/{vehicleId} is keyed by the vehicle already (docs/decisions/0013).
  });
  // A 401 asks for new auth; Replicache retries up to 8 times with what this returns, and stops
  // on null (the session is gone: the session check has signed the user out by then).
  rep.getAuth = async () => {
    const current = await reauthenticate();
    return current ? `Bearer ${current}` : null;
  };
  // A newer app version is deployed (schema or protocol): load it. ClientStateNotFound keeps
  // Replicache's default, which also reloads (with a fresh client group).
  rep.onUpdateNeeded = () => window.location.reload();
  return rep;
}
