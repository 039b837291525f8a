import { env } from "cloudflare:workers";

/**
 * Browser tests at a chosen hour (issue 57, docs/decisions/0077): with ENVIRONMENT "test" and
 * TEST_CLOCK_OFFSET_MS set (scripts/e2e-server.mjs passes it from playwright.config.ts's E2E_CLOCK),
 * the Worker and its Durable Objects read a clock shifted by that much, as the browser and the test
 * process do under libfaketime (workerd itself hangs under libfaketime). Read in the test
 * environment only, never in production. Imported first by worker/index.ts, and by the Worker tests'
 * setup (worker/test/setup.ts) for `E2E_CLOCK=… npm test`.
 */
const vars = env as unknown as { ENVIRONMENT?: string; TEST_CLOCK_OFFSET_MS?: string };
const offset = vars.ENVIRONMENT === "test" ? Number(vars.TEST_CLOCK_OFFSET_MS ?? 0) : 0;
if (Number.isFinite(offset) && offset !== 0) shiftDate(offset);

function shiftDate(offset: number) {
  // Worker tests evaluate this module afresh for every file in one isolate (worker/test/setup.ts):
  // each shift starts from the real Date, kept on the global, so files do not add up their offsets.
  const global = globalThis as typeof globalThis & { __realDate?: DateConstructor };
  const RealDate = (global.__realDate ??= Date);
  class ShiftedDate extends RealDate {
    constructor(...args: [] | [string | number | Date]) {
      if (args.length === 0) super(RealDate.now() + offset);
      else super(...args);
    }

    static override now() {
      return RealDate.now() + offset;
    }
  }
  globalThis.Date = ShiftedDate as DateConstructor;
}
