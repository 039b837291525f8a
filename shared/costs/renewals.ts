import { z } from "zod";
import { photoIdsSchema } from "../maintenance/photos";
import { dayWithin } from "../maintenance/service";
import { addDays, daysBetween } from "../units/time-zone";
import {
  DEFAULT_REMIND_DAYS_BEFORE,
  renewalKindLabels,
  renewalKinds,
  RENEWAL_DAYS_AHEAD,
  RENEWAL_DAYS_BACK,
  type RenewalKind,
  type RenewalTableValues,
  type RenewalTableWire,
  renewalTable,
} from "./renewal-fields";

/**
 * Renewals (issue 42, DESIGN.md "Fuel, costs and renewals"): a registration, insurance policy,
 * permit or emissions test with a due date and a reminder period. One schema for the REST API and
 * the sync mutators, the status rule every screen and the server share (docs/decisions/0049), and
 * the compact synced value with its store key, which My actions, the vehicle page and the overview
 * page read. Every live renewal is synced: a vehicle has a handful, and renewing rewrites its row.
 * The plain fields (the kind, name, due date and reminder) are one table,
 * shared/costs/renewal-fields.ts (docs/decisions/0103); renewing and the status are written out here.
 */

const id = z.string().min(1).max(100);

export {
  DEFAULT_REMIND_DAYS_BEFORE,
  renewalKindLabels,
  renewalKinds,
  RENEWAL_DAYS_AHEAD,
  RENEWAL_DAYS_BACK,
  type RenewalKind,
};

export const renewalStatuses = ["ok", "due_soon", "overdue"] as const;
export type RenewalStatus = (typeof renewalStatuses)[number];
export const renewalStatusLabels: Record<RenewalStatus, string> = {
  ok: "OK",
  due_soon: "Due soon",
  overdue: "Overdue",
};

/** A renewal's new term may start from a month back (recorded late); ten years ahead at most. */
export const RENEWED_DAYS_BACK = 31;

/**
 * `POST /api/renewals`: `dueDate` is the workspace's calendar day it runs out. The vehicle, then
 * the table's fields (shared/costs/renewal-fields.ts), then the document's photos.
 */
export const renewalBodySchema = z.object({
  vehicleId: id,
  ...renewalTable.inputs,
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

/** The fields a renewal keeps (the D1 row's and the store's shape less their bookkeeping): the vehicle, the table's, the photos. */
export interface RenewalFields extends RenewalTableValues {
  vehicleId: string;
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
  ...renewalTable.given(input),
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
/**
 * Compact (ADR 0013): the vehicle `v`, the table's fields under their keys (`k` the kind's index,
 * `n` left out when empty, `d`, `r` left out at its default of 30 days), the photos `ph` left out when none.
 */
export type RenewalWire = { v: string } & RenewalTableWire & { ph?: string[] };

export function encodeRenewal(r: RenewalFields): RenewalWire {
  const w = { v: r.vehicleId } as RenewalWire;
  renewalTable.encode(r, w);
  if (r.photoIds.length) w.ph = r.photoIds;
  return w;
}

export const decodeRenewal = (renewalId: string, w: RenewalWire): SyncedRenewal => ({
  id: renewalId,
  vehicleId: w.v,
  ...renewalTable.decode(w),
  photoIds: w.ph ?? [],
});

// ------------------------------------------------------------------ the form

/** "Add renewal": the table's inputs, checked one by one. */
export const renewalFormSchema = z.object(renewalTable.formChecks);
