// First: a test run at a chosen hour shifts the clock before any other module reads it.
import "./test-clock";
import { createRequestHandler } from "@remix-run/cloudflare";
import * as build from "remix-server-build";
import { createApp } from "./app";
import type { Env } from "./env";

export { WorkspaceRoom } from "./workspace-room";

const handleRemixRequest = createRequestHandler(build);

const worker = createApp((request, env: Env, ctx, scriptNonce) =>
  handleRemixRequest(request, { cloudflare: { env, ctx }, scriptNonce, publicApi: publicApiFor(request, env, ctx) }),
) satisfies ExportedHandler<Env>;
export default worker;

/**
 * A page's loader reading a public API route (`GET /api/track/{token}`, issue 53) inside this
 * Worker, without a network round trip, so the customer's page is rendered with its data: a
 * customer's phone reads the ETA in the HTML, before the app's code arrives. Never with a
 * credential: only what anyone with the URL may read, as the visitor (their address, for the
 * route's rate limit).
 */
function publicApiFor(request: Request, env: Env, ctx: ExecutionContext) {
  return (path: `/${string}`) => {
    const headers = new Headers();
    const address = request.headers.get("CF-Connecting-IP");
    if (address) headers.set("CF-Connecting-IP", address);
    return worker.fetch(new Request(new URL(`/api${path}`, request.url), { headers }), env, ctx);
  };
}
