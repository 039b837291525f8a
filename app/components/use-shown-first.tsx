import { useState, type ReactNode } from "react";

/**
 * A long list shown a page at a time: the first `step` items, and a button that shows `step`
 * more. A fleet of 10,000 vehicles can have thousands of rows due; drawing them all at once
 * takes seconds, and nobody reads past the first screens before acting on them.
 */
export function useShownFirst<T>(items: T[], step = 50): { shown: T[]; more: ReactNode } {
  const [limit, setLimit] = useState(step);
  if (items.length <= limit) return { shown: items, more: null };
  const more = (
    <button type="button" className="button" onClick={() => setLimit((l) => l + step)}>
      Show {Math.min(step, items.length - limit)} more of {items.length.toLocaleString("en-US")}
    </button>
  );
  return { shown: items.slice(0, limit), more };
}
