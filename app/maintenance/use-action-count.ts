import { useLocation } from "@remix-run/react";
import { useEffect } from "react";
import { actionCount, type MyActionsBody } from "./my-actions-body";
import { useApi } from "./use-api";

/** The count beside "My actions" in the side navigation: read again on every page change and each minute. */
export function useActionCount(): number {
  const { data, reload } = useApi<MyActionsBody>("my-actions");
  const { pathname } = useLocation();
  useEffect(() => {
    reload();
    const timer = setInterval(reload, 60_000);
    return () => clearInterval(timer);
  }, [pathname, reload]);
  return actionCount(data);
}
