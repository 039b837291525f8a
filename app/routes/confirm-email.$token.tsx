import { Link, useParams } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { AuthLayout } from "../components/auth-layout";
import { apiErrorOf, http } from "../lib/http";

/**
 * The link e-mailed at sign-up (issue 39): confirms the address once opened, with or without a
 * session (the token is the proof). The request is made once, even if React mounts twice.
 */
export default function ConfirmEmail() {
  const { token = "" } = useParams();
  const [outcome, setOutcome] = useState<"pending" | "confirmed" | string>("pending");
  const sent = useRef(false);
  useEffect(() => {
    if (sent.current) return;
    sent.current = true;
    http
      .post("email/confirm", { json: { token } })
      .then(() => setOutcome("confirmed"))
      .catch(async (error: unknown) =>
        setOutcome((await apiErrorOf(error))?.message ?? "Could not confirm your address. Try again."),
      );
  }, [token]);
  return (
    <AuthLayout title="Confirm your e-mail">
      {outcome === "pending" ? (
        <p role="status">Confirming…</p>
      ) : outcome === "confirmed" ? (
        <div className="alert success" role="status">
          Your e-mail address is confirmed.
        </div>
      ) : (
        <div className="alert" role="alert">
          {outcome}. Sign in and choose Resend for a new link.
        </div>
      )}
      <Link to="/">Open Fleet Ops</Link>
    </AuthLayout>
  );
}
