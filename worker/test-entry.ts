// The Worker as Worker tests run it: the same app and room, with a stub in place of the Remix
// pages so these tests do not depend on a UI build (browser tests cover the real entry).
import { createApp } from "./app";

export { WorkspaceRoom } from "./workspace-room";

export default createApp(async () => new Response("pages are not part of Worker tests", { status: 404 }));
