import { createExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { expect, it } from "vitest";
import { createApp } from "./app";

// A tab still running a build with lazy route discovery asks /__manifest before each new page
// (docs/decisions/0039). This build has no such lookup: Remix's page handler would answer its
// Not Found page, and the old tab would show "Something went wrong!" on the next click. The
// answer it gets instead is the one Remix itself gives a stale tab: load the next page afresh.
it("tells yesterday's tab to load its next page afresh instead of failing it", async () => {
  const app = createApp(async () => new Response("Not Found", { status: 404 }));
  const res = await app.fetch(
    new Request("http://localhost/__manifest?p=%2Fvehicles%2Fv1%2Fissues&version=old"),
    env,
    createExecutionContext(),
  );
  expect(res.status).toBe(204);
  expect(res.headers.get("X-Remix-Reload-Document")).toBe("true");
});
