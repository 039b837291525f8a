import { useCallback, useEffect, useState } from "react";
import type {
  Issue,
  IssueComment,
  IssueCommentJson,
  IssueJson,
  UpdateIssueBody,
} from "../../shared/maintenance/issues";
import { http } from "../lib/http";
import { useSession } from "../session/session";
import { useStoreStatus } from "../store";
import { useIssue, useIssueComments, useIssueMutations } from "../store/issues";
import { fromIssueJson } from "./issue-list";

type Detail = IssueJson & { comments: IssueCommentJson[] };

/**
 * What the synced copy leaves out (docs/decisions/0034): the reporter and a long description,
 * read from GET /api/issues/{id} when online, again whenever the synced issue changes. Offline
 * the page shows the synced copy without them.
 */
function useLeftOut(synced: Issue | undefined) {
  const [server, setServer] = useState<Issue | null>(null);
  const wanted = Boolean(synced && (synced.reportedByUserId === null || synced.descriptionOnServer));
  useEffect(() => {
    if (!synced || !wanted) return;
    let live = true;
    http
      .get(`issues/${encodeURIComponent(synced.id)}`, { retry: 0 })
      .json<IssueJson>()
      .then((json) => live && setServer(fromIssueJson(json)))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [synced, wanted]);
  if (!synced || !server || server.id !== synced.id) return synced;
  const description = synced.descriptionOnServer ? { description: server.description, descriptionOnServer: false } : {};
  return { ...synced, reportedByUserId: synced.reportedByUserId ?? server.reportedByUserId, ...description };
}

/**
 * One issue for its page: from the synced store when it is there (open, in progress, or changed
 * lately; works offline, changes are sync mutations), else read from GET /api/issues/{id} and
 * changed through the REST API (an older resolved or closed issue: online only).
 */
export function useIssueDetail(id: string) {
  const synced = useLeftOut(useIssue(id));
  const syncedComments = useIssueComments(id);
  const mutations = useIssueMutations();
  const { pulled } = useStoreStatus();
  const viewerId = useSession().viewer?.id ?? null;
  const [server, setServer] = useState<{ issue: Issue; comments: IssueComment[] } | "missing" | "offline" | null>(null);

  const load = useCallback(async () => {
    try {
      const detail = await http.get(`issues/${encodeURIComponent(id)}`, { retry: 0 }).json<Detail>();
      setServer({
        issue: fromIssueJson(detail),
        comments: detail.comments.map((c) => ({ ...c, createdAt: Date.parse(c.createdAt) })),
      });
    } catch (error) {
      setServer((error as { response?: Response }).response?.status === 404 ? "missing" : "offline");
    }
  }, [id]);
  useEffect(() => {
    if (!synced && pulled) void load();
  }, [synced, pulled, load]);

  if (synced) {
    return {
      state: "ready" as const,
      issue: synced,
      comments: syncedComments,
      update: (changes: UpdateIssueBody) => mutations.update({ id, ...changes }),
      comment: (text: string, photoIds: string[]) =>
        mutations.comment({
          id: crypto.randomUUID(),
          issueId: id,
          text,
          photoIds,
          authorUserId: viewerId,
          createdAt: Date.now(),
        }),
    };
  }
  if (server && typeof server === "object") {
    return {
      state: "ready" as const,
      issue: server.issue,
      comments: server.comments,
      update: async (changes: UpdateIssueBody) => {
        await http.patch(`issues/${encodeURIComponent(id)}`, { json: changes });
        await load();
      },
      comment: async (text: string, photoIds: string[]) => {
        await http.post(`issues/${encodeURIComponent(id)}/comments`, { json: { text, photoIds } });
        await load();
      },
    };
  }
  return { state: (server ?? "loading") as "missing" | "offline" | "loading" };
}
