/**
 * The browser's local stores (docs/decisions/0003-sync.md): one Replicache per viewer and
 * workspace, named `<viewerId>/<workspaceId>`, so switching workspaces never mixes two
 * workspaces' data in one IndexedDB.
 */
export const storeName = (viewerId: string, workspaceId: string) => `${viewerId}/${workspaceId}`;
