import { SCHEMA_VERSION, type PatchOperation } from "../../shared/sync/sync-protocol";
import { decodeSyncedValue } from "../../shared/sync/synced-value";

/**
 * The few authenticated API calls the simulator and the demo make, as any client would:
 * bearer tokens, JSON in and out, `{ error: { code, message } }` on failure.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export interface ServerBeacon {
  id: string;
  vehicleId: string;
  lastReportAt: number | null;
}

export class Api {
  constructor(
    readonly baseUrl: string,
    public token: string | null = null,
  ) {}

  call<T>(method: string, path: string, json?: unknown): Promise<T> {
    if (json === undefined) return this.send<T>(method, path);
    return this.send<T>(method, path, { type: "application/json", bytes: JSON.stringify(json) });
  }

  /** A binary body (a photo: `POST photos`), as the browser's upload queue sends it. */
  upload<T>(path: string, bytes: Uint8Array<ArrayBuffer>, type: string): Promise<T> {
    return this.send<T>("POST", path, { type, bytes: new Blob([bytes], { type }) });
  }

  private async send<T>(method: string, path: string, sent?: { type: string; bytes: string | Blob }) {
    const headers: Record<string, string> = {};
    if (this.token) headers.Authorization = `Bearer ${this.token}`;
    if (sent) headers["Content-Type"] = sent.type;
    const res = await fetch(new URL(`/api/${path}`, this.baseUrl), { method, headers, body: sent?.bytes });
    const text = await res.text();
    const body = text ? (JSON.parse(text) as unknown) : null;
    if (!res.ok) {
      const error = (body as { error?: { code?: string; message?: string } } | null)?.error;
      throw new ApiError(
        res.status,
        error?.code ?? "http_error",
        error?.message ?? `${method} /api/${path}: HTTP ${res.status}`,
      );
    }
    return body as T;
  }

  async signIn(email: string, password: string) {
    this.token = (await this.call<{ token: string }>("POST", "signin", { email, password })).token;
    await this.ensureConfirmed(email);
  }

  async signUp(email: string, password: string) {
    this.token = (await this.call<{ token: string }>("POST", "signup", { email, password })).token;
    await this.ensureConfirmed(email);
  }

  /**
   * Follows the confirmation link sign-up e-mailed (issue 39: mail a person causes to others, such
   * as the demo's invite, waits for it), read from the development outbox as a person reads their
   * mail; an account left unconfirmed by an interrupted seed asks for a new link first. A Worker
   * with no outbox (deployed) leaves the address for its owner to confirm.
   */
  private async ensureConfirmed(email: string) {
    const { viewer } = await this.call<{ viewer: { emailConfirmed?: boolean } }>("GET", "me");
    if (viewer.emailConfirmed !== false) return;
    const sent = (
      await this.call<{ text: string }>("GET", `dev/outbox?to=${encodeURIComponent(email)}`).catch(() => null)
    )?.text;
    if (!sent?.includes("/confirm-email/")) await this.call("POST", "email/confirm/resend").catch(() => undefined);
    for (let tries = 0; tries < 50; tries++) {
      const mail = await this.call<{ text: string }>("GET", `dev/outbox?to=${encodeURIComponent(email)}`).catch(
        (e: unknown) => {
          if (e instanceof ApiError && e.status === 404) return null;
          throw e;
        },
      );
      // 404 until the mail is sent (just after sign-up answers), and always where there is no outbox.
      const token = mail?.text.match(/\/confirm-email\/(\S+)/)?.[1];
      if (token) return void (await this.call("POST", "email/confirm", { token }));
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  me() {
    return this.call<{ workspaces: { id: string; name: string }[]; workspace: { id: string } | null }>("GET", "me");
  }

  /** A token names one workspace: switch this client's session to `workspaceId`. */
  async useWorkspace(workspaceId: string) {
    this.token = (await this.call<{ token: string }>("POST", "workspaces/session", { workspaceId })).token;
  }

  /** The beacons of the session's workspace. */
  beacons() {
    return this.call<ServerBeacon[]>("GET", "beacons");
  }

  /** Everything the session's workspace syncs, as Replicache keys with the values screens read (a cookie-less pull). */
  async snapshot(): Promise<Map<string, unknown>> {
    const answer = await this.call<{ patch?: PatchOperation[] }>("POST", "sync/pull", {
      pullVersion: 1,
      clientGroupID: `sim-${crypto.randomUUID()}`,
      cookie: null,
      profileID: "simulator",
      schemaVersion: SCHEMA_VERSION,
    });
    const values = new Map<string, unknown>();
    for (const op of answer.patch ?? []) if (op.op === "put") values.set(op.key, decodeSyncedValue(op.key, op.value));
    return values;
  }
}
