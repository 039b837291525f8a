import { z } from "zod";

/**
 * A workspace's own Twilio account for texting its customers (issue 53, docs/decisions/0093), as
 * `PUT /api/workspace/sms` takes it and `GET` answers it. Both the Worker and the Preferences page
 * read these, so a field's message is the same on either side.
 */
const ACCOUNT_SID = /^AC[0-9a-f]{32}$/i;
const AUTH_TOKEN = /^[0-9a-f]{32}$/i;
const E164 = /^\+[1-9]\d{6,14}$/;
const MESSAGING_SERVICE_SID = /^MG[0-9a-f]{32}$/i;

/** Whether a sender is a Messaging Service (Twilio picks the number) rather than one number. */
export const isMessagingService = (sender: string) => MESSAGING_SERVICE_SID.test(sender);

export const smsAccountPutSchema = z.object({
  accountSid: z
    .string({ required_error: "Enter the Account SID" })
    .trim()
    .regex(ACCOUNT_SID, "An Account SID is AC followed by 32 hexadecimal characters"),
  authToken: z
    .string({ required_error: "Enter the auth token" })
    .trim()
    .regex(AUTH_TOKEN, "An auth token is 32 hexadecimal characters"),
  from: z
    .string({ required_error: "Enter the number or Messaging Service SID texts go from" })
    .transform((v) => v.replace(/[\s().-]/g, ""))
    .refine(
      (v) => E164.test(v) || isMessagingService(v),
      "Use a number in international form (+13125550100) or a Messaging Service SID (MG and 32 hexadecimal characters)",
    ),
});
export type SmsAccountPut = z.input<typeof smsAccountPutSchema>;

/** What the workspace's account shows back: never the token, only that one is kept. */
export const smsAccountSchema = z.object({
  configured: z.boolean().describe("The workspace has a Twilio account: its customers with a phone are texted"),
  accountSid: z.string().nullable(),
  from: z.string().nullable().describe("An E.164 number, or a Messaging Service SID (MG…)"),
  updatedAt: z.string().nullable().describe("ISO 8601: when it was last saved"),
});
export type SmsAccount = z.infer<typeof smsAccountSchema>;

export const NO_SMS_ACCOUNT: SmsAccount = { configured: false, accountSid: null, from: null, updatedAt: null };

/**
 * `POST /api/workspace/sms/test`: a text through the kept account to a phone of the owner's
 * choosing, so a wrong token or sender shows at once rather than as customers' texts `held` later.
 */
export const smsTestSchema = z.object({
  to: z
    .string({ required_error: "Enter the number to text" })
    .transform((v) => v.replace(/[\s().-]/g, ""))
    .refine((v) => E164.test(v), "Use the international form, + and the country code: +13125550100"),
});
export type SmsTest = z.input<typeof smsTestSchema>;
export const smsTestAnswerSchema = z.object({
  sent: z.literal(true),
  to: z.string().describe("The number texted, in E.164"),
  providerId: z.string().describe("Twilio's message SID"),
});
export type SmsTestAnswer = z.infer<typeof smsTestAnswerSchema>;
