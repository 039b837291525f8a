import { useCallback, useSyncExternalStore } from "react";
import {
  isActiveStatus,
  type AddIssueCommentArgs,
  type CreateIssueArgs,
  type Issue,
  type IssueComment,
  type UpdateIssueArgs,
} from "../../shared/maintenance/issues";
import { useSync } from "../sync/sync-provider";
import type { ClientStore, EntityType } from "./client-store";
import { useClientStore } from "./index";

/** Issues and their comments from the synced store (docs/decisions/0030). */
function useTypeValue<T>(type: EntityType, select: (store: ClientStore) => T): T {
  const store = useClientStore();
  const subscribe = useCallback((cb: () => void) => store.subscribeType(type, cb), [store, type]);
  const get = useCallback(() => select(store), [store, select]);
  return useSyncExternalStore(subscribe, get, get);
}

/** Newest first: numbered ones by number, ones made offline (no number yet) on top. */
export const compareIssues = (a: Issue, b: Issue) =>
  (b.number ?? Infinity) - (a.number ?? Infinity) || b.createdAt - a.createdAt;

/** Every synced issue, newest first; the same array until an issue changes. */
export function useIssues(): Issue[] {
  return useTypeValue(
    "issue",
    useCallback(
      (s: ClientStore) => s.memo("issuesNewestFirst", "issue", () => s.list<Issue>("issue").sort(compareIssues)),
      [],
    ),
  );
}

export function useIssue(id: string | undefined): Issue | undefined {
  return useTypeValue(
    "issue",
    useCallback((s: ClientStore) => (id ? s.get<Issue>("issue", id) : undefined), [id]),
  );
}

/** Open and in-progress issues per vehicle id (the vehicle header and list show the count). */
export function useOpenIssueCounts(): ReadonlyMap<string, number> {
  return useTypeValue(
    "issue",
    useCallback(
      (s: ClientStore) =>
        s.memo("openIssueCounts", "issue", () => {
          const counts = new Map<string, number>();
          for (const issue of s.list<Issue>("issue"))
            if (isActiveStatus(issue.status)) counts.set(issue.vehicleId, (counts.get(issue.vehicleId) ?? 0) + 1);
          return counts;
        }),
      [],
    ),
  );
}

/** An issue's comments, oldest first. */
export function useIssueComments(issueId: string): IssueComment[] {
  return useTypeValue(
    "issue-comment",
    useCallback(
      (s: ClientStore) =>
        s.memo(`comments:${issueId}`, "issue-comment", () =>
          s.list<IssueComment>("issue-comment", `${issueId}/`).sort((a, b) => a.createdAt - b.createdAt),
        ),
      [issueId],
    ),
  );
}

/** Reports, changes and comments through sync mutators: optimistic, and kept while offline. */
export function useIssueMutations() {
  const sync = useSync();
  const run = useCallback(
    async (
      name: "createIssue" | "updateIssue" | "addIssueComment",
      args: CreateIssueArgs | UpdateIssueArgs | AddIssueCommentArgs,
    ) => {
      if (!sync) throw new Error("The local store is not ready");
      await sync.client.mutate(name, args);
    },
    [sync],
  );
  return {
    create: (args: CreateIssueArgs) => run("createIssue", args),
    update: (args: UpdateIssueArgs) => run("updateIssue", { updatedAt: Date.now(), ...args }),
    comment: (args: AddIssueCommentArgs) => run("addIssueComment", args),
  };
}
