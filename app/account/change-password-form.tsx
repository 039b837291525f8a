import { getFormProps } from "@conform-to/react";
import { toast } from "sonner";
import { changePasswordSchema, PASSWORD_RULE } from "../../shared/account/auth";
import { Field, FormError, SubmitButton } from "../components/form";
import { useApiForm } from "../components/use-zod-form";
import { http } from "../lib/http";
import { useSession } from "../session/session";

/**
 * Settings -> Security: a new password, proven by the current one (ASVS V2.1.5). The server ends
 * every session of the account (other devices are signed out, their sockets closed), revokes
 * reset links and e-mails a notice; this browser carries on with the fresh token it answers.
 */
export function ChangePasswordForm() {
  const session = useSession();
  const { form, fields, pending } = useApiForm(
    "change-password",
    changePasswordSchema,
    async (value) => {
      await session.replaceToken(
        async () => (await http.post("password/change", { json: value, retry: 0 }).json<{ token: string }>()).token,
      );
      form.reset();
      toast("Password changed. Your other devices were signed out.");
    },
    "Could not change your password. Check your connection and try again.",
  );
  return (
    <form {...getFormProps(form)} aria-label="Change password">
      <h3>Password</h3>
      <FormError form={form} />
      <Field field={fields.currentPassword} label="Current password" type="password" autoComplete="current-password" />
      <Field field={fields.password} label="New password" type="password" autoComplete="new-password" />
      <p className="muted">{PASSWORD_RULE}</p>
      <SubmitButton pending={pending}>Change password</SubmitButton>
    </form>
  );
}
