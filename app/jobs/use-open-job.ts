import { useSearchParams } from "@remix-run/react";
import { useCallback } from "react";

/** The address's parameter naming the stop whose story is open on the dispatch page. */
export const OPEN_JOB_PARAM = "job";

/**
 * The stop whose story is open (`?job=`), and opening and closing it: in the address, so a reload
 * or a link shared with a colleague opens the same stop; the filters keep it (_app.jobs.tsx).
 */
export function useOpenJob(): {
  openJobId: string | null;
  openJob: (id: string) => void;
  closeJob: () => void;
  /** The address that opens stop `id` (the page's own, filters kept): a stop's row links to it. */
  openHref: (id: string) => string;
} {
  const [params, setParams] = useSearchParams();
  const setOpen = useCallback(
    (id: string | null) =>
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          if (id) next.set(OPEN_JOB_PARAM, id);
          else next.delete(OPEN_JOB_PARAM);
          return next;
        },
        { replace: true, preventScrollReset: true },
      ),
    [setParams],
  );
  return {
    openJobId: params.get(OPEN_JOB_PARAM),
    openJob: useCallback((id: string) => setOpen(id), [setOpen]),
    closeJob: useCallback(() => setOpen(null), [setOpen]),
    openHref: useCallback(
      (id: string) => {
        const next = new URLSearchParams(params);
        next.set(OPEN_JOB_PARAM, id);
        return `?${next}`;
      },
      [params],
    ),
  };
}
