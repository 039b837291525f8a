import { getFormProps } from "@conform-to/react";
import { Link, useSearchParams } from "@remix-run/react";
import { useState } from "react";
import { z } from "zod";
import { newPasswordField, PASSWORD_RULE } from "../../shared/account/auth";
import { AuthLayout } from "../components/auth-layout";
import { Field, SubmitButton } from "../components/form";
import { apiErrorOf, http } from "../lib/http";
import { useZodForm } from "../components/use-zod-form";

const schema = z.object({ password: newPasswordField });

/** The link from the reset e-mail: ?token=…&uid=… */
export default function ResetPassword() {
  const [params] = useSearchParams();
  const token = params.get("token");
  const uid = params.get("uid");
  const [done, setDone] = useState(false);
  const [expired, setExpired] = useState(!token);
  const { form, fields, pending } = useZodForm("reset", schema, async ({ password }, submission) => {
    try {
      await http.post("password/reset", { json: { token, user: uid, password } });
      setDone(true);
    } catch (error) {
      // A password the server refuses (too common) is said on the field; the link still works.
      const refused = (await apiErrorOf(error))?.fields?.password;
      if (refused?.length) return submission.reply({ fieldErrors: { password: refused } });
      // An expired or used link: say so, and offer a new one.
      setExpired(true);
    }
  });

  if (done) {
    return (
      <AuthLayout title="Create new password">
        <div className="alert success" role="status">
          Your password has been updated
        </div>
        <Link to="/login">Log in</Link>
      </AuthLayout>
    );
  }

  return (
    <AuthLayout title="Create new password">
      {expired ? (
        <div className="alert" role="alert">
          Your reset password token has expired.{" "}
          <Link to="/forgot-password">Need us to resend a reset password email?</Link>
        </div>
      ) : null}
      <form {...getFormProps(form)}>
        <fieldset disabled={!token} style={{ border: 0, padding: 0, margin: 0 }}>
          <Field field={fields.password} label="New password" type="password" autoComplete="new-password" autoFocus />
          <p className="text-sm text-muted-foreground">{PASSWORD_RULE}</p>
          <SubmitButton pending={pending} disabled={!token}>
            Create new password
          </SubmitButton>
        </fieldset>
      </form>
    </AuthLayout>
  );
}
