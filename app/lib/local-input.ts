/**
 * A moment as a datetime-local input shows it (the device's time zone): what "Log fuel" and a work
 * order's "Completed at" fill in and take as their bound, read back with `new Date(value)`.
 */
export function localInput(ms: number) {
  const d = new Date(ms);
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}
