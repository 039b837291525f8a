/**
 * Named moments of the app's start (the session known, the sync client created, the startup gate
 * open), as `performance.mark`s: `PHONE_TRACE=1 npm run bench -- phone` (bench/phone-trace.ts)
 * prints them between the requests, so a slow start shows which step it waited on. Each is marked
 * once per page load; a mark costs microseconds.
 */
const marked = new Set<string>();

export function markStartup(name: string) {
  if (marked.has(name) || typeof performance === "undefined") return;
  marked.add(name);
  performance.mark(`app: ${name}`);
}
