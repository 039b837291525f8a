import { useParams } from "@remix-run/react";
import { IssueList } from "../issues/issue-list";
import { ReportIssueButton } from "../issues/report-issue-dialog";

/** A vehicle's Issues tab: its issues with the list's filters, and "Report an issue" for it. */
export default function VehicleIssues() {
  const { vehicleId } = useParams();
  if (!vehicleId) return null;
  return (
    <div className="vehicle-issues">
      <div className="tab-actions">
        <ReportIssueButton vehicleId={vehicleId} className="button primary" />
      </div>
      <IssueList vehicleId={vehicleId} />
    </div>
  );
}
