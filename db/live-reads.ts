import { AsyncLocalStorage } from "node:async_hooks";
import { FLUSHED_TABLES } from "./live-tables";

/**
 * The one settling reader (issue 40, docs/decisions/0027): the live tables (FLUSHED_TABLES) are
 * written by the workspace's object, which holds up to a second of reports before its flush. A
 * request that reads them must see every report acknowledged before it, so the first statement of
 * a request that reads a live table waits, once, for the object to flush (`settle`). Every reader
 * gets this from the binding itself, whichever route or module it is in, instead of each handler
 * remembering to call it.
 *
 * The Worker's API opens a scope per request (`liveReads.run`) with its workspace's settle; code
 * outside a scope (the workspace object itself, which is the writer, the cron, the queue) reads D1
 * as it is. A statement that only writes, or reads other tables, never waits.
 */
export interface LiveReadScope {
  /** Resolves once the scope's workspace object has flushed what it held (called at most once per scope by the caller's memo). */
  settle(): Promise<void>;
}

export const liveReads = new AsyncLocalStorage<LiveReadScope>();

/**
 * A flushed table named where a statement reads from: after FROM or JOIN, or after a comma of a
 * FROM list, quoted as Drizzle writes it ("vehicle_events") or bare, backquoted or bracketed as raw
 * SQL may (`FROM vehicle_events e`, worker/reports/events.ts). A longer name (vehicles_archive) is not one.
 */
const liveTable = new RegExp(
  `\\b(?:from|join)\\s+(?:[^;()]*?,\\s*)?["\`[]?(?:${FLUSHED_TABLES.join("|")})(?![\\w$])`,
  "i",
);

/** Whether a statement's SQL reads a live table, however its names are written (a write's subquery counts). */
export function readsLiveTable(query: string): boolean {
  return liveTable.test(query);
}

const REAL = Symbol("real statement");
const SQL_TEXT = Symbol("statement's SQL");
type Wrapped = D1PreparedStatement & { [REAL]?: D1PreparedStatement; [SQL_TEXT]?: string };

async function settledFor(queries: (string | undefined)[]): Promise<void> {
  const scope = liveReads.getStore();
  if (scope && queries.some((q) => q !== undefined && readsLiveTable(q))) await scope.settle();
}

function settlingStatement(statement: D1PreparedStatement, query: string): D1PreparedStatement {
  return new Proxy(statement, {
    get(target, property) {
      if (property === REAL) return target;
      if (property === SQL_TEXT) return query;
      if (property === "bind") return (...values: unknown[]) => settlingStatement(target.bind(...values), query);
      if (property === "first" || property === "run" || property === "all" || property === "raw") {
        return async (...args: unknown[]) => {
          await settledFor([query]);
          return (target[property] as (...a: unknown[]) => unknown).apply(target, args);
        };
      }
      const value = Reflect.get(target, property, target) as unknown;
      return typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}

const wrappers = new WeakMap<D1Database, D1Database>();

/** The binding with its live reads settled in a scope: one wrapper per binding, so Drizzle's client stays built once (db/client.ts). */
export function settling(d1: D1Database): D1Database {
  let wrapper = wrappers.get(d1);
  if (!wrapper) wrappers.set(d1, (wrapper = settlingBinding(d1)));
  return wrapper;
}

function settlingBinding(d1: D1Database): D1Database {
  return new Proxy(d1, {
    get(target, property) {
      if (property === "prepare") return (query: string) => settlingStatement(target.prepare(query), query);
      if (property === "batch") {
        return async (statements: Wrapped[]) => {
          await settledFor(statements.map((s) => s[SQL_TEXT]));
          return target.batch(statements.map((s) => s[REAL] ?? s));
        };
      }
      const value = Reflect.get(target, property, target) as unknown;
      return typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}
