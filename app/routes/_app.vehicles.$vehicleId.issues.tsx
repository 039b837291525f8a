import { useParams } from "@remix-run/react";
import { IssueList } from "../issues/issue-list";

/** A vehicle's Issues tab: its issues with the list's filters ("Report an issue" is in the vehicle's header). */
export default function VehicleIssues() {
  const { vehicleId } = useParams();
  if (!vehicleId) return null;
  return <IssueList vehicleId={vehicleId} />;
}
