import { getFormProps } from "@conform-to/react";
import { toast } from "sonner";
import { canAssign, inviteSchema, roleLabels, roles } from "../../shared/account/roles";
import { Field, FormError, SelectFormField, SubmitButton } from "../components/form";
import { http } from "../lib/http";
import { useApiForm } from "../components/use-zod-form";

/** Invite by e-mail with a role; only the roles the inviter may grant are offered (an admin cannot invite an owner). */
export function InviteForm({
  workspaceId,
  myRole,
  onInvited,
}: {
  workspaceId: string;
  myRole: string | null;
  onInvited: () => void;
}) {
  const { form, fields, pending } = useApiForm(
    "invite",
    inviteSchema,
    async (value) => {
      await http.post(`workspaces/${workspaceId}/invites`, { json: value, retry: 0 });
      toast(`Invitation sent to ${value.email}`);
      form.reset();
      onInvited();
    },
    "The invitation could not be sent",
    { role: "member" },
  );
  const grantable = roles.filter((r) => canAssign(myRole, null, r));
  return (
    <form {...getFormProps(form)} className="card invite-form" aria-label="Invite a member">
      <Field field={fields.email} label="Email" type="email" placeholder="colleague@example.com" />
      <SelectFormField
        field={fields.role}
        label="Role"
        options={grantable.map((r) => ({ value: r, label: roleLabels[r] }))}
      />
      <FormError form={form} />
      <SubmitButton pending={pending}>Send invite</SubmitButton>
    </form>
  );
}
