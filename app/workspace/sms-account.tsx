import { useEffect, useState } from "react";
import type { SmsAccount, SmsAccountPut } from "../../shared/jobs/sms-account";
import { ConfirmAction, InputField, StatusLine, Submit } from "../components/form";
import { apiErrorOf, http } from "../lib/http";
import { useCan, useSession } from "../session/session";
import { SmsTestForm } from "./sms-test";

type Field = keyof SmsAccountPut;
type FieldErrors = Partial<Record<Field, string>>;

/** The workspace's account, read once for those who may see it, and its save and removal. */
function useSmsAccount(workspaceId: string | undefined, mayConfigure: boolean) {
  const [account, setAccount] = useState<SmsAccount | null>(null);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [message, setMessage] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  useEffect(() => {
    if (!workspaceId || !mayConfigure) return;
    let live = true;
    http
      .get("workspace/sms")
      .json<SmsAccount>()
      .then((a) => live && setAccount(a))
      .catch(() => live && setMessage("Could not read the workspace's Twilio account"));
    return () => {
      live = false;
    };
  }, [workspaceId, mayConfigure]);
  const send = async (request: () => Promise<SmsAccount>, done: string) => {
    setPending(true);
    try {
      setAccount(await request());
      setErrors({});
      setMessage(done);
      return true;
    } catch (failure) {
      const answer = await apiErrorOf(failure);
      const fields = answer?.fields ?? {};
      setErrors({ accountSid: fields.accountSid?.[0], authToken: fields.authToken?.[0], from: fields.from?.[0] });
      setMessage(answer?.fields ? "Not saved" : (answer?.message ?? "Could not save"));
      return false;
    } finally {
      setPending(false);
    }
  };
  const save = (json: SmsAccountPut) => send(() => http.put("workspace/sms", { json }).json<SmsAccount>(), "Saved");
  const remove = () => send(() => http.delete("workspace/sms").json<SmsAccount>(), "Removed");
  return { account, errors, message, pending, save, remove };
}

/**
 * Preferences → Texts to customers (Twilio) (issue 53, docs/decisions/0093): the workspace's own
 * Twilio account, through which its customers are texted. Owners and admins enter the Account
 * SID, the auth token and the number or Messaging Service texts go from; the token is never shown
 * again, only that one is kept with the SID and the sender. Others read only who can set it.
 */
export function SmsAccountSettings() {
  const mayConfigure = useCan("workspace.configure");
  const { account, errors, message, pending, save, remove } = useSmsAccount(useSession().workspace?.id, mayConfigure);
  const submit = async (event: React.FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    const value = (name: Field) => String(data.get(name) ?? "");
    // The token leaves the page once saved: nothing of it stays in the form.
    if (await save({ accountSid: value("accountSid"), authToken: value("authToken"), from: value("from") }))
      form.reset();
  };
  return (
    <section className="card" aria-label="Texts to customers (Twilio)">
      <form onSubmit={(e) => void submit(e)} aria-label="Twilio account" noValidate>
        <h2>Texts to customers (Twilio)</h2>
        <p className="muted">
          Customers with a phone number are texted through the workspace&apos;s own Twilio account, and only where one
          is set here. The auth token is kept sealed and never shown again.
        </p>
        {!mayConfigure ? (
          <p className="muted role-note">Only the workspace&apos;s owners and admins can set its Twilio account.</p>
        ) : (
          <>
            <p data-testid="sms-account-state">
              {account?.configured
                ? `Configured: account ${account.accountSid}, texts from ${account.from}.`
                : account
                  ? "Not configured: customers are told by e-mail only."
                  : "Loading…"}
            </p>
            <AccountFields account={account} errors={errors} disabled={!account || pending} />
            <Submit disabled={!account} pending={pending}>
              Save
            </Submit>{" "}
            {account?.configured ? (
              <ConfirmAction
                label="Remove"
                question="Remove the Twilio account? Customers are no longer texted, only e-mailed."
                confirmLabel="Remove account"
                onConfirm={remove}
              />
            ) : null}
          </>
        )}
        <StatusLine message={message} />
      </form>
      {mayConfigure && account?.configured ? <SmsTestForm /> : null}
    </section>
  );
}

/** The account's three fields; the SID and sender start from what is kept, the token always empty. */
function AccountFields(props: { account: SmsAccount | null; errors: FieldErrors; disabled: boolean }) {
  return (
    <fieldset className="plain-fieldset" disabled={props.disabled}>
      <InputField
        id="sms-account-sid"
        name="accountSid"
        label="Account SID"
        placeholder="AC…"
        autoComplete="off"
        spellCheck={false}
        defaultValue={props.account?.accountSid ?? ""}
        key={`sid:${props.account?.accountSid ?? ""}`}
        error={props.errors.accountSid}
      />
      <InputField
        id="sms-auth-token"
        name="authToken"
        label={props.account?.configured ? "Auth token (enter it again to save a change)" : "Auth token"}
        type="password"
        autoComplete="off"
        error={props.errors.authToken}
      />
      <InputField
        id="sms-from"
        name="from"
        label="From: a number (+13125550100) or a Messaging Service SID (MG…)"
        autoComplete="off"
        spellCheck={false}
        defaultValue={props.account?.from ?? ""}
        key={`from:${props.account?.from ?? ""}`}
        error={props.errors.from}
      />
    </fieldset>
  );
}
