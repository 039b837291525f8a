import { getFormProps } from "@conform-to/react";
import { useEffect, useState } from "react";
import { deleteAccountSchema, type DeletionPlanAnswer } from "../../shared/account/account";
import { Field, FormError, SubmitButton } from "../components/form";
import { useApiForm } from "../components/use-zod-form";
import { http } from "../lib/http";
import { useSession } from "../session/session";
import { Alert } from "../components/alert";

/**
 * Settings -> Your data: "Download my data" (the account as JSON) and account deletion, which says
 * beforehand what it does to the workspaces the account owns (alone: deleted with it; shared with
 * no other owner: deletion waits until another owner is named on Team).
 */
export function AccountData() {
  const [failed, setFailed] = useState(false);
  const download = async () => {
    setFailed(false);
    try {
      const blob = await http.get("account/export").blob();
      const link = document.createElement("a");
      link.href = URL.createObjectURL(blob);
      link.download = "fleet-ops-account.json";
      link.click();
      URL.revokeObjectURL(link.href);
    } catch {
      setFailed(true);
    }
  };
  return (
    <section aria-label="Your data">
      <h2>Your data</h2>
      <p className="muted">Your account, workspaces, roles and sign-ins, as a JSON file.</p>
      {failed ? <Alert>Could not download your data. Check your connection and try again.</Alert> : null}
      <button type="button" className="button" onClick={() => void download()}>
        Download my data
      </button>
      <DeleteAccount />
    </section>
  );
}

function useDeletionPlan() {
  const [plan, setPlan] = useState<DeletionPlanAnswer | null>(null);
  useEffect(() => {
    http
      .get("account/deletion")
      .json<DeletionPlanAnswer>()
      .then(setPlan)
      .catch(() => setPlan(null));
  }, []);
  return plan;
}

function DeleteAccount() {
  const session = useSession();
  const plan = useDeletionPlan();
  const { form, fields, pending } = useApiForm(
    "delete-account",
    deleteAccountSchema,
    async (value) => {
      await http.post("account/delete", { json: value, retry: 0 });
      await session.signOut();
    },
    "Could not delete your account.",
  );
  if (!plan) return null;
  return (
    <form {...getFormProps(form)} aria-label="Delete account">
      <h3>Delete account</h3>
      {plan.blocking.length > 0 ? (
        <Alert>
          You are the only owner of {plan.blocking.map((w) => w.name).join(", ")}. Make another member an owner on Team
          before deleting your account.
        </Alert>
      ) : null}
      <p className="muted">
        This signs you out everywhere and deletes your account for good.
        {plan.deleted.length > 0
          ? ` You are alone in ${plan.deleted.map((w) => w.name).join(", ")}: deleted too, with its vehicles and history.`
          : ""}
      </p>
      <FormError form={form} />
      <Field field={fields.email} label="Type your e-mail to confirm" type="email" autoComplete="off" />
      {plan.hasPassword ? (
        <Field field={fields.password} label="Password" type="password" autoComplete="current-password" />
      ) : null}
      {plan.hasSecondFactor ? (
        <Field field={fields.code} label="Code from your app, or a recovery code" autoComplete="one-time-code" />
      ) : null}
      <SubmitButton pending={pending} disabled={plan.blocking.length > 0}>
        Delete my account
      </SubmitButton>
    </form>
  );
}
