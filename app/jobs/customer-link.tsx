import { useEffect } from "react";
import { toast } from "sonner";
import { createdJobShareSchema, type CustomerMailOutcome } from "../../shared/jobs/job-shares";
import type { SyncedJob } from "../../shared/jobs/jobs";
import { useApiAction } from "../components/use-api-action";
import { http } from "../lib/http";

/** What became of the e-mail (worker/email/customer-mail.ts), after "Customer link copied". */
const mailWords: Record<CustomerMailOutcome, (to: string) => string> = {
  sent: (to) => `, and e-mailed to ${to}`,
  unsubscribed: (to) => `; not e-mailed: ${to} unsubscribed from this workspace's e-mails`,
  over_limit: () => "; not e-mailed: today's e-mail limit is reached",
  sender_unconfirmed: () => "; not e-mailed: confirm your own e-mail address first",
  not_sent: () => "; not e-mailed",
};

/**
 * "Customer link": makes the job's customer link (POST /api/jobs/{id}/shares, docs/decisions/0055)
 * and copies it, so a dispatcher can paste it into a message; with the job's customer e-mail, the
 * link is e-mailed too. Needs the server: offline it says so and nothing is made.
 */
export function CustomerLinkButton({ job }: { job: SyncedJob }) {
  const make = useApiAction(async () => {
    const answer = createdJobShareSchema.parse(
      await http
        .post(`jobs/${encodeURIComponent(job.id)}/shares`, { json: { email: Boolean(job.customerEmail) } })
        .json(),
    );
    await navigator.clipboard?.writeText(answer.url).catch(() => undefined);
    const mailed = answer.email === null ? "" : mailWords[answer.email](job.customerEmail ?? "");
    toast("Customer link copied" + mailed, { description: answer.url });
  }, "Could not make the link: the server is not reachable");
  useEffect(() => {
    if (make.refusal) toast.error(make.refusal.message);
  }, [make.refusal]);
  return (
    <button
      type="button"
      className="button"
      aria-label={`Customer link for ${job.title}`}
      disabled={make.pending}
      aria-busy={make.pending || undefined}
      onClick={() => void make.run()}
    >
      Customer link
    </button>
  );
}
