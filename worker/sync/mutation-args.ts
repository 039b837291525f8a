/** A schema as this module uses it (zod's safeParse). */
export interface ArgsSchema<T> {
  safeParse(input: unknown): { success: true; data: T } | { success: false; error: { issues: { message: string }[] } };
}

/**
 * A mutation's arguments checked with its schema (shared/sync/mutators.ts, shared/places/places.ts): what
 * does not fit is refused with the first problem's message, which the browser shows.
 */
export function parseArgs<T>(schema: ArgsSchema<T>, input: unknown, refuse: (message: string) => never): T {
  const parsed = schema.safeParse(input);
  if (!parsed.success) refuse(parsed.error.issues[0]?.message ?? "invalid arguments");
  return (parsed as { data: T }).data;
}
