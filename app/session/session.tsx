import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from "react";
import {
  meResponseSchema,
  SESSION_STORAGE_KEY,
  type Flags,
  type MeResponse,
  type Viewer,
  type Workspace,
} from "../../shared/session";
import { http, HTTPError, setHttpToken } from "../lib/http";

export interface Session {
  /** True until the stored token has been read and, if there is one, checked with GET api/me. */
  loading: boolean;
  token: string | null;
  isAuthenticated: boolean;
  viewer: Viewer | null;
  workspace: Workspace | null;
  workspaces: Workspace[];
  flags: Flags;
}

interface SessionApi extends Session {
  /** Stores a new token (sign-in, workspace switch); the session check reruns for it. */
  setToken(token: string | null): void;
  /** Reruns GET api/me for the current token (after e.g. creating a workspace). */
  refresh(): Promise<void>;
  /** Revokes the session on the server, forgets the token and does a full page load of /. */
  signOut(): Promise<void>;
}

const SessionContext = createContext<SessionApi | null>(null);

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

const signedOut: Omit<Session, "loading"> = {
  token: null,
  isAuthenticated: false,
  viewer: null,
  workspace: null,
  workspaces: [],
  flags: {},
};

/**
 * The session of SPEC.md section 4: read the stored token; none means signed out; otherwise
 * GET api/me, and a rejection (4xx) signs the user out silently. The check reruns whenever the
 * token changes, in this tab or another.
 */
export function SessionProvider({ children }: { children: ReactNode }) {
  const [token, setTokenState] = useState<string | null | undefined>(undefined);
  const [state, setState] = useState<Session>({ ...signedOut, loading: true });

  useEffect(() => {
    setTokenState(readStoredToken());
    const onStorage = (e: StorageEvent) => {
      if (e.key === SESSION_STORAGE_KEY) setTokenState(readStoredToken());
    };
    window.addEventListener("storage", onStorage);
    return () => window.removeEventListener("storage", onStorage);
  }, []);

  const check = useCallback(async (current: string | null, signal?: AbortSignal) => {
    setHttpToken(current);
    if (!current) {
      setState({ ...signedOut, loading: false });
      return;
    }
    try {
      const me: MeResponse = meResponseSchema.parse(await http.get("me", { signal }).json());
      if (signal?.aborted) return;
      rememberIdentity(current, me);
      setState(authenticated(current, me));
    } catch (error) {
      if (signal?.aborted) return;
      // The server said no: sign out silently (SPEC.md section 4).
      if (error instanceof HTTPError) {
        storeToken(null);
      } else {
        // No answer at all (offline): keep working on the local store of the last known identity.
        const remembered = rememberedIdentity(current);
        if (remembered) {
          setState(authenticated(current, remembered));
          return;
        }
      }
      setHttpToken(null);
      setState({ ...signedOut, loading: false });
    }
  }, []);

  useEffect(() => {
    if (token === undefined) return;
    const controller = new AbortController();
    setState((s) => (s.loading ? s : { ...s, loading: true }));
    void check(token, controller.signal);
    return () => controller.abort();
  }, [token, check]);

  const setToken = useCallback((next: string | null) => {
    storeToken(next);
    setTokenState(next);
  }, []);

  const refresh = useCallback(() => check(token ?? null), [check, token]);

  const signOut = useCallback(async () => {
    try {
      await http.post("signout", { retry: 0, timeout: 3000 });
    } catch {
      // Offline or already revoked: forgetting the token locally still signs this browser out.
    }
    storeToken(null);
    window.location.assign("/");
  }, []);

  const value = useMemo<SessionApi>(
    () => ({ ...state, setToken, refresh, signOut }),
    [state, setToken, refresh, signOut],
  );
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

export function useSession(): SessionApi {
  const session = useContext(SessionContext);
  if (!session) throw new Error("useSession needs a <SessionProvider>");
  return session;
}
