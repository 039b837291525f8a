import { Outlet, useParams } from "@remix-run/react";
import { IssueList } from "../issues/issue-list";
import { ReportIssueButton } from "../issues/report-issue-dialog";

/**
 * Issues (issue 32; docs/decisions/0030): the workspace's defects, open and in progress first,
 * filtered by status, priority, vehicle and assignee; works offline from the synced store.
 * An issue's page (/issues/{id}) renders in place of the list.
 */
export default function IssuesPage() {
  const { issueId } = useParams();
  if (issueId) return <Outlet />;
  return (
    <section className="page issues-page">
      <header className="page-header">
        <h1>Issues</h1>
        <ReportIssueButton className="button primary" />
      </header>
      <IssueList />
    </section>
  );
}
