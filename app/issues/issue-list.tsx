import { Link, useSearchParams } from "@remix-run/react";
import { useEffect, useMemo, useState } from "react";
import {
  ISSUE_PRIORITIES,
  ISSUE_STATUSES,
  priorityLabels,
  statusLabels,
  type Issue,
  type IssueJson,
} from "../../shared/maintenance/issues";
import { http } from "../lib/http";
import { useSession } from "../session/session";
import { useVehicles } from "../store";
import { useIssues } from "../store/issues";
import { matchesIssue, needsServer, readIssueFilter, type IssueFilter } from "./issue-filter";
import { useWorkspaceMembers } from "./use-workspace-members";

/** Rows drawn at first; "Show more" adds as many again (a first screen stays fast with thousands). */
const PAGE = 100;

export const fromIssueJson = (j: IssueJson): Issue => ({
  ...j,
  createdAt: Date.parse(j.createdAt),
  updatedAt: Date.parse(j.updatedAt),
});

/**
 * Resolved and closed issues older than what is synced, read from GET /api/issues when the status
 * filter asks for them (online only); the synced copy wins where both have an issue.
 */
function useServerIssues(filter: IssueFilter, vehicleId: string | undefined) {
  const [issues, setIssues] = useState<Issue[] | null>(null);
  const [failed, setFailed] = useState(false);
  const wanted = needsServer(filter);
  const status = filter.status === "active" ? "all" : filter.status;
  useEffect(() => {
    if (!wanted) return;
    let live = true;
    const searchParams = new URLSearchParams({ status, limit: "500" });
    if (vehicleId) searchParams.set("vehicleId", vehicleId);
    setFailed(false);
    http
      .get("issues", { searchParams, retry: 0 })
      .json<{ issues: IssueJson[] }>()
      .then((res) => live && setIssues(res.issues.map(fromIssueJson)))
      .catch(() => live && setFailed(true));
    return () => {
      live = false;
    };
  }, [wanted, status, vehicleId]);
  return { serverIssues: wanted ? issues : null, failed: wanted && failed };
}

/** The issues list with its filters (status, priority, vehicle, assignee); `vehicleId` fixes the vehicle (its Issues tab). */
export function IssueList({ vehicleId }: { vehicleId?: string }) {
  const [params, setParams] = useSearchParams();
  const filter = useMemo(
    () => ({ ...readIssueFilter(params), ...(vehicleId ? { vehicleId } : {}) }),
    [params, vehicleId],
  );
  const synced = useIssues();
  const { serverIssues, failed } = useServerIssues(filter, vehicleId);
  const viewerId = useSession().viewer?.id ?? null;
  const [limit, setLimit] = useState(PAGE);
  const members = useWorkspaceMembers();
  const vehicles = useVehicles();
  const vehicleNames = useMemo(() => new Map(vehicles.map((v) => [v.id, v.name])), [vehicles]);
  const shown = useMemo(() => {
    const byId = new Map<string, Issue>();
    for (const i of serverIssues ?? []) byId.set(i.id, i);
    for (const i of synced) byId.set(i.id, i);
    const all = serverIssues
      ? [...byId.values()].sort((a, b) => (b.number ?? Infinity) - (a.number ?? Infinity))
      : synced;
    return all.filter((i) => matchesIssue(i, filter, viewerId));
  }, [synced, serverIssues, filter, viewerId]);
  const set = (key: string, value: string) =>
    setParams(
      (p) => {
        if (value) p.set(key, value);
        else p.delete(key);
        return p;
      },
      { replace: true },
    );

  return (
    <div className="issues">
      <IssueFilters filter={filter} set={set} fixedVehicle={Boolean(vehicleId)} members={members.members} />
      {failed ? (
        <p className="muted">Older resolved and closed issues are on the server; they show when you are online.</p>
      ) : null}
      {shown.length === 0 ? <p className="muted">No issues match these filters.</p> : null}
      <ul className="issue-list" aria-label="Issues">
        {shown.slice(0, limit).map((issue) => (
          <IssueRow
            key={issue.id}
            issue={issue}
            vehicle={vehicleId ? null : (vehicleNames.get(issue.vehicleId) ?? "A removed vehicle")}
            nameOf={members.nameOf}
          />
        ))}
      </ul>
      {shown.length > limit ? (
        <button type="button" className="button" onClick={() => setLimit(limit + PAGE)}>
          Show more ({shown.length - limit} more)
        </button>
      ) : null}
    </div>
  );
}

