import { useEffect } from "react";
import { toast } from "sonner";
import { createdJobShareSchema } from "../../shared/jobs/job-shares";
import type { SyncedJob } from "../../shared/jobs/jobs";
import { useApiAction } from "../components/use-api-action";
import { http } from "../lib/http";

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
    const mailed = answer.email === "sent" ? `, and e-mailed to ${job.customerEmail}` : "";
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
