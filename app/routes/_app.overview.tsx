import { CostChartsCard } from "../overview/cost-charts-card";
import { CostsCard, DueCard, IssuesCard, VehiclesCard } from "../overview/overview-cards";
import { useOverview } from "../overview/use-overview";
import { useWorkspaceUnits } from "../reports/use-workspace-time-zone";

/**
 * The fleet at a glance (issue 42; docs/decisions/0051): vehicles moving, idle, parked and silent,
 * open issues by priority, what is due, and this month's cost against last month's, each figure a
 * link to the page that lists it. Drawn from the synced store alone, so it opens offline.
 */
export default function OverviewPage() {
  const overview = useOverview();
  const units = useWorkspaceUnits();
  return (
    <section className="page overview">
      <header className="page-header">
        <h1>Overview</h1>
      </header>
      <div className="overview-grid">
        <VehiclesCard counts={overview.vehicles} />
        <IssuesCard counts={overview.issues} />
        <DueCard overview={overview} />
        <CostsCard costs={overview.costs} units={units} />
        {overview.costs && <CostChartsCard costs={overview.costs} units={units} />}
      </div>
    </section>
  );
}
