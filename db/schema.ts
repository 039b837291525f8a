/**
 * The whole D1 schema. Timestamps are integer milliseconds since the epoch.
 *
 * Synced tables (vehicles, telemetry, vehicle_events) carry `version`: the workspace version at
 * which the row last changed (per-space version strategy, see docs/decisions/0003-sync.md), and
 * `deleted` so a pull can tell clients to drop a row.
 */
import { sql } from "drizzle-orm";
import { index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import type { AlertKind, AlertRuleConfig } from "../shared/alerts/alert-rules";
import type { PlaceGeometry } from "../shared/places/places";
import type { InspectionItem, InspectionResult } from "../shared/maintenance/inspections";
import type { JobStatus, JobVisit } from "../shared/jobs/jobs";
import type {
  CustomerMessageChannel,
  CustomerMessageKind,
  CustomerMessageSettings,
  JobMessageState,
} from "../shared/jobs/customer-messages";
import type { JobChange } from "../shared/jobs/customer-message-rule";
import { PHOTO_QUOTA_BYTES } from "../shared/maintenance/photos";
import { expenseKinds } from "../shared/costs/expenses";
import { renewalKinds } from "../shared/costs/renewals";
import type { WorkOrderCompletion } from "../shared/maintenance/work-orders";

/**
 * A row's creation time as Drizzle inserts it: the Worker's (or the object's) clock, the clock every
 * rule that compares against it reads (a session's idle limit, a photo's grace, a rate limit's
 * hour), so a row and the check on it never disagree by the two machines' skew or a run at a chosen
 * hour (issue 52, "one clock"). The migrations keep each column's SQL default,
 * `unixepoch('subsec') * 1000`, for a row a raw statement inserts; Drizzle would prefer a
 * `.default()` declared here over this function, so the schema does not repeat it.
 */
const workerNow = () => Date.now();

// ---------------------------------------------------------------- accounts

export const users = sqliteTable("users", {
  id: text("id").primaryKey(),
  /** Lower-cased on the way in; unique. */
  email: text("email").notNull().unique(),
  emailVerified: integer("email_verified", { mode: "boolean" }).notNull().default(false),
  createdAt: integer("created_at").notNull().$defaultFn(workerNow),
  /**
   * When the address was confirmed (the sign-up link, Google, a password reset); null until then.
   * Mail to others this account causes, and mail to it from others, waits for it (docs/decisions/0041).
   */
  emailConfirmedAt: integer("email_confirmed_at"),
});

/** Links that confirm an account's address (migrations/0022): only the token's SHA-256. */
export const emailConfirmations = sqliteTable(
  "email_confirmations",
  {
    tokenHash: text("token_hash").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    expiresAt: integer("expires_at").notNull(),
  },
  (t) => [index("email_confirmations_user_idx").on(t.userId)],
);

/**
 * Mail to someone else that has not gone out (worker/email/member-mail.ts): its sender or
 * recipient is unconfirmed, or the recipient had their daily share from that sender. `senderKey`
 * is whom the daily share counts against (a user, or a workspace for alerts).
 */
export const heldMail = sqliteTable(
  "held_mail",
  {
    id: text("id").primaryKey(),
    senderKey: text("sender_key").notNull(),
    senderUserId: text("sender_user_id").references(() => users.id, { onDelete: "cascade" }),
    recipient: text("recipient").notNull(),
    /** issue_assigned | alert | invite | service_due ... */
    kind: text("kind").notNull(),
    /** What a held invite mails once released (its id); null otherwise. */
    ref: text("ref"),
    /** The digest's line for it (a body: it may quote what a member wrote). */
    digestLine: text("digest_line").notNull(),
    /** sender_unconfirmed | recipient_unconfirmed | over_daily */
    reason: text("reason").notNull(),
    createdAt: integer("created_at").notNull().$defaultFn(workerNow),
  },
  (t) => [index("held_mail_recipient_idx").on(t.recipient), index("held_mail_sender_idx").on(t.senderUserId)],
);

/** One password per user; `hash` records its own KDF parameters (see worker/auth/password.ts). */
export const passwordCredentials = sqliteTable("password_credentials", {
  userId: text("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  hash: text("hash").notNull(),
  updatedAt: integer("updated_at").notNull().$defaultFn(workerNow),
});

/**
 * An account's TOTP second factor (RFC 6238, docs/decisions/0021): the shared key, on once
 * `enabledAt` is set (a code from the app confirmed it), and the last time step accepted, so a
 * code is never accepted twice.
 */
export const totpCredentials = sqliteTable("totp_credentials", {
  userId: text("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  /** 20 random bytes, base32 (what authenticator apps are given). */
  secret: text("secret").notNull(),
  enabledAt: integer("enabled_at"),
  lastStep: integer("last_step").notNull().default(0),
  createdAt: integer("created_at").notNull().$defaultFn(workerNow),
});

/** Single-use recovery codes of an account with a second factor; only their SHA-256 is stored. */
export const recoveryCodes = sqliteTable(
  "recovery_codes",
  {
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    codeHash: text("code_hash").notNull(),
    usedAt: integer("used_at"),
  },
  (t) => [primaryKey({ columns: [t.userId, t.codeHash] })],
);

/**
 * A sign-in waiting for its second factor: the password (or Google) was right, the code is not
 * given yet. The browser holds the challenge (only its SHA-256 is here) for five minutes and five
 * tries.
 */
export const signinChallenges = sqliteTable(
  "signin_challenges",
  {
    challengeHash: text("challenge_hash").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    method: text("method").notNull(),
    attempts: integer("attempts").notNull().default(0),
    expiresAt: integer("expires_at").notNull(),
  },
  (t) => [index("signin_challenges_user_idx").on(t.userId)],
);

/** A session names one workspace (or none yet). Only the SHA-256 of the bearer token is stored. */
export const sessions = sqliteTable(
  "sessions",
  {
    tokenHash: text("token_hash").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    workspaceId: text("workspace_id").references(() => workspaces.id, { onDelete: "set null" }),
    createdAt: integer("created_at").notNull().$defaultFn(workerNow),
    /** Absolute end: 30 days after the sign-in, inherited by every token derived from it. */
    expiresAt: integer("expires_at").notNull(),
    revokedAt: integer("revoked_at"),
    /** Shared by every token one sign-in produced (workspace switches), so sign-out ends them all. */
    signinId: text("signin_id"),
    /** The idle clock (14 days), written at most once a minute. */
    lastUsedAt: integer("last_used_at"),
    /** The network signed in from (IPv4, or IPv6 /64): the sessions list, and the sign-in limits' "known network". */
    network: text("network"),
    /** The browser's User-Agent at sign-in (cut to 256 characters), shown as the device. */
    userAgent: text("user_agent"),
  },
  (t) => [
    index("sessions_user_idx").on(t.userId),
    index("sessions_signin_idx").on(t.signinId),
    index("sessions_user_network_idx").on(t.userId, t.network),
  ],
);

/** Single-use, 60-second tickets that open the realtime socket (docs/decisions/0010). */
export const realtimeTickets = sqliteTable("realtime_tickets", {
  ticketHash: text("ticket_hash").primaryKey(),
  sessionHash: text("session_hash").notNull(),
  expiresAt: integer("expires_at").notNull(),
  usedAt: integer("used_at"),
});

export const oauthAccounts = sqliteTable(
  "oauth_accounts",
  {
    provider: text("provider").notNull(),
    providerUserId: text("provider_user_id").notNull(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: integer("created_at").notNull().$defaultFn(workerNow),
  },
  (t) => [primaryKey({ columns: [t.provider, t.providerUserId] }), index("oauth_user_idx").on(t.userId)],
);

/** Server-side OAuth state + PKCE verifier, single use, short-lived. */
export const oauthStates = sqliteTable("oauth_states", {
  state: text("state").primaryKey(),
  provider: text("provider").notNull(),
  codeVerifier: text("code_verifier").notNull(),
  expiresAt: integer("expires_at").notNull(),
});

/** Single-use password reset tokens; only the hash is stored. */
export const passwordResetTokens = sqliteTable(
  "password_reset_tokens",
  {
    tokenHash: text("token_hash").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    expiresAt: integer("expires_at").notNull(),
    usedAt: integer("used_at"),
    createdAt: integer("created_at").notNull().$defaultFn(workerNow),
  },
  (t) => [index("reset_user_idx").on(t.userId)],
);

/** Development/test e-mail adapter: messages land here (and in the console) instead of a provider. */
export const emailOutbox = sqliteTable("email_outbox", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  to: text("to").notNull(),
  subject: text("subject").notNull(),
  text: text("text").notNull(),
  /** Headers beyond the usual ones (List-Unsubscribe on mail to customers; migrations/0038). */
  headers: text("headers", { mode: "json" }).$type<Record<string, string>>(),
  createdAt: integer("created_at").notNull().$defaultFn(workerNow),
});

/** Fixed-window counters for abuse limits, keyed like `signin:ip:1.2.3.4`. */
export const rateLimits = sqliteTable("rate_limits", {
  key: text("key").primaryKey(),
  windowStart: integer("window_start").notNull(),
  count: integer("count").notNull(),
});

// ---------------------------------------------------------------- workspaces

export const workspaces = sqliteTable("workspaces", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  /** Bumped by every write in the workspace; the pull cookie is this number. */
  version: integer("version").notNull().default(0),
  /** Carried in every pull cookie; rotated after a restore from backup so old cookies get a reset. */
  syncEpoch: text("sync_epoch").notNull().default(""),
  /** Tombstones stamped at or below this version may be collected: older cookies get a reset. */
  tombstoneFloor: integer("tombstone_floor").notNull().default(0),
  /** Raised by pushes recorded without a write (refused, unknown): pulls then answer the pusher's mutation ids (migrations/0019). */
  syncAcks: integer("sync_acks").notNull().default(0),
  /**
   * Written by the workspace object's flush alone (db/writer.ts `bumpLiveVersion`): the
   * version of its last flush, and the last version before it that was not a flush. While the
   * newest version is a flush's, an incremental pull from at or above `editVersion` reads only the
   * tables the flush writes (migrations/0021).
   */
  flushedVersion: integer("flushed_version").notNull().default(0),
  editVersion: integer("edit_version").notNull().default(0),
  createdAt: integer("created_at").notNull().$defaultFn(workerNow),
  /** IANA time zone: days and times in reports and the timeline (migrations/0008). */
  timeZone: text("time_zone").notNull().default("UTC"),
  /** "us" or "metric": what the screens show distances, volumes and economy in (migrations/0033). */
  units: text("units").notNull().default("us"),
  /** "h12" or "h23", or null for the zone's country's habit: how times are written (migrations/0041). */
  hourCycle: text("hour_cycle"),
  /** Bytes of photos the workspace may keep (migrations/0023, docs/decisions/0042): uploads past it answer 413. */
  photoQuotaBytes: integer("photo_quota_bytes").notNull().default(PHOTO_QUOTA_BYTES),
  /** What its customers are told (migrations/0043, docs/decisions/0085): shared/jobs/customer-messages.ts. */
  customerMessages: text("customer_messages", { mode: "json" })
    .$type<Partial<CustomerMessageSettings>>()
    .notNull()
    .default({}),
  /** Whether a work order needs a line (labour or part) to be completed (migrations/0049, docs/decisions/0092). */
  workOrderLinesRequired: integer("work_order_lines_required", { mode: "boolean" }).notNull().default(false),
});

/** A workspace's version at a point in time, so the tombstone collector can tell versions' ages. */
export const syncCheckpoints = sqliteTable(
  "sync_checkpoints",
  {
    workspaceId: text("workspace_id").notNull(),
    version: integer("version").notNull(),
    recordedAt: integer("recorded_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.workspaceId, t.version] })],
);

export const memberships = sqliteTable(
  "memberships",
  {
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    role: text("role").notNull().default("owner"),
    createdAt: integer("created_at").notNull().$defaultFn(workerNow),
  },
  (t) => [primaryKey({ columns: [t.workspaceId, t.userId] }), index("memberships_user_idx").on(t.userId)],
);

/** An invite by e-mail: only its token's SHA-256 is stored; single use, revocable, 7 days (migrations/0006). */
export const invites = sqliteTable(
  "invites",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    email: text("email").notNull(),
    role: text("role").notNull(),
    tokenHash: text("token_hash").notNull(),
    invitedBy: text("invited_by"),
    expiresAt: integer("expires_at").notNull(),
    acceptedAt: integer("accepted_at"),
    acceptedBy: text("accepted_by"),
    revokedAt: integer("revoked_at"),
    createdAt: integer("created_at").notNull().$defaultFn(workerNow),
  },
  (t) => [uniqueIndex("invites_token_idx").on(t.tokenHash), index("invites_ws_idx").on(t.workspaceId)],
);

/** Feature flags: `workspace_id = ''` is the global default, a workspace row overrides it. */
export const featureFlags = sqliteTable(
  "feature_flags",
  {
    key: text("key").notNull(),
    workspaceId: text("workspace_id").notNull().default(""),
    value: text("value", { mode: "json" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.key, t.workspaceId] })],
);

// ---------------------------------------------------------------- replicache

export const replicacheClientGroups = sqliteTable(
  "replicache_client_groups",
  {
    id: text("id").primaryKey(),
    userId: text("user_id").notNull(),
    workspaceId: text("workspace_id").notNull(),
    /** Set when a pull found the group ahead of the server (a restore): pushes rebase its clients' ids. */
    rebase: integer("rebase", { mode: "boolean" }).notNull().default(false),
    createdAt: integer("created_at").notNull().$defaultFn(workerNow),
    /** When the group last synced, to the hour (written at most hourly); retention deletes idle groups (migrations/0019). */
    lastPulledAt: integer("last_pulled_at").notNull().default(0),
  },
  (t) => [index("replicache_client_groups_idle_idx").on(t.lastPulledAt)],
);

export const replicacheClients = sqliteTable(
  "replicache_clients",
  {
    id: text("id").primaryKey(),
    clientGroupId: text("client_group_id").notNull(),
    lastMutationId: integer("last_mutation_id").notNull().default(0),
    /** Workspace version at which lastMutationId last changed. */
    version: integer("version").notNull().default(0),
  },
  (t) => [index("replicache_clients_group_idx").on(t.clientGroupId, t.version)],
);

// ---------------------------------------------------------------- fleet (synced)

export const vehicles = sqliteTable(
  "vehicles",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    year: integer("year"),
    make: text("make"),
    model: text("model"),
    vin: text("vin"),
    driver: text("driver"),
    /** The assigned driver (drivers.id), one or none (migrations/0006). */
    driverId: text("driver_id"),
    /** e.g. PICKUP_TRUCK, SUV, BOX_TRUCK; the client sees `{ value }`. */
    classification: text("classification"),
    /** Fleet lifecycle status: ACTIVE, INACTIVE, IN_SHOP, OUT_OF_SERVICE. */
    status: text("status").notNull().default("ACTIVE"),
    /** ACTIVE once its beacon reports; INACTIVE when it falls silent; PENDING before the first report. */
    beaconStatus: text("beacon_status").notNull().default("PENDING"),
    /** Seconds with the ignition on, kept by the workspace's object (domain/fold/engine-hours.ts; migrations/0017). */
    engineSeconds: integer("engine_seconds"),
    /** The fuel tank's capacity, set in the vehicle's settings (migrations/0026): what a fill-up is checked against. */
    fuelTankLitres: real("fuel_tank_litres"),
    /** What the day's planner reads (migrations/0039, docs/decisions/0076): jobs' sizes it carries (null: unbounded). */
    capacity: real("capacity"),
    /** "HH:MM", local: the shift the planner keeps it in (null: the plan request's). */
    shiftStart: text("shift_start"),
    shiftEnd: text("shift_end"),
    /** The place its routes start and end at (null: the plan request's start and end). */
    homePlaceId: text("home_place_id"),
    version: integer("version").notNull(),
    deleted: integer("deleted", { mode: "boolean" }).notNull().default(false),
    /** Workspace version at creation (set by a trigger, migrations/0001): pulls skip `del` for rows created after the cookie. */
    createdVersion: integer("created_version"),
    createdAt: integer("created_at").notNull().$defaultFn(workerNow),
  },
  (t) => [
    index("vehicles_ws_version_idx").on(t.workspaceId, t.version),
    // the cost report's economy, a vehicle at a time in id order (migrations/0051_cost_report_in_index_order.sql)
    index("vehicles_ws_id_idx").on(t.workspaceId, t.id),
  ],
);

/** The fleet's drivers: people, not accounts (migrations/0006). Synced under `driver/{id}`. */
export const drivers = sqliteTable(
  "drivers",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    email: text("email"),
    phone: text("phone"),
    version: integer("version").notNull(),
    deleted: integer("deleted", { mode: "boolean" }).notNull().default(false),
    createdVersion: integer("created_version"),
    createdAt: integer("created_at").notNull().$defaultFn(workerNow),
  },
  (t) => [index("drivers_ws_version_idx").on(t.workspaceId, t.version)],
);

