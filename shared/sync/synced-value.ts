import { ALERT_PREFIX } from "../alerts/alert-rules";
import { decodeAlert, type AlertWire } from "../alerts/alerts";
import {
  decodeIssue,
  decodeIssueComment,
  ISSUE_COMMENT_PREFIX,
  ISSUE_PREFIX,
  type IssueCommentWire,
  type IssueWire,
} from "../maintenance/issues";
import {
  decodeInspection,
  decodeInspectionForm,
  decodeSchedule,
  decodeServiceEntry,
  INSPECTION_FORM_PREFIX,
  INSPECTION_PREFIX,
  SERVICE_ENTRY_PREFIX,
  SERVICE_SCHEDULE_PREFIX,
  type InspectionFormWire,
  type InspectionWire,
  type ScheduleWire,
  type ServiceEntryWire,
} from "./maintenance-sync";
import { decodePlace, PLACE_PREFIX, type PlaceWire } from "../places/places";
import { decodeFuelEntry, FUEL_ENTRY_PREFIX, fuelEntryIdOfKeyPart, type FuelEntryWire } from "../costs/fuel";
import { decodeExpense, EXPENSE_PREFIX, type ExpenseWire } from "../costs/expenses";
import { decodeRenewal, RENEWAL_PREFIX, type RenewalWire } from "../costs/renewals";
import {
  decodePart,
  decodeVendor,
  decodeWorkOrder,
  decodeWorkOrderLine,
  PART_PREFIX,
  VENDOR_PREFIX,
  WORK_ORDER_LINE_PREFIX,
  WORK_ORDER_PREFIX,
  type PartWire,
  type VendorWire,
  type WorkOrderLineWire,
  type WorkOrderWire,
} from "../maintenance/work-orders";
import { decodeJob, JOB_PREFIX, jobIdOfKey, type JobWire } from "../jobs/jobs";
import { decodeDriver, DRIVER_PREFIX, type DriverWire } from "../fleet/driver";
import { decodeTelemetry, TELEMETRY_PREFIX, type TelemetryWire } from "../fleet/telemetry";
import { decodeVehicle, VEHICLE_PREFIX, type VehicleWire } from "../fleet/vehicle";
import { decodeVehicleEvent, EVENT_PREFIX, type VehicleEventWire } from "../fleet/vehicle-event";

/**
 * The value a screen reads for a synced key, from the compact form the pull sends and Replicache
 * stores (docs/decisions/0013): ids come back from the key, absent fields become null. Keys of
 * other prefixes are passed through unchanged.
 */
export function decodeSyncedValue(key: string, value: unknown): unknown {
  if (key.startsWith(DRIVER_PREFIX)) return decodeDriver(key.slice(DRIVER_PREFIX.length), value as DriverWire);
  if (key.startsWith(VEHICLE_PREFIX)) return decodeVehicle(key.slice(VEHICLE_PREFIX.length), value as VehicleWire);
  if (key.startsWith(TELEMETRY_PREFIX))
    return decodeTelemetry(key.slice(TELEMETRY_PREFIX.length), value as TelemetryWire);
  if (key.startsWith(EVENT_PREFIX)) {
    const rest = key.slice(EVENT_PREFIX.length);
    const slash = rest.indexOf("/");
    return decodeVehicleEvent(rest.slice(0, slash), rest.slice(slash + 1), value as VehicleEventWire);
  }
  if (key.startsWith(PLACE_PREFIX)) return decodePlace(key.slice(PLACE_PREFIX.length), value as PlaceWire);
  if (key.startsWith(ISSUE_PREFIX)) return decodeIssue(key.slice(ISSUE_PREFIX.length), value as IssueWire);
  if (key.startsWith(ISSUE_COMMENT_PREFIX))
    return decodeIssueComment(key.slice(ISSUE_COMMENT_PREFIX.length), value as IssueCommentWire);
  if (key.startsWith(SERVICE_SCHEDULE_PREFIX))
    return decodeSchedule(key.slice(SERVICE_SCHEDULE_PREFIX.length), value as ScheduleWire);
  if (key.startsWith(SERVICE_ENTRY_PREFIX))
    return decodeServiceEntry(key.slice(SERVICE_ENTRY_PREFIX.length), value as ServiceEntryWire);
  if (key.startsWith(INSPECTION_FORM_PREFIX))
    return decodeInspectionForm(key.slice(INSPECTION_FORM_PREFIX.length), value as InspectionFormWire);
  if (key.startsWith(INSPECTION_PREFIX))
    return decodeInspection(key.slice(INSPECTION_PREFIX.length), value as InspectionWire);
  if (key.startsWith(FUEL_ENTRY_PREFIX))
    return decodeFuelEntry(fuelEntryIdOfKeyPart(key.slice(FUEL_ENTRY_PREFIX.length)), value as FuelEntryWire);
  if (key.startsWith(EXPENSE_PREFIX)) return decodeExpense(key.slice(EXPENSE_PREFIX.length), value as ExpenseWire);
  if (key.startsWith(RENEWAL_PREFIX)) return decodeRenewal(key.slice(RENEWAL_PREFIX.length), value as RenewalWire);
  if (key.startsWith(JOB_PREFIX)) return decodeJob(jobIdOfKey(key), value as JobWire);
  if (key.startsWith(WORK_ORDER_LINE_PREFIX))
    return decodeWorkOrderLine(key.slice(WORK_ORDER_LINE_PREFIX.length), value as WorkOrderLineWire);
  if (key.startsWith(WORK_ORDER_PREFIX))
    return decodeWorkOrder(key.slice(WORK_ORDER_PREFIX.length), value as WorkOrderWire);
  if (key.startsWith(PART_PREFIX)) return decodePart(key.slice(PART_PREFIX.length), value as PartWire);
  if (key.startsWith(VENDOR_PREFIX)) return decodeVendor(key.slice(VENDOR_PREFIX.length), value as VendorWire);
  if (key.startsWith(ALERT_PREFIX)) return decodeAlert(key.slice(ALERT_PREFIX.length), value as AlertWire);
  return value;
}
