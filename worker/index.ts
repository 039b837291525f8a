// First: a test run at a chosen hour shifts the clock before any other module reads it.
import "./test-clock";
import { createRequestHandler } from "@remix-run/cloudflare";
import * as build from "remix-server-build";
import { createApp } from "./app";
import type { Env } from "./env";

export { WorkspaceRoom } from "./workspace-room";

const handleRemixRequest = createRequestHandler(build);

export default createApp((request, env: Env, ctx, scriptNonce) =>
  handleRemixRequest(request, { cloudflare: { env, ctx }, scriptNonce }),
) satisfies ExportedHandler<Env>;
