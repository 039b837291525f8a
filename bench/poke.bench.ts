// Poke fan-out (issue 4): 100 websockets in one workspace room; a write committed in the Worker
// (an OsmAnd report) pokes the room, and each socket's poke is timed against the write's HTTP
// response (and its request). Writes are spaced beyond the room's 250 ms coalescing window so
// every write gets its own immediate poke.
import WebSocket from "ws";
import { PARTY_NAME, POKE_MESSAGE } from "../shared/sync/room-protocol";
import { newWorkspace, orderBeacons, realtimeTicket, report, sleep } from "./fleet";
import { baseUrl, percentile, report as write } from "./lib";

const SOCKETS = 100;
const WRITES = 30;
const SPACING_MS = 400;

const ws = await newWorkspace("Bench Poke");
const [beacon] = await orderBeacons(ws.token, ws.workspaceId, 1);

// Each socket opens with its own single-use ticket, as browsers do.
const roomUrl = (ticket: string) =>
  `${baseUrl.replace(/^http/, "ws")}/parties/${PARTY_NAME}/${ws.workspaceId}?ticket=${encodeURIComponent(ticket)}`;
const tickets = await Promise.all(Array.from({ length: SOCKETS }, () => realtimeTicket(ws.token)));
/** The arrival times of pokes, per socket, in this process's clock. */
const arrivals: number[][] = Array.from({ length: SOCKETS }, () => []);
const sockets: WebSocket[] = [];
try {
  await Promise.all(
    Array.from({ length: SOCKETS }, (_, i) => {
      const socket = new WebSocket(roomUrl(tickets[i]!));
      sockets.push(socket);
      socket.on("message", (data) => {
        if (data.toString() === POKE_MESSAGE) arrivals[i]!.push(performance.now());
      });
      return new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error("socket did not open in 20 s")), 20_000);
        socket.once("open", () => {
          clearTimeout(timer);
          resolve();
        });
        socket.once("error", (error) => {
          clearTimeout(timer);
          reject(error);
        });
      });
    }),
  );
  await sleep(SPACING_MS);
  for (const a of arrivals) a.length = 0;

  const fromResponse: number[] = [];
  const fromRequest: number[] = [];
  /** Per write: the last socket's poke minus the first one's (the fan-out itself). */
  const spread: number[] = [];
  let missed = 0;
  const time = Date.now();
  for (let w = 0; w < WRITES; w++) {
    const before = arrivals.map((a) => a.length);
    const sent = performance.now();
    const outcome = await report({
      id: beacon!.id,
      lat: 40 + w * 0.001,
      lon: -100,
      timestamp: time + w * 1000,
      speed: 10,
      ignition: true,
    });
    const answered = performance.now();
    if (outcome !== "stored") throw new Error(`report not stored: ${outcome}`);
    await sleep(SPACING_MS);
    const pokes: number[] = [];
    arrivals.forEach((a, i) => {
      const poke = a[before[i]!];
      if (poke === undefined) return void missed++;
      pokes.push(poke);
      fromResponse.push(poke - answered);
      fromRequest.push(poke - sent);
    });
    if (pokes.length) spread.push(Math.max(...pokes) - Math.min(...pokes));
  }
  fromResponse.sort((a, b) => a - b);
  fromRequest.sort((a, b) => a - b);
  spread.sort((a, b) => a - b);

  write(
    "Poke fan-out to 100 sockets",
    [
      { metric: "poke after the write's HTTP response, p50", value: percentile(fromResponse, 50), unit: "ms" },
      { metric: "poke after the write's HTTP response, p95", value: percentile(fromResponse, 95), unit: "ms" },
      // The whole span, the write's own request included (the poke often beats its HTTP answer).
      {
        metric: "poke after sending the write, p50",
        value: percentile(fromRequest, 50),
        unit: "ms",
        target: "< 50 ms",
      },
      { metric: "poke after sending the write, p95", value: percentile(fromRequest, 95), unit: "ms" },
      { metric: "first to last of the 100 sockets, per write, p50", value: percentile(spread, 50), unit: "ms" },
      {
        metric: "pokes received",
        value: fromResponse.length,
        unit: `of ${(SOCKETS * WRITES).toLocaleString("en-US")}`,
      },
      { metric: "pokes missed", value: missed, unit: "" },
    ],
    [
      `${SOCKETS} websockets (the ws package, in the bench's Node process) joined one workspace room, each with its own single-use ticket;`,
      `${WRITES} OsmAnd reports, ${SPACING_MS} ms apart (beyond the room's 250 ms coalescing), each committed before its`,
      `HTTP answer; the Worker pokes the room in waitUntil, so a poke can arrive before the answer (negative values).`,
      `Latencies include the Node process handling 100 sockets' messages one after another.`,
    ].join(" "),
  );
} finally {
  for (const s of sockets) s.terminate();
}