/** Latest telemetry of each vehicle (one row per vehicle). SI units: m/s, metres. */
export const telemetry = sqliteTable(
  "telemetry",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id").notNull(),
    vehicleId: text("vehicle_id").notNull(),
    /** off | idle | moving | towing */
    status: text("status").notNull(),
    statusTimestamp: integer("status_timestamp").notNull(),
    speed: real("speed").notNull().default(0),
    odometer: real("odometer"),
    fuel: real("fuel"),
    latitude: real("latitude").notNull(),
    longitude: real("longitude").notNull(),
    heading: real("heading"),
    /** Device time of the report this row reflects. */
    recordedAt: integer("recorded_at").notNull(),
    version: integer("version").notNull(),
    deleted: integer("deleted", { mode: "boolean" }).notNull().default(false),
    /** Workspace version at creation (set by a trigger, migrations/0001): pulls skip `del` for rows created after the cookie. */
    createdVersion: integer("created_version"),
  },
  (t) => [
    uniqueIndex("telemetry_vehicle_idx").on(t.vehicleId),
    index("telemetry_ws_version_idx").on(t.workspaceId, t.version),
  ],
);

/** Timeline events derived from positions. `deleted` drops an old event from clients' stores. */
export const vehicleEvents = sqliteTable(
  "vehicle_events",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id").notNull(),
    vehicleId: text("vehicle_id").notNull(),
    /** TRANSIT | STOP | TOW, or REFUEL | FUEL_DROP (docs/decisions/0050) */
    type: text("type").notNull(),
    startTime: integer("start_time").notNull(),
    /** null while the event is still going on. */
    endTime: integer("end_time"),
    latitude: real("latitude"),
    longitude: real("longitude"),
    streetNumber: text("street_number"),
    street: text("street"),
    city: text("city"),
    state: text("state"),
    postalCode: text("postal_code"),
    /** TRANSIT/TOW: metres travelled and mean speed in m/s. */
    distance: real("distance"),
    averageSpeed: real("average_speed"),
    /** REFUEL/FUEL_DROP (migrations/0029): the fuel level before and after, percent of the tank. */
    fuelFrom: real("fuel_from"),
    fuelTo: real("fuel_to"),
    version: integer("version").notNull(),
    deleted: integer("deleted", { mode: "boolean" }).notNull().default(false),
    /** Workspace version at creation (set by a trigger, migrations/0001): pulls skip `del` for rows created after the cookie. */
    createdVersion: integer("created_version"),
  },
  (t) => [
    index("events_vehicle_start_idx").on(t.vehicleId, t.startTime),
    index("events_ws_version_idx").on(t.workspaceId, t.version),
    index("events_ws_start_idx").on(t.workspaceId, t.startTime),
  ],
);

