import { getFormProps } from "@conform-to/react";
import { Link, useNavigate } from "@remix-run/react";
import { useState } from "react";
import { credentialsFormSchema } from "../../shared/auth";
import { AuthLayout } from "../components/auth-layout";
import { Field, SubmitButton } from "../components/form";
import { apiErrorOf, http } from "../lib/http";
import { useSession } from "../session/session";
import { useZodForm } from "../session/use-zod-form";
import { FailedAlert } from "./login";

/** Sign-up: creates the account, signs in automatically and goes to / (then /setup). */
export default function Registration() {
  const session = useSession();
  const navigate = useNavigate();
  const [failed, setFailed] = useState(false);
  const [fieldErrors, setFieldErrors] = useState<Record<string, string[]>>({});

  const { form, fields, pending } = useZodForm("registration", credentialsFormSchema, async ({ email, password }, el) => {
    setFailed(false);
    setFieldErrors({});
    try {
      const { token } = await http.post("signup", { json: { email, password: password ?? "" } }).json<{ token: string }>();
      session.setToken(token);
      navigate("/", { replace: true });
    } catch (error) {
      const body = await apiErrorOf(error);
      if (body?.fields) setFieldErrors(body.fields);
      else setFailed(true);
      // SPEC.md section 8: a failed sign-up clears the password field.
      const input = el.elements.namedItem("password");
      if (input instanceof HTMLInputElement) input.value = "";
    }
  });

  return (
    <AuthLayout title="Create your account">
      {failed ? <FailedAlert /> : null}
      <form {...getFormProps(form)}>
        <Field field={fields.email} label="Email" type="email" autoComplete="email" autoFocus error={fieldErrors.email?.[0]} />
        <Field field={fields.password} label="Password" type="password" autoComplete="new-password" error={fieldErrors.password?.[0]} />
        <SubmitButton pending={pending}>Create Account</SubmitButton>
      </form>
      <div className="auth-links">
        <span>
          Already have an account? <Link to="/login">Log in</Link>
        </span>
      </div>
    </AuthLayout>
  );
}
