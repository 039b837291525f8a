import { describe, expect, it } from "vitest";
import { matchesPerson } from "./filter";

const member = { userId: "u1", email: "ann@fleet.test", role: "admin" as const, joinedAt: 0 };
const invite = { id: "i1", email: "bob@fleet.test", role: "viewer" as const, expiresAt: 0 };

describe("the /team filter", () => {
  it("matches e-mail, role and joined/pending, ignoring case and spaces", () => {
    expect(matchesPerson(member, " ANN ")).toBe(true);
    expect(matchesPerson(member, "Admin")).toBe(true);
    expect(matchesPerson(member, "viewer")).toBe(false);
    expect(matchesPerson(invite, "pending")).toBe(true);
    expect(matchesPerson(member, "pending")).toBe(false);
    expect(matchesPerson(invite, "")).toBe(true);
  });
});
