import { useState } from "react";
import { apiErrorOf } from "../lib/http";

/** Why the API (or the network) refused an action: a line for the form, and messages per field. */
export interface Refusal {
  message: string;
  fields: Record<string, string[]>;
}

/**
 * Runs an API action for a form that reads its own FormData (no conform): `pending` while it runs
 * (the spinner, the disabled button), then the refusal if it failed. A thrown error never escapes:
 * it becomes the API's message and field messages, or `offline` when nothing answered.
 */
export function useApiAction<A extends unknown[]>(
  act: (...args: A) => Promise<void>,
  offline = "Could not reach the server; try again when online",
) {
  const [pending, setPending] = useState(false);
  const [refusal, setRefusal] = useState<Refusal | null>(null);
  const run = async (...args: A) => {
    setPending(true);
    try {
      await act(...args);
      setRefusal(null);
    } catch (error) {
      const body = await apiErrorOf(error);
      setRefusal(body ? { message: body.message, fields: body.fields ?? {} } : { message: offline, fields: {} });
    } finally {
      setPending(false);
    }
  };
  return { pending, refusal, setRefusal, run };
}
