import { z } from "zod";
import { emailField } from "./auth";
import type { Mutators } from "../sync/mutators";

/**
 * The role model (docs/decisions/0018-role-model.md): the one place that decides who may do what
 * in a workspace. Every API route (its declared permission, worker/api/route-declaration/), every push mutation
 * (worker/sync/push.ts) and the realtime room ask `can`; the browser asks it to hide or disable.
 */
export const roles = ["owner", "admin", "member", "viewer"] as const;
export type Role = (typeof roles)[number];
export const roleSchema = z.enum(roles, { errorMap: () => ({ message: "Choose owner, admin, member or viewer" }) });

/** What a user does in a workspace, named after the action, not the screen. */
export const actions = [
  /** See the fleet: pull, the live socket, the members list, vehicles' history and beacons (not their device ids). */
  "workspace.view",
  /** Edit vehicles, drivers, places and alert rules, order beacons, see and rotate a beacon's device id: the daily work. */
  "fleet.edit",
  /** Invite people, resend and revoke invites, change roles, remove members. */
  "members.manage",
  /** Change the workspace's own settings (its time zone). */
  "workspace.configure",
  /** Leave the workspace (every role; the last owner is refused by the rule below, not the table). */
  "workspace.leave",
  /** Replace every beacon's device id at once, after someone who knew them left (owners only, issue 34). */
  "devices.replace",
  /** Manage service schedules and inspection forms (issue 32): owners and admins; members log service and submit inspections (fleet.edit). */
  "maintenance.manage",
  /**
   * What a person does for themself in the workspace (their report e-mail, their alerts' read
   * state, their browser's sync): every role, never an API token (shared/account/api-tokens.ts).
   */
  "person.own",
] as const;
export type Action = (typeof actions)[number];

const table: Record<Role, readonly Action[]> = {
  owner: [
    "workspace.view",
    "fleet.edit",
    "members.manage",
    "workspace.configure",
    "workspace.leave",
    "maintenance.manage",
    "devices.replace",
    "person.own",
  ],
  admin: [
    "workspace.view",
    "fleet.edit",
    "members.manage",
    "workspace.configure",
    "workspace.leave",
    "maintenance.manage",
    "person.own",
  ],
  member: ["workspace.view", "fleet.edit", "workspace.leave", "person.own"],
  viewer: ["workspace.view", "workspace.leave", "person.own"],
};

/**
 * What each push mutation needs. Typed by the mutator list: a new mutator without a rule does
 * not compile, and worker/api/route-rules.worker.test.ts runs every mutator for every role.
 */
export const mutationActions: Record<keyof Mutators, Action> = {
  updateVehicle: "fleet.edit",
  createDriver: "fleet.edit",
  updateDriver: "fleet.edit",
  assignDriver: "fleet.edit",
  // Places are the daily work of members (docs/decisions/0019).
  createPlace: "fleet.edit",
  updatePlace: "fleet.edit",
  deletePlace: "fleet.edit",
  // Issues: members report, change and comment; viewers read (docs/decisions/0030).
  createIssue: "fleet.edit",
  updateIssue: "fleet.edit",
  addIssueComment: "fleet.edit",
  // Service: members log it, owners and admins manage schedules (as the REST routes, DESIGN.md "Maintenance").
  logServiceEntry: "fleet.edit",
  createServiceSchedule: "maintenance.manage",
  updateServiceSchedule: "maintenance.manage",
  deleteServiceSchedule: "maintenance.manage",
  // An entry logged by mistake: removed by owners and admins only (docs/decisions/0040).
  deleteServiceEntry: "maintenance.manage",
  // Inspections: members submit them (the REST route's rule).
  submitInspection: "fleet.edit",
  // Fuel: members log fill-ups, owners and admins correct or remove them (issue 42, ADR 0045).
  logFuelEntry: "fleet.edit",
  updateFuelEntry: "maintenance.manage",
  deleteFuelEntry: "maintenance.manage",
  // Expenses: members add them, owners and admins correct or remove them (issue 42, ADR 0049).
  addExpense: "fleet.edit",
  updateExpense: "maintenance.manage",
  deleteExpense: "maintenance.manage",
  // Renewals: owners and admins set them up and remove them (as service schedules), members renew (as they log service).
  addRenewal: "maintenance.manage",
  renewRenewal: "fleet.edit",
  deleteRenewal: "maintenance.manage",
  // Jobs (issue 43, ADR 0052): owners, admins and members plan; the driver (a member) marks arrived and done; viewers read.
  createJob: "fleet.edit",
  updateJob: "fleet.edit",
  deleteJob: "fleet.edit",
  reorderJobs: "fleet.edit",
  cancelJob: "fleet.edit",
  markJobArrived: "fleet.edit",
  completeJob: "fleet.edit",
  // Work orders, parts and vendors (issue 55): members work (as they log service), owners and admins delete; viewers read.
  createWorkOrder: "fleet.edit",
  updateWorkOrder: "fleet.edit",
  deleteWorkOrder: "maintenance.manage",
  addWorkOrderLine: "fleet.edit",
  updateWorkOrderLine: "fleet.edit",
  deleteWorkOrderLine: "fleet.edit",
  completeWorkOrder: "fleet.edit",
  reopenWorkOrder: "fleet.edit",
  createPart: "fleet.edit",
  updatePart: "fleet.edit",
  deletePart: "maintenance.manage",
  createVendor: "fleet.edit",
  updateVendor: "fleet.edit",
  deleteVendor: "maintenance.manage",
};

