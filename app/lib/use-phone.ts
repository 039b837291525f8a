import { useSyncExternalStore } from "react";

/** The phone layout's breakpoint: below it the side navigation gives way to the phone menu (styles.css). */
export const PHONE_QUERY = "(max-width: 639px)";

function subscribe(onChange: () => void) {
  const query = window.matchMedia(PHONE_QUERY);
  query.addEventListener("change", onChange);
  return () => query.removeEventListener("change", onChange);
}

/**
 * Whether the screen is phone-sized, for what CSS alone cannot change (a virtual list's row
 * height). The server renders the wide layout; the browser corrects it on hydration.
 */
export function usePhone(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => window.matchMedia(PHONE_QUERY).matches,
    () => false,
  );
}
