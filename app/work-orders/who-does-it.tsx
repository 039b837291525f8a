import { useWorkspaceMembers } from "../issues/use-workspace-members";
import { useVendors } from "../store/work-orders";

/**
 * "Who does it": one select over the workspace's members (the mechanic) and its vendors (the order
 * sent out). Its value is `member:<userId>`, `vendor:<vendorId>` or "" (nobody yet); the new-order
 * form and the order's page read and write it through these two functions.
 */
export function WhoDoesItOptions() {
  const vendors = useVendors();
  const { members } = useWorkspaceMembers();
  return (
    <>
      <option value="">Nobody yet</option>
      {members.map((m) => (
        <option key={m.userId} value={`member:${m.userId}`}>
          {m.email}
        </option>
      ))}
      {vendors.map((v) => (
        <option key={v.id} value={`vendor:${v.id}`}>
          {v.name} (vendor)
        </option>
      ))}
    </>
  );
}

export function whoValue(order: { assigneeUserId: string | null; vendorId: string | null }): string {
  if (order.vendorId) return `vendor:${order.vendorId}`;
  return order.assigneeUserId ? `member:${order.assigneeUserId}` : "";
}

export function whoOf(value: string): { assigneeUserId: string | null; vendorId: string | null } {
  return {
    assigneeUserId: value.startsWith("member:") ? value.slice("member:".length) : null,
    vendorId: value.startsWith("vendor:") ? value.slice("vendor:".length) : null,
  };
}
