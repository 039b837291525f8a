import type { KeyboardEventHandler } from "react";

/** A list's filter box: what is typed is the query (matched by app/lib/text-filter.ts). */
export function FilterBox({
  label,
  placeholder,
  query,
  setQuery,
  className = "input filter",
  onKeyDown,
}: {
  label: string;
  placeholder: string;
  query: string;
  setQuery: (query: string) => void;
  className?: string;
  /** Arrow keys from the box into a list's rows (app/components/use-virtual-list.ts). */
  onKeyDown?: KeyboardEventHandler<HTMLInputElement>;
}) {
  return (
    <input
      className={className}
      type="search"
      aria-label={label}
      placeholder={placeholder}
      value={query}
      onChange={(e) => setQuery(e.currentTarget.value)}
      onKeyDown={onKeyDown}
    />
  );
}