// ---------------------------------------------------------------- beacons and positions

export const beacons = sqliteTable(
  "beacons",
  {
    /** The device identifier a tracker sends as `id`: random and unguessable. */
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    vehicleId: text("vehicle_id").notNull(),
    lastReportAt: integer("last_report_at"),
    /** The app (or protocol) of the last report: shared/fleet/beacon-health.ts DEVICE_APPS. */
    lastApp: text("last_app"),
    createdAt: integer("created_at").notNull().$defaultFn(workerNow),
    // Beacon health (worker/fleet/beacon-health.ts): reports acknowledged but not used, and why.
    rejectedClockAhead: integer("rejected_clock_ahead").notNull().default(0),
    rejectedTooOld: integer("rejected_too_old").notNull().default(0),
    rejectedThrottled: integer("rejected_throttled").notNull().default(0),
    /** Reports with no position (cells or Wi-Fi only): counted apart, they leave lastRejected* to the clock and throttle. */
    rejectedNoPosition: integer("rejected_no_position").notNull().default(0),
    lastNoPositionAt: integer("last_no_position_at"),
    lastRejectedAt: integer("last_rejected_at"),
    /** clock_ahead | too_old | throttled */
    lastRejectedReason: text("last_rejected_reason"),
    /** Device time minus server time of the last report whose clock was seen ahead (ms). */
    clockSkewMs: integer("clock_skew_ms"),
    clockSkewAt: integer("clock_skew_at"),
    /** When the device id was last regenerated (the old one stops working at once). */
    rotatedAt: integer("rotated_at"),
  },
  (t) => [index("beacons_ws_idx").on(t.workspaceId), index("beacons_vehicle_idx").on(t.vehicleId)],
);

/** Every accepted report; (beacon, device time) is unique so exact duplicates are stored once. */
export const positions = sqliteTable(
  "positions",
  {
    beaconId: text("beacon_id").notNull(),
    recordedAt: integer("recorded_at").notNull(),
    workspaceId: text("workspace_id").notNull(),
    vehicleId: text("vehicle_id").notNull(),
    latitude: real("latitude").notNull(),
    longitude: real("longitude").notNull(),
    speed: real("speed"),
    heading: real("heading"),
    altitude: real("altitude"),
    accuracy: real("accuracy"),
    battery: real("battery"),
    ignition: integer("ignition", { mode: "boolean" }),
    fuel: real("fuel"),
    odometer: real("odometer"),
    receivedAt: integer("received_at").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.beaconId, t.recordedAt] }),
    index("positions_vehicle_time_idx").on(t.vehicleId, t.recordedAt),
  ],
);

/**
 * Per-vehicle state of the trip/stop detector and the GPS odometer as D1-era ingestion kept it.
 * The workspace's object (party/live-fleet/live-fleet.ts) reads it once for a vehicle it does not know
 * yet, then keeps that state in its own storage; nothing writes it any more (migrations/0011
 * dropped the one-writer trigger of docs/decisions/0009: one object per workspace is the writer).
 */
export const motionState = sqliteTable("motion_state", {
  vehicleId: text("vehicle_id").primaryKey(),
  workspaceId: text("workspace_id").notNull(),
  state: text("state", { mode: "json" }).notNull(),
  updatedAt: integer("updated_at").notNull(),
  odometer: text("odometer", { mode: "json" }),
  version: integer("version").notNull().default(0),
  /** Each plugged fleet module's own state for this vehicle, by name (domain/fold/fold.ts, migrations/0005). */
  modules: text("modules", { mode: "json" }),
});

// ---------------------------------------------------------------- reports (migrations/0008)

