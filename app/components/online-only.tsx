import type { ReactNode } from "react";
import { useOnline } from "../lib/use-online";

/**
 * A page only the server can answer (reports, the team, account settings): with no network it says
 * so plainly, under its own heading, instead of failing its requests; it opens as soon as the
 * network is back (docs/decisions/0044). Pages of the synced store never need this.
 */
export function OnlineOnly({ heading, children }: { heading: string; children: ReactNode }) {
  const online = useOnline();
  if (online) return <>{children}</>;
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
