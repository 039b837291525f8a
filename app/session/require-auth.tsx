import { Navigate, useLocation } from "@remix-run/react";
import type { ReactNode } from "react";
import { useSession } from "./session";

/**
 * Protected routes (docs/product.md section 2): a signed-out user is sent to /login carrying the full
 * current address as `redirect`, except from the root.
 */
export function RequireAuth({ children }: { children: ReactNode }) {
  const session = useSession();
  const location = useLocation();
  if (session.isAuthenticated) return <>{children}</>;
  const here = `${location.pathname}${location.search}${location.hash}`;
  const to = here === "/" ? "/login" : `/login?${new URLSearchParams({ redirect: here })}`;
  return <Navigate to={to} replace />;
}
