import { getFormProps } from "@conform-to/react";
import { useNavigate } from "@remix-run/react";
import { workspaceNameSchema } from "../../shared/account/auth";
import { AuthLayout } from "../components/auth-layout";
import { Field, SubmitButton } from "../components/form";
import { http } from "../lib/http";
import { RequireAuth } from "../session/require-auth";
import { useSession } from "../session/session";
import { useZodForm } from "../components/use-zod-form";

/** Create a workspace, switch the session to it, go to / (which then opens the map). */
function Setup() {
  const session = useSession();
  const navigate = useNavigate();
  const { form, fields, pending } = useZodForm("setup", workspaceNameSchema, async ({ name }, submission) => {
    try {
      const { id } = await http
        .post("workspaces", { json: { name, timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone } })
        .json<{ id: string }>();
      await session.replaceToken(
        async () =>
          (await http.post("workspaces/session", { json: { workspaceId: id } }).json<{ token: string }>()).token,
      );
      navigate("/", { replace: true });
    } catch {
      // docs/product.md section 8: the name marked invalid (an error without text) and cleared.
      form.update({ name: fields.name.name, value: "" });
      return submission.reply({ fieldErrors: { name: [""] } });
    }
  });
  return (
    <AuthLayout title="Create your workspace">
      <form {...getFormProps(form)}>
        <Field
          field={fields.name}
          label="Name your workspace"
          placeholder="e.g. Organization Name, Project Name, etc."
          autoFocus
        />
        <SubmitButton pending={pending}>Create Workspace</SubmitButton>
      </form>
    </AuthLayout>
  );
}

export default function SetupRoute() {
  return (
    <RequireAuth>
      <Setup />
    </RequireAuth>
  );
}
