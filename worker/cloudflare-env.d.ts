// The Worker's bindings and variables (see wrangler.toml). Declared on the global
// `Cloudflare.Env`, which partyserver and `cloudflare:workers` type themselves against.
declare namespace Cloudflare {
  interface Env {
    DB: D1Database;
    ASSETS?: Fetcher;
    // eslint-disable-next-line @typescript-eslint/consistent-type-imports -- a global declaration file cannot import
    WorkspaceRoom: DurableObjectNamespace<import("../party/workspace-room").WorkspaceRoom>;
    ENVIRONMENT?: string;
    APP_URL?: string;
    SESSION_SECRET?: string;
    GOOGLE_CLIENT_ID?: string;
    GOOGLE_CLIENT_SECRET?: string;
    MAPBOX_TOKEN?: string;
    EMAIL_PROVIDER?: string;
    EMAIL_API_KEY?: string;
    EMAIL_FROM?: string;
    RATE_LIMIT_SCALE?: string;
  }
}

declare module "remix-server-build" {
  import type { ServerBuild } from "@remix-run/cloudflare";
  const build: ServerBuild;
  export = build;
}
