import { getFormProps } from "@conform-to/react";
import { Link, useNavigate } from "@remix-run/react";
import { credentialsFormSchema, PASSWORD_RULE } from "../../shared/account/auth";
import { AuthLayout } from "../components/auth-layout";
import { Field, SubmitButton } from "../components/form";
import { FailedAlert, SIGN_IN_FAILED } from "../components/sign-in-failed";
import { http } from "../lib/http";
import { useSession } from "../session/session";
import { replyWithApiError, useZodForm } from "../components/use-zod-form";

/** Sign-up: creates the account, signs in automatically and goes to / (then /setup). */
export default function Registration() {
  const session = useSession();
  const navigate = useNavigate();

  const { form, fields, pending } = useZodForm(
    "registration",
    credentialsFormSchema,
    async ({ email, password }, submission) => {
      try {
        const { token } = await http
          .post("signup", { json: { email, password: password ?? "" } })
          .json<{ token: string }>();
        session.setToken(token);
        navigate("/", { replace: true });
      } catch (error) {
        // docs/product.md section 8: a failed sign-up (an e-mail already registered included) shows the
        // sign-in failure alert and clears the password; the API's field messages go on their fields.
        form.update({ name: fields.password.name, value: "" });
        return replyWithApiError(submission, error, SIGN_IN_FAILED);
      }
    },
  );

  return (
    <AuthLayout title="Create your account">
      {form.errors?.includes(SIGN_IN_FAILED) ? <FailedAlert /> : null}
      <form {...getFormProps(form)}>
        <Field field={fields.email} label="Email" type="email" autoComplete="email" autoFocus />
        <Field field={fields.password} label="Password" type="password" autoComplete="new-password" />
        <p className="text-sm text-muted-foreground">{PASSWORD_RULE}</p>
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
