import { z } from "zod";
import { photoIdsSchema } from "../maintenance/photos";
import { dayWithin } from "../maintenance/service";
import { addDays, daysBetween } from "../units/time-zone";
import { setIfPresent } from "../sync/wire";

/**
 * Renewals (issue 42, DESIGN.md "Fuel, costs and renewals"): a registration, insurance policy,
 * permit or emissions test with a due date and a reminder period. One schema for the REST API and
 * the sync mutators, the status rule every screen and the server share (docs/decisions/0049), and
 * the compact synced value with its store key, which My actions, the vehicle page and the overview
 * page read. Every live renewal is synced: a vehicle has a handful, and renewing rewrites its row.
 */

const id = z.string().min(1).max(100);

export const renewalKinds = ["registration", "insurance", "permit", "emissions", "other"] as const;
export type RenewalKind = (typeof renewalKinds)[number];
export const renewalKindLabels: Record<RenewalKind, string> = {
  registration: "Registration",
  insurance: "Insurance",
  permit: "Permit",
  emissions: "Emissions test",
  other: "Other",
};

export const renewalStatuses = ["ok", "due_soon", "overdue"] as const;
export type RenewalStatus = (typeof renewalStatuses)[number];
export const renewalStatusLabels: Record<RenewalStatus, string> = {
  ok: "OK",
  due_soon: "Due soon",
  overdue: "Overdue",
};

export const DEFAULT_REMIND_DAYS_BEFORE = 30;
const MAX_REMIND_DAYS_BEFORE = 366;

const kind = z.enum(renewalKinds, { errorMap: () => ({ message: `One of ${renewalKinds.join(", ")}` }) });
const name = z.string().trim().max(100, "At most 100 characters");
const remindDaysBefore = z
  .number({ invalid_type_error: "Enter a number of days" })
  .int("Whole days")
  .min(0, "0 or more")
  .max(MAX_REMIND_DAYS_BEFORE, `At most ${MAX_REMIND_DAYS_BEFORE} days`);

/**
 * How far from today a due date may be (issue 51): a lapsed document set up late, up to two years
 * back; a renewal's new term from a month back (recorded late) on; ten years ahead at most.
 */
export const RENEWAL_DAYS_BACK = 2 * 366;
export const RENEWED_DAYS_BACK = 31;
export const RENEWAL_DAYS_AHEAD = 10 * 366;

/** `POST /api/renewals`: `dueDate` is the workspace's calendar day it runs out. */
export const renewalBodySchema = z.object({
  vehicleId: id,
  kind,
  name: name.nullish(),
  dueDate: dayWithin(RENEWAL_DAYS_BACK, RENEWAL_DAYS_AHEAD),
  remindDaysBefore: remindDaysBefore.default(DEFAULT_REMIND_DAYS_BEFORE),
  photoIds: photoIdsSchema.default([]),
});
export type RenewalBody = z.input<typeof renewalBodySchema>;
type RenewalInput = z.output<typeof renewalBodySchema>;

/** `POST /api/renewals/{id}/renew`: the new due date (a new document photo may come with it). */
export const renewBodySchema = z.object({
  dueDate: dayWithin(RENEWED_DAYS_BACK, RENEWAL_DAYS_AHEAD),
  photoIds: photoIdsSchema.optional(),
});
export type RenewBody = z.output<typeof renewBodySchema>;

/** `GET /api/renewals?vehicleId=` */
export const renewalQuerySchema = z.object({ vehicleId: id.optional() });

/** The sync mutators' arguments: the REST bodies with the id the browser chose or names. */
export const addRenewalArgs = renewalBodySchema.extend({ id });
export type AddRenewalArgs = z.input<typeof addRenewalArgs>;
export const renewRenewalArgs = renewBodySchema.extend({ id });
export type RenewRenewalArgs = z.input<typeof renewRenewalArgs>;
export const deleteRenewalArgs = z.object({ id });
export type DeleteRenewalArgs = z.input<typeof deleteRenewalArgs>;

/** The fields a renewal keeps (the D1 row's and the store's shape less their bookkeeping). */
export interface RenewalFields {
  vehicleId: string;
  kind: RenewalKind;
  name: string | null;
  /** YYYY-MM-DD */
  dueDate: string;
  remindDaysBefore: number;
  photoIds: string[];
}

/** A renewal as the REST API answers it: its status as of today in the workspace's zone. */
export interface Renewal extends RenewalFields {
  id: string;
  status: RenewalStatus;
  /** ISO 8601, when it was last renewed, or null */
  renewedAt: string | null;
  createdAt: string;
}

export const renewalFieldsOf = (input: RenewalInput): RenewalFields => ({
  vehicleId: input.vehicleId,
  kind: input.kind,
  name: input.name || null,
  dueDate: input.dueDate,
  remindDaysBefore: input.remindDaysBefore,
  photoIds: input.photoIds,
});

/** Renewing: the new due date, and the new document when one came (else the old one stays). */
export const renewalAfterRenew = <F extends RenewalFields>(current: F, renew: RenewBody): F => ({
  ...current,
  dueDate: renew.dueDate,
  photoIds: renew.photoIds ?? current.photoIds,
});

/**
 * The one status rule (docs/decisions/0049): overdue once `today` (the workspace's day) is past the
 * due date; due soon from `remindDaysBefore` days ahead of it up to and including the day itself.
 */
export function renewalStatus(r: Pick<RenewalFields, "dueDate" | "remindDaysBefore">, today: string): RenewalStatus {
  if (today > r.dueDate) return "overdue";
  return daysBetween(today, r.dueDate) <= r.remindDaysBefore ? "due_soon" : "ok";
}

/** The first day a renewal is due soon (its reminder is sent from then on). */
export const remindFrom = (r: Pick<RenewalFields, "dueDate" | "remindDaysBefore">) =>
  addDays(r.dueDate, -r.remindDaysBefore);

/** A renewal's title on screen and in mail: its name, else its kind. */
export const renewalTitle = (r: Pick<RenewalFields, "kind" | "name">) => r.name ?? renewalKindLabels[r.kind];

// ------------------------------------------------------------------ the synced store (docs/decisions/0049)

/** Store keys `renewal/{id}`: My actions, the vehicle page and the overview page scan this prefix. */
export const RENEWAL_PREFIX = "renewal/";
export const renewalKey = (renewalId: string) => `${RENEWAL_PREFIX}${renewalId}`;

/** What a screen reads for `renewal/{id}`; its status is `renewalStatus(r, today)`. */
export type SyncedRenewal = RenewalFields & { id: string };
/** Compact (ADR 0013): the kind as its index, the reminder left out at its default of 30 days. */
export type RenewalWire = { v: string; k: number; d: string; n?: string; r?: number; ph?: string[] };

export function encodeRenewal(r: RenewalFields): RenewalWire {
  const w: RenewalWire = { v: r.vehicleId, k: renewalKinds.indexOf(r.kind), d: r.dueDate };
  setIfPresent(w, "n", r.name);
  if (r.remindDaysBefore !== DEFAULT_REMIND_DAYS_BEFORE) w.r = r.remindDaysBefore;
  if (r.photoIds.length) w.ph = r.photoIds;
  return w;
}

export const decodeRenewal = (renewalId: string, w: RenewalWire): SyncedRenewal => ({
  id: renewalId,
  vehicleId: w.v,
  kind: renewalKinds[w.k] ?? "other",
  name: w.n ?? null,
  dueDate: w.d,
  remindDaysBefore: w.r ?? DEFAULT_REMIND_DAYS_BEFORE,
  photoIds: w.ph ?? [],
});
