/**
 * An error as it may go to the log (issue 23): its name and message with the bound parameters cut
 * off. Drizzle's query errors append `params: …` (a password hash, a device id, an e-mail) to the
 * SQL, and D1's own errors may quote values; neither belongs in a log line. The SQL text stays,
 * since it names what failed. Causes are followed a few levels, the same way.
 */
export function safeError(error: unknown, depth = 0): string {
  if (!(error instanceof Error)) return redact(String(error));
  const cause = depth < 3 && error.cause !== undefined ? ` (cause: ${safeError(error.cause, depth + 1)})` : "";
  return `${error.name}: ${redact(error.message)}${cause}`;
}

function redact(message: string): string {
  return message
    .replace(/\bparams:[\s\S]*$/i, "params: [redacted]")
    .replace(/'[^']*'/g, "'…'")
    .replace(/[\w.+-]+@[\w-]+(\.[\w-]+)+/g, "[e-mail]")
    .slice(0, 1000);
}
