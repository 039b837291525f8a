import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from "react";
import {
  meResponseSchema,
  SESSION_STORAGE_KEY,
  type Flags,
  type MeResponse,
  type Viewer,
  type Workspace,
} from "../../shared/account/session";
import { can, type Action } from "../../shared/account/roles";
import { http, HTTPError, setHttpToken, waitBeforeEveryRequest } from "../lib/http";
import { markStartup } from "../lib/startup-marks";
import { dropStores, finishDroppingStores } from "../sync/local-stores";
import { finishPendingSignOuts, hasPendingSignOuts, signOutDevice } from "./sign-out";

// A sign-out made offline is finished before this origin sends anything else (app/session/sign-out.ts).
waitBeforeEveryRequest(() => (hasPendingSignOuts() ? finishPendingSignOuts() : undefined));

export interface Session {
  /** True until the stored token has been read and, if there is one, checked with GET api/me. */
  loading: boolean;
  token: string | null;
  isAuthenticated: boolean;
  viewer: Viewer | null;
  workspace: Workspace | null;
  workspaces: Workspace[];
  /** The viewer's role in `workspace` (shared/account/roles.ts), null without one. */
  role: string | null;
  flags: Flags;
}

interface SessionApi extends Session {
  /** Stores a new token (sign-in, workspace switch); the session check reruns for it. */
  setToken(token: string | null): void;
  /**
   * Stores the token `request` answers in place of the current one, which the server revokes while
   * answering (a workspace switch): until it is stored, a 401 for the current token is no reason to
   * sign out.
   */
  replaceToken(request: () => Promise<string>): Promise<void>;
  /** Reruns GET api/me for the current token (after e.g. creating a workspace). */
  refresh(): Promise<void>;
  /** Revokes the session on the server, forgets the token and does a full page load of /. */
  signOut(): Promise<void>;
}

const SessionContext = createContext<SessionApi | null>(null);

/** True once another token replaced `token` in this browser (a switch, a sign-in elsewhere in it). */
const superseded = (token: string) => readStoredToken() !== token;

/** A replacement of this page's token in flight (`replaceToken`), until the new token is stored. */
let replacement: Promise<unknown> | null = null;

export function readStoredToken(): string | null {
  try {
    const raw = localStorage.getItem(SESSION_STORAGE_KEY);
    const token = raw ? (JSON.parse(raw) as { token?: unknown }).token : null;
    return typeof token === "string" && token ? token : null;
  } catch {
    return null;
  }
}

function storeToken(token: string | null) {
  if (token) localStorage.setItem(SESSION_STORAGE_KEY, JSON.stringify({ token }));
  else {
    localStorage.removeItem(SESSION_STORAGE_KEY);
    localStorage.removeItem(IDENTITY_KEY);
  }
}

const authenticated = (token: string, me: MeResponse): Session => ({
  loading: false,
  token,
  isAuthenticated: true,
  viewer: me.viewer,
  workspace: me.workspace,
  workspaces: me.workspaces,
  role: me.role,
  flags: me.flags,
});

/**
 * The last identity api/me answered, so a reload while offline still opens this viewer's local
 * store (docs/decisions/0003-sync.md). It holds no secret: only ids, names and a token fingerprint.
 */
const IDENTITY_KEY = `${SESSION_STORAGE_KEY}-identity`;
const fingerprint = (token: string) => token.slice(-12);

function rememberIdentity(token: string, me: MeResponse) {
  localStorage.setItem(IDENTITY_KEY, JSON.stringify({ for: fingerprint(token), me }));
}

