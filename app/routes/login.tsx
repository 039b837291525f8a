import { getFormProps } from "@conform-to/react";
import { Link, useNavigate, useSearchParams } from "@remix-run/react";
import { useState } from "react";
import { credentialsFormSchema } from "../../shared/auth";
import { AuthLayout } from "../components/auth-layout";
import { Field, SubmitButton } from "../components/form";
import { GoogleButton } from "../components/google-button";
import { http } from "../lib/http";
import { useSession } from "../session/session";
import { useZodForm } from "../session/use-zod-form";

/**
 * Two-step login (SPEC.md sections 2 and 4): the e-mail first, checked with api/verify/email;
 * once it exists the password field appears and the button says "Log in". Changing the e-mail
 * afterwards hides the password and clears the errors.
 */
export default function Login() {
  const session = useSession();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const redirect = safeRedirect(params.get("redirect"));
  const [knownEmail, setKnownEmail] = useState<string | null>(null);
  const [emailError, setEmailError] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);
  const [passwordError, setPasswordError] = useState<string | null>(null);

  const { form, fields, pending } = useZodForm("login", credentialsFormSchema, async ({ email, password }, el) => {
    setEmailError(null);
    setPasswordError(null);
    setFailed(false);
    if (knownEmail === email && !password) {
      setPasswordError("Required");
      return;
    }
    if (knownEmail !== email) {
      try {
        const { exists } = await http.post("verify/email", { json: { email } }).json<{ exists: boolean }>();
        if (exists) setKnownEmail(email);
        else setEmailError("We couldn't find that one. Want to try another?");
      } catch {
        setFailed(true);
      }
      return;
    }
    try {
      const { token } = await http.post("signin", { json: { email, password } }).json<{ token: string }>();
      session.setToken(token);
      navigate(redirect, { replace: true });
    } catch {
      setFailed(true);
      const input = el.elements.namedItem("password");
      if (input instanceof HTMLInputElement) input.value = "";
    }
  });

  const onEmailInput = (value: string) => {
    if (knownEmail !== null && value.trim().toLowerCase() !== knownEmail) {
      setKnownEmail(null);
      setFailed(false);
    }
    setEmailError(null);
  };

  return (
    <AuthLayout title="Log in">
      {failed ? <FailedAlert /> : null}
      <form {...getFormProps(form)}>
        <Field
          field={fields.email}
          label="Email"
          type="email"
          autoComplete="email"
          autoFocus
          error={emailError}
          onInput={(e) => onEmailInput(e.currentTarget.value)}
        />
        {knownEmail !== null ? (
          <Field
            field={fields.password}
            label="Password"
            type="password"
            autoComplete="current-password"
            autoFocus
            error={passwordError}
          />
        ) : null}
        <SubmitButton pending={pending}>{knownEmail !== null ? "Log in" : "Continue with Email"}</SubmitButton>
      </form>
      <div className="divider">or</div>
      <GoogleButton
        onError={() => {
          // SPEC.md section 8: the same alert as a failed sign-in, and the password field cleared.
          setFailed(true);
          const input = document.getElementById(fields.password.id);
          if (input instanceof HTMLInputElement) input.value = "";
        }}
      />
      <div className="auth-links">
        <Link to="/registration">Create an account</Link>
        <span className="muted">
          By continuing you agree to our <Link to="/terms">Terms</Link> and <Link to="/privacy">Privacy Policy</Link>.
        </span>
      </div>
    </AuthLayout>
  );
}

/** SPEC.md section 8: the sign-in failure alert. */
export function FailedAlert() {
  return (
    <div className="alert" role="alert">
      We didn&apos;t recognize that password. <Link to="/forgot-password">Forgot your password?</Link>
    </div>
  );
}

/** Only same-site paths: a crafted link must not send a fresh sign-in to another site. */
function safeRedirect(value: string | null): string {
  return value && value.startsWith("/") && !value.startsWith("//") ? value : "/";
}
