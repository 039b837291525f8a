import { useEffect, useRef, type KeyboardEvent } from "react";
import type { SyncedJob } from "../../shared/jobs/jobs";
import type { Vehicle } from "../../shared/fleet/vehicle";
import { useWorkspaceClock } from "../reports/use-workspace-time-zone";
import { useJob } from "../store/jobs";
import { useNow } from "../vehicles/use-now";
import { JobMessages } from "./job-messages";
import { JobProof } from "./job-proof";
import { jobStory } from "./job-story";
import { useJobStoryExtras } from "./job-story-extras";
import { JobTimes } from "./job-times";

/** The ETA's "in 8 min" and a visit's time on site move with the clock; a minute's precision is enough. */
const CLOCK_TICK_MS = 15_000;

/**
 * A stop's whole story on the dispatch page (issue 53), opened from its row, its marker on the map
 * or its block on the timeline: status and times, proof, and what the customer was told. A panel
 * beside the map on a desktop (the map stays usable: not modal), the whole screen on a phone.
 * Read from the synced job, so it opens offline; the server's part (every visit, minutes late,
 * messages) joins when online (job-story-extras.ts).
 */
export function JobDetail({
  jobId,
  vehicles,
  onClose,
}: {
  jobId: string;
  vehicles: readonly Vehicle[];
  onClose: () => void;
}) {
  const job = useJob(jobId);
  const heading = usePanelFocus(jobId);
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === "Escape") onClose();
  };
  const title = job ? `${job.number ? `#${job.number} ` : ""}${job.title}` : "Job";
  return (
    <dialog open className="card job-detail" aria-labelledby="job-detail-title" onKeyDown={onKeyDown}>
      <header className="job-detail-head">
        <h2 id="job-detail-title" ref={heading} tabIndex={-1}>
          {title}
        </h2>
        <button type="button" className="button" aria-label="Close the job's details" onClick={onClose}>
          Close
        </button>
      </header>
      {job ? (
        <JobStoryBody job={job} vehicles={vehicles} />
      ) : (
        <p className="muted">This job is no longer on the plan: it was deleted, or its day is past.</p>
      )}
    </dialog>
  );
}

function JobStoryBody({ job, vehicles }: { job: SyncedJob; vehicles: readonly Vehicle[] }) {
  const clock = useWorkspaceClock();
  const now = useNow(CLOCK_TICK_MS);
  const revision = [job.status, job.arrivedAt, job.departedAt, job.completedAt, job.late].join("|");
  const extras = useJobStoryExtras(job.id, revision);
  const story = jobStory(job, extras, now);
  const vehicle = vehicles.find((v) => v.id === job.vehicleId);
  const where = [vehicle ? vehicle.name : "No vehicle yet", job.address, job.customerName && `for ${job.customerName}`];
  return (
    <>
      <p className="muted">{where.filter(Boolean).join(" · ")}</p>
      <JobTimes job={job} story={story} clock={clock} />
      {job.notes ? <p className="job-notes">{job.notes}</p> : null}
      <JobProof job={job} />
      <JobMessages messages={extras?.messages} clock={clock} />
    </>
  );
}

/**
 * The panel's heading takes the focus as a stop opens (a screen reader reads which), and the focus
 * goes back to what had it when the panel closes, if that is still on the page.
 */
function usePanelFocus(jobId: string) {
  const heading = useRef<HTMLHeadingElement>(null);
  // Before the heading takes the focus (effects run in order): what had it, to give it back.
  useEffect(() => {
    const before = document.activeElement;
    return () => {
      if (before instanceof HTMLElement && before.isConnected) before.focus({ preventScroll: true });
    };
  }, []);
  useEffect(() => {
    heading.current?.focus({ preventScroll: true });
  }, [jobId]);
  return heading;
}
