/** The realtime room's URL scheme (PartyKit's): /parties/<party>/<workspaceId>. */
export const PARTY_NAME = "workspace-room";
export const PARTIES_PREFIX = "parties";

/** The only message the room sends: "something in your workspace changed, pull". */
export const POKE_MESSAGE = "poke";
