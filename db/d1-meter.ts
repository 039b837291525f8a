/**
 * Counts the D1 work of this isolate, for the fan-out benchmark and tests (docs/decisions/0013):
 * round trips (a statement run alone, or one `batch()`) and statements. Off unless a development
 * Worker turns it on (POST /api/dev/d1-meter); then `database()` wraps the binding.
 */
export interface D1Meter {
  on: boolean;
  roundTrips: number;
  statements: number;
  /** Statements by the start of their SQL (which table a benchmark's D1 work goes to). */
  byStatement: Record<string, number>;
}
export const d1Meter: D1Meter = { on: false, roundTrips: 0, statements: 0, byStatement: {} };

const REAL = Symbol("real statement");
const SQL_TEXT = Symbol("statement's SQL");
type Counted = D1PreparedStatement & { [REAL]?: D1PreparedStatement; [SQL_TEXT]?: string };

function count(query: string | undefined) {
  d1Meter.statements++;
  const key = (query ?? "?").replace(/\s+/g, " ").slice(0, 60);
  d1Meter.byStatement[key] = (d1Meter.byStatement[key] ?? 0) + 1;
}

function meterStatement(statement: D1PreparedStatement, query: string): D1PreparedStatement {
  return new Proxy(statement, {
    get(target, property) {
      if (property === REAL) return target;
      if (property === SQL_TEXT) return query;
      if (property === "bind") return (...values: unknown[]) => meterStatement(target.bind(...values), query);
      if (property === "first" || property === "run" || property === "all" || property === "raw") {
        return (...args: unknown[]) => {
          d1Meter.roundTrips++;
          count(query);
          return (target[property] as (...a: unknown[]) => unknown).apply(target, args);
        };
      }
      const value = Reflect.get(target, property, target) as unknown;
      return typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}

/**
 * The binding itself when metering is off; otherwise a counting wrapper around it, one per
 * binding: the ingestion batcher groups concurrent requests by their database client, so a new
 * wrapper per request would stop it batching and the meter would count a different workload.
 */
export function metered(d1: D1Database): D1Database {
  if (!d1Meter.on) return d1;
  let wrapper = wrappers.get(d1);
  if (!wrapper) wrappers.set(d1, (wrapper = meterBinding(d1)));
  return wrapper;
}
const wrappers = new WeakMap<D1Database, D1Database>();

function meterBinding(d1: D1Database): D1Database {
  return new Proxy(d1, {
    get(target, property) {
      if (property === "prepare") return (query: string) => meterStatement(target.prepare(query), query);
      if (property === "batch") {
        return (statements: Counted[]) => {
          d1Meter.roundTrips++;
          for (const s of statements) count(s[SQL_TEXT]);
          return target.batch(statements.map((s) => s[REAL] ?? s));
        };
      }
      const value = Reflect.get(target, property, target) as unknown;
      return typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}
