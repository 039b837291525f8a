// Webhook delivery through an outage (issue 21, docs/decisions/0024): a loopback receiver answers
// 503 for its first 60 s, then 200. Alerts raised while it is down must each arrive exactly once,
// none lost, through the queue's retries (30 s, then 60 s, ...). Also checks every signature.
import { createHmac } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { newWorkspace, orderBeacons, osmandUrl, sleep } from "./fleet";
import { baseUrl, report as write } from "./lib";

const ALERTS = 20;
const DOWN_MS = 60_000;
const GIVE_UP_MS = 5 * 60_000;

const received = new Map<string, number>();
let refused = 0;
let badSignatures = 0;
let secret = "";
let upAt = 0;
let lastDeliveryAt = 0;
const server = createServer((req, res) => {
  let body = "";
  req.on("data", (chunk: Buffer) => (body += chunk.toString()));
  req.on("end", () => {
    if (Date.now() < upAt) {
      refused++;
      res.writeHead(503).end();
      return;
    }
    const id = String(req.headers["webhook-id"]);
    const expected =
      "v1," +
      createHmac("sha256", Buffer.from(secret.slice("whsec_".length), "base64"))
        .update(`${id}.${req.headers["webhook-timestamp"]}.${body}`)
        .digest("base64");
    if (req.headers["webhook-signature"] !== expected) badSignatures++;
    received.set(id, (received.get(id) ?? 0) + 1);
    lastDeliveryAt = Date.now();
    res.writeHead(200).end();
  });
});
await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
const hook = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;

async function post(token: string, path: string, json: unknown) {
  const res = await fetch(`${baseUrl}/api/${path}`, {
    method: "POST",
    headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
    body: JSON.stringify(json),
  });
  if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return res.json() as Promise<Record<string, unknown>>;
}

const ws = await newWorkspace("Bench webhooks");
secret = (
  (await (
    await fetch(`${baseUrl}/api/webhook-secret`, { headers: { Authorization: `Bearer ${ws.token}` } })
  ).json()) as { secret: string }
).secret;
await post(ws.token, "places", { name: "Depot", geometry: { type: "Circle", center: [-100, 40], radius: 200 } });
await post(ws.token, "alert-rules", { type: "place_enter", notify: { webhookUrl: hook } });
const beacons = await orderBeacons(ws.token, ws.workspaceId, ALERTS);

// The receiver goes down; each vehicle drives into the depot: one enter alert each.
upAt = Date.now() + DOWN_MS;
const t0 = Date.now() - 60_000;
for (const beacon of beacons) {
  for (const [i, lat] of [39.99, 40].entries()) {
    const res = await fetch(
      osmandUrl({ id: beacon.id, lat, lon: -100, timestamp: t0 + i * 20_000, speed: 10, ignition: true }),
    );
    await res.arrayBuffer();
  }
}
// The alerts are in D1 once the workspace's object has flushed (the alerts API flushes first),
// then the relay (the cron's minute job) hands them to the queue.
for (let listed = 0; listed < ALERTS && Date.now() - t0 < 120_000; await sleep(200)) {
  const res = await fetch(`${baseUrl}/api/alerts?limit=100`, { headers: { Authorization: `Bearer ${ws.token}` } });
  listed = ((await res.json()) as { alerts: unknown[] }).alerts.length;
}
const relayStarted = Date.now();
const { relayed } = await post(ws.token, "dev/alerts/relay", {});
while (Date.now() - relayStarted < GIVE_UP_MS && received.size < ALERTS) await sleep(500);
await sleep(5_000); // late duplicates would show here
server.close();

const duplicates = [...received.values()].reduce((sum, n) => sum + n - 1, 0);
write(
  "Webhook delivery through a 60 s receiver outage",
  [
    { metric: "alerts raised (messages relayed to the queue)", value: Number(relayed), unit: "" },
    { metric: "alerts delivered", value: received.size, unit: "", target: `${ALERTS}` },
    { metric: "delivered twice or more", value: duplicates, unit: "", target: "0" },
    { metric: "lost", value: ALERTS - received.size, unit: "", target: "0" },
    { metric: "attempts refused while down (503)", value: refused, unit: "" },
    { metric: "bad signatures", value: badSignatures, unit: "", target: "0" },
    {
      metric: "last delivery after the receiver came back",
      value: lastDeliveryAt ? (lastDeliveryAt - upAt) / 1000 : NaN,
      unit: "s",
    },
  ],
  `${ALERTS} vehicles enter a place while the receiver answers 503; it answers 200 from ${DOWN_MS / 1000} s on. Delivery is retried by the queue after 30 s, 60 s, 120 s, ... (docs/decisions/0024), so the first retry after the outage lands up to one backoff step after it ends. The relay is run once through the development route (wrangler dev runs no cron).`,
);
