import { getFormProps } from "@conform-to/react";
import { useState } from "react";
import { toast } from "sonner";
import {
  confirmPasswordSchema,
  disableTwoFactorSchema,
  enableTwoFactorSchema,
  type TwoFactorSetup,
} from "../../shared/account/two-factor";
import { Field, FormError, SubmitButton } from "../components/form";
import { useApiForm } from "../components/use-zod-form";
import { useTwoFactor } from "./use-two-factor";

type Step =
  | { at: "status" }
  | { at: "password"; then: "setup" | "disable" }
  | { at: "enroll"; setup: TwoFactorSetup }
  | { at: "codes"; codes: string[] };

/**
 * Settings -> Security: TOTP two-factor authentication. Off: "Turn on" asks the password, shows the
 * key (as text and as an otpauth:// link for an app on this device), and takes a code from the app
 * to prove it holds the key; then the ten recovery codes are shown, once. On: the recovery codes
 * left, and "Turn off" with the password and a code.
 */
export function TwoFactorSettings() {
  const twoFactor = useTwoFactor();
  const [step, setStep] = useState<Step>({ at: "status" });
  const { status } = twoFactor;
  if (!status) return null;
  return (
    <section aria-label="Two-factor authentication">
      <h3>Two-factor authentication</h3>
      {step.at === "status" ? (
        <>
          <p className="muted">
            {status.enabled
              ? `On: signing in asks for a code from your authenticator app. Recovery codes left: ${status.recoveryCodesLeft}.`
              : "Off: signing in asks only for your password (or Google). Add a code from an authenticator app to keep a stolen password from being enough."}
          </p>
          <button
            type="button"
            className="button"
            onClick={() => setStep({ at: "password", then: status.enabled ? "disable" : "setup" })}
          >
            {status.enabled ? "Turn off two-factor authentication" : "Turn on two-factor authentication"}
          </button>
        </>
      ) : null}
      {step.at === "password" && step.then === "setup" ? (
        <ConfirmPassword
          action="Continue"
          onConfirmed={async (password) => setStep({ at: "enroll", setup: await twoFactor.setup(password) })}
        />
      ) : null}
      {step.at === "password" && step.then === "disable" ? (
        <ConfirmDisable
          onConfirmed={async (password, code) => {
            await twoFactor.disable(password, code);
            toast("Two-factor authentication is off");
            setStep({ at: "status" });
          }}
        />
      ) : null}
      {step.at === "enroll" ? (
        <Enroll
          setup={step.setup}
          onCode={async (code) => setStep({ at: "codes", codes: await twoFactor.enable(code) })}
        />
      ) : null}
      {step.at === "codes" ? <RecoveryCodes codes={step.codes} onDone={() => setStep({ at: "status" })} /> : null}
    </section>
  );
}

function ConfirmPassword({
  action,
  onConfirmed,
}: {
  action: string;
  onConfirmed: (password: string) => Promise<void>;
}) {
  const { form, fields, pending } = useApiForm(
    "two-factor-password",
    confirmPasswordSchema,
    async ({ password }) => onConfirmed(password),
    "Could not do that. Check your connection and try again.",
  );
  return (
    <form {...getFormProps(form)}>
      <FormError form={form} />
      <Field field={fields.password} label="Your password" type="password" autoComplete="current-password" autoFocus />
      <SubmitButton pending={pending}>{action}</SubmitButton>
    </form>
  );
}

/** Turning it off takes the password and a code from the app or a recovery code (issue 34). */
function ConfirmDisable({ onConfirmed }: { onConfirmed: (password: string, code: string) => Promise<void> }) {
  const { form, fields, pending } = useApiForm(
    "two-factor-disable",
    disableTwoFactorSchema,
    async ({ password, code }) => onConfirmed(password, code),
    "Could not do that. Check your connection and try again.",
  );
  return (
    <form {...getFormProps(form)}>
      <FormError form={form} />
      <Field field={fields.password} label="Your password" type="password" autoComplete="current-password" autoFocus />
      <Field field={fields.code} label="Code from your app, or a recovery code" autoComplete="one-time-code" />
      <SubmitButton pending={pending}>Turn off</SubmitButton>
    </form>
  );
}

function Enroll({ setup, onCode }: { setup: TwoFactorSetup; onCode: (code: string) => Promise<void> }) {
  const { form, fields, pending } = useApiForm(
    "two-factor-enable",
    enableTwoFactorSchema,
    async ({ code }) => onCode(code),
    "Could not check the code. Check your connection and try again.",
  );
  return (
    <form {...getFormProps(form)}>
      <p>In your authenticator app, add an account with this key (time-based, 6 digits, 30 seconds):</p>
      <p>
        <code aria-label="Two-factor key">{setup.secret.replace(/(.{4})/g, "$1 ").trim()}</code>
      </p>
      <p className="muted">
        On this device? <a href={setup.uri}>Open in your authenticator app</a>
      </p>
      <FormError form={form} />
      <Field field={fields.code} label="Code from the app" autoComplete="one-time-code" inputMode="numeric" autoFocus />
      <SubmitButton pending={pending}>Turn on</SubmitButton>
    </form>
  );
}

function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  return (
    <div>
      <p>
        Two-factor authentication is on. Keep these recovery codes somewhere safe: each signs you in once without your
        phone. They are shown only now.
      </p>
      <ul aria-label="Recovery codes" className="recovery-codes">
        {codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ul>
      <button type="button" className="button" onClick={onDone}>
        I have saved them
      </button>
    </div>
  );
}