/** A pushed mutation the server refused for the caller's role (the push answer's `refused`). */
export interface RefusedMutation {
  clientID: string;
  id: number;
  name: string;
  message: string;
}

/** Whether `role` may do `action`. An unknown role (a row written by a newer build) may do nothing. */
export function can(role: string | null | undefined, action: Action): boolean {
  return isRole(role) && table[role].includes(action);
}

/** The lesser of two roles (an API token acts with no more than its scope's role and its creator's). */
export function lesserRole(a: Role, b: Role): Role {
  return roles.indexOf(a) >= roles.indexOf(b) ? a : b;
}

export const isRole = (role: unknown): role is Role =>
  typeof role === "string" && (roles as readonly string[]).includes(role);

/**
 * Whether `actor` may give `target`'s membership the role `to` (or remove it, `to` null): managers
 * only, and only an owner touches `owner` (an admin can neither grant it nor demote or remove an owner).
 */
export function canAssign(actor: string | null | undefined, from: Role | null, to: Role | null): boolean {
  if (!can(actor, "members.manage")) return false;
  if (actor === "owner") return true;
  return from !== "owner" && to !== "owner";
}

/** Why a refused change was refused, for the toast the browser shows (push refusals). */
export const refusalMessage = (role: string | null | undefined) =>
  role === "viewer" ? "You have view-only access to this workspace" : "Your role does not allow this change";

export const roleLabels: Record<Role, string> = { owner: "Owner", admin: "Admin", member: "Member", viewer: "Viewer" };

// ------------------------------------------------------------------ the Teams API (DESIGN.md "Teams")

export const inviteSchema = z.object({ email: emailField, role: roleSchema });
export const roleChangeSchema = z.object({ role: roleSchema });
export const acceptInviteSchema = z.object({
  token: z.string({ required_error: "Required" }).min(1, "Required").max(200),
});

/** Invites expire after 7 days (Samsara and boxyhq's starter use the same). */
export const INVITE_TTL_MS = 7 * 24 * 60 * 60 * 1000;

export interface MemberRow {
  userId: string;
  email: string;
  role: Role;
  joinedAt: number;
}
export interface InviteRow {
  id: string;
  email: string;
  role: Role;
  expiresAt: number;
}
export interface MembersResponse {
  members: MemberRow[];
  invites: InviteRow[];
}
export interface WorkspacesResponse {
  workspaces: { id: string; name: string; role: Role }[];
}
export interface AcceptInviteResponse {
  workspaceId: string;
  role: Role;
  /** A token of the same sign-in naming the workspace just joined (the session switches to it). */
  token: string;
}
/** GET /api/invites/{token}: what the invite page shows before accepting (no session needed). */
export interface InvitePreview {
  email: string;
  workspaceName: string;
  role: Role;
  /** Whether an account with that e-mail exists: sign in rather than sign up. */
  accountExists: boolean;
}
