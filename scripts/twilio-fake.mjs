// Twilio's Messages API faked at its HTTP boundary for the browser tests' Worker (tests have no
// network). It answers as Twilio's test credentials do (its "Test credentials" page): the magic
// number +15005550001 is "not a valid phone number" (21211); a token of all zeros is refused
// (401, 20003 "Authenticate"); any other text is queued with a message SID.
import { createServer } from "node:http";

export const INVALID_NUMBER = "+15005550001";
export const REFUSED_TOKEN = "0".repeat(32);
const MESSAGES = /^\/2010-04-01\/Accounts\/(AC[0-9a-f]{32})\/Messages\.json$/i;

function answer(res, status, body) {
  res.writeHead(status, { "Content-Type": "application/json" });
  res.end(JSON.stringify(body));
}

function reply(req, res, body) {
  const path = MESSAGES.exec(new URL(req.url ?? "/", "http://twilio.test").pathname);
  if (req.method !== "POST" || !path) return answer(res, 404, { code: 20404, message: "Not found" });
  const [, password] = atob((req.headers.authorization ?? "").replace(/^Basic /, "")).split(":");
  if (password === REFUSED_TOKEN) return answer(res, 401, { code: 20003, message: "Authenticate" });
  const to = new URLSearchParams(body).get("To");
  if (to === INVALID_NUMBER)
    return answer(res, 400, { code: 21211, message: `The 'To' number ${to} is not a valid phone number.` });
  return answer(res, 201, { sid: `SM${crypto.randomUUID().replaceAll("-", "")}`, status: "queued", to });
}

/** Starts the fake on 127.0.0.1:`port`; resolves its base URL and a stop function. */
export function startTwilioFake(port) {
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => (body += chunk));
    req.on("end", () => reply(req, res, body));
  });
  return new Promise((resolve) =>
    server.listen(port, "127.0.0.1", () =>
      resolve({ url: `http://127.0.0.1:${port}`, stop: () => new Promise((done) => server.close(done)) }),
    ),
  );
}
