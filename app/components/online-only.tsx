import type { ReactNode } from "react";
import { useReachable } from "../sync/use-reachable";

/**
 * A page only the server can answer (reports, the team, account settings): with no network (or no
 * answer from the server, app/sync/use-reachable.ts) it says
 * so plainly, under its own heading, instead of failing its requests; it opens as soon as the
 * network is back (docs/decisions/0044). Pages of the synced store never need this.
 */
export function OnlineOnly({ heading, children }: { heading: string; children: ReactNode }) {
  const reachable = useReachable();
  if (reachable) return <>{children}</>;
  return (
    <section className="page">
      <h1>{heading}</h1>
      <p role="status" className="muted">
        {heading} needs a connection. This page opens by itself when you are back online; the rest of the app works
        offline.
      </p>
    </section>
  );
}