/** Per vehicle, per local day (domain/reports/rollup.ts). Metres, seconds, m/s. */
export const vehicleDayRollups = sqliteTable(
  "vehicle_day_rollups",
  {
    vehicleId: text("vehicle_id").notNull(),
    /** YYYY-MM-DD in the workspace's time zone */
    day: text("day").notNull(),
    workspaceId: text("workspace_id").notNull(),
    distanceMetres: real("distance_metres").notNull().default(0),
    drivingSeconds: real("driving_seconds").notNull().default(0),
    idlingSeconds: real("idling_seconds").notNull().default(0),
    movingMetres: real("moving_metres").notNull().default(0),
    maxSpeed: real("max_speed").notNull().default(0),
    speedingEpisodes: integer("speeding_episodes").notNull().default(0),
    trips: integer("trips").notNull().default(0),
    stops: integer("stops").notNull().default(0),
    fuelUsedPercent: real("fuel_used_percent"),
  },
  (t) => [
    primaryKey({ columns: [t.vehicleId, t.day] }),
    // covering for the cost report's distance (migrations/0035_day_rollup_distance_index.sql)
    index("vehicle_day_rollups_ws_day_distance_idx").on(t.workspaceId, t.day, t.vehicleId, t.distanceMetres),
    // the cost report's sums per vehicle and month in index order (migrations/0051_cost_report_in_index_order.sql)
    index("vehicle_day_rollups_ws_vehicle_month_idx").on(
      t.workspaceId,
      t.vehicleId,
      sql`substr(${t.day}, 1, 7)`,
      t.day,
      t.distanceMetres,
    ),
  ],
);

/**
 * A workspace's driving per local day and hour (migrations/0052, docs/decisions/0097): each
 * vehicle's hour of driving, once over, is added to its row by the object's flush (party/live-fleet/
 * flush-tables.ts). At most 24 rows a day per workspace; street travel learns its hour shape from
 * the last 28 days (worker/jobs/route-plan.ts); retention deletes what is older (worker/retention.ts).
 */
export const workspaceHourDriving = sqliteTable(
  "workspace_hour_driving",
  {
    workspaceId: text("workspace_id").notNull(),
    /** YYYY-MM-DD in the workspace's time zone */
    day: text("day").notNull(),
    /** local hour, 0-23 */
    hour: integer("hour").notNull(),
    drivingMetres: real("driving_metres").notNull().default(0),
    drivingSeconds: real("driving_seconds").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.workspaceId, t.day, t.hour] }), index("workspace_hour_driving_day_idx").on(t.day)],
);

/** Per timeline event, by the rollup's rule: a trip's distance and top speed, a stop's idling. */
export const eventRollups = sqliteTable("event_rollups", {
  eventId: text("event_id").primaryKey(),
  workspaceId: text("workspace_id").notNull(),
  vehicleId: text("vehicle_id").notNull(),
  distanceMetres: real("distance_metres").notNull().default(0),
  maxSpeed: real("max_speed").notNull().default(0),
  idlingSeconds: real("idling_seconds").notNull().default(0),
});

/** A member's daily or weekly summary by e-mail; `lastPeriod` is the last one sent. */
export const reportSubscriptions = sqliteTable(
  "report_subscriptions",
  {
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** daily | weekly */
    frequency: text("frequency").notNull(),
    lastPeriod: text("last_period"),
    createdAt: integer("created_at").notNull().$defaultFn(workerNow),
  },
  (t) => [primaryKey({ columns: [t.workspaceId, t.userId] })],
);

// ---------------------------------------------------------------- places and alerts (synced; docs/decisions/0019)

const synced = {
  workspaceId: text("workspace_id")
    .notNull()
    .references(() => workspaces.id, { onDelete: "cascade" }),
  version: integer("version").notNull(),
  deleted: integer("deleted", { mode: "boolean" }).notNull().default(false),
  /** Workspace version at creation (a trigger sets it, migrations/0007). */
  createdVersion: integer("created_version"),
};

/** A geofence: `geometry` is shared/places/places.ts's PlaceGeometry (GeoJSON Polygon or a circle). */
export const places = sqliteTable(
  "places",
  {
    id: text("id").primaryKey(),
    ...synced,
    name: text("name").notNull(),
    geometry: text("geometry", { mode: "json" }).$type<PlaceGeometry>().notNull(),
    createdAt: integer("created_at").notNull().$defaultFn(workerNow),
  },
  (t) => [index("places_ws_version_idx").on(t.workspaceId, t.version)],
);

/** An alert rule: `config` is shared/alerts/alert-rules.ts's AlertRuleConfig. */
export const alertRules = sqliteTable(
  "alert_rules",
  {
    id: text("id").primaryKey(),
    ...synced,
    config: text("config", { mode: "json" }).$type<AlertRuleConfig>().notNull(),
    createdAt: integer("created_at").notNull().$defaultFn(workerNow),
  },
  (t) => [index("alert_rules_ws_version_idx").on(t.workspaceId, t.version)],
);

/** One alert per episode; the id derives from rule, vehicle and start (party/alerts). */
export const alerts = sqliteTable(
  "alerts",
  {
    id: text("id").primaryKey(),
    ...synced,
    ruleId: text("rule_id").notNull(),
    vehicleId: text("vehicle_id").notNull(),
    type: text("type").$type<AlertKind>().notNull(),
    placeId: text("place_id"),
    at: integer("at").notNull(),
    endAt: integer("end_at"),
    latitude: real("latitude").notNull(),
    longitude: real("longitude").notNull(),
    peak: real("peak"),
    // the job a job_* alert is about, its number and title as they were then (migration 0034)
    jobId: text("job_id"),
    jobNumber: integer("job_number"),
    jobTitle: text("job_title"),
    createdAt: integer("created_at").notNull().$defaultFn(workerNow),
  },
  (t) => [
    index("alerts_ws_version_idx").on(t.workspaceId, t.version),
    index("alerts_ws_at_idx").on(t.workspaceId, t.at),
  ],
);

/** Per member (`id` = `{workspaceId}:{userId}`): read up to `readBefore`, plus `readIds`. */
export const alertReads = sqliteTable(
  "alert_reads",
  {
    id: text("id").primaryKey(),
    ...synced,
    userId: text("user_id").notNull(),
    readBefore: integer("read_before").notNull().default(0),
    readIds: text("read_ids", { mode: "json" }).$type<string[]>().notNull().default([]),
  },
  (t) => [index("alert_reads_ws_version_idx").on(t.workspaceId, t.version)],
);

/**
 * One alert's delivery to one target (`webhook:<url>` or `email:<userId>`), docs/decisions/0024:
 * the consumer claims `queued` -> `sending` in one guarded UPDATE before it sends, so a duplicate
 * queue message never sends twice; `sent`, `skipped` (the target is no longer on the rule, or the
 * member left) and `dead` (every attempt failed: the operator's dead-letter record) are final.
 */
export const alertDeliveries = sqliteTable(
  "alert_deliveries",
  {
    alertId: text("alert_id").notNull(),
    target: text("target").notNull(),
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    status: text("status").$type<"queued" | "sending" | "sent" | "skipped" | "dead">().notNull(),
    attempts: integer("attempts").notNull().default(0),
    lastError: text("last_error"),
    claimedAt: integer("claimed_at"),
    updatedAt: integer("updated_at").notNull().$defaultFn(workerNow),
  },
  (t) => [
    primaryKey({ columns: [t.alertId, t.target] }),
    index("alert_deliveries_ws_status_idx").on(t.workspaceId, t.status),
  ],
);

