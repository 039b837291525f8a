import { appliesTo, type Alert, type AlertRule } from "../../shared/alerts/alert-rules";
import { alertId } from "../alerts/evaluate";
import type { PlannedJob } from "./planned-job";
import type { JobTransition } from "./progress";

/** The alert rule each kind of job transition raises (shared/alerts/alert-rules.ts). */
const RULE_OF: Partial<Record<JobTransition["kind"], AlertRule["type"]>> = {
  late: "job_late",
  arrived: "job_arrived",
  completed: "job_completed",
};

/**
 * The alerts a vehicle's job transitions raise (issue 43, docs/decisions/0055): one per rule and
 * transition, at the job's stop, dated when it happened. Its id derives from the rule, vehicle,
 * time and job, so a fix folded again raises the same alert (an upsert; delivered once: the
 * outbox's trigger fires on insert, docs/decisions/0024).
 */
export function jobAlerts(
  rules: readonly AlertRule[],
  vehicleId: string,
  transitions: readonly JobTransition[],
  plan: readonly PlannedJob[],
): Alert[] {
  const alerts: Alert[] = [];
  for (const t of transitions) {
    const type = RULE_OF[t.kind];
    const job = type && plan.find((j) => j.id === t.jobId);
    if (!job) continue;
    for (const rule of rules) {
      if (rule.type !== type || !appliesTo(rule, vehicleId)) continue;
      alerts.push({
        id: alertId(rule.id, vehicleId, t.at, job.id),
        type,
        ruleId: rule.id,
        vehicleId,
        placeId: null,
        at: t.at,
        endAt: null,
        latitude: job.latitude,
        longitude: job.longitude,
        peak: null,
        // named wherever a person reads it (Inbox, e-mail, webhook, push), as it was then
        jobId: job.id,
        jobNumber: job.number,
        jobTitle: job.title,
      });
    }
  }
  return alerts;
}
