import { roleLabels, type InviteRow, type MemberRow } from "../../shared/roles";

/** The /team filter: "name, email, or role" (members have no name but their e-mail), and joined / pending. */
export function matchesPerson(person: MemberRow | InviteRow, query: string): boolean {
  const q = query.trim().toLowerCase();
  if (!q) return true;
  const status = "userId" in person ? "joined" : "pending";
  return [person.email, person.role, roleLabels[person.role], status].some((text) => text.toLowerCase().includes(q));
}
