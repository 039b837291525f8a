import { useState } from "react";
import { toast } from "sonner";
import { apiErrorOf, http } from "../lib/http";
import { useSession } from "./session";

/**
 * For an account whose address is not confirmed yet (issue 39): a small notice with Resend. The
 * product works meanwhile; only e-mail to others (invitations, assignments) waits for it.
 */
export function ConfirmEmailNotice() {
  const viewer = useSession().viewer;
  const [pending, setPending] = useState(false);
  if (!viewer || viewer.emailConfirmed !== false) return null;
  const resend = async () => {
    setPending(true);
    try {
      await http.post("email/confirm/resend");
      toast(`We sent a new link to ${viewer.email}`);
    } catch (error) {
      toast.error((await apiErrorOf(error))?.message ?? "Could not send a new link");
    } finally {
      setPending(false);
    }
  };
  return (
    <div className="confirm-email-notice" role="status">
      <span>
        Confirm your e-mail: open the link we sent to <strong>{viewer.email}</strong>. Until then we e-mail no one else
        for you.
      </span>{" "}
      <button type="button" className="button" disabled={pending} onClick={() => void resend()}>
        Resend
      </button>
    </div>
  );
}
