import type { CustomerMessageKind } from "../../shared/jobs/customer-messages";
import { dateText, timeText, windowText, type WorkspaceClock } from "../../shared/units/clock";

/**
 * The words of a message to a job's customer (issue 53, docs/decisions/0085), in the words a
 * customer uses ("on its way", "arriving in about 8 minutes", "done at 2:32 PM"), never an
 * internal status. Times are on the workspace's clock with the zone named (the reader may be
 * anywhere). The job's title is the workspace's words: quoted. The subject is fixed text per kind
 * (the customer mail rules: nothing a member wrote in a subject).
 */
export interface CustomerMessageFacts {
  kind: CustomerMessageKind;
  title: string;
  status: string;
  /** The job's day (YYYY-MM-DD) and window ("HH:MM"), on the workspace's clock. */
  date: string;
  windowStart: string | null;
  windowEnd: string | null;
  eta: number | null;
  completedAt: number | null;
  /** The job's customer link, or null when it was ended or cannot be made. */
  link: string | null;
  /** The link shows the proof photo (the workspace allows it and one was taken). */
  proofPhoto: boolean;
  clock: WorkspaceClock;
  now: number;
}

export interface CustomerMessageText {
  subject: string;
  /** The e-mail's lines (the sender's name and the unsubscribe link are added around them). */
  lines: string[];
  /** The text message (the sender's name and the unsubscribe link are added around it). */
  sms: string;
}

const SUBJECTS: Record<CustomerMessageKind, string> = {
  en_route: "Your visit is on its way",
  arriving: "Your visit is arriving soon",
  completed: "Your visit is done",
  failed: "Your visit will not happen as planned",
};

/** "in about 8 minutes" (at least a minute: a vehicle due now is still a minute away to a reader). */
function inAbout(eta: number, now: number): string {
  const minutes = Math.max(1, Math.round((eta - now) / 60_000));
  return `in about ${minutes} minute${minutes === 1 ? "" : "s"}`;
}

/** The message's one sentence, as both channels say it. */
function sentence(f: CustomerMessageFacts): string {
  const quoted = `"${f.title}"`;
  switch (f.kind) {
    case "en_route":
      return f.eta !== null
        ? `${quoted} is on its way, expected at about ${timeText(f.eta, f.clock)}.`
        : `${quoted} is on its way.`;
    case "arriving":
      return f.eta !== null
        ? `${quoted} is arriving ${inAbout(f.eta, f.now)} (about ${timeText(f.eta, f.clock)}).`
        : `${quoted} is arriving soon.`;
    case "completed":
      return f.completedAt !== null
        ? `${quoted} was done at ${timeText(f.completedAt, f.clock)}.`
        : `${quoted} is done.`;
    case "failed": {
      if (f.status === "cancelled")
        return `We could not make ${quoted} on ${dateText(f.date, f.clock)}: it was called off.`;
      const window = windowText(f.windowStart, f.windowEnd, f.clock, f.date);
      return `We could not make ${quoted} as planned: it is now planned for ${dateText(f.date, f.clock)}${window ? `, ${window}` : ""}.`;
    }
  }
}

/** Where the link leads, as the message says it (none for a visit called off: the link has ended). */
function linkLine(f: CustomerMessageFacts): string | null {
  if (!f.link || (f.kind === "failed" && f.status === "cancelled")) return null;
  if (f.kind === "completed")
    // The link ends 30 minutes after the visit (JOB_SHARE_AFTER_COMPLETION_MS): said, so nobody is surprised.
    return f.proofPhoto ? `The photo taken at your visit, for the next 30 minutes: ${f.link}` : null;
  if (f.kind === "failed") return `Follow it on the day: ${f.link}`;
  return `Follow the vehicle: ${f.link}`;
}

export function customerMessageText(f: CustomerMessageFacts): CustomerMessageText {
  const said = sentence(f);
  const link = linkLine(f);
  return {
    subject: SUBJECTS[f.kind],
    lines: link ? [said, "", link] : [said],
    sms: link ? `${said} ${link}` : said,
  };
}
