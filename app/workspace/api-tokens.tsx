import { dateTimeText } from "../../shared/units/clock";
import { useWorkspaceClock } from "../reports/use-workspace-time-zone";
import { useState, type FormEvent } from "react";
import { toast } from "sonner";
import {
  apiTokenListSchema,
  createdApiTokenSchema,
  type ApiTokenScope,
  type CreatedApiToken,
  type ListedApiToken as ApiToken,
} from "../../shared/account/api-tokens";
import { ConfirmAction, ErrorLine, InputField, SelectField, Submit } from "../components/form";
import { useApiAction } from "../components/use-api-action";
import { apiErrorOf, http } from "../lib/http";
import { useManagersList } from "./use-managers-list";

/**
 * Integrators' API tokens on the workspace's settings (owners and admins; the API refuses others):
 * create one with a name and a scope, see its secret once with a copy button, list them with who
 * made each and when each was last used, revoke any behind a confirmation. docs/api.md "Authentication".
 */
const tokensPath = (workspaceId: string) => `workspaces/${workspaceId}/api-tokens`;
const parseTokens = (body: unknown) => apiTokenListSchema.parse(body).tokens;

export function ApiTokens() {
  const {
    workspaceId,
    items: tokens,
    error,
    reload,
  } = useManagersList<ApiToken>(tokensPath, parseTokens, "Could not load the API tokens");
  const [created, setCreated] = useState<CreatedApiToken | null>(null);
  if (!workspaceId) return null;
  return (
    <section className="card section api-tokens" aria-labelledby="api-tokens-heading">
      <h2 id="api-tokens-heading">API tokens</h2>
      <p className="muted">
        For integrations: a token is a bearer on this workspace&apos;s API (<a href="/api/openapi.json">OpenAPI</a>).
        Read tokens only read; write tokens also change places, alert rules and beacons. No token can manage members,
        tokens or accounts.
      </p>
      <CreateToken
        workspaceId={workspaceId}
        onCreated={(token) => {
          setCreated(token);
          void reload();
        }}
      />
      {created ? <NewSecret token={created} onDone={() => setCreated(null)} /> : null}
      <ErrorLine message={error} />
      {tokens === null ? (
        <p className="muted">Loading…</p>
      ) : (
        <TokenList workspaceId={workspaceId} tokens={tokens} onRevoked={() => void reload()} />
      )}
    </section>
  );
}

function CreateToken({ workspaceId, onCreated }: { workspaceId: string; onCreated: (token: CreatedApiToken) => void }) {
  const [name, setName] = useState("");
  const [scope, setScope] = useState<ApiTokenScope>("read");
  const create = useApiAction(async () => {
    onCreated(
      createdApiTokenSchema.parse(
        await http.post(`workspaces/${workspaceId}/api-tokens`, { json: { name, scope } }).json(),
      ),
    );
    setName("");
  }, "Could not create the token");
  const nameError = create.refusal?.fields.name?.[0] ?? null;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void create.run();
  };
  return (
    <form className="group api-token-form" onSubmit={submit}>
      <InputField
        id="api-token-name"
        label="Name"
        value={name}
        maxLength={80}
        onChange={(e) => setName(e.currentTarget.value)}
        placeholder="Dispatch board"
        error={nameError}
      />
      <SelectField
        id="api-token-scope"
        label="Scope"
        value={scope}
        onChange={(e) => setScope(e.currentTarget.value as ApiTokenScope)}
        options={SCOPES}
      />
      <Submit pending={create.pending}>Create token</Submit>
      <ErrorLine message={nameError ? null : (create.refusal?.message ?? null)} />
    </form>
  );
}

const SCOPES = [
  { value: "read", label: "Read" },
  { value: "write", label: "Write" },
];

function NewSecret({ token, onDone }: { token: CreatedApiToken; onDone: () => void }) {
  const copy = async () => {
    await navigator.clipboard.writeText(token.token).catch(() => undefined);
    toast("Token copied", { duration: 1500 });
  };
  return (
    <div role="status" className="api-token-secret">
      <p>
        Copy the token for <strong>{token.name}</strong> now: it is not shown again.
      </p>
      <code aria-label="New API token" className="mono">
        {token.token}
      </code>{" "}
      <button type="button" className="button" onClick={() => void copy()}>
        Copy
      </button>{" "}
      <button type="button" className="button" onClick={onDone}>
        Done
      </button>
    </div>
  );
}

function TokenList({
  workspaceId,
  tokens,
  onRevoked,
}: {
  workspaceId: string;
  tokens: ApiToken[];
  onRevoked: () => void;
}) {
  const clock = useWorkspaceClock();
  const revoke = async (token: ApiToken) => {
    try {
      await http.delete(`workspaces/${workspaceId}/api-tokens/${token.id}`);
      toast(`Revoked "${token.name}"`);
      onRevoked();
    } catch (err) {
      toast.error((await apiErrorOf(err))?.message ?? "Could not revoke the token");
    }
  };
  if (!tokens.length) return <p className="muted">No API tokens yet.</p>;
  return (
    <table className="simple-table api-token-list">
      <thead>
        <tr>
          <th>Name</th>
          <th>Scope</th>
          <th>Made by</th>
          <th>Created</th>
          <th>Last used</th>
          <th />
        </tr>
      </thead>
      <tbody>
        {tokens.map((t) => (
          <tr key={t.id}>
            <td>{t.name}</td>
            <td>{t.scope === "write" ? "Write" : "Read"}</td>
            <td>{t.createdByEmail ?? "A removed account"}</td>
            <td>{dateTimeText(t.createdAt, clock)}</td>
            <td>{t.lastUsedAt === null ? "Never" : dateTimeText(t.lastUsedAt, clock)}</td>
            <td>
              <ConfirmAction
                label="Revoke"
                ariaLabel={`Revoke ${t.name}`}
                question={`Revoke "${t.name}"? Integrations using it stop working at once.`}
                confirmLabel="Revoke token"
                onConfirm={() => revoke(t)}
                className="button"
              />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
