import { useState } from "react";
import { apiErrorOf, http } from "../lib/http";
import { ConfirmAction, ErrorLine } from "../components/form";

/**
 * The workspace's webhook signing secret, for owners and admins (the API refuses everyone else):
 * shown on request, rotated on request (deliveries signed from then on use the new one). The
 * docs/user-guide.md's "Draw places and get alerts" says how a receiver verifies a signature with it.
 */
export function WebhookSecret() {
  const [secret, setSecret] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const load = async (rotate: boolean) => {
    try {
      const res = rotate ? http.post("webhook-secret/rotate") : http.get("webhook-secret");
      setSecret((await res.json<{ secret: string }>()).secret);
      setError(null);
    } catch (err) {
      setError((await apiErrorOf(err))?.message ?? "Could not load the secret");
    }
  };
  return (
    <section className="webhook-secret" aria-labelledby="webhook-secret-heading">
      <h3 id="webhook-secret-heading">Webhook signing secret</h3>
      <p className="muted">
        Every webhook carries a webhook-signature header made with this secret (Standard Webhooks); receivers check it.
      </p>
      {secret ? <code aria-label="Secret">{secret}</code> : null}
      <ErrorLine message={error} />
      <button type="button" className="button" onClick={() => void load(false)}>
        Show secret
      </button>
      <ConfirmAction
        label="Rotate secret"
        question="Rotate the secret? Receivers must use the new one from now on."
        confirmLabel="Rotate"
        onConfirm={() => load(true)}
        className="button"
      />
    </section>
  );
}