/** False for the first render, true once the frame that showed it has been painted. */
function useAfterFirstPaint(): boolean {
  const [painted, setPainted] = useState(false);
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    // A timer set in an animation frame runs after that frame is painted.
    const frame = requestAnimationFrame(() => (timer = setTimeout(() => setPainted(true), 0)));
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(timer);
    };
  }, []);
  return painted;
}

/** One labelled filter: a select whose "" option means any. */
function FilterSelect({
  label,
  value,
  onChange,
  options,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  options: { value: string; label: string }[];
}) {
  return (
    <label>
      <span>{label}</span>
      <select className="input" value={value} onChange={(e) => onChange(e.target.value)}>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </label>
  );
}

function IssueFilters({
  filter,
  set,
  fixedVehicle,
  members,
}: {
  filter: IssueFilter;
  set: (key: string, value: string) => void;
  fixedVehicle: boolean;
  members: { userId: string; email: string }[];
}) {
  const vehicles = useVehicles();
  // One option per vehicle is 10,000 elements in a large fleet, none of them seen until the
  // select is opened: they are added once the list's first screen has been painted.
  const allVehicles = useAfterFirstPaint();
  const vehicleOptions = allVehicles ? vehicles : vehicles.filter((v) => v.id === filter.vehicleId);
  const statuses = [
    { value: "active", label: "Open and in progress" },
    ...ISSUE_STATUSES.map((s) => ({ value: s, label: statusLabels[s] })),
    { value: "all", label: "All" },
  ];
  return (
    <div className="issue-filters" role="group" aria-label="Filters">
      <FilterSelect
        label="Status"
        value={filter.status}
        onChange={(v) => set("status", v === "active" ? "" : v)}
        options={statuses}
      />
      <FilterSelect
        label="Priority"
        value={filter.priority}
        onChange={(v) => set("priority", v)}
        options={[
          { value: "", label: "Any" },
          ...ISSUE_PRIORITIES.map((p) => ({ value: p, label: priorityLabels[p] })),
        ]}
      />
      {fixedVehicle ? null : (
        <FilterSelect
          label="Vehicle"
          value={filter.vehicleId}
          onChange={(v) => set("vehicle", v)}
          options={[{ value: "", label: "Any" }, ...vehicleOptions.map((v) => ({ value: v.id, label: v.name }))]}
        />
      )}
      <FilterSelect
        label="Assignee"
        value={filter.assignee}
        onChange={(v) => set("assignee", v)}
        options={[
          { value: "", label: "Anyone" },
          { value: "me", label: "Me" },
          { value: "none", label: "Unassigned" },
          ...members.map((m) => ({ value: m.userId, label: m.email })),
        ]}
      />
    </div>
  );
}

export const issueNumber = (issue: Pick<Issue, "number">) => (issue.number === null ? "New" : `#${issue.number}`);

function IssueRow({
  issue,
  vehicle,
  nameOf,
}: {
  issue: Issue;
  vehicle: string | null;
  nameOf: (userId: string | null) => string;
}) {
  return (
    <li>
      <Link to={`/issues/${issue.id}`} className="issue-row">
        <span className="issue-number">{issueNumber(issue)}</span>
        <span className="issue-title">{issue.title}</span>
        <span className={`chip priority-${issue.priority}`}>{priorityLabels[issue.priority]}</span>
        <span className={`chip status-${issue.status}`}>{statusLabels[issue.status]}</span>
        <span className="issue-meta muted">
          {[vehicle, nameOf(issue.assigneeUserId), issue.dueDate ? `due ${issue.dueDate}` : null]
            .filter(Boolean)
            .join(" · ")}
        </span>
      </Link>
    </li>
  );
}
