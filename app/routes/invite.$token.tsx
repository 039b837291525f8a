import { getFormProps } from "@conform-to/react";
import { Link, useNavigate, useParams } from "@remix-run/react";
import { useEffect, useState } from "react";
import { z } from "zod";
import { newPasswordField } from "../../shared/account/auth";
import { roleLabels, type AcceptInviteResponse, type InvitePreview } from "../../shared/account/roles";
import { AuthLayout } from "../components/auth-layout";
import { Field, SubmitButton } from "../components/form";
import { LoadingScreen } from "../components/loading-screen";
import { apiErrorOf, http } from "../lib/http";
import { useSession } from "../session/session";
import { useApiForm } from "../components/use-zod-form";
import { Alert } from "../components/alert";

/**
 * The invite link (docs/decisions/0018): signed in with the invited e-mail → accept → the
 * workspace's map; not signed in → sign up (or sign in) with the e-mail fixed → accept → the map;
 * another account → a clear refusal; a used, revoked or expired link → a clear error.
 */
export default function InvitePage() {
  const token = useParams().token ?? "";
  const session = useSession();
  const [preview, setPreview] = useState<InvitePreview | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  useEffect(() => {
    http
      .get(`invites/${encodeURIComponent(token)}`, { retry: 0 })
      .json<InvitePreview>()
      .then(setPreview, async (error: unknown) =>
        setProblem((await apiErrorOf(error))?.message ?? "This invitation could not be opened"),
      );
  }, [token]);

  if (problem) {
    return (
      <AuthLayout title="Invitation unavailable">
        <Alert>{problem}</Alert>
        <p className="muted">Ask whoever invited you to send a new invitation.</p>
        <Link to="/">Go to Fleet Ops</Link>
      </AuthLayout>
    );
  }
  if (!preview || session.loading) return <LoadingScreen />;
  const title = `Join ${preview.workspaceName}`;
  if (session.isAuthenticated && session.viewer?.email !== preview.email) {
    return (
      <AuthLayout title={title}>
        <Alert>
          This invitation is for {preview.email}, but you are signed in as {session.viewer?.email}. Log out and open the
          link again to accept it with that address.
        </Alert>
        <button type="button" className="button block" onClick={() => void session.signOut()}>
          Log out
        </button>
      </AuthLayout>
    );
  }
  return (
    <AuthLayout title={title}>
      <p>
        You are invited to <strong>{preview.workspaceName}</strong> as {roleLabels[preview.role]}.
      </p>
      {session.isAuthenticated ? <AcceptButton token={token} /> : <JoinForm token={token} preview={preview} />}
    </AuthLayout>
  );
}

/** Accepts with the current session: the answer's token (naming the workspace joined) replaces it. */
function useAccept(token: string) {
  const session = useSession();
  const navigate = useNavigate();
  return async (bearer?: string) => {
    const accept = async () =>
      (
        await http
          .post("invites/accept", {
            json: { token },
            retry: 0,
            headers: bearer ? { Authorization: `Bearer ${bearer}` } : undefined,
          })
          .json<AcceptInviteResponse>()
      ).token;
    if (bearer) session.setToken(await accept());
    else await session.replaceToken(accept);
    navigate("/map", { replace: true });
  };
}

function AcceptButton({ token }: { token: string }) {
  const accept = useAccept(token);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const onClick = () => {
    setPending(true);
    accept()
      .catch(async (e: unknown) => setError((await apiErrorOf(e))?.message ?? "The invitation could not be accepted"))
      .finally(() => setPending(false));
  };
  return (
    <>
      {error ? <Alert>{error}</Alert> : null}
      <button type="button" className="button primary block" disabled={pending} onClick={onClick}>
        Accept invitation
      </button>
    </>
  );
}

const joinSchema = z.object({ password: newPasswordField });

/** Not signed in: create the account (or sign in to it) with the invited e-mail, then accept. */
function JoinForm({ token, preview }: { token: string; preview: InvitePreview }) {
  const accept = useAccept(token);
  const existing = preview.accountExists;
  const { form, fields, pending } = useApiForm(
    "join",
    joinSchema,
    async ({ password }) => {
      const json = { email: preview.email, password };
      const { token: bearer } = await http
        .post(existing ? "signin" : "signup", { json, retry: 0 })
        .json<{ token: string }>();
      await accept(bearer);
    },
    existing ? "We didn't recognize that password" : "The account could not be created",
  );
  return (
    <form {...getFormProps(form)}>
      <div className="field">
        <label htmlFor="invite-email">Email</label>
        <input id="invite-email" className="input" type="email" value={preview.email} readOnly />
      </div>
      <Field
        field={fields.password}
        label="Password"
        type="password"
        autoComplete={existing ? "current-password" : "new-password"}
        autoFocus
      />
      {form.errors?.length ? <Alert>{form.errors.join(" ")}</Alert> : null}
      <SubmitButton pending={pending}>{existing ? "Log in and join" : "Create Account and join"}</SubmitButton>
    </form>
  );
}
