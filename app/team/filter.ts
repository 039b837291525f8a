import { roleLabels, type InviteRow, type MemberRow } from "../../shared/account/roles";
import { matchesText } from "../lib/text-filter";

/** The /team filter: "name, email, or role" (members have no name but their e-mail), and joined / pending. */
export function matchesPerson(person: MemberRow | InviteRow, query: string): boolean {
  const status = "userId" in person ? "joined" : "pending";
  return matchesText([person.email, person.role, roleLabels[person.role], status], query);
}
