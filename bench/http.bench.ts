// Foundation numbers: the cheapest API route (the yardstick other benches compare against) and
// the time to first byte of the server-rendered /login.
import { baseUrl, load, percentile, report } from "./lib";

async function get(path: string) {
  const res = await fetch(`${baseUrl}${path}`);
  await res.arrayBuffer();
  if (!res.ok && res.status !== 404) throw new Error(`${path}: ${res.status}`);
}

await load(200, 10, () => get("/api/health")); // warm up
const noop = await load(3000, 20, () => get("/api/health"));

const ttfb: number[] = [];
for (let i = 0; i < 100; i++) {
  const t = performance.now();
  const res = await fetch(`${baseUrl}/login`);
  const reader = res.body!.getReader();
  await reader.read();
  ttfb.push(performance.now() - t);
  await reader.cancel();
}
ttfb.sort((a, b) => a - b);

report("HTTP baseline", [
  { metric: "no-op GET /api/health, 20 concurrent", value: Math.round(noop.perSecond), unit: "req/s" },
  { metric: "no-op GET /api/health p50", value: percentile(noop.latencies, 50), unit: "ms" },
  { metric: "no-op GET /api/health p95", value: percentile(noop.latencies, 95), unit: "ms" },
  { metric: "server-rendered /login time to first byte p50", value: percentile(ttfb, 50), unit: "ms" },
  { metric: "server-rendered /login time to first byte p95", value: percentile(ttfb, 95), unit: "ms" },
]);
