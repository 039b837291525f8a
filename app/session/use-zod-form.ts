import { useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import { useState } from "react";
import type { z } from "zod";

/**
 * conform + zod for forms that talk to the API from the browser: the shared schema validates on
 * submit and revalidates on input; `onValid` gets the parsed value; `pending` drives the spinner.
 */
export function useZodForm<S extends z.ZodTypeAny>(
  id: string,
  schema: S,
  onValid: (value: z.output<S>, form: HTMLFormElement) => Promise<void>,
  defaultValue?: Record<string, unknown>,
) {
  const [pending, setPending] = useState(false);
  const [form, fields] = useForm<z.input<S>>({
    id,
    defaultValue: defaultValue as never,
    constraint: getZodConstraint(schema),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
    onSubmit(event, { submission }) {
      event.preventDefault();
      if (submission?.status !== "success" || pending) return;
      setPending(true);
      void onValid(submission.value, event.currentTarget).finally(() => setPending(false));
    },
  });
  return { form, fields, pending };
}
