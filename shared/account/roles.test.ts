import { describe, expect, it } from "vitest";
import { can, canAssign, roles } from "./roles";

describe("the role table", () => {
  it("viewers only see; members also edit the fleet; owners and admins also manage members and the workspace's settings; everyone may leave", () => {
    expect(roles.filter((r) => can(r, "workspace.view"))).toEqual(["owner", "admin", "member", "viewer"]);
    expect(roles.filter((r) => can(r, "fleet.edit"))).toEqual(["owner", "admin", "member"]);
    expect(roles.filter((r) => can(r, "members.manage"))).toEqual(["owner", "admin"]);
    expect(roles.filter((r) => can(r, "workspace.configure"))).toEqual(["owner", "admin"]);
    expect(roles.filter((r) => can(r, "workspace.leave"))).toEqual(["owner", "admin", "member", "viewer"]);
    expect(roles.filter((r) => can(r, "maintenance.manage"))).toEqual(["owner", "admin"]);
  });

  it("an unknown or missing role may do nothing", () => {
    expect(can("superuser", "workspace.view")).toBe(false);
    expect(can(null, "workspace.view")).toBe(false);
  });

  it("only an owner grants, takes away or removes the owner role; admins assign the rest; others nothing", () => {
    expect(canAssign("owner", "member", "owner")).toBe(true);
    expect(canAssign("owner", "owner", null)).toBe(true);
    expect(canAssign("admin", "member", "admin")).toBe(true);
    expect(canAssign("admin", null, "viewer")).toBe(true);
    expect(canAssign("admin", "member", "owner")).toBe(false);
    expect(canAssign("admin", "owner", "admin")).toBe(false);
    expect(canAssign("admin", "owner", null)).toBe(false);
    expect(canAssign("member", "viewer", "member")).toBe(false);
    expect(canAssign("viewer", null, "viewer")).toBe(false);
  });
});
