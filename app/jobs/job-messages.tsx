import { timeText, type WorkspaceClock } from "../../shared/units/clock";
import type { JobMessage } from "./job-story-extras";

const CHANNEL_WORDS: Record<JobMessage["channel"], string> = { email: "E-mail", sms: "Text message" };
const KIND_WORDS: Record<JobMessage["kind"], string> = {
  en_route: "On the way",
  arriving: "Arriving soon",
  completed: "Done",
  failed: "Could not make it",
};
const STATUS_WORDS: Record<JobMessage["status"], string> = {
  sent: "sent",
  held: "held, not sent",
  bounced: "bounced",
  unsubscribed: "not sent: the customer unsubscribed",
};

/**
 * What the customer was told about this stop, and whether it reached them (DESIGN.md: `messages`,
 * with no address in them). Only when the server sent the list; nothing is shown otherwise.
 */
export function JobMessages({
  messages,
  clock,
}: {
  messages: readonly JobMessage[] | undefined;
  clock: WorkspaceClock;
}) {
  if (!messages) return null;
  return (
    <section className="job-messages" aria-label="Customer messages">
      <h3>Customer messages</h3>
      {messages.length === 0 ? <p className="muted">None sent.</p> : null}
      <ul>
        {messages.map((m) => (
          <li key={`${m.channel}-${m.kind}-${m.at}`} data-status={m.status}>
            {`${timeText(m.at, clock)} · ${CHANNEL_WORDS[m.channel]} “${KIND_WORDS[m.kind]}”: ${STATUS_WORDS[m.status]}`}
          </li>
        ))}
      </ul>
    </section>
  );
}
