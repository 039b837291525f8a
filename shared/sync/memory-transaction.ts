import type { WriteTransaction } from "replicache";

/**
 * Replicache's write transaction over a Map, for the mutators' unit tests (Replicache itself is
 * not run there): what the mutators read and write, and the prefix scan in key order that a job's
 * day and a work order's lines are read by. Tests only; nothing the app runs imports it.
 */
export function memoryTransaction(entries: Record<string, unknown> = {}) {
  const map = new Map<string, unknown>(Object.entries(entries));
  const tx = {
    get: async (key: string) => map.get(key),
    has: async (key: string) => map.has(key),
    set: async (key: string, value: unknown) => void map.set(key, value),
    del: async (key: string) => map.delete(key),
    scan: ({ prefix }: { prefix: string }) => {
      const found = () => [...map].filter(([k]) => k.startsWith(prefix)).sort(([a], [b]) => (a < b ? -1 : 1));
      return {
        entries: () => ({
          toArray: async () => found(),
          async *[Symbol.asyncIterator]() {
            yield* found();
          },
        }),
      };
    },
  } as unknown as WriteTransaction;
  return { map, tx };
}
