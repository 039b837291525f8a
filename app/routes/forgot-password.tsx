import { getFormProps } from "@conform-to/react";
import { Link } from "@remix-run/react";
import { useState } from "react";
import { forgotPasswordSchema } from "../../shared/account/auth";
import { AuthLayout } from "../components/auth-layout";
import { Field, SubmitButton } from "../components/form";
import { http } from "../lib/http";
import { useZodForm } from "../components/use-zod-form";

/** Asks for reset instructions; the answer is the same for known and unknown e-mails. */
export default function ForgotPassword() {
  const [sent, setSent] = useState(false);
  const { form, fields, pending } = useZodForm("forgot", forgotPasswordSchema, async ({ email }) => {
    try {
      await http.post("password/forgot", { json: { email } });
    } catch {
      // docs/product.md section 8: failures here are silently ignored.
    }
    setSent(true);
  });

  return (
    <AuthLayout title="Reset your password">
      {sent ? (
        <div className="alert success" role="status">
          It&apos;s sent! Check your inbox for a link to reset your password.
        </div>
      ) : (
        <form {...getFormProps(form)}>
          <Field field={fields.email} label="Email" type="email" autoComplete="email" autoFocus />
          <SubmitButton pending={pending}>Email me reset instructions</SubmitButton>
        </form>
      )}
      <div className="auth-links">
        <Link to="/login">Back to log in</Link>
      </div>
    </AuthLayout>
  );
}
