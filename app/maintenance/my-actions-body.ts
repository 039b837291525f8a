import type { IssueJson } from "../../shared/issues";
import type { ServiceSchedule } from "../../shared/service";

/** `GET /api/my-actions` as the browser reads it (worker/maintenance/my-actions.ts answers it). */
export interface MyActionsBody {
  issues: IssueJson[];
  service: ServiceSchedule[];
  inspections: { vehicleId: string; vehicleName: string; day: string }[];
  unreadAlerts: number;
}

export const actionCount = (a: MyActionsBody | null) => (a ? a.issues.length + a.service.length + a.inspections.length + a.unreadAlerts : 0);
