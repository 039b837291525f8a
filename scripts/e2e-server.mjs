// The Worker that browser tests run against: the built app on a fresh local D1, so every run
// starts from empty tables. Playwright starts it (playwright.config.ts) and stops it after.
import { rmSync } from "node:fs";
import { freePort, migrateFreshDatabase, startWorker } from "./worker-process.mjs";
import { startTwilioFake } from "./twilio-fake.mjs";

const port = Number(process.env.E2E_PORT ?? 8799);
const persistTo = `.wrangler/e2e-${port}`;
rmSync(persistTo, { recursive: true, force: true });
await migrateFreshDatabase(persistTo, { stdio: "ignore" });
// Customers' texts and Preferences' test text go to Twilio faked on this machine (scripts/twilio-fake.mjs).
const twilio = await startTwilioFake(await freePort());
const worker = await startWorker({
  port,
  persistTo,
  quiet: true,
  vars: {
    ENVIRONMENT: "test",
    APP_URL: `http://127.0.0.1:${port}`,
    RATE_LIMIT_SCALE: "1000",
    TWILIO_API_URL: twilio.url,
    // A run at a chosen hour (playwright.config.ts E2E_CLOCK): the Worker's clock shifted as the browser's.
    ...(process.env.TEST_CLOCK_OFFSET_MS && { TEST_CLOCK_OFFSET_MS: process.env.TEST_CLOCK_OFFSET_MS }),
  },
});
console.log(`e2e Worker ready at ${worker.url}`);
const stop = async () => {
  await worker.stop();
  await twilio.stop();
  process.exit(0);
};
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
