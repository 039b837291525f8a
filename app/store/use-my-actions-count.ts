/**
 * How many actions wait for the signed-in member (the "My actions" badge in the side navigation
 * and the phone menu, app/nav/nav-items.tsx). null while nothing computes it yet: the maintenance
 * pages (issues, inspections, service) fill this hook in, and both navigations show the count
 * without further change.
 */
export function useMyActionsCount(): number | null {
  return null;
}
