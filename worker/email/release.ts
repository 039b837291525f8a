import type { Db } from "../../db/client";
import type { Config } from "../env";
import { mailHeldInvites } from "../team/invites";
import { sendMailDigests } from "./member-mail";

/**
 * Mail that was held (worker/email/member-mail.ts) and may go now: invites whose sender confirmed
 * their address are mailed with a fresh link, everything else summed up per recipient. Run by the
 * cron every minute and right after an address is confirmed.
 */
export async function releaseHeldMail(db: Db, config: Config): Promise<void> {
  await mailHeldInvites(db, config);
  await sendMailDigests(db, config);
}
