import { useEffect, useState } from "react";
import { z } from "zod";
import { http } from "../lib/http";
import { useOnline } from "../lib/use-online";

/**
 * What only the server knows of a stop's story, from `GET /api/jobs/{id}` (DESIGN.md "Jobs and
 * routes", "A job's story"): every visit of the vehicle, by how much the stop is late, and the
 * messages its customer was sent. Each field is read on its own and left out when absent or not
 * of the contract's shape, so the story degrades to the synced job's own facts: offline, before a
 * server that sends the field, or when the answer fails.
 */
export interface JobVisit {
  arrivedAt: number;
  departedAt: number | null;
}

export const MESSAGE_CHANNELS = ["email", "sms"] as const;
export const MESSAGE_KINDS = ["en_route", "arriving", "completed", "failed"] as const;
export const MESSAGE_STATUSES = ["sent", "held", "bounced", "unsubscribed"] as const;

export interface JobMessage {
  channel: (typeof MESSAGE_CHANNELS)[number];
  kind: (typeof MESSAGE_KINDS)[number];
  at: number;
  status: (typeof MESSAGE_STATUSES)[number];
}

export interface JobStoryExtras {
  visits?: JobVisit[];
  lateMinutes?: number;
  messages?: JobMessage[];
}

/** An instant as the API writes it (ISO 8601), or in milliseconds. */
const instant = z.union([z.string(), z.number()]).transform((value, ctx) => {
  const ms = typeof value === "number" ? value : Date.parse(value);
  if (Number.isFinite(ms)) return ms;
  ctx.addIssue({ code: z.ZodIssueCode.custom, message: "Not an instant" });
  return z.NEVER;
});

const visitSchema = z.object({ arrivedAt: instant, departedAt: instant.nullish().transform((v) => v ?? null) });
const messageSchema = z.object({
  channel: z.enum(MESSAGE_CHANNELS),
  kind: z.enum(MESSAGE_KINDS),
  at: instant,
  status: z.enum(MESSAGE_STATUSES),
});

/** Each field apart: one of an unexpected shape is dropped, the others kept. */
const extrasSchema = z.object({
  visits: z.array(visitSchema).optional().catch(undefined),
  lateMinutes: z.number().nonnegative().nullish().catch(undefined),
  messages: z.array(messageSchema).optional().catch(undefined),
});

export function parseJobStoryExtras(body: unknown): JobStoryExtras {
  const parsed = extrasSchema.safeParse(body);
  if (!parsed.success) return {};
  const { visits, lateMinutes, messages } = parsed.data;
  return {
    ...(visits && { visits }),
    ...(typeof lateMinutes === "number" && { lateMinutes: Math.round(lateMinutes) }),
    ...(messages && { messages }),
  };
}

/**
 * The server's part of job `id`'s story while the browser is online, asked again when `revision`
 * changes (the synced job moved: a status, an arrival, a departure) and when the network returns.
 * Null until answered, offline, or when the answer failed: the page then tells the story from the
 * synced job alone, quietly.
 */
export function useJobStoryExtras(id: string, revision: string): JobStoryExtras | null {
  const online = useOnline();
  const [extras, setExtras] = useState<{ id: string; value: JobStoryExtras } | null>(null);
  useEffect(() => {
    if (!online) return;
    let live = true;
    http
      .get(`jobs/${encodeURIComponent(id)}`, { retry: 0 })
      .json()
      .then((body) => live && setExtras({ id, value: parseJobStoryExtras(body) }))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [id, revision, online]);
  return extras?.id === id ? extras.value : null;
}
