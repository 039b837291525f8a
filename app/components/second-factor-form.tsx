import { getFormProps } from "@conform-to/react";
import { z } from "zod";
import { codeField } from "../../shared/account/two-factor";
import { Field, FormError, SubmitButton } from "./form";
import { apiErrorOf, http } from "../lib/http";
import { useZodForm } from "./use-zod-form";

const schema = z.object({ code: codeField });

/**
 * The second step of a sign-in for an account with two-factor authentication: the code of the
 * authenticator app (or a recovery code) answers the challenge the first step gave; `onSignedIn`
 * gets the session. A dead challenge (five minutes, five tries) sends the person back to the start.
 */
export function SecondFactorForm({
  challenge,
  onSignedIn,
  onExpired,
}: {
  challenge: string;
  onSignedIn: (token: string) => void;
  onExpired: () => void;
}) {
  const { form, fields, pending } = useZodForm("second-factor", schema, async ({ code }, submission) => {
    try {
      const { token } = await http
        .post("signin/second-factor", { json: { challenge, code }, retry: 0 })
        .json<{ token: string }>();
      onSignedIn(token);
    } catch (error) {
      const body = await apiErrorOf(error);
      if (body?.code === "challenge_expired") return onExpired();
      if (body?.code === "invalid_code") return submission.reply({ fieldErrors: { code: ["Wrong code"] } });
      return submission.reply({
        formErrors: [body?.message ?? "Could not check the code. Check your connection and try again."],
      });
    }
  });
  return (
    <form {...getFormProps(form)} aria-label="Two-factor authentication">
      <p className="muted">Enter the 6-digit code from your authenticator app, or one of your recovery codes.</p>
      <FormError form={form} />
      <Field
        field={fields.code}
        label="Authentication code"
        autoComplete="one-time-code"
        inputMode="numeric"
        autoFocus
      />
      <SubmitButton pending={pending}>Verify</SubmitButton>
    </form>
  );
}
