import { Navigate } from "@remix-run/react";
import { useSession } from "../session/session";

/** docs/product.md: / goes to /map with a workspace, to /setup without one, to /login when signed out. */
export default function Index() {
  const session = useSession();
  if (!session.isAuthenticated) return <Navigate to="/login" replace />;
  return <Navigate to={session.workspace ? "/map" : "/setup"} replace />;
}
