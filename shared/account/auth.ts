import { z } from "zod";
import { isTimeZone } from "../units/time-zone";

/** docs/product.md section 5: e-mail must be a valid address. */
export const emailField = z
  .string({ required_error: "Required" })
  .trim()
  .min(1, "Required")
  .max(254, "Invalid email address")
  .email("Invalid email address")
  .transform((e) => e.toLowerCase());

/** The login and sign-up forms (docs/product.md section 5: password optional in the form schema). */
export const credentialsFormSchema = z.object({
  email: emailField,
  password: z.string().max(1024).optional(),
});

export const verifyEmailSchema = z.object({ email: emailField });

export const signInSchema = z.object({
  email: emailField,
  password: z.string({ required_error: "Required" }).min(1, "Required").max(1024),
});

/** The server asks a little more of a new password than the login form does. */
/** ASVS V2.1.1: at least 12 characters (stated on every form that sets a password). */
export const MIN_PASSWORD_LENGTH = 12;
/** What the forms say about a new password (the server also refuses breached and guessable ones). */
export const PASSWORD_RULE = `At least ${MIN_PASSWORD_LENGTH} characters. Any characters work; a few unrelated words are easy to remember. Common or leaked passwords are refused.`;
export const newPasswordField = z
  .string({ required_error: "Required" })
  .min(1, "Required")
  .min(MIN_PASSWORD_LENGTH, `Use at least ${MIN_PASSWORD_LENGTH} characters`)
  .max(1024, "Too long");

export const signUpSchema = z.object({ email: emailField, password: newPasswordField });

export const forgotPasswordSchema = z.object({ email: emailField });

export const resetPasswordSchema = z.object({
  token: z.string().min(1, "Required").max(200),
  user: z.string().min(1, "Required").max(100),
  password: newPasswordField,
});

/** POST api/password/change: the current password, then the new one. */
export const changePasswordSchema = z.object({
  currentPassword: z.string({ required_error: "Required" }).min(1, "Required").max(1024),
  password: newPasswordField,
});

export const workspaceNameSchema = z.object({
  name: z.string({ required_error: "Required" }).trim().min(1, "Required").max(80, "Use at most 80 characters"),
});

/** POST api/workspaces: the name, and the creator's browser's time zone (reports' days; UTC when absent or unknown). */
export const createWorkspaceSchema = workspaceNameSchema.extend({
  timeZone: z
    .string()
    .max(64)
    .optional()
    .transform((v) => (v && isTimeZone(v) ? v : undefined)),
});

export const workspaceSessionSchema = z.object({ workspaceId: z.string().min(1).max(100) });

export const oauthTokenSchema = z.object({
  code: z.string().min(1).max(2048),
  state: z.string().min(1).max(200),
});

export const OAUTH_PROVIDERS = { google: "Google", jobber: "Jobber", facebook: "Facebook" } as const;
export type OAuthProvider = keyof typeof OAUTH_PROVIDERS;

/** POST /api/email/confirm: the token of the link e-mailed at sign-up (issue 39). */
export const confirmEmailSchema = z.object({
  token: z.string({ required_error: "Required" }).min(1, "Required").max(200, "Not a confirmation token"),
});