/** New alerts of rules that notify someone, filled by a trigger on `alerts` (migration 0012) and drained by the cron's relay. */
export const alertOutbox = sqliteTable(
  "alert_outbox",
  {
    alertId: text("alert_id").primaryKey(),
    workspaceId: text("workspace_id").notNull(),
    createdAt: integer("created_at").notNull().$defaultFn(workerNow),
    /** Issue 34 (migration 0013): a row the relay could not queue, set aside with its reason and reported to the workspace's admins. */
    setAsideAt: integer("set_aside_at"),
    setAsideReason: text("set_aside_reason"),
  },
  (t) => [index("alert_outbox_ws_pending_idx").on(t.workspaceId, t.setAsideAt, t.createdAt)],
);

/** Each workspace's webhook signing secret, AES-GCM encrypted under WEBHOOK_SECRET_KEY (a D1 copy alone does not reveal it). */
export const webhookSecrets = sqliteTable("webhook_secrets", {
  workspaceId: text("workspace_id")
    .primaryKey()
    .references(() => workspaces.id, { onDelete: "cascade" }),
  sealed: text("sealed").notNull(),
  createdAt: integer("created_at").notNull().$defaultFn(workerNow),
});

// ---------------------------------------------------------------- sharing and integrations (issue 30)

/** Integrators' bearer tokens of one workspace (docs/decisions/0029): only the SHA-256 is kept. */
export const apiTokens = sqliteTable(
  "api_tokens",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    /** read | write */
    scope: text("scope").$type<"read" | "write">().notNull(),
    tokenHash: text("token_hash").notNull(),
    createdBy: text("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: integer("created_at").notNull().$defaultFn(workerNow),
    /** Written at most once a minute per token. */
    lastUsedAt: integer("last_used_at"),
    revokedAt: integer("revoked_at"),
  },
  (t) => [uniqueIndex("api_tokens_hash_idx").on(t.tokenHash), index("api_tokens_ws_idx").on(t.workspaceId)],
);

/** Live-share links of one vehicle: a public page until `expiresAt` or `endedAt` (docs/decisions/0029). */
export const vehicleShares = sqliteTable(
  "vehicle_shares",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    vehicleId: text("vehicle_id")
      .notNull()
      .references(() => vehicles.id, { onDelete: "cascade" }),
    tokenHash: text("token_hash").notNull(),
    createdBy: text("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: integer("created_at").notNull().$defaultFn(workerNow),
    expiresAt: integer("expires_at").notNull(),
    endedAt: integer("ended_at"),
  },
  (t) => [
    uniqueIndex("vehicle_shares_hash_idx").on(t.tokenHash),
    index("vehicle_shares_vehicle_idx").on(t.workspaceId, t.vehicleId),
  ],
);

// ---------------------------------------------------------------- photos and issues (issue 32; docs/decisions/0030)

/**
 * A photo's owner and kind; its bytes are in R2 (PHOTOS) under `{workspaceId}/{id}`. The id is the
 * server's, derived from the uploader and the device's reference (shared/maintenance/photos.ts photoIdFor).
 */
export const photos = sqliteTable(
  "photos",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    contentType: text("content_type").notNull(),
    size: integer("size").notNull(),
    createdBy: text("created_by"),
    createdAt: integer("created_at").notNull().$defaultFn(workerNow),
    /** When the collector found a record naming it (migrations/0023); NULL a day after upload: collected. */
    attachedAt: integer("attached_at"),
  },
  (t) => [
    index("photos_ws_idx").on(t.workspaceId),
    index("photos_unattached_idx")
      .on(t.createdAt)
      .where(sql`${t.attachedAt} IS NULL`),
  ],
);

/**
 * R2 prefixes (`{workspaceId}/`) of deleted workspaces whose photo bytes the cron still deletes
 * (worker/photos/photo-collector.ts). No `workspace_id` column: deleting a workspace's rows would take it along.
 */
export const photoPurges = sqliteTable("photo_purges", {
  prefix: text("prefix").primaryKey(),
  createdAt: integer("created_at").notNull().$defaultFn(workerNow),
});

/** A defect of a vehicle, numbered #1, #2, ... per workspace (`number`, unique per workspace). Synced while open. */
export const issues = sqliteTable(
  "issues",
  {
    id: text("id").primaryKey(),
    ...synced,
    number: integer("number").notNull(),
    vehicleId: text("vehicle_id").notNull(),
    title: text("title").notNull(),
    description: text("description"),
    priority: text("priority").$type<"low" | "medium" | "high" | "critical">().notNull(),
    status: text("status").$type<"open" | "in_progress" | "resolved" | "closed">().notNull(),
    reportedByUserId: text("reported_by_user_id"),
    assigneeUserId: text("assignee_user_id"),
    /** YYYY-MM-DD */
    dueDate: text("due_date"),
    sourceInspectionId: text("source_inspection_id"),
    sourceAlertId: text("source_alert_id"),
    photoIds: text("photo_ids", { mode: "json" }).$type<string[]>().notNull().default([]),
    resolvedByServiceEntryId: text("resolved_by_service_entry_id"),
    createdAt: integer("created_at").notNull().$defaultFn(workerNow),
    updatedAt: integer("updated_at").notNull().$defaultFn(workerNow),
  },
  (t) => [
    uniqueIndex("issues_ws_number_idx").on(t.workspaceId, t.number),
    index("issues_ws_version_idx").on(t.workspaceId, t.version),
    index("issues_ws_status_idx").on(t.workspaceId, t.status, t.updatedAt),
    index("issues_ws_vehicle_idx").on(t.workspaceId, t.vehicleId),
  ],
);

export const issueComments = sqliteTable(
  "issue_comments",
  {
    id: text("id").primaryKey(),
    ...synced,
    issueId: text("issue_id")
      .notNull()
      .references(() => issues.id, { onDelete: "cascade" }),
    authorUserId: text("author_user_id"),
    text: text("text").notNull(),
    photoIds: text("photo_ids", { mode: "json" }).$type<string[]>().notNull().default([]),
    createdAt: integer("created_at").notNull().$defaultFn(workerNow),
  },
  (t) => [
    index("issue_comments_ws_version_idx").on(t.workspaceId, t.version),
    index("issue_comments_issue_idx").on(t.issueId, t.createdAt),
  ],
);

/** An assignment's e-mail, queued in the assignment's own batch; sent after it commits (or by the cron). */
export const issueNotifications = sqliteTable("issue_notifications", {
  id: text("id").primaryKey(),
  workspaceId: text("workspace_id")
    .notNull()
    .references(() => workspaces.id, { onDelete: "cascade" }),
  issueId: text("issue_id").notNull(),
  userId: text("user_id").notNull(),
  createdAt: integer("created_at").notNull().$defaultFn(workerNow),
  /** Who assigned (issue 39): the e-mail counts against their daily share to the assignee. */
  senderUserId: text("sender_user_id"),
});
// ---------------------------------------------------------------- service and inspections (issue 32; migrations/0017, docs/decisions/0032)

/**
 * A service schedule of one vehicle: due every N miles, engine hours or days, whichever comes
 * first, counted from when it was last done (shared/maintenance/service.ts computes its status). `cycle`
 * grows with every service entry that restarts it; `announced` is `{cycle}:{status}` of the last
 * due notification sent, so each period is announced once (worker/maintenance/due-notifications.ts).
 */
export const serviceSchedules = sqliteTable(
  "service_schedules",
  {
    id: text("id").primaryKey(),
    ...synced,
    vehicleId: text("vehicle_id").notNull(),
    name: text("name").notNull(),
    everyMiles: real("every_miles"),
    everyEngineHours: real("every_engine_hours"),
    everyDays: integer("every_days"),
    lastDoneAt: integer("last_done_at").notNull(),
    lastDoneOdometerMiles: real("last_done_odometer_miles"),
    lastDoneEngineHours: real("last_done_engine_hours"),
    cycle: integer("cycle").notNull().default(0),
    announced: text("announced"),
    createdAt: integer("created_at").notNull().$defaultFn(workerNow),
  },
  (t) => [
    index("service_schedules_ws_version_idx").on(t.workspaceId, t.version),
    index("service_schedules_vehicle_idx").on(t.vehicleId),
  ],
);

