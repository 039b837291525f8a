import type { HeadersFunction, MetaFunction } from "@remix-run/cloudflare";
import { useParams } from "@remix-run/react";
import { useEffect, useState } from "react";
import { unsubscribeStateSchema, type UnsubscribeState } from "../../shared/jobs/job-shares";

export const meta: MetaFunction = () => [{ title: "Unsubscribe" }, { name: "robots", content: "noindex, nofollow" }];
export const headers: HeadersFunction = () => ({ "X-Robots-Tag": "noindex, nofollow" });

type State = { kind: "loading" } | { kind: "unknown" } | { kind: "failed" } | ({ kind: "known" } & UnsubscribeState);

/**
 * The link at the end of a workspace's mail to a customer (issue 51, docs/decisions/0072): no
 * sign-in. Opening it changes nothing (mail scanners open links); the button stops that
 * workspace's mail (and texts, docs/decisions/0085) to this address or number, as the one-click
 * List-Unsubscribe header does.
 */
export default function UnsubscribePage() {
  const token = useParams().token ?? "";
  const [state, setState] = useState<State>({ kind: "loading" });
  const ask = async (method: "GET" | "POST") => {
    try {
      const res = await fetch(`/api/unsubscribe/${encodeURIComponent(token)}`, { method, cache: "no-store" });
      if (res.status === 404) return setState({ kind: "unknown" });
      setState({ kind: "known", ...unsubscribeStateSchema.parse(await res.json()) });
    } catch {
      setState({ kind: "failed" });
    }
  };
  useEffect(() => {
    void ask("GET");
    // eslint-disable-next-line react-hooks/exhaustive-deps -- read once per token
  }, [token]);
  return (
    <main className="share-ended" data-testid="unsubscribe-page">
      {state.kind === "loading" ? <p className="muted">Loading…</p> : null}
      {state.kind === "unknown" ? <h1>This link is not known</h1> : null}
      {state.kind === "failed" ? <p role="alert">Could not reach the server. Try again in a moment.</p> : null}
      {state.kind === "known" && state.unsubscribed ? (
        <h1>You will get no more messages from {state.workspace}</h1>
      ) : null}
      {state.kind === "known" && !state.unsubscribed ? (
        <>
          <h1>Stop messages from {state.workspace}?</h1>
          <p className="muted">They sent you delivery updates through Fleet Ops.</p>
          <button type="button" className="button primary" onClick={() => void ask("POST")}>
            Unsubscribe
          </button>
        </>
      ) : null}
    </main>
  );
}
