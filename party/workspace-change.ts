/**
 * What the Worker tells a workspace's object after a committed write, or after anything else the
 * object must hear of: the ONE call by which the Worker tells a workspace's object anything changed
 * (`FleetRoom.changed`, sent only by worker/workspace-object.ts; docs/decisions/0027, 0058). The
 * object keeps its own copies current from it: places, rules, jobs, tanks and time zone (reloaded
 * from D1 at once), devices, sockets, share views; then drops its shared reads and pokes its
 * sockets (paced by the object alone), unless `poke` is false.
 */
export interface WorkspaceChange {
  /** Places were created, changed or deleted: the object reloads its watch before the next report. */
  places?: boolean;
  /** Jobs were created, changed or deleted (issue 43): the object reloads the jobs it watches. */
  jobs?: boolean;
  /** Alert rules changed: likewise. */
  rules?: boolean;
  /** A vehicle's fuel tank changed: likewise (a fuel_drop rule's minLitres is measured with it). */
  tanks?: boolean;
  /** The workspace's new time zone (IANA): every vehicle the object holds folds with it from the next report on. */
  timeZone?: string;
  /** Vehicles whose device ids were replaced: their old ids are unknown from now on (what they had pending is flushed first). */
  devices?: { vehicleIds: string[] };
  /** Members who left or were removed: their sockets close at once. */
  members?: { removedUserIds: string[] };
  /** Sessions that were revoked (token hashes): their sockets close at once, and any still on its way is refused. */
  sessions?: { endedHashes: string[] };
  /** Share links that were ended (token hashes): their open pages say so at their next poll. */
  shares?: { endedTokenHashes: string[] };
  /**
   * Read-your-writes: the object drops its shared reads before this call resolves (a push answers
   * its client only then; after tombstones are collected, a cookie below the new floor gets its reset).
   */
  readYourWrites?: boolean;
  /** Tell open pages to pull (default true: most announced changes are committed writes a page shows). */
  poke?: boolean;
}