function rememberedIdentity(token: string): MeResponse | null {
  try {
    const saved = JSON.parse(localStorage.getItem(IDENTITY_KEY) ?? "null") as { for?: string; me?: unknown } | null;
    if (saved?.for !== fingerprint(token)) return null;
    const parsed = meResponseSchema.safeParse(saved.me);
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** Workspaces the viewer was a member of at the last check and is not any more (their local stores go). */
export function workspacesLost(previous: MeResponse, now: MeResponse): string[] {
  if (previous.viewer.id !== now.viewer.id) return [];
  return previous.workspaces.filter((w) => !now.workspaces.some((m) => m.id === w.id)).map((w) => w.id);
}

const signedOut: Omit<Session, "loading"> = {
  token: null,
  isAuthenticated: false,
  viewer: null,
  workspace: null,
  workspaces: [],
  role: null,
  flags: {},
};

type SetSession = (update: Session | ((previous: Session) => Session)) => void;
type CheckOutcome = "done" | "retry";

/** The stored token as this tab knows it: undefined on the server, then kept equal to localStorage's, in this tab or another. */
function useStoredToken() {
  // Read at once in the browser: the token is never rendered (the server's HTML and hydration show
  // the startup gate either way), and the session check no longer waits one more render for it
  // after hydration (docs/decisions/0065).
  const [token, setToken] = useState<string | null | undefined>(() =>
    typeof window === "undefined" ? undefined : readStoredToken(),
  );
  useEffect(() => {
    markStartup("hydrated");
    // A sign-out's deletion of local stores that a reload cut short ends here, and a sign-out made
    // offline ends its session on the server now, or as soon as the browser is back online.
    void finishDroppingStores();
    void finishPendingSignOuts();
    const onOnline = () => void finishPendingSignOuts();
    window.addEventListener("online", onOnline);
    setToken(readStoredToken());
    const onStorage = (e: StorageEvent) => {
      if (e.key === SESSION_STORAGE_KEY) setToken(readStoredToken());
    };
    window.addEventListener("storage", onStorage);
    return () => {
      window.removeEventListener("storage", onStorage);
      window.removeEventListener("online", onOnline);
    };
  }, []);
  return [token, setToken] as const;
}

/**
 * The first session check's request, sent as this module is evaluated, before React hydrates: on a
 * throttled phone hydration and the first effects take a second or more, which the round trip now
 * overlaps instead of following (docs/decisions/0054). Taken once, by the first check of that token.
 */
let earlyCheck = typeof window === "undefined" ? null : askEarly(readStoredToken());

function askEarly(token: string | null) {
  if (!token) return null;
  const answer = http.get("me", { headers: { Authorization: `Bearer ${token}` } }).json<unknown>();
  // Handled where it is taken; a check that never takes it (the token changed) ignores it.
  answer.catch(() => undefined);
  return { token, answer };
}

function askMe(token: string, signal?: AbortSignal): Promise<unknown> {
  const early = earlyCheck;
  earlyCheck = null;
  return early?.token === token ? early.answer : http.get("me", { signal }).json();
}

/**
 * GET api/me for `current` and the session it means (docs/product.md section 4): "retry" when no
 * usable answer came (network, 5xx), so the caller checks again later.
 */
async function checkSession(current: string | null, setState: SetSession, signal?: AbortSignal): Promise<CheckOutcome> {
  setHttpToken(current);
  if (!current) {
    setState({ ...signedOut, loading: false });
    return "done";
  }
  const previous = rememberedIdentity(current);
  try {
    const me: MeResponse = meResponseSchema.parse(await askMe(current, signal));
    if (signal?.aborted || superseded(current)) return "done";
    rememberIdentity(current, me);
    markStartup("session checked");
    setState(authenticated(current, me));
    // Workspaces this viewer was a member of and no longer is: their local stores go.
    if (previous) void dropStores(me.viewer.id, workspacesLost(previous, me));
    return "done";
  } catch (error) {
    if (await answerIsStale(current, signal)) return "done";
    return sessionRefused(error) ? signOutHere(previous, setState) : keepLastIdentity(current, previous, setState);
  }
}

/**
 * Whether a failed check's answer is about a token this page no longer uses. A workspace switch
 * revokes the token it replaces: an answer about that old token (a check Replicache's 401 asked
 * for with it) says nothing about the session now stored. The token may also be one a switch in
 * flight is replacing (the server revokes it before this page has the new one, and its socket's
 * close can get here first): wait for the switch.
 */
async function answerIsStale(current: string, signal?: AbortSignal): Promise<boolean> {
  if (signal?.aborted || superseded(current)) return true;
  if (replacement) {
    await replacement.catch(() => undefined);
    if (superseded(current)) return true;
  }
  return false;
}

/** The server said this token is not (or no longer) a session. */
const sessionRefused = (error: unknown) =>
  error instanceof HTTPError && (error.response.status === 401 || error.response.status === 403);

/** Signs out silently (docs/product.md section 4) and deletes this viewer's local stores. */
function signOutHere(previous: MeResponse | null, setState: SetSession): CheckOutcome {
  storeToken(null);
  setHttpToken(null);
  setState({ ...signedOut, loading: false });
  // The session is over (signed out elsewhere, everywhere, a password change): what it left on this
  // device goes as on a sign-out here.
  void signOutDevice(
    null,
    previous && { viewerId: previous.viewer.id, workspaceIds: previous.workspaces.map((w) => w.id) },
  );
  return "done";
}

/**
 * No usable answer (offline, the Worker down, a 5xx): keep the session, work on the local store of
 * the last known identity, and check again later.
 */
function keepLastIdentity(current: string, previous: MeResponse | null, setState: SetSession): CheckOutcome {
  if (previous) setState(authenticated(current, previous));
  return "retry";
}

/**
 * Keeps the session state true to `token`: checks it whenever it changes and, while checks get no
 * usable answer, again after a delay growing to a minute or as soon as the browser is back online.
 */
function useSessionCheck(token: string | null | undefined, setState: SetSession) {
  const [retry, setRetry] = useState(0);
  const retrying = useRef(false);
  useEffect(() => {
    if (token === undefined) return;
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const again = () => {
      clearTimeout(timer);
      retrying.current = true;
      setRetry((n) => n + 1);
    };
    // A retry checks in the background: the pages stay up on the last known identity meanwhile.
    // So does the first check of a token this browser already knows (an app opened again, from the
    // service worker): its pages open at once from the local store, with no round trip first, and
    // a refusal still signs out when it comes (docs/decisions/0044).
    const known = token && !retrying.current ? rememberedIdentity(token) : null;
    markStartup("session check started");
    if (known) setState(authenticated(token!, known));
    else if (!retrying.current) setState((s) => (s.loading ? s : { ...s, loading: true }));
    retrying.current = false;
    void checkSession(token, setState, controller.signal).then((outcome) => {
      if (outcome !== "retry" || controller.signal.aborted) return;
      timer = setTimeout(again, Math.min(60_000, 2_000 * 2 ** Math.min(retry, 5)));
      window.addEventListener("online", again, { once: true, signal: controller.signal });
    });
    return () => {
      controller.abort();
      clearTimeout(timer);
    };
  }, [token, setState, retry]);
}

/** The token's changes a page asks for: store one, replace it during a switch, sign out. */
function useTokenChanges(token: string | null | undefined, setTokenState: (token: string | null) => void) {
  const setToken = useCallback(
    (next: string | null) => {
      storeToken(next);
      setTokenState(next);
    },
    [setTokenState],
  );

  const replaceToken = useCallback(
    async (request: () => Promise<string>) => {
      const replacing = request().then(setToken);
      replacement = replacing;
      try {
        await replacing;
      } finally {
        if (replacement === replacing) replacement = null;
      }
    },
    [setToken],
  );

  const signOut = useCallback(async () => {
    // Everything of this viewer's goes from the device, online or not; the server ends the session
    // now or at the next connection (app/session/sign-out.ts).
    const identity = token ? rememberedIdentity(token) : null;
    storeToken(null);
    setHttpToken(null);
    await signOutDevice(
      token ?? null,
      identity && { viewerId: identity.viewer.id, workspaceIds: identity.workspaces.map((w) => w.id) },
    );
    window.location.assign("/");
  }, [token]);

  return { setToken, replaceToken, signOut };
}

/**
 * The session of docs/product.md section 4: read the stored token; none means signed out; otherwise
 * GET api/me. A 401 or 403 signs the user out silently; no answer or a 5xx keeps the session (on
 * the last known identity, if any) and checks again later. The check reruns whenever the
 * token changes, in this tab or another.
 */
export function SessionProvider({ children }: { children: ReactNode }) {
  const [token, setTokenState] = useStoredToken();
  const [state, setState] = useState<Session>({ ...signedOut, loading: true });
  useSessionCheck(token, setState);
  const { setToken, replaceToken, signOut } = useTokenChanges(token, setTokenState);
  const refresh = useCallback(async () => {
    await checkSession(token ?? null, setState);
  }, [token]);

  const value = useMemo<SessionApi>(
    () => ({ ...state, setToken, replaceToken, refresh, signOut }),
    [state, setToken, replaceToken, refresh, signOut],
  );
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

/** Whether the viewer's role in the current workspace may do `action` (shared/account/roles.ts). */
export function useCan(action: Action): boolean {
  return can(useSession().role, action);
}

export function useSession(): SessionApi {
  const session = useContext(SessionContext);
  if (!session) throw new Error("useSession needs a <SessionProvider>");
  return session;
}
