import { getFormProps } from "@conform-to/react";
import { Link, useNavigate, useSearchParams } from "@remix-run/react";
import { useState } from "react";
import { credentialsFormSchema } from "../../shared/account/auth";
import { AuthLayout } from "../components/auth-layout";
import { Field, SubmitButton } from "../components/form";
import { GoogleButton } from "../components/google-button";
import { FailedAlert, SIGN_IN_FAILED } from "../components/sign-in-failed";
import { http } from "../lib/http";
import { useSession } from "../session/session";
import { useZodForm } from "../components/use-zod-form";
import { safeRedirect } from "../../shared/account/safe-redirect";
import type { SignInAnswer } from "../../shared/account/two-factor";
import { SecondFactorForm } from "../components/second-factor-form";
import { useOnline } from "../lib/use-online";

/**
 * Stores a fresh session's token and goes where the sign-in was asked for: same-site paths only, so
 * a crafted link cannot send a fresh sign-in to another site.
 */
function useSignedIn() {
  const session = useSession();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  // Parsed against this page's origin (a placeholder one while rendering on the server: a relative
  // path resolves the same against any origin, and only same-origin paths come out).
  const redirect = safeRedirect(params.get("redirect"), globalThis.location?.origin ?? "https://server.invalid");
  return (token: string) => {
    session.setToken(token);
    navigate(redirect, { replace: true });
  };
}

/**
 * The login form's two steps: an e-mail api/verify/email does not know is said on its field; one
 * it knows becomes `knownEmail`, the password step. A right password signs in, or asks for a
 * second factor (`onChallenge`) on an account with two-factor authentication.
 */
function useLoginForm(onSignedIn: (token: string) => void, onChallenge: (challenge: string) => void) {
  const [knownEmail, setKnownEmail] = useState<string | null>(null);
  const [googleFailed, setGoogleFailed] = useState(false);
  const login = useZodForm("login", credentialsFormSchema, async ({ email, password }, submission) => {
    setGoogleFailed(false);
    if (knownEmail !== email) {
      try {
        const { exists } = await http.post("verify/email", { json: { email } }).json<{ exists: boolean }>();
        if (!exists)
          return submission.reply({ fieldErrors: { email: ["We couldn't find that one. Want to try another?"] } });
        setKnownEmail(email);
      } catch {
        return submission.reply({ formErrors: [SIGN_IN_FAILED] });
      }
      return;
    }
    if (!password) return submission.reply({ fieldErrors: { password: ["Required"] } });
    try {
      const answer = await http.post("signin", { json: { email, password } }).json<SignInAnswer>();
      if ("secondFactor" in answer) return onChallenge(answer.secondFactor.challenge);
      onSignedIn(answer.token);
    } catch {
      login.form.update({ name: login.fields.password.name, value: "" });
      return submission.reply({ formErrors: [SIGN_IN_FAILED] });
    }
  });
  return { ...login, knownEmail, setKnownEmail, googleFailed, setGoogleFailed };
}

/**
 * Two-step login (docs/product.md sections 2 and 4): the e-mail first, checked with api/verify/email;
 * once it exists the password field appears and the button says "Log in". Changing the e-mail
 * afterwards hides the password and clears the errors.
 */
export default function Login() {
  const signedIn = useSignedIn();
  const online = useOnline();
  // An account with two-factor authentication: the password was right, a code is asked next.
  const [challenge, setChallenge] = useState<string | null>(null);
  const { form, fields, pending, knownEmail, setKnownEmail, googleFailed, setGoogleFailed } = useLoginForm(
    signedIn,
    setChallenge,
  );

  if (challenge) {
    return (
      <AuthLayout title="Log in">
        <SecondFactorForm challenge={challenge} onSignedIn={signedIn} onExpired={() => setChallenge(null)} />
      </AuthLayout>
    );
  }

  return (
    <AuthLayout title="Log in">
      {online ? null : (
        <p role="status" className="alert">
          Signing in needs a connection. Connect, then log in; once signed in, the app opens offline too.
        </p>
      )}
      {form.errors?.includes(SIGN_IN_FAILED) || googleFailed ? <FailedAlert /> : null}
      <form {...getFormProps(form)}>
        <Field
          field={fields.email}
          label="Email"
          type="email"
          autoComplete="email"
          autoFocus
          onInput={(e) => {
            // A different e-mail goes back to the first step (its errors go with conform's revalidation).
            if (knownEmail !== null && e.currentTarget.value.trim().toLowerCase() !== knownEmail) setKnownEmail(null);
            if (googleFailed) setGoogleFailed(false);
          }}
        />
        {knownEmail !== null ? (
          <Field field={fields.password} label="Password" type="password" autoComplete="current-password" autoFocus />
        ) : null}
        <SubmitButton pending={pending}>{knownEmail !== null ? "Log in" : "Continue with Email"}</SubmitButton>
      </form>
      <div className="divider">or</div>
      <GoogleButton
        onError={() => {
          // docs/product.md section 8: the same alert as a failed sign-in, and the password field cleared.
          setGoogleFailed(true);
          if (knownEmail !== null) form.update({ name: fields.password.name, value: "" });
        }}
      />
      <AuthLinks />
    </AuthLayout>
  );
}

function AuthLinks() {
  return (
    <div className="auth-links">
      <Link to="/registration">Create an account</Link>
      <span className="muted">
        By continuing you agree to our <Link to="/terms">Terms</Link> and <Link to="/privacy">Privacy Policy</Link>.
      </span>
    </div>
  );
}