/** Service done on a vehicle: what, when, at which odometer, for how much. */
export const serviceEntries = sqliteTable(
  "service_entries",
  {
    id: text("id").primaryKey(),
    ...synced,
    vehicleId: text("vehicle_id").notNull(),
    /** YYYY-MM-DD, the day it was done. */
    date: text("date").notNull(),
    odometerMiles: real("odometer_miles"),
    engineHours: real("engine_hours"),
    description: text("description"),
    costCents: integer("cost_cents"),
    vendor: text("vendor"),
    notes: text("notes"),
    photoIds: text("photo_ids", { mode: "json" }).$type<string[]>().notNull().default([]),
    scheduleIds: text("schedule_ids", { mode: "json" }).$type<string[]>().notNull().default([]),
    resolvesIssueIds: text("resolves_issue_ids", { mode: "json" }).$type<string[]>().notNull().default([]),
    createdByUserId: text("created_by_user_id"),
    createdAt: integer("created_at").notNull().$defaultFn(workerNow),
    /** A work order's completion (migrations/0044): its labour and parts, within `costCents` (which adds tax). */
    laborCents: integer("labor_cents"),
    partsCents: integer("parts_cents"),
    workOrderId: text("work_order_id"),
  },
  (t) => [
    index("service_entries_ws_version_idx").on(t.workspaceId, t.version),
    index("service_entries_vehicle_date_idx").on(t.vehicleId, t.date),
  ],
);

/** An inspection form: its items are shared/maintenance/inspections.ts's InspectionItem[]. */
export const inspectionForms = sqliteTable(
  "inspection_forms",
  {
    id: text("id").primaryKey(),
    ...synced,
    name: text("name").notNull(),
    items: text("items", { mode: "json" }).$type<InspectionItem[]>().notNull(),
    isDefault: integer("is_default", { mode: "boolean" }).notNull().default(false),
    createdAt: integer("created_at").notNull().$defaultFn(workerNow),
  },
  (t) => [index("inspection_forms_ws_version_idx").on(t.workspaceId, t.version)],
);

/** A submitted inspection: each item's result, and the issues its failed items opened. */
export const inspections = sqliteTable(
  "inspections",
  {
    id: text("id").primaryKey(),
    ...synced,
    vehicleId: text("vehicle_id").notNull(),
    formId: text("form_id").notNull(),
    odometerMiles: real("odometer_miles"),
    results: text("results", { mode: "json" }).$type<InspectionResult[]>().notNull(),
    signedName: text("signed_name").notNull(),
    failedItems: integer("failed_items").notNull().default(0),
    issueIds: text("issue_ids", { mode: "json" }).$type<string[]>().notNull().default([]),
    submittedByUserId: text("submitted_by_user_id"),
    submittedAt: integer("submitted_at").notNull(),
    createdAt: integer("created_at").notNull().$defaultFn(workerNow),
  },
  (t) => [
    index("inspections_ws_version_idx").on(t.workspaceId, t.version),
    index("inspections_ws_submitted_idx").on(t.workspaceId, t.submittedAt),
  ],
);

/** A fill-up logged for a vehicle (issue 42, migrations/0026): volume in litres, cost in cents. */
export const fuelEntries = sqliteTable(
  "fuel_entries",
  {
    id: text("id").primaryKey(),
    ...synced,
    vehicleId: text("vehicle_id").notNull(),
    /** ms since epoch: when the tank was filled. */
    at: integer("at").notNull(),
    volumeLitres: real("volume_litres").notNull(),
    costCents: integer("cost_cents"),
    /** Filled to the brim (economy is counted full tank to full tank) or a partial fill. */
    fullTank: integer("full_tank", { mode: "boolean" }).notNull().default(true),
    odometerMiles: real("odometer_miles"),
    vendor: text("vendor"),
    photoIds: text("photo_ids", { mode: "json" }).$type<string[]>().notNull().default([]),
    createdByUserId: text("created_by_user_id"),
    createdAt: integer("created_at").notNull().$defaultFn(workerNow),
  },
  (t) => [
    index("fuel_entries_ws_version_idx").on(t.workspaceId, t.version),
    index("fuel_entries_ws_at_idx").on(t.workspaceId, t.at),
    index("fuel_entries_vehicle_at_idx").on(t.vehicleId, t.at),
    // A write's batch checks its vehicle's newest fill-up version in one seek (migrations/0045).
    index("fuel_entries_ws_vehicle_version_idx").on(t.workspaceId, t.vehicleId, t.version),
    // The cost report's economy reads each vehicle's log in order from this alone (migrations/0031).
    index("fuel_entries_ws_vehicle_log_idx").on(
      t.workspaceId,
      t.vehicleId,
      t.at,
      t.id,
      t.deleted,
      t.volumeLitres,
      t.fullTank,
      t.odometerMiles,
      t.costCents,
    ),
  ],
);

/**
 * Each full-to-full stretch of a vehicle's fuel log (migrations/0036, docs/decisions/0064), cut by
 * `storedStretchesOf` (shared/costs/fuel-economy.ts) in the batch that writes a fill-up
 * (worker/fuel/fuel-stretches.ts, migrations/0045, docs/decisions/0078); the cost report reads these
 * instead of every fill-up. `doubtful` is what the log alone tells (an odometer missing, no miles,
 * one going backwards); over the tank and `no_rise_seen` are judged when read.
 */
export const fuelStretches = sqliteTable(
  "fuel_stretches",
  {
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    vehicleId: text("vehicle_id").notNull(),
    /** the closing (full) fill-up: ms, then id, its place in the log */
    closeAt: integer("close_at").notNull(),
    closeId: text("close_id").notNull(),
    miles: real("miles").notNull(),
    /** the fills after the opening one, up to and including the closing one */
    litres: real("litres").notNull(),
    largestLitres: real("largest_litres").notNull(),
    doubtful: integer("doubtful", { mode: "boolean" }).notNull(),
    /** the highest odometer logged before the closing fill-up */
    highestBefore: real("highest_before"),
    /** miles per litre when the log finds nothing doubtful, for the median that marks outliers */
    rate: real("rate"),
  },
  (t) => [
    primaryKey({ columns: [t.workspaceId, t.vehicleId, t.closeAt, t.closeId] }),
    index("fuel_stretches_rate_idx")
      .on(t.workspaceId, t.vehicleId, t.rate, t.closeAt, t.largestLitres, t.closeId)
      .where(sql`${t.rate} IS NOT NULL`),
  ],
);

// ---------------------------------------------------------------- expenses and renewals (issue 42; migrations/0028, docs/decisions/0049)

/** Money a vehicle costs beyond fuel and service, on a day of the workspace. */
export const expenses = sqliteTable(
  "expenses",
  {
    id: text("id").primaryKey(),
    ...synced,
    vehicleId: text("vehicle_id").notNull(),
    /** YYYY-MM-DD, the workspace's day */
    date: text("date").notNull(),
    kind: text("kind", { enum: expenseKinds }).notNull(),
    costCents: integer("cost_cents").notNull(),
    note: text("note"),
    photoIds: text("photo_ids", { mode: "json" }).$type<string[]>().notNull().default([]),
    createdByUserId: text("created_by_user_id"),
    createdAt: integer("created_at").notNull().$defaultFn(workerNow),
  },
  (t) => [
    index("expenses_ws_version_idx").on(t.workspaceId, t.version),
    index("expenses_ws_date_idx").on(t.workspaceId, t.date),
    // The cost report's sums by vehicle, month and kind read this alone (migrations/0031).
    index("expenses_ws_date_cost_idx").on(t.workspaceId, t.date, t.vehicleId, t.kind, t.costCents, t.deleted),
    index("expenses_vehicle_date_idx").on(t.vehicleId, t.date),
  ],
);

