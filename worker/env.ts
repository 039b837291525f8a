import { z } from "zod";

/**
 * The Worker's configuration, checked once per isolate. wrangler.toml `[vars]` holds production
 * values, secrets come from `wrangler secret put`, and local runs add the development defaults of
 * config/development.vars.json. A production Worker that would keep e-mails in the development
 * outbox, or send them without a key, fails loudly instead. (Sessions are random tokens stored
 * hashed in D1, so there is no signing key to configure.)
 */
export const configSchema = z
  .object({
    ENVIRONMENT: z.enum(["development", "test", "production"]).default("production"),
    APP_URL: z.string().url().default("http://localhost:8787"),
    GOOGLE_CLIENT_ID: z.string().default(""),
    GOOGLE_CLIENT_SECRET: z.string().default(""),
    MAPBOX_TOKEN: z.string().default(""),
    EMAIL_PROVIDER: z.enum(["outbox", "resend"]).default("outbox"),
    EMAIL_API_KEY: z.string().default(""),
    EMAIL_FROM: z.string().default("Fleet Ops <no-reply@localhost>"),
    /**
     * The signing secret (`whsec_…`) of the Resend webhook pointed at /api/email/events: bounces and
     * complaints of mail to customers reach their jobs (worker/email/resend-events.ts). Unset: the
     * route refuses every event.
     */
    RESEND_WEBHOOK_SECRET: z.string().default(""),
    /** Multiplies every abuse limit; tests and benchmarks raise it. */
    RATE_LIMIT_SCALE: z.coerce.number().positive().default(1),
    /** A report dated more than this many seconds ahead of the server is acknowledged but dropped. */
    INGEST_MAX_AHEAD_S: z.coerce.number().int().min(1).default(300),
    /** A report dated more than this many seconds in the past is acknowledged but dropped; 0 = no bound. */
    INGEST_MAX_BEHIND_S: z.coerce.number().int().min(0).default(0),
    /** 32 random bytes (base64) sealing each workspace's webhook secret in D1 (docs/decisions/0024). */
    WEBHOOK_SECRET_KEY: z.string().default(""),
    /** How long the workspace's object keeps reports before writing them to D1 (docs/decisions/0016); 0 writes through. */
    INGEST_FLUSH_MS: z.coerce.number().int().min(0).max(60_000).default(1000),
    /**
     * Web Push's VAPID key pair (docs/decisions/0047): the P-256 public key as base64url of its 65
     * raw bytes (browsers subscribe with it), the private key as base64url of its 32-byte scalar, and
     * the contact push services may write to. Secrets in production; local runs use a fixed pair.
     */
    VAPID_PUBLIC_KEY: z.string().default(""),
    VAPID_PRIVATE_KEY: z.string().default(""),
    VAPID_SUBJECT: z.string().default(""),
    /**
     * Where Twilio's Messages API is, for texts to customers (docs/decisions/0085). Each workspace
     * brings its own account (PUT /api/workspace/sms, docs/decisions/0093): the server has none.
     * Tests and local runs may point it at a fake.
     */
    TWILIO_API_URL: z.string().url().default("https://api.twilio.com"),
  })
  .superRefine((cfg, ctx) => {
    if (cfg.ENVIRONMENT !== "production") return;
    if (
      new URL(cfg.APP_URL).protocol !== "https:" ||
      ["localhost", "127.0.0.1"].includes(new URL(cfg.APP_URL).hostname)
    ) {
      // Reset links, OAuth redirects and notices are built from it: never a development default.
      ctx.addIssue({
        code: "custom",
        path: ["APP_URL"],
        message: "production needs the app's public https:// address",
      });
    }
    if (cfg.EMAIL_PROVIDER === "outbox") {
      // The outbox keeps e-mails (reset links included) in D1 and the log for local runs only.
      ctx.addIssue({
        code: "custom",
        path: ["EMAIL_PROVIDER"],
        message: "the outbox is for development; use resend in production",
      });
    }
    if (!cfg.WEBHOOK_SECRET_KEY) {
      ctx.addIssue({
        code: "custom",
        path: ["WEBHOOK_SECRET_KEY"],
        message: "required in production (seals the webhook secrets)",
      });
    }
    if (!cfg.VAPID_PUBLIC_KEY || !cfg.VAPID_PRIVATE_KEY || !cfg.VAPID_SUBJECT.startsWith("mailto:")) {
      ctx.addIssue({
        code: "custom",
        path: ["VAPID_PUBLIC_KEY"],
        message: "push needs VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY and a mailto: VAPID_SUBJECT in production",
      });
    }
    if (cfg.EMAIL_PROVIDER === "resend" && !cfg.EMAIL_API_KEY) {
      ctx.addIssue({ code: "custom", path: ["EMAIL_API_KEY"], message: "required by the resend provider" });
    }
  })
  // Local runs without the variable still sign webhooks (a fixed key: nothing it seals is real).
  .transform((cfg) => (cfg.WEBHOOK_SECRET_KEY ? cfg : { ...cfg, WEBHOOK_SECRET_KEY: DEVELOPMENT_WEBHOOK_KEY }))
  // Likewise push: a fixed development pair, never accepted in production (above).
  .transform((cfg) => (cfg.VAPID_PRIVATE_KEY ? cfg : { ...cfg, ...DEVELOPMENT_VAPID }));

/** base64 of "development-only-webhook-key-32b" (32 bytes); production refuses to start without its own. */
const DEVELOPMENT_WEBHOOK_KEY = "ZGV2ZWxvcG1lbnQtb25seS13ZWJob29rLWtleS0zMmI=";

/** Generated for local runs and tests only; production refuses to start without its own pair. */
const DEVELOPMENT_VAPID = {
  VAPID_PUBLIC_KEY: "BEl3PRlzZl0RKsQvSGWaQepPTpSyqHDNf3N66-ysGHs-PVqEZ0Yt8lSM_ZjEWVLUwZgtRo8vEv6B-P1ADnBsBz8",
  VAPID_PRIVATE_KEY: "wkmWuX5M5-mzjPHglzFuSEDVOvQ5XO-fNqE93VKVVck",
  VAPID_SUBJECT: "mailto:push@localhost.invalid",
};

export type Config = z.infer<typeof configSchema>;

export type Env = Cloudflare.Env;

const cache = new WeakMap<object, Config>();

/** Parses the environment once per isolate; throws a readable error naming each bad variable. */
export function config(env: Env): Config {
  let cfg = cache.get(env);
  if (!cfg) {
    const parsed = configSchema.safeParse(env);
    if (!parsed.success) {
      const problems = parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ");
      throw new Error(`Invalid Worker configuration: ${problems}`);
    }
    cfg = parsed.data;
    cache.set(env, cfg);
  }
  return cfg;
}
