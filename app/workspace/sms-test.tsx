import { useState } from "react";
import type { SmsTestAnswer } from "../../shared/jobs/sms-account";
import { InputField, StatusLine, Submit } from "../components/form";
import { apiErrorOf, http } from "../lib/http";

/**
 * "Send a test text" under the workspace's Twilio account (issue 53): one text through the kept
 * account to a phone the owner names, so a wrong token or sender shows here, in Twilio's words,
 * rather than as customers' texts `held` after three tries. Shown only while an account is kept.
 */
export function SmsTestForm() {
  const [error, setError] = useState<string | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const submit = async (event: React.FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const to = String(new FormData(event.currentTarget).get("to") ?? "");
    setPending(true);
    setMessage(null);
    try {
      const answer = await http.post("workspace/sms/test", { json: { to } }).json<SmsTestAnswer>();
      setError(null);
      setMessage(`Test text sent to ${answer.to}: it should arrive within a minute.`);
    } catch (failure) {
      const answer = await apiErrorOf(failure);
      setError(answer?.fields?.to?.[0] ?? null);
      setMessage(answer?.fields ? "Not sent" : (answer?.message ?? "Could not send the test text"));
    } finally {
      setPending(false);
    }
  };
  return (
    <form onSubmit={(e) => void submit(e)} aria-label="Send a test text" noValidate className="sms-test">
      <InputField
        id="sms-test-to"
        name="to"
        type="tel"
        label="Send a test text to"
        placeholder="+13125550100"
        autoComplete="tel"
        error={error}
      />
      <Submit pending={pending}>Send test text</Submit>
      <StatusLine message={message} />
    </form>
  );
}
