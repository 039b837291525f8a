import { useState } from "react";
import type { SyncedJob } from "../../shared/jobs/jobs";
import { useJobMutations } from "../store/jobs";
import { timeText, windowText, type WorkspaceClock } from "../../shared/units/clock";
import { useWorkspaceClock } from "../reports/use-workspace-time-zone";
import { directionsUrl, platformOf } from "./directions";
import { JobProof } from "./job-proof";
import { ProofForm } from "./proof-form";
import { isOverForGood, jobStatusWords } from "./status";

/**
 * One stop of the driver's day: where and when, the customer and the notes, directions in the
 * phone's maps app, "Arrived" (the geofence usually says so first) and "Done" with its proof.
 */
export function DriverStop({ job, number }: { job: SyncedJob; number: number }) {
  const { markJobArrived } = useJobMutations();
  const [proving, setProving] = useState(false);
  // The window, the ETA and "Done at" on one clock: the workspace's (docs/decisions/0079).
  const clock = useWorkspaceClock();
  const window = windowText(job.windowStart, job.windowEnd, clock, job.date);
  const open = !isOverForGood(job.status); // a skipped stop too: it may be reached and done after all
  const platform = typeof navigator === "undefined" ? "other" : platformOf(navigator.userAgent);
  return (
    <li
      className={`card driver-stop${job.late ? " late" : ""}`}
      data-status={job.status}
      aria-label={`Stop ${number}: ${job.title}`}
    >
      <header className="driver-stop-head">
        <span className={`stop-number ${job.status}${job.late ? " late" : ""}`} aria-hidden>
          {number}
        </span>
        <h2>{job.title}</h2>
        <span className="stop-status" data-testid="stop-status">
          {jobStatusWords(job.status)}
          {job.late && open ? " · Late" : ""}
        </span>
      </header>
      <p className="muted" data-testid="stop-when">
        {[job.address, window && `Window ${window}`, job.eta && open ? `ETA ${timeText(job.eta, clock)}` : ""]
          .filter(Boolean)
          .join(" · ")}
      </p>
      {job.customerName ? <p>For {job.customerName}</p> : null}
      {job.notes ? <p className="driver-notes">{job.notes}</p> : null}
      {open && !proving ? (
        <div className="driver-actions">
          <a
            className="button"
            href={directionsUrl({ ...job, label: job.title }, platform)}
            target="_blank"
            rel="noreferrer"
          >
            Directions
          </a>
          {job.status !== "arrived" ? (
            <button
              type="button"
              className="button"
              onClick={() => void markJobArrived({ id: job.id, at: Date.now() })}
            >
              Arrived
            </button>
          ) : null}
          <button type="button" className="button primary" onClick={() => setProving(true)}>
            Done
          </button>
        </div>
      ) : null}
      {open && proving ? <ProofForm job={job} onDone={() => setProving(false)} /> : null}
      {job.status === "completed" ? <Done job={job} clock={clock} /> : null}
    </li>
  );
}

/** A done stop: when, and who received it, then its proof as the dispatcher sees it (job-proof.tsx, the one home). */
function Done({ job, clock }: { job: SyncedJob; clock: WorkspaceClock }) {
  return (
    <div className="driver-proof">
      <p className="muted">
        Done{job.completedAt ? ` at ${timeText(job.completedAt, clock)}` : ""}
        {job.recipientName ? ` · received by ${job.recipientName}` : ""}
      </p>
      <JobProof job={job} recipientSaid />
    </div>
  );
}