/** A registration, policy, permit or test that runs out on `dueDate`; renewing moves the date. */
export const renewals = sqliteTable(
  "renewals",
  {
    id: text("id").primaryKey(),
    ...synced,
    vehicleId: text("vehicle_id").notNull(),
    kind: text("kind", { enum: renewalKinds }).notNull(),
    name: text("name"),
    /** YYYY-MM-DD, the workspace's day */
    dueDate: text("due_date").notNull(),
    remindDaysBefore: integer("remind_days_before").notNull().default(30),
    photoIds: text("photo_ids", { mode: "json" }).$type<string[]>().notNull().default([]),
    /** `{dueDate}:{status}` once its reminder went out (worker/costs/renewal-notifications.ts). */
    announced: text("announced"),
    /** ms, when it was last renewed */
    renewedAt: integer("renewed_at"),
    createdByUserId: text("created_by_user_id"),
    createdAt: integer("created_at").notNull().$defaultFn(workerNow),
  },
  (t) => [
    index("renewals_ws_version_idx").on(t.workspaceId, t.version),
    index("renewals_vehicle_idx").on(t.vehicleId),
    index("renewals_due_idx").on(t.deleted, t.dueDate),
  ],
);

// ---------------------------------------------------------------- jobs (issue 43; migrations/0027, docs/decisions/0052)

/**
 * A stop to make: on a local day (`date`), at a point (or a place, whose centre is the point), in
 * an order (`sequence`) on a vehicle's day or unassigned. Numbered #1, #2, ... per workspace.
 * Status and its times are written by planners, the driver and the workspace object's detection.
 */
export const jobs = sqliteTable(
  "jobs",
  {
    id: text("id").primaryKey(),
    ...synced,
    number: integer("number").notNull(),
    title: text("title").notNull(),
    /** YYYY-MM-DD, the workspace's local day. */
    date: text("date").notNull(),
    vehicleId: text("vehicle_id"),
    placeId: text("place_id"),
    latitude: real("latitude").notNull(),
    longitude: real("longitude").notNull(),
    address: text("address"),
    radiusMeters: real("radius_meters").notNull().default(150),
    /** "HH:MM", local. */
    windowStart: text("window_start"),
    windowEnd: text("window_end"),
    durationMinutes: integer("duration_minutes").notNull().default(5),
    /** How much of a vehicle's capacity the job takes (migrations/0046). */
    size: integer("size").notNull().default(1),
    sequence: integer("sequence").notNull().default(0),
    notes: text("notes"),
    customerName: text("customer_name"),
    customerEmail: text("customer_email"),
    /** E.164 (migrations/0043). */
    customerPhone: text("customer_phone"),
    status: text("status").$type<JobStatus>().notNull().default("scheduled"),
    enRouteAt: integer("en_route_at"),
    arrivedAt: integer("arrived_at"),
    departedAt: integer("departed_at"),
    completedAt: integer("completed_at"),
    /** ms: when the vehicle is expected, while the job is not reached. */
    eta: integer("eta"),
    late: integer("late", { mode: "boolean" }).notNull().default(false),
    /** Every time the vehicle was at the stop, in order (migrations/0042, shared/jobs/jobs.ts jobVisits). */
    visits: text("visits", { mode: "json" }).$type<JobVisit[]>().notNull().default([]),
    proofPhotoIds: text("proof_photo_ids", { mode: "json" }).$type<string[]>().notNull().default([]),
    signaturePhotoId: text("signature_photo_id"),
    recipientName: text("recipient_name"),
    proofNote: text("proof_note"),
    completedByUserId: text("completed_by_user_id"),
    createdByUserId: text("created_by_user_id"),
    /** ms: when the job was last given to a vehicle (migrations/0037): a phone's "arrived" or "done" is never before it. */
    assignedAt: integer("assigned_at"),
    /** ms: the last out-of-bounds time a phone stamped an arrival or completion with, replaced by the server's (docs/decisions/0071). */
    deviceTimeRefused: integer("device_time_refused"),
    createdAt: integer("created_at").notNull().$defaultFn(workerNow),
    updatedAt: integer("updated_at").notNull().$defaultFn(workerNow),
  },
  (t) => [
    uniqueIndex("jobs_ws_number_idx").on(t.workspaceId, t.number),
    index("jobs_ws_version_idx").on(t.workspaceId, t.version),
    index("jobs_ws_date_idx").on(t.workspaceId, t.date),
    index("jobs_vehicle_date_idx").on(t.vehicleId, t.date),
    // live jobs per day and vehicle, counted from the index alone (worker/jobs/job-caps.ts, migrations/0037)
    index("jobs_ws_live_date_idx")
      .on(t.workspaceId, t.date, t.vehicleId)
      .where(sql`${t.deleted} = 0`),
    // en-route jobs with a customer, for the minute's arriving check (migrations/0043)
    index("jobs_en_route_customer_idx")
      .on(t.workspaceId)
      .where(
        sql`${t.status} = 'en_route' AND ${t.deleted} = 0 AND (${t.customerEmail} IS NOT NULL OR ${t.customerPhone} IS NOT NULL)`,
      ),
  ],
);

/** A job given to a vehicle, queued for a push to its driver's phones (worker/jobs/job-notifications.ts). */
export const jobNotifications = sqliteTable(
  "job_notifications",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    jobId: text("job_id")
      .notNull()
      .references(() => jobs.id, { onDelete: "cascade" }),
    vehicleId: text("vehicle_id").notNull(),
    /** Who assigned: not pushed to (a driver planning their own day needs no nudge). */
    senderUserId: text("sender_user_id"),
    createdAt: integer("created_at").notNull().$defaultFn(workerNow),
  },
  (t) => [index("job_notifications_ws_idx").on(t.workspaceId, t.createdAt)],
);

/**
 * A message to a job's customer (migrations/0043, docs/decisions/0085): one per job, kind and
 * channel, queued by the jobs' triggers or the arriving check, sent by
 * worker/jobs/customer-messages.ts. No address: the job holds it.
 */
export const jobMessages = sqliteTable(
  "job_messages",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    jobId: text("job_id")
      .notNull()
      .references(() => jobs.id, { onDelete: "cascade" }),
    kind: text("kind").$type<CustomerMessageKind>().notNull(),
    channel: text("channel").$type<CustomerMessageChannel>().notNull(),
    /** queued | sending (claimed) | sent | held | bounced | unsubscribed */
    status: text("status").$type<JobMessageState>().notNull().default("queued"),
    attempts: integer("attempts").notNull().default(0),
    /** The provider's id of the message (Twilio's SID), which its delivery report names. */
    providerId: text("provider_id"),
    createdAt: integer("created_at").notNull().$defaultFn(workerNow),
    updatedAt: integer("updated_at").notNull().$defaultFn(workerNow),
    sentAt: integer("sent_at"),
  },
  (t) => [
    uniqueIndex("job_messages_once_idx").on(t.jobId, t.kind, t.channel),
    index("job_messages_status_idx").on(t.status, t.createdAt),
    index("job_messages_ws_job_idx").on(t.workspaceId, t.jobId),
    index("job_messages_provider_idx")
      .on(t.providerId)
      .where(sql`${t.providerId} IS NOT NULL`),
  ],
);

/**
 * A job's change that may tell its customer (migrations/0055), recorded by the triggers on `jobs` in
 * whichever write changed it, and turned into `job_messages` by the one rule
 * (shared/jobs/customer-message-rule.ts `messagesForJobChange`) when the sender next runs, then deleted.
 */
export const jobChanges = sqliteTable(
  "job_changes",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    jobId: text("job_id")
      .notNull()
      .references(() => jobs.id, { onDelete: "cascade" }),
    change: text("change").$type<JobChange["change"]>().notNull(),
    status: text("status").$type<JobChange["status"]>().notNull(),
    createdAt: integer("created_at").notNull().$defaultFn(workerNow),
  },
  (t) => [index("job_changes_ws_idx").on(t.workspaceId, t.createdAt)],
);

