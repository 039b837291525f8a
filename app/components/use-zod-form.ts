import { useForm, type Submission as ConformSubmission, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import { useState } from "react";
import type { z } from "zod";
import { apiErrorOf, HTTPError } from "../lib/http";

type Submission<S extends z.ZodTypeAny> = Extract<
  ConformSubmission<z.input<S>, string[], z.output<S>>,
  { status: "success" }
>;

/**
 * conform + zod for forms that talk to the API (or the local store) from the browser: the shared
 * schema validates on submit and revalidates on input; `onValid` gets the parsed value and the
 * submission, and returns `submission.reply(...)` to show the server's verdict (field or form
 * errors) through conform like any other error; `pending` drives the spinner.
 */
export function useZodForm<S extends z.ZodTypeAny>(
  id: string,
  schema: S,
  onValid: (value: z.output<S>, submission: Submission<S>) => Promise<SubmissionResult<string[]> | void>,
  defaultValue?: Record<string, unknown>,
) {
  const [pending, setPending] = useState(false);
  const [lastResult, setLastResult] = useState<SubmissionResult<string[]>>();
  const [form, fields] = useForm<z.input<S>>({
    id,
    lastResult,
    defaultValue: defaultValue as never,
    constraint: getZodConstraint(schema),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
    onSubmit(event, { submission }) {
      event.preventDefault();
      // Intents (form.update, form.reset) come through here too; only a valid submit goes on.
      if (submission?.status !== "success" || pending) return;
      setPending(true);
      void onValid(submission.value as z.output<S>, submission as Submission<S>)
        .then((result) => setLastResult(result ?? undefined))
        .finally(() => setPending(false));
    },
  });
  return { form, fields, pending };
}

/**
 * The reply for a failed API call: the API's field messages (a 400 with `fields`) on their
 * fields, anything else as `formError` on the whole form.
 */
export async function replyWithApiError<S extends z.ZodTypeAny>(
  submission: Submission<S>,
  error: unknown,
  formError: string,
): Promise<SubmissionResult<string[]>> {
  const body = await apiErrorOf(error);
  // Input the user can fix (a 400 naming fields: a bad value, a password too easy to guess) is
  // said on its fields; any other refusal (a 409 taken e-mail included) is the form's error.
  if (body?.fields && error instanceof HTTPError && error.response.status === 400) {
    return submission.reply({ fieldErrors: body.fields });
  }
  return submission.reply({ formErrors: [formError] });
}

/**
 * `useZodForm` for the usual API form: `act` does the call; if it throws, the API's field
 * messages go on their fields and anything else shows `failure` as the form's error.
 */
export function useApiForm<S extends z.ZodTypeAny>(
  id: string,
  schema: S,
  act: (value: z.output<S>) => Promise<void>,
  failure: string,
  defaultValue?: Record<string, unknown>,
) {
  return useZodForm(
    id,
    schema,
    async (value, submission) => {
      try {
        await act(value);
      } catch (error) {
        return replyWithApiError(submission, error, failure);
      }
    },
    defaultValue,
  );
}
