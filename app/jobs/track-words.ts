import { startOfDay } from "../../shared/units/time-zone";
import { timeText, windowText, zoneShortName, type WorkspaceClock } from "../../shared/units/clock";

/**
 * What the customer's page (/track/{token}) says, in a customer's words (issue 53): never a status
 * word of ours ("en_route", "Skipped"), every time on the sender's clock and the zone named once
 * beside them. Pure, so each state's sentence is tested in Node.
 */
export interface TrackFacts {
  status: string;
  eta?: number | null;
  late?: boolean;
  arrivedAt?: number | null;
  completedAt?: number | null;
  window?: { start?: string | null; end?: string | null; text?: string } | null;
  date?: string | null;
}

export interface CustomerStory {
  /** The page's heading: what is happening, in a few words. */
  headline: string;
  /** The line that matters most under it (when they arrive, when it was done), or null. */
  lead: string | null;
  /** One sentence more, or null. */
  detail: string | null;
  /** Whether the visit is over (done, missed or called off): no map, no ETA. */
  over: boolean;
}

/** "Arriving in about 8 minutes", "Arriving in about 1 h 20 min", "Arriving any minute now". */
export function arrivingIn(eta: number, now: number): string {
  const minutes = Math.round((eta - now) / 60_000);
  if (minutes < 2) return "Arriving any minute now";
  if (minutes < 60) return `Arriving in about ${minutes} minutes`;
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  return `Arriving in about ${hours} h${rest ? ` ${rest} min` : ""}`;
}

/** The story for each status; `sender` names who to ask when the visit did not happen. */
export function customerStory(job: TrackFacts, now: number, clock: WorkspaceClock, sender: string): CustomerStory {
  const at = (t: number) => timeText(t, clock);
  const who = sender || "The sender";
  const story = (headline: string, lead: string | null, detail: string | null, over = false) => ({
    headline,
    lead,
    detail,
    over,
  });
  switch (job.status) {
    case "en_route":
      return story(
        "On the way",
        job.eta ? arrivingIn(job.eta, now) : null,
        job.eta ? `Expected at ${at(job.eta)}${job.late ? ", later than planned: sorry." : "."}` : null,
      );
    case "arrived":
      return story(
        job.arrivedAt ? `Arrived at ${at(job.arrivedAt)}` : "Arrived",
        null,
        "The vehicle is at your address.",
      );
    case "completed":
      return story(
        job.completedAt ? `Delivered at ${at(job.completedAt)}` : "Delivered",
        null,
        "Your visit is done.",
        true,
      );
    case "skipped":
      return story(
        "Not today",
        "We could not make it today: the vehicle had to go on to its other stops.",
        `${who} will be in touch about another time.`,
        true,
      );
    case "cancelled":
      return story("This visit was cancelled", null, `${who} cancelled it: ask them if you need another time.`, true);
    default:
      return story(
        "Planned",
        job.eta ? `Expected at ${at(job.eta)}` : null,
        "The vehicle shows here once it is on its way to you.",
      );
  }
}

/** The window on the sender's clock: "2:00 PM–4:00 PM", "from 09:00", or "". */
export const customerWindow = (job: TrackFacts, clock: WorkspaceClock) =>
  job.window?.text ?? windowText(job.window?.start, job.window?.end, clock);

/**
 * The zone every time on the page is in, named once: "Chicago time (CST)", "UTC". At the job's
 * noon when its day is known (the name the window's times carry), else now.
 */
export function zoneLabel(
  clock: Pick<WorkspaceClock, "timeZone">,
  day: string | null | undefined,
  now: number,
): string {
  const at = day ? startOfDay(day, clock.timeZone) + 12 * 3_600_000 : now;
  const short = zoneShortName(at, clock.timeZone);
  if (/^(Etc\/)?(UTC|GMT|Universal|Zulu)$/.test(clock.timeZone)) return "UTC";
  const city = clock.timeZone.split("/").at(-1)!.replaceAll("_", " ");
  return `${city} time (${short})`;
}