/** A customer's link to one job (migrations/0030, docs/decisions/0055): the token's SHA-256 only. */
export const jobShares = sqliteTable(
  "job_shares",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    jobId: text("job_id")
      .notNull()
      .references(() => jobs.id, { onDelete: "cascade" }),
    tokenHash: text("token_hash").notNull(),
    createdBy: text("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: integer("created_at").notNull().$defaultFn(workerNow),
    expiresAt: integer("expires_at").notNull(),
    /** Ended by a member, or with its creator's membership (migrations/0038). */
    endedAt: integer("ended_at"),
  },
  (t) => [uniqueIndex("job_shares_hash_idx").on(t.tokenHash), index("job_shares_job_idx").on(t.workspaceId, t.jobId)],
);

// ---------------------------------------------------------------- Web Push (issue 41; migrations/0025, docs/decisions/0047)

/** A browser that turned push on: its endpoint and keys (RFC 8291), for one member of one workspace. */
export const pushSubscriptions = sqliteTable(
  "push_subscriptions",
  {
    endpoint: text("endpoint").primaryKey(),
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    p256dh: text("p256dh").notNull(),
    auth: text("auth").notNull(),
    /** The sign-in that made it (a session's coalesce(signin_id, token_hash)): it ends with it (migrations/0038). */
    signinId: text("signin_id").notNull(),
    createdAt: integer("created_at").notNull().$defaultFn(workerNow),
  },
  (t) => [
    index("push_subscriptions_member_idx").on(t.workspaceId, t.userId),
    index("push_subscriptions_user_idx").on(t.userId),
    index("push_subscriptions_signin_idx").on(t.signinId),
  ],
);

/** Which notice went to which subscription: each is sent at most once (migrations/0038; kept two days). */
export const pushSends = sqliteTable(
  "push_sends",
  {
    endpoint: text("endpoint").notNull(),
    noticeId: text("notice_id").notNull(),
    sentAt: integer("sent_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.endpoint, t.noticeId] }), index("push_sends_sent_idx").on(t.sentAt)],
);

// ---------------------------------------------------------------- mail to customers (issue 51; migrations/0038, docs/decisions/0072)

/**
 * An address outside the product that a workspace mailed (a job's customer): the SHA-256 of its
 * unsubscribe token for that workspace, and whether it unsubscribed (then nothing more goes).
 */
export const customerRecipients = sqliteTable(
  "customer_recipients",
  {
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    recipient: text("recipient").notNull(),
    tokenHash: text("token_hash").notNull(),
    createdAt: integer("created_at").notNull().$defaultFn(workerNow),
    unsubscribedAt: integer("unsubscribed_at"),
  },
  (t) => [
    primaryKey({ columns: [t.workspaceId, t.recipient] }),
    uniqueIndex("customer_recipients_token_idx").on(t.tokenHash),
  ],
);

// ---------------------------------------------------------------- texts to customers (issue 53; migrations/0050, docs/decisions/0093)

/**
 * A workspace's own Twilio account, through which its customers are texted: the account's SID,
 * the sender (an E.164 number or a Messaging Service SID) and the auth token sealed to the
 * workspace (worker/email/sms-account.ts). No row: the workspace sends no texts.
 */
export const workspaceSmsAccounts = sqliteTable("workspace_sms_accounts", {
  workspaceId: text("workspace_id")
    .primaryKey()
    .references(() => workspaces.id, { onDelete: "cascade" }),
  accountSid: text("account_sid").notNull(),
  sender: text("sender").notNull(),
  authTokenSealed: text("auth_token_sealed").notNull(),
  updatedAt: integer("updated_at").notNull().$defaultFn(workerNow),
});

// ---------------------------------------------------------------- work orders, parts and vendors (issue 55; migrations/0044, docs/decisions/0087)

/** Someone who does work for the fleet elsewhere (a tyre shop, a dealer): work orders are sent to them. */
export const vendors = sqliteTable(
  "vendors",
  {
    id: text("id").primaryKey(),
    ...synced,
    name: text("name").notNull(),
    email: text("email"),
    phone: text("phone"),
    address: text("address"),
    note: text("note"),
    createdAt: integer("created_at").notNull().$defaultFn(workerNow),
  },
  (t) => [index("vendors_ws_version_idx").on(t.workspaceId, t.version)],
);

/** A part kept in stock: a completed work order's part lines take their quantities from `quantityOnHand`. */
export const parts = sqliteTable(
  "parts",
  {
    id: text("id").primaryKey(),
    ...synced,
    name: text("name").notNull(),
    number: text("number"),
    unitCostCents: integer("unit_cost_cents").notNull(),
    quantityOnHand: real("quantity_on_hand").notNull(),
    reorderPoint: real("reorder_point"),
    location: text("location"),
    createdAt: integer("created_at").notNull().$defaultFn(workerNow),
  },
  (t) => [index("parts_ws_version_idx").on(t.workspaceId, t.version)],
);

/**
 * A work order on one vehicle, numbered per workspace like issues: the issues and schedules it
 * gathers, free-text tasks, a mechanic or a vendor. `completion` is what completing it did
 * (shared/maintenance/work-orders.ts), which reopening undoes.
 */
export const workOrders = sqliteTable(
  "work_orders",
  {
    id: text("id").primaryKey(),
    ...synced,
    number: integer("number").notNull(),
    vehicleId: text("vehicle_id").notNull(),
    status: text("status").notNull().default("open"),
    assigneeUserId: text("assignee_user_id"),
    vendorId: text("vendor_id"),
    dueDate: text("due_date"),
    description: text("description"),
    issueIds: text("issue_ids", { mode: "json" }).$type<string[]>().notNull().default([]),
    scheduleIds: text("schedule_ids", { mode: "json" }).$type<string[]>().notNull().default([]),
    tasks: text("tasks", { mode: "json" }).$type<string[]>().notNull().default([]),
    taxCents: integer("tax_cents").notNull().default(0),
    odometerMiles: real("odometer_miles"),
    engineHours: real("engine_hours"),
    completedAt: integer("completed_at"),
    completedByUserId: text("completed_by_user_id"),
    signedName: text("signed_name"),
    photoIds: text("photo_ids", { mode: "json" }).$type<string[]>().notNull().default([]),
    signaturePhotoId: text("signature_photo_id"),
    serviceEntryId: text("service_entry_id"),
    completion: text("completion", { mode: "json" }).$type<WorkOrderCompletion>(),
    createdByUserId: text("created_by_user_id"),
    createdAt: integer("created_at").notNull().$defaultFn(workerNow),
    updatedAt: integer("updated_at").notNull().$defaultFn(workerNow),
  },
  (t) => [
    uniqueIndex("work_orders_ws_number_idx").on(t.workspaceId, t.number),
    index("work_orders_ws_version_idx").on(t.workspaceId, t.version),
    index("work_orders_ws_status_idx").on(t.workspaceId, t.status),
    index("work_orders_vehicle_idx").on(t.vehicleId),
  ],
);

/** A line of a work order: labour (hours × rate, by whom) or a part (quantity × unit cost, from stock or bought for the job). */
export const workOrderLines = sqliteTable(
  "work_order_lines",
  {
    id: text("id").primaryKey(),
    ...synced,
    workOrderId: text("work_order_id").notNull(),
    kind: text("kind", { enum: ["labor", "part"] }).notNull(),
    description: text("description"),
    quantity: real("quantity").notNull(),
    unitCostCents: integer("unit_cost_cents").notNull(),
    partId: text("part_id"),
    userId: text("user_id"),
    createdAt: integer("created_at").notNull().$defaultFn(workerNow),
  },
  (t) => [
    index("work_order_lines_ws_version_idx").on(t.workspaceId, t.version),
    index("work_order_lines_order_idx").on(t.workOrderId),
  ],
);
