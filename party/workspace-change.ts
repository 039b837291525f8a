/**
 * What the Worker tells a workspace's object after a committed write: one typed call
 * (`FleetRoom.changed`, the one announcer; docs/decisions/0027) instead of a forget here, a poke
 * there and a cache in the editor's isolate. The object keeps its own copies current from it:
 * places, rules and time zone (reloaded from D1 at once), devices, sockets; then drops its shared
 * reads and pokes its sockets (coalesced), unless `poke` is false.
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
  /** Read-your-writes: the object drops its shared reads before this call resolves (a push answers its client only then). */
  readYourWrites?: boolean;
  /** Tell open pages to pull (default true: every announced change is a committed write). */
  poke?: boolean;
}
