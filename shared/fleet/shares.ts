import { z } from "zod";
import { creatorFields } from "../account/api-tokens";
import { workspaceCustomerLinkSchema } from "../jobs/job-shares";

/**
 * Live-share links of one vehicle (DESIGN.md "Sharing and integrations", docs/decisions/0029):
 * a public page /share/{token} with the vehicle's name and live position until the link expires
 * or is ended. Shared by the Worker's routes, the share UI, the public page and the OpenAPI document.
 */
export const SHARE_MIN_MINUTES = 5;
export const SHARE_MAX_MINUTES = 7 * 24 * 60;

/** The choices the UI offers (any whole number of minutes in range is accepted by the API). */
export const SHARE_EXPIRY_CHOICES = [
  { minutes: SHARE_MIN_MINUTES, label: "5 minutes" },
  { minutes: 15, label: "15 minutes" },
  { minutes: 60, label: "1 hour" },
  { minutes: 4 * 60, label: "4 hours" },
  { minutes: 24 * 60, label: "1 day" },
  { minutes: SHARE_MAX_MINUTES, label: "7 days" },
] as const;

export const createShareSchema = z.object({
  expiresInMinutes: z
    .number({ required_error: "Choose how long the link lasts", invalid_type_error: "Minutes must be a number" })
    .int("Whole minutes")
    .min(SHARE_MIN_MINUTES, `At least ${SHARE_MIN_MINUTES} minutes`)
    .max(SHARE_MAX_MINUTES, "At most 7 days"),
});

export const createdShareSchema = z.object({ id: z.string(), url: z.string(), expiresAt: z.number() });
export type CreatedShare = z.infer<typeof createdShareSchema>;

export const shareSchema = z.object({ id: z.string(), createdAt: z.number(), expiresAt: z.number(), ...creatorFields });
export type Share = z.infer<typeof shareSchema>;
/** The vehicle's links still open (neither expired nor ended), newest first. */
export const shareListSchema = z.object({ shares: z.array(shareSchema) });
export type ShareList = z.infer<typeof shareListSchema>;

/**
 * Every live link of a workspace (`GET /api/workspaces/{id}/shares`, owners and admins; issue 39):
 * which vehicle, who made it, until when, so any of them can be ended from one place.
 */
export const workspaceShareSchema = shareSchema.extend({ vehicleId: z.string(), vehicleName: z.string() });
export type WorkspaceShare = z.infer<typeof workspaceShareSchema>;
/** With the workspace's live customer links to jobs (issue 51), which are ended the same way. */
export const workspaceShareListSchema = z.object({
  shares: z.array(workspaceShareSchema),
  customerLinks: z.array(workspaceCustomerLinkSchema),
});
export type WorkspaceShareList = z.infer<typeof workspaceShareListSchema>;

/** What the public page reads: nothing of the workspace but the vehicle's name and where it is now. */
export const sharedPositionSchema = z.object({
  lat: z.number(),
  lng: z.number(),
  at: z.number(),
  speedMph: z.number(),
});
export const sharedVehicleSchema = z.object({
  vehicle: z.object({ name: z.string() }),
  position: sharedPositionSchema.nullable(),
  expiresAt: z.number(),
});
export type SharedVehicle = z.infer<typeof sharedVehicleSchema>;

/** How often the open share page asks for the position: at most this much behind the server. */
export const SHARE_POLL_MS = 3_000;

/** The error codes of an expired and an ended link (410), which the page tells apart. */
export const SHARE_EXPIRED = "share_expired";
export const SHARE_ENDED = "share_ended";
