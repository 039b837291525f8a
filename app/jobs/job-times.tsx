import type { SyncedJob } from "../../shared/jobs/jobs";
import { timeText, windowText, type WorkspaceClock } from "../../shared/units/clock";
import { duration } from "../vehicles/format";
import { Fact } from "./job-fact";
import type { JobStory } from "./job-story";
import type { JobVisit } from "./job-story-extras";
import { isFinished, stopStatusWords } from "./status";

type TimedJob = Pick<
  SyncedJob,
  "status" | "late" | "date" | "windowStart" | "windowEnd" | "enRouteAt" | "arrivedAt" | "departedAt" | "completedAt"
>;

/** "Late", "Late by 12 min" when the server said by how much, or "" for a stop on time. */
export function lateWords(job: Pick<SyncedJob, "late">, story: Pick<JobStory, "lateMinutes">): string {
  if (!job.late && !story.lateMinutes) return "";
  return story.lateMinutes ? `Late by ${duration(story.lateMinutes * 60_000)}` : "Late";
}

/** "3:19 PM, in 8 min" (live: the synced ETA moves as the vehicle does, the minutes with the clock). */
function etaWords(story: JobStory, clock: WorkspaceClock): string {
  if (story.eta === null) return "Not known yet";
  const inMinutes = story.etaInMinutes ? `, in ${duration(story.etaInMinutes * 60_000)}` : ", due now";
  return `${timeText(story.eta, clock)}${inMinutes}`;
}

/**
 * A stop's story in times, on the workspace's clock (docs/decisions/0079): its status in a
 * dispatcher's words and how late, the window, the ETA while it is ahead, when the vehicle set
 * off, arrived, left and when the stop was done, and the time spent there (every visit's, listed
 * when the vehicle came more than once).
 */
export function JobTimes({ job, story, clock }: { job: TimedJob; story: JobStory; clock: WorkspaceClock }) {
  const at = (time: number | null) => (time === null ? "" : timeText(time, clock));
  const window = windowText(job.windowStart, job.windowEnd, clock, job.date);
  const late = lateWords(job, story);
  const onSite = story.onSiteMs === null ? "" : `${duration(story.onSiteMs)}${story.onSiteNow ? " so far" : ""}`;
  return (
    <>
      <dl className="job-facts">
        <Fact term="Status" value={[stopStatusWords(job), late].filter(Boolean).join(" · ")} testId="job-status" />
        {window ? <Fact term="Window" value={window} /> : null}
        {!isFinished(job.status) && job.status !== "arrived" ? (
          <Fact term="ETA" value={etaWords(story, clock)} testId="job-eta" />
        ) : null}
        {job.enRouteAt !== null ? <Fact term="On the way since" value={at(job.enRouteAt)} /> : null}
        {job.arrivedAt !== null ? <Fact term="Arrived" value={at(job.arrivedAt)} testId="job-arrived" /> : null}
        {job.departedAt !== null ? <Fact term="Left" value={at(job.departedAt)} testId="job-departed" /> : null}
        {job.completedAt !== null ? <Fact term="Done" value={at(job.completedAt)} testId="job-done" /> : null}
        {onSite ? <Fact term="Time on site" value={onSite} testId="job-on-site" /> : null}
      </dl>
      {story.visits.length > 1 ? <Visits visits={story.visits} at={at} /> : null}
    </>
  );
}

function Visits({ visits, at }: { visits: readonly JobVisit[]; at: (time: number | null) => string }) {
  return (
    <section className="job-visits" aria-label="Visits">
      <h3>Visits</h3>
      <ol>
        {visits.map((visit) => (
          <li key={visit.arrivedAt}>
            {`Arrived ${at(visit.arrivedAt)}`}
            {visit.departedAt === null ? "" : `, left ${at(visit.departedAt)}`}
          </li>
        ))}
      </ol>
    </section>
  );
}
