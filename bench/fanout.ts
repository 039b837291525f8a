// D1 work per report with 1 and 100 open clients of one busy workspace (issue 11): Node clients,
// not browsers, each a websocket to the workspace's room (opened with a ticket) that pulls on every
// poke with its own client group and cookie, as a browser's sync worker does: the first pull over
// HTTP, the next ones over the socket once the room has said it serves them (shared/sync/room-protocol.ts),
// over HTTP again when the room says so; one pull at a time, a poke during a pull makes one more.
// Beacons report at a steady rate; the Worker's D1 meter (development only, db/d1-meter.ts)
// counts statements and round trips per report.
import WebSocket from "ws";
import { PARTY_NAME, POKE_MESSAGE, type SocketPullAnswer } from "../shared/sync/room-protocol";
import { pullRequest } from "../shared/sync/sync-requests";
import { newWorkspace, orderBeacons, pull, realtimeTicket, report, reportAll, sleep, spot } from "./fleet";
import { baseUrl } from "./lib";

export interface Meter {
  roundTrips: number;
  statements: number;
  /** Statements by the start of their SQL. */
  byStatement: Record<string, number>;
}
export async function meter(method: "GET" | "POST"): Promise<Meter> {
  const res = await fetch(`${baseUrl}/api/dev/d1-meter`, { method });
  if (!res.ok) throw new Error(`d1-meter: ${res.status}`);
  return (await res.json()) as Meter;
}

export interface Client {
  socket: WebSocket;
  pulls: number;
  /** Of them, over the socket. */
  socketPulls: number;
  busy: Promise<void> | null;
  again: boolean;
  /** The room said it serves pulls on this socket. */
  ready: boolean;
  answers: Map<number, (answer: SocketPullAnswer) => void>;
}

export interface FanoutResult {
  clients: number;
  reports: number;
  pulls: number;
  socketPulls: number;
  statementsPerReport: number;
  roundTripsPerReport: number;
}

let nextPullId = 1;
/** One incremental pull as the browser makes it: over the socket when the room serves it there. */
async function pullFrom(client: Client, token: string, group: string, cookie: unknown): Promise<unknown> {
  if (client.ready && cookie !== null) {
    const id = nextPullId++;
    const answer = await new Promise<SocketPullAnswer>((resolve) => {
      client.answers.set(id, resolve);
      client.socket.send(
        JSON.stringify({
          type: "pull",
          id,
          body: pullRequest({ profileID: "bench", clientGroupID: group, cookie: cookie as unknown as null }),
        }),
      );
    });
    if (!("viaHttp" in answer)) {
      if (answer.status !== 200)
        throw new Error(`socket pull: ${answer.status} ${JSON.stringify(answer.body).slice(0, 200)}`);
      client.socketPulls++;
      return (answer.body as { cookie: unknown }).cookie;
    }
  }
  return (await pull(token, group, cookie as null)).cookie;
}

/** Clients connected to a workspace's room, each pulling on every poke as a browser's sync worker does. */
export interface ConnectedClients {
  open: Client[];
  close(): void;
}

/** Connects `clients` clients to the workspace's room (each with its own client group, first pull over HTTP). */
export async function connectClients(
  ws: { token: string; workspaceId: string },
  clients: number,
): Promise<ConnectedClients> {
  const roomUrl = `${baseUrl.replace(/^http/, "ws")}/parties/${PARTY_NAME}/${ws.workspaceId}`;
  const open: Client[] = [];
  const pullLoop = async (group: string, state: { cookie: unknown }, client: Client) => {
    do {
      client.again = false;
      state.cookie = await pullFrom(client, ws.token, group, state.cookie);
      client.pulls++;
    } while (client.again);
    client.busy = null;
  };
  await Promise.all(
    Array.from({ length: clients }, async () => {
      const group = crypto.randomUUID();
      const state = { cookie: (await pull(ws.token, group, null)).cookie as unknown };
      const socket = new WebSocket(`${roomUrl}?ticket=${encodeURIComponent(await realtimeTicket(ws.token))}`);
      const client: Client = {
        socket,
        pulls: 0,
        socketPulls: 0,
        busy: null,
        again: false,
        ready: false,
        answers: new Map(),
      };
      open.push(client);
      socket.on("message", (data) => {
        const text = data.toString();
        if (text === POKE_MESSAGE) {
          if (client.busy) client.again = true;
          else client.busy = pullLoop(group, state, client);
          return;
        }
        const message = JSON.parse(text) as SocketPullAnswer | { type: "pulls-ready" };
        if (message.type === "pulls-ready") client.ready = true;
        else if (message.type === "pull") client.answers.get(message.id)?.(message);
      });
      await new Promise<void>((resolve, reject) => {
        socket.once("open", () => resolve());
        socket.once("error", reject);
      });
    }),
  );
  return { open, close: () => open.forEach((c) => c.socket.close()) };
}

/** One run: `clients` clients connected to a fresh 100-vehicle workspace while `reports` reports arrive at `perSecond`. */
export async function fanout(clients: number, reports: number, perSecond: number): Promise<FanoutResult> {
  const ws = await newWorkspace(`Bench Fan-out ${clients}`);
  const beacons = await orderBeacons(ws.token, ws.workspaceId, 100);
  await reportAll(beacons, 10, 0, Date.now() - 120_000);
  const connected = await connectClients(ws, clients);
  const open = connected.open;
  await sleep(1000);
  for (const c of open) {
    c.pulls = 0;
    c.socketPulls = 0;
  }
  console.error(`fan-out: ${clients} clients connected, reporting`);

  const before = await meter("GET");
  const time = Date.now();
  const started = performance.now();
  for (let r = 0; r < reports; r++) {
    const due = started + (r * 1000) / perSecond;
    const wait = due - performance.now();
    if (wait > 0) await sleep(wait);
    const b = beacons[r % beacons.length]!;
    const outcome = await report({
      id: b.id,
      ...spot(r % beacons.length, 1 + Math.floor(r / beacons.length)),
      timestamp: time + r,
      speed: 20,
      ignition: true,
    });
    if (outcome !== "stored") throw new Error(`report not stored: ${outcome}`);
  }
  // Let the last pokes and pulls finish.
  await sleep(1500);
  while (open.some((c) => c.busy)) await sleep(100);
  const after = await meter("GET");
  console.error(`fan-out: ${clients} clients done in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  connected.close();
  return {
    clients,
    reports,
    pulls: open.reduce((n, c) => n + c.pulls, 0),
    socketPulls: open.reduce((n, c) => n + c.socketPulls, 0),
    statementsPerReport: (after.statements - before.statements) / reports,
    roundTripsPerReport: (after.roundTrips - before.roundTrips) / reports,
  };
}

/** Turns the Worker's D1 meter on (it counts from then on). */
export const startMeter = () => meter("POST");
