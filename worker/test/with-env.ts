import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { createApp } from "../app";

/**
 * A request through the real Worker with some of its configuration changed (a third party's
 * address or key pointed at a fake, a secret set or not), its work after the answer waited for:
 * what `call` (factories.ts) cannot do, since the Worker it reaches has the suite's own env.
 */
export async function fetchWithEnv(request: Request, vars: Record<string, string>) {
  const app = createApp(async () => new Response("pages are not part of Worker tests", { status: 404 }));
  const ctx = createExecutionContext();
  const res = await app.fetch(request, { ...env, ...vars }, ctx);
  await waitOnExecutionContext(ctx);
  return res;
}
